"""Plot helpers on synthetic tables: files are written, artists are counted, colours stay fixed.

Algorithm names and styles are read from the registry (``ADVANTAGES``), never listed here."""

from __future__ import annotations

import matplotlib.colors as mcolors
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from bot_repro.algorithms import ADVANTAGES
from bot_repro.analysis.stats import aggregate_curves, run_curves
from bot_repro.plots.curves import bar_with_ci, panel_grid, paper_markers, plot_curves, threshold_line
from bot_repro.plots.style import MAX_GROUPS, PALETTE, display_name, group_styles, save

ALGORITHMS = sorted(ADVANTAGES)


def _info(name: str):
    return ADVANTAGES[name].info


def curve_table(runs: dict[str, tuple[dict, list[float]]]) -> pd.DataFrame:
    steps = [0, 10, 20, 30]
    rows = [
        {
            "run_id": rid,
            "step": s,
            "time": 5.0 * s,
            "generated_tokens": 50.0 * s,
            "metric": "eval/compile_rate",
            "value": v,
            **cfg,
        }
        for rid, (cfg, values) in runs.items()
        for s, v in zip(steps, values)
    ]
    return pd.DataFrame(rows)


@pytest.fixture
def agg():
    df = curve_table(
        {
            "g0": ({"algorithm.name": "grpo"}, [0.0, 0.1, 0.3, 0.5]),
            "g1": ({"algorithm.name": "grpo"}, [0.0, 0.2, 0.4, 0.6]),
            "b0": ({"algorithm.name": "bot_grpo"}, [0.0, 0.5, 0.8, 0.9]),
            "b1": ({"algorithm.name": "bot_grpo"}, [0.1, 0.6, 0.85, 0.95]),
            "p0": ({"algorithm.name": "pure"}, [0.0, 0.7, 0.8, 0.6]),  # one seed: no band
        }
    )
    return aggregate_curves(df, "eval/compile_rate", "algorithm.name", n_resamples=500)


def test_curve_figure_is_written_with_expected_artists(agg, tmp_path):
    fig, (ax,) = panel_grid(1)
    lines = plot_curves(ax, agg)
    threshold_line(ax, 0.8, "80% threshold")
    paper_markers(ax, {"bot_grpo": [(40, 0.8)], "grpo": [(90, 0.8)]})
    ax.legend()
    assert len(lines) == 3
    assert len(ax.lines) == 4  # three curves + the threshold
    assert len(ax.collections) == 2 + 2  # bands for grpo and bot_grpo (pure has one seed), two marker sets
    colors = {line.get_label(): mcolors.to_hex(line.get_color()) for line in lines}
    assert colors == {_info(n).label: _info(n).color.lower() for n in ("bot_grpo", "grpo", "pure")}
    paths = save(fig, tmp_path / "figs" / "figure_1")
    plt.close(fig)
    assert [p.name for p in paths] == ["figure_1.png", "figure_1.pdf"]
    assert paths[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and paths[0].stat().st_size > 5000
    assert paths[1].read_bytes()[:5] == b"%PDF-" and paths[1].stat().st_size > 2000


def test_pdf_output_is_reproducible(agg, tmp_path):
    outputs = []
    for name in ("a", "b"):
        fig, (ax,) = panel_grid(1)
        plot_curves(ax, agg)
        outputs.append(save(fig, tmp_path / name)[1].read_bytes())
        plt.close(fig)
    assert outputs[0] == outputs[1]


def test_colours_are_fixed_per_algorithm():
    infos = [_info(n) for n in ALGORITHMS]
    assert len({i.color for i in infos}) == len({i.marker for i in infos}) == len({i.label for i in infos}) == len(infos)
    assert len({str(i.linestyle) for i in infos}) == len(infos)
    one = group_styles(["bot_grpo", "grpo"], "algorithm.name")
    every = group_styles([*ALGORITHMS, "my_variant"], "algorithm.name")
    for name in ("bot_grpo", "grpo"):
        assert one[name] == every[name] and one[name].color == _info(name).color and one[name].label == _info(name).label
    taken = {i.color for i in infos}
    assert every["my_variant"].color not in taken and every["my_variant"].label == "my_variant"
    # a value no home registers keeps its style from its value: in any order, alone or beside others
    # (by position, 0.5 would be the first colour alone and the second beside 0.1)
    every_w = group_styles([1.0, 0.1, 0.5], "reward.w_s")
    assert every_w == group_styles([0.5, 1.0, 0.1], "reward.w_s")
    assert all(group_styles([v], "reward.w_s")[v] == every_w[v] for v in (0.1, 0.5, 1.0))
    assert len({st.color for st in every_w.values()}) == 3 and {st.color for st in every_w.values()} <= set(PALETTE)
    assert display_name("bot_grpo") == _info("bot_grpo").label and display_name(0.5) == "0.5"


@pytest.mark.parametrize("others", [["a", "b", "c", "d", "e", "f", "g", "h"], ["grpo", "pooled", "floor_std", "zero"],
                                    ["bot_grpo", "grpo", "pure", "x", "y", "z"]])
def test_up_to_eight_groups_each_get_their_own_colour_marker_and_line_style(others):
    """Algorithms keep their registered style and the other values take what no group of the figure
    has, so no two groups share a colour, a marker or a line style (the study's same_global arms
    were three shades of blue beside GRPO)."""
    looks = group_styles(others, "algorithm.options.same_global")
    assert len(others) <= MAX_GROUPS
    for field in ("color", "marker", "linestyle"):
        assert len({str(getattr(st, field)) for st in looks.values()}) == len(others), field
    if "pooled" in others:  # an option value is shown by its label, GRPO by its registered one
        assert looks["pooled"].label == "pooled std (paper)" and looks["grpo"].label == _info("grpo").label


def test_each_seed_is_drawn_thin_under_its_mean(tmp_path):
    """A seed that collapses stays visible: one thin line per run under the mean line."""
    df = curve_table({
        "g0": ({"algorithm.name": "grpo"}, [0.1, 0.5, 0.8, 0.9]),
        "g1": ({"algorithm.name": "grpo"}, [0.1, 0.5, 0.1, 0.0]),  # collapses
        "b0": ({"algorithm.name": "bot_grpo"}, [0.1, 0.6, 0.8, 0.9]),
    })
    agg = aggregate_curves(df, "eval/compile_rate", "algorithm.name", smoothing=None, n_resamples=100)
    fig, (ax,) = panel_grid(1)
    means = plot_curves(ax, agg, runs=run_curves(df, "eval/compile_rate", "algorithm.name", smoothing=None))
    thin = [line for line in ax.lines if line not in means]
    assert len(thin) == 3 and all(line.get_linewidth() < min(m.get_linewidth() for m in means) for line in thin)
    assert all(line.get_zorder() < min(m.get_zorder() for m in means) for line in thin)
    collapsed = [line for line in thin if list(line.get_ydata()) == [0.1, 0.5, 0.1, 0.0]]
    assert len(collapsed) == 1 and mcolors.to_hex(collapsed[0].get_color()) == _info("grpo").color.lower()
    assert all(line.get_label().startswith("_") for line in thin)  # not in the legend
    plt.close(fig)


def test_style_column_sets_line_styles(tmp_path):
    runs = {
        f"r{ws}": ({"algorithm.name": "bot_grpo", "reward.w_s": ws}, [0.0, 0.1 * i, 0.2 * i, 0.3 * i])
        for i, ws in enumerate([1.0, 0.1, 0.5], start=1)
    }
    agg = aggregate_curves(
        curve_table(runs), "eval/compile_rate", ["algorithm.name", "reward.w_s"], n_resamples=100
    )
    fig, (ax,) = panel_grid(1)
    lines = plot_curves(ax, agg, style="reward.w_s", label_fn=lambda key: f"w_s={key['reward.w_s']}")
    assert [line.get_label() for line in lines] == ["w_s=0.1", "w_s=0.5", "w_s=1.0"]
    looks = group_styles([0.1, 0.5, 1.0], "reward.w_s")  # each w_s value's own line style, from its value
    reference = [plt.Line2D([], [], linestyle=looks[ws].linestyle) for ws in (0.1, 0.5, 1.0)]
    assert [line._unscaled_dash_pattern for line in lines] == [r._unscaled_dash_pattern for r in reference]
    assert len({str(r._unscaled_dash_pattern) for r in reference}) == 3
    assert {mcolors.to_hex(line.get_color()) for line in lines} == {_info("bot_grpo").color.lower()}
    assert len(ax.collections) == 0  # one seed each: no bands
    plt.close(fig)


def test_curve_table_with_unplotted_groups_is_rejected(agg):
    mixed = pd.concat([agg.assign(**{"model.name": "a"}), agg.assign(**{"model.name": "b"})])
    fig, (ax,) = panel_grid(1)
    with pytest.raises(ValueError, match=r"several values of 'model.name' \(\['a', 'b'\]\)"):
        plot_curves(ax, mixed)
    with pytest.raises(ValueError, match=r"column\(s\) \['seed'\] not in the curve table"):
        plot_curves(ax, agg, hue="seed")
    plt.close(fig)


def test_bar_chart_with_intervals_and_paper_values(tmp_path):
    table = pd.DataFrame(
        {
            "variant": ["global-only", "1-turn w=1.0", "2-turn"],
            "mean": [0.05, 0.24, 0.02],
            "ci_low": [0.03, 0.2, np.nan],
            "ci_high": [0.08, 0.3, np.nan],
        }
    )
    fig, (ax,) = panel_grid(1)
    bars = bar_with_ci(ax, table, "variant", paper={"1-turn w=1.0": 0.236, "2-turn": 0.020})
    assert len(bars.patches) == 3
    assert [p.get_height() for p in bars.patches] == pytest.approx([0.05, 0.24, 0.02])
    # error bar segments: (0.03, 0.08), (0.2, 0.3), and a zero-length one where the interval is missing
    segments = bars.errorbar.lines[2][0].get_segments()
    assert [(round(s[0][1], 6), round(s[1][1], 6)) for s in segments] == [
        (0.03, 0.08),
        (0.2, 0.3),
        (0.02, 0.02),
    ]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["global-only", "1-turn w=1.0", "2-turn"]
    stars = ax.collections[-1].get_offsets()
    assert np.asarray(stars).tolist() == [[1.0, 0.236], [2.0, 0.02]]
    save(fig, tmp_path / "figure_10b")
    plt.close(fig)
    with pytest.raises(ValueError, match=r"paper values for \['3-turn'\] have no bar"):
        bar_with_ci(plt.figure().add_subplot(), table, "variant", paper={"3-turn": 0.1})
    plt.close("all")


def test_panel_grid_shapes():
    fig, axes = panel_grid(4, titles=["a", "b", "c", "d"])
    assert len(axes) == 4 and len(fig.axes) == 4
    assert axes[3].get_subplotspec().get_geometry()[:2] == (2, 2)
    assert [ax.get_title() for ax in axes] == ["a", "b", "c", "d"]
    plt.close(fig)
    fig, axes = panel_grid(5)
    assert len(axes) == 5 and len(fig.axes) == 5  # the sixth cell of the 2x3 grid is removed
    plt.close(fig)
    fig, axes = panel_grid(3)
    assert axes[0].get_subplotspec().get_geometry()[:2] == (1, 3)
    plt.close(fig)
    with pytest.raises(ValueError, match="got 2 titles for 3 panels"):
        panel_grid(3, titles=["a", "b"])
    with pytest.raises(ValueError, match="n >= 1"):
        panel_grid(0)


def test_save_rejects_suffix_and_keeps_dots(tmp_path):
    fig, (ax,) = panel_grid(1)
    with pytest.raises(ValueError, match="without suffix"):
        save(fig, tmp_path / "figure.png")
    paths = save(fig, tmp_path / "ws_0.5")
    plt.close(fig)
    assert [p.name for p in paths] == ["ws_0.5.png", "ws_0.5.pdf"] and all(p.exists() for p in paths)


def test_paper_markers_reject_bad_points():
    fig, (ax,) = panel_grid(1)
    with pytest.raises(ValueError, match=r"paper points must be a sequence of \(x, y\) pairs"):
        paper_markers(ax, [1.0, 2.0])
    plt.close(fig)


# -- the frame every figure shares (issue 17): title, caption, [0, 1] rates, integer steps, legend ------


def _figure_runs(root, smoke: bool, steps=(0, 1, 2), seeds=(0, 1)):
    """Runs of fig1's layout (React compile rate per algorithm) on disk, as the trainer writes them."""
    from bot_repro.analysis.synthetic import curve_records, run_config, run_info, write_run_dir

    for alg, level in (("grpo", 0.1), ("pure", 0.3), ("bot_grpo", 0.5)):
        for seed in seeds:
            ys = [min(1.0, level + 0.05 * seed + 0.02 * i) for i in range(len(steps))]
            config = run_config(alg, seed, smoke=smoke, task={"name": "react"}, model={"name": "qwen2_5_3b"})
            write_run_dir(root / f"{alg}_{seed}", config, curve_records(steps, {"eval/compile_rate": ys}), run_info(seed))


FIG1_PLOT = {"kind": "curves", "metric": "eval/compile_rate", "threshold": 0.8, "baseline": "grpo",
             "ylabel": "held-out compile rate", "title": "React, Qwen2.5-3B: compile rate",
             "paper": {"claim": "C1", "points": {"bot_grpo": [[1, 0.8]]}, "final": {"pure": 0.61}}}


def _draw(root, raw=FIG1_PLOT, smoke=None):
    import warnings

    from bot_repro.experiment.run_table import load_figure_runs
    from bot_repro.plots.figures import SMOKE_COLUMN, draw, plot_config

    cfg = plot_config(raw, "plot")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = load_figure_runs(root, [*cfg.columns, SMOKE_COLUMN])
    fig = draw(frame, cfg, smoke)
    fig.canvas.draw()
    return fig


def _stars(fig):
    from matplotlib.collections import PathCollection

    return [c for ax in fig.axes for c in ax.collections if isinstance(c, PathCollection) and len(c.get_offsets())]


def _overlaps(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _check_frame(fig):
    """Every figure: a title, a caption (seeds, band, smoothing), integer step ticks, one legend that
    overlaps no axes and no title."""
    from bot_repro.plots.curves import figure_caption

    renderer = fig.canvas.get_renderer()
    assert fig.get_suptitle().strip()
    caption = figure_caption(fig)
    assert "seed" in caption and "band" in caption and "smoothed with ema (alpha=0.5)" in caption
    (legend,) = fig.legends
    box = legend.get_window_extent(renderer)
    for ax in fig.axes:
        assert not _overlaps(box, ax.get_window_extent(renderer)), "the legend covers an axes"
        assert ax.get_legend() is None
        ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
        assert ticks and all(float(t).is_integer() for t in ticks), ticks
    assert not _overlaps(box, fig._suptitle.get_window_extent(renderer))
    return caption


def test_smoke_figure_is_labelled_and_has_no_paper_markers(tmp_path):
    _figure_runs(tmp_path, smoke=True)
    fig = _draw(tmp_path)  # smoke read from the runs' configs
    title = fig.get_suptitle()
    assert title.startswith("SMOKE: tiny random model") and "React, Qwen2.5-3B: compile rate" in title
    assert _stars(fig) == [] and not any("paper" in t.get_text() for t in fig.legends[0].get_texts())
    (ax,) = fig.axes
    assert ax.get_ylim() == (0.0, 1.0)  # a rate: the full range, not an autoscaled sliver
    lo, hi = ax.get_xlim()
    assert [t for t in ax.get_xticks() if lo <= t <= hi] == [0, 1, 2]
    caption = _check_frame(fig)
    assert "mean of 2 seeds per curve (seeds 0, 1); thin lines: each seed" in caption and "left out" in caption
    plt.close(fig)


def test_real_figure_keeps_paper_markers_and_says_what_they_are(tmp_path):
    _figure_runs(tmp_path, smoke=False, steps=(0, 10, 20, 30), seeds=(0,))
    fig = _draw(tmp_path)
    assert fig.get_suptitle() == "React, Qwen2.5-3B: compile rate"
    assert sorted(tuple(c.get_offsets()[0]) for c in _stars(fig)) == [(1.0, 0.8), (30.0, 0.61)]
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == ["BoT-GRPO", "GRPO", "PURE", "0.8 threshold", "paper, 1 seed"]
    caption = _check_frame(fig)
    assert "1 seed per curve (seed 0); no band (one seed)" in caption and "paper's numbers" in caption
    plt.close(fig)
    fig = _draw(tmp_path, smoke=True)  # the caller (debug=smoke) can insist
    assert "SMOKE" in fig.get_suptitle() and _stars(fig) == []
    plt.close(fig)


@pytest.mark.parametrize("raw", [
    {"kind": "metric_panels", "metrics": ["eval/compile_rate", "eval/pass@1"], "title": "two panels"},
    {"kind": "curves_drop", "metric": "eval/compile_rate", "title": "drop", "paper": {"drop": {"grpo": 0.1}}},
    {"kind": "curves", "metric": "eval/compile_rate", "panels": "model.name", "title": "per model",
     "panel_order": ["qwen2_5_3b", "smollm3_3b"], "labels": {"qwen2_5_3b": "Qwen2.5-3B"}},
])
def test_every_kind_gets_the_frame(tmp_path, raw):
    _figure_runs(tmp_path, smoke=True)
    fig = _draw(tmp_path, raw)
    _check_frame(fig)
    assert _stars(fig) == []
    curve_axes = fig.axes[:-1] if raw["kind"] == "curves_drop" else fig.axes
    for ax in curve_axes:
        if ax.lines:  # a panel with data: compile rate and pass@1 are rates
            assert ax.get_ylim() == (0.0, 1.0)
    if raw["kind"] == "curves":
        assert [ax.get_title() for ax in fig.axes] == ["Qwen2.5-3B", "smollm3_3b"]
    plt.close(fig)


def test_tiny_stand_ins_keep_their_model_panel(tmp_path):
    """A smoke run whose model name says tiny (tiny_qwen2_5_3b) fills the qwen2_5_3b panel."""
    from bot_repro.plots.figures import _panel_values, plot_config

    cfg = plot_config({"kind": "curves", "metric": "m", "panels": "model.name", "labels": {"qwen2_5_3b": "Qwen2.5-3B"},
                       "panel_order": ["qwen2_5_3b", "smollm3_3b"]}, "plot")
    frame = pd.DataFrame({"model.name": ["tiny_qwen2_5_3b", "tiny_smollm3_3b"]})
    assert _panel_values(frame, cfg) == ["tiny_qwen2_5_3b", "tiny_smollm3_3b"]
    assert cfg.label("tiny_qwen2_5_3b") == "tiny Qwen2.5-3B"


def _srgb_to_lab(hex_color: str) -> np.ndarray:
    rgb = np.array(mcolors.to_rgb(hex_color))
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return _lin_to_lab(lin)


def _lin_to_lab(lin: np.ndarray) -> np.ndarray:
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ lin
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


# Machado et al. (2009), severity 1.0, on linear RGB
CVD = {
    "protan": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]),
    "deutan": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]),
}


def _seen(hex_color: str, deficiency: str | None) -> np.ndarray:
    rgb = np.array(mcolors.to_rgb(hex_color))
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return _lin_to_lab(np.clip(CVD[deficiency] @ lin, 0, 1) if deficiency else lin)


@pytest.mark.parametrize("deficiency", [None, "protan", "deutan"])
def test_bot_grpo_stands_apart_from_its_baselines_for_colour_blind_readers(deficiency):
    """CIE76 colour differences with normal vision and as protanopes and deuteranopes see them: BoT-GRPO
    vs PURE (the issue's pair; vermilion vs the old orange was 33, 25 and 18) at least 60, vs every other
    algorithm of figure 1 and the mini demo at least 35. Orange, the colour nearest vermilion, is Dr.
    GRPO's, which no figure sets beside BoT-GRPO; every algorithm also has its own marker."""
    highlighted = [n for n in ALGORITHMS if _info(n).highlight]
    assert highlighted == ["bot_grpo"]
    bot = _seen(_info("bot_grpo").color, deficiency)
    for other, least in (("pure", 60), ("grpo", 35), ("dapo", 35), ("gspo", 35), ("ps_grpo", 35)):
        delta = float(np.linalg.norm(bot - _seen(_info(other).color, deficiency)))
        assert delta >= least, f"BoT-GRPO vs {other}: delta E {delta:.0f} ({deficiency or 'normal vision'})"


def test_headline_metric_per_task():
    from bot_repro.plots.style import headline_metric, is_rate

    metrics = ["eval/completion_length", "eval/compile_any_rate", "eval/compile_rate", "eval/pass@1", "loss"]
    assert headline_metric(["react"], metrics) == "eval/compile_rate"
    assert headline_metric(["aime"], metrics) == "eval/pass@1"
    assert headline_metric(["mini"], metrics + ["eval/success_rate"]) == "eval/success_rate"
    assert headline_metric(["unknown"], metrics) == "eval/completion_length"
    assert headline_metric([], []) is None
    assert all(is_rate(m) for m in ("eval/compile_rate", "eval/pass@4", "pairwise/win_rate", "eval/success_rate"))
    assert not any(is_rate(m) for m in ("eval/completion_length", "loss", "eval/eslint_errors_mean"))


def test_summary_records_the_command_that_ran(tmp_path):
    """The command that made a report (what make runs) is what summary.md names; a smoke summary says SMOKE."""
    from bot_repro import report_folder
    from bot_repro.experiment import run

    _figure_runs(tmp_path / "runs" / "fig1_compile_rate" / "2026-01-01_00-00-00" / "sweep", smoke=True)
    command = f"python -m bot_repro.experiment report 1 debug=smoke --runs-root {tmp_path / 'runs'}"
    out = run.redraw("1", ["debug=smoke"], run.Roots(tmp_path / "runs"), command, out=tmp_path / "report")
    md = (out / "summary.md").read_text()
    assert md.startswith("# SMOKE summary: eval/compile_rate\n\n> SMOKE: tiny random model")
    assert f"- command: `{command}`" in md
    meta = report_folder.read_summary(out)["meta"]
    assert meta["command"] == command and meta["smoke"] and meta["experiment"] == "fig1_compile_rate"
