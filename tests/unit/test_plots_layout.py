"""Every figure kind, drawn as its experiment config says, keeps its text readable: no text leaves
the figure, no text box (titles, tick and axis labels, legends, captions, the numbers table) covers
an axes' data area, and no two text boxes overlap.

The figures are drawn from synthetic run tables shaped like the real ones (three seeds per group,
one of them collapsing), for every ``plot`` block of ``conf/experiment/*.yaml`` (curves, panels per
model, metric panels, pairwise, curves with a drop bar chart, the CPU study's figures with their
numbers table), with and without the paper's markers, and for the largest figure a study can ask
for: eight groups that are not algorithms, with a table.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import yaml
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox
from omegaconf import OmegaConf

from bot_repro.algorithms import ADVANTAGES
from bot_repro.algorithms.options import CHOICE_LABELS
from bot_repro.analysis.labels import OPTION_PREFIX
from bot_repro.analysis.summary import summarise
from bot_repro.plots.curves import figure_caption
from bot_repro.plots.figures import draw, plot_config
from bot_repro.plots.intervals import SAMPLES_COLUMN
from bot_repro.plots.style import PNG_DPI

EXPERIMENTS = Path(__file__).resolve().parents[2] / "conf" / "experiment"
STEPS = list(range(0, 75, 5))
SEEDS = (0, 1, 2)
TOLERANCE = 1.0  # pixels: boxes that only touch do not overlap


def _plot_block(stem: str) -> dict:
    """``report.plot`` of experiment ``stem`` as Hydra merges it: its parent experiments' blocks (a
    bare name in its defaults), then its own on top."""
    doc = yaml.safe_load((EXPERIMENTS / f"{stem}.yaml").read_text()) or {}
    parents = [d for d in doc.get("defaults") or [] if isinstance(d, str) and (EXPERIMENTS / f"{d}.yaml").exists()]
    own = (doc.get("report") or {}).get("plot") or {}
    return OmegaConf.to_container(OmegaConf.merge(*(_plot_block(p) for p in parents), own))


def _plot_blocks() -> dict[str, dict]:
    """Every experiment's ``report.plot`` block, merged over its parents' (an experiment that writes no
    block of its own, like mini_demo, draws the parent's figure and is left out)."""
    blocks = {}
    for path in sorted(EXPERIMENTS.glob("*.yaml")):
        if ((yaml.safe_load(path.read_text()) or {}).get("report") or {}).get("plot"):
            blocks[path.stem] = _plot_block(path.stem)
    return OmegaConf.to_container(OmegaConf.create({"plot": blocks}), resolve=True)["plot"]


BLOCKS = _plot_blocks()


def _hue_values(raw: dict) -> list:
    hue = raw.get("hue", "algorithm.name")
    if hue == "algorithm.name":
        return sorted(ADVANTAGES)
    if hue.startswith(OPTION_PREFIX):  # a study relabels GRPO's runs into the option's column
        return [*CHOICE_LABELS[hue[len(OPTION_PREFIX):]], raw.get("baseline", "grpo")]
    if raw.get("panels") == hue:
        return list(raw["panel_order"])
    skip = set(raw.get("metrics") or [])
    labelled = [k for k in raw.get("labels", {}) if k not in skip]
    return labelled or ["a", "b", "c"]


def _frame(raw: dict, hue_values: list, seeds: tuple[int, ...] = SEEDS, samples: int | None = None) -> pd.DataFrame:
    """A long run table as ``load_runs`` returns it: every group x panel x seed, every metric; with
    ``samples``, each held-out rate is k/samples and its rows record that count (as real-model runs do)."""
    hue = raw.get("hue", "algorithm.name")
    metrics = raw.get("metrics") or [raw["metric"], *([raw["tie_metric"]] if raw.get("tie_metric") else [])]
    panels = raw.get("panels")
    panel_values = raw.get("panel_order") or [None] if panels and panels != hue else [None]
    rng = np.random.default_rng(0)
    rows = []
    for (g, value), panel, seed in itertools.product(enumerate(hue_values), panel_values, seeds):
        collapse = seed == 2 and g % 2 == 0  # one seed of every other group falls to 0
        level = 0.55 + 0.3 * g / max(1, len(hue_values) - 1)
        for metric in metrics:
            run_id = f"{value}-{panel}-{seed}"
            for i, step in enumerate(STEPS):
                y = 0.3 + (level - 0.3) * min(1.0, i / 6) + 0.02 * rng.standard_normal()
                if collapse and i > 6:
                    y *= 0.5 ** (i - 6)
                y = float(np.clip(y, 0, 1))
                counted = samples is not None and metric.startswith("eval/")
                rows.append({"run_id": run_id, "seed": seed, "step": step, "time": 10.0 * step,
                             "generated_tokens": 500.0 * step, "metric": metric,
                             "value": round(y * samples) / samples if counted else y,
                             SAMPLES_COLUMN: samples if counted else np.nan,
                             hue: value, **({panels: panel} if panels and panels != hue else {})})
    return pd.DataFrame(rows)


def _boxes(fig: Figure) -> tuple[list[tuple[str, Bbox]], list[Bbox]]:
    """(every drawn text with its window box, every data axes' window box), at the dpi it is saved at."""
    fig.set_dpi(PNG_DPI)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    data_axes = [ax for ax in fig.axes if ax.axison]
    texts: list[Text] = [fig._suptitle, fig._supxlabel, *fig.texts]
    for legend in fig.legends:
        texts += legend.get_texts()
    for ax in fig.axes:
        texts += [ax.title, ax._left_title, ax._right_title, *ax.texts, *[t for tb in ax.tables for t in
                  (c.get_text() for c in tb.get_celld().values())]]
        if ax.axison:
            for axis in (ax.xaxis, ax.yaxis):
                # the ticks matplotlib draws: those inside the view limits (get_ticklabels lists all)
                ticks = axis._update_ticks()
                texts += [axis.label, axis.get_offset_text(), *[t.label1 for t in ticks if t.label1.get_visible()],
                          *[t.label2 for t in ticks if t.label2.get_visible()]]
    # every other text of the figure (annotations, legend titles, a text a new helper adds), but not the
    # tick labels matplotlib keeps off the view limits and does not draw
    ticks = {id(label) for ax in fig.axes for axis in (ax.xaxis, ax.yaxis)
             for tick in (*axis.majorTicks, *axis.minorTicks) for label in (tick.label1, tick.label2)}
    texts += [t for t in fig.findobj(Text) if id(t) not in ticks]
    unique = list({id(t): t for t in texts if t is not None}.values())  # the suptitle is in fig.texts too
    drawn = [t for t in unique if t.get_visible() and t.get_text().strip()]
    return ([(t.get_text(), t.get_window_extent(renderer)) for t in drawn],
            [ax.get_window_extent(renderer) for ax in data_axes])


def _legends(fig: Figure) -> list[Bbox]:
    """The window box of every legend (figure and axes legends), handles and frame included."""
    renderer = fig.canvas.get_renderer()
    legends = [*fig.legends, *[ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]]
    return [legend.get_window_extent(renderer) for legend in legends if legend.get_visible()]


def _outside(box: Bbox, frame: Bbox) -> bool:
    return box.x0 < frame.x0 - TOLERANCE or box.x1 > frame.x1 + TOLERANCE or box.y0 < frame.y0 - TOLERANCE \
        or box.y1 > frame.y1 + TOLERANCE


def _overlap(a: Bbox, b: Bbox) -> bool:
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > TOLERANCE) and (min(a.y1, b.y1) - max(a.y0, b.y0) > TOLERANCE)


def layout_problems(fig: Figure) -> list[str]:
    """Texts and legends that leave the figure or cover an axes' data area, and texts that overlap another."""
    texts, areas = _boxes(fig)
    frame = fig.bbox
    problems = []
    for text, box in texts:
        if _outside(box, frame):
            problems.append(f"{text!r} leaves the figure ({box.bounds} outside {frame.bounds})")
        problems += [f"{text!r} covers the data area {area.bounds}" for area in areas if _overlap(box, area)]
    for box in _legends(fig):
        if _outside(box, frame):
            problems.append(f"a legend leaves the figure ({box.bounds} outside {frame.bounds})")
        problems += [f"a legend covers the data area {area.bounds}" for area in areas if _overlap(box, area)]
    for (a, box_a), (b, box_b) in itertools.combinations(texts, 2):
        if _overlap(box_a, box_b):
            problems.append(f"{a!r} overlaps {b!r}")
    return problems


def _summary(frame: pd.DataFrame, raw: dict) -> dict:
    hue = raw.get("hue", "algorithm.name")
    return summarise(frame, raw["metric"], raw["threshold"], group_by=[hue], baseline=raw["baseline"], on=hue,
                     n_resamples=200)


@pytest.mark.parametrize("slug", sorted(BLOCKS))
def test_every_configured_figure_keeps_its_text_off_the_data_and_inside(slug):
    raw = BLOCKS[slug]
    # the real-model tasks keep their held-out samples, so their held-out points carry bars; the mini task's not
    frame = _frame(raw, _hue_values(raw), samples=None if slug.startswith("mini_") else 16)
    cfg = plot_config(raw, f"plot.{slug}")
    study = slug.startswith("mini_") and raw.get("threshold") is not None  # study figures carry the table
    fig = draw(frame, cfg, smoke=False, summary=_summary(frame, raw) if study else None)
    try:
        assert layout_problems(fig) == []
        assert fig.get_suptitle().strip() and fig.legends
    finally:
        plt.close(fig)


@pytest.mark.parametrize("slug", ["real_small", "real_seeds"])
def test_one_seed_with_wilson_bars_keeps_its_caption_inside(slug):
    raw = BLOCKS[slug]
    fig = draw(_frame(raw, _hue_values(raw), seeds=(0,), samples=16), plot_config(raw, f"plot.{slug}"), smoke=False)
    try:
        assert layout_problems(fig) == []
        assert "Wilson score interval" in figure_caption(fig)
    finally:
        plt.close(fig)


def test_a_smoke_figure_and_eight_groups_with_a_table_fit_too():
    raw = {"kind": "curves", "metric": "eval/success_rate", "hue": "reward.params.variant", "threshold": 0.8,
           "baseline": "a", "title": "A long study title that names every one of its eight arms and what they test",
           "labels": {v: f"arm {v}, a longer display name" for v in "abcdefgh"}}
    frame = _frame(raw, list("abcdefgh"))
    fig = draw(frame, plot_config(raw, "plot"), smoke=True, summary=_summary(frame, raw))
    try:
        assert layout_problems(fig) == []
        assert fig.get_suptitle().startswith("SMOKE")
    finally:
        plt.close(fig)


def test_the_check_sees_a_legend_that_runs_off_the_figure_and_a_clipped_annotation():
    """A legend anchored near the right edge (its handles and frame, not only its texts, leave the
    canvas) and a figure text that starts inside and runs off: both are reported."""
    fig, ax = plt.subplots(figsize=(4, 3), layout="none")
    ax.plot([0, 1], [0, 1], label="x")
    fig.legend(loc="upper left", bbox_to_anchor=(0.97, 0.9), frameon=True)
    fig.text(0.6, 0.02, "a caption that runs well past the right edge of the canvas")
    problems = layout_problems(fig)
    plt.close(fig)
    assert any(p.startswith("a legend leaves the figure") for p in problems), problems
    assert any("runs well past" in p and "leaves the figure" in p for p in problems), problems


def test_the_check_sees_a_text_on_the_data_and_one_off_the_figure():
    """The checker itself: an inset on the axes (what the study figures had) and a clipped title fail."""
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0, 1])
    ax.text(0.5, 0.5, "steps to 0.8: 46 [43, 49]", transform=ax.transAxes)
    fig.suptitle("M" * 80)
    problems = layout_problems(fig)
    plt.close(fig)
    assert any("covers the data area" in p for p in problems)
    assert any("leaves the figure" in p for p in problems)
