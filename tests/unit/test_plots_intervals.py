"""Held-out points with few samples carry their interval (issue 33): Wilson on k/n for one seed,
bootstrap over seeds for several, none for what is not a proportion; the runs' recorded sample
counts reach the figure, and the caption says what the bars are."""

from __future__ import annotations

import json

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.container import ErrorbarContainer

from bot_repro.analysis import aggregate_curves
from bot_repro.analysis.stats import wilson_interval
from bot_repro.analysis.synthetic import curve_records, run_config, run_info, write_run_dir
from bot_repro.experiment.run_table import load_figure_runs
from bot_repro.plots.curves import figure_caption
from bot_repro.plots.figures import draw, plot_config
from bot_repro.plots.intervals import SAMPLES_COLUMN, is_proportion, point_intervals

HUE = "algorithm.name"


def _rows(values: dict[str, list[float]], samples: float = 16, seeds: int = 1, extra: dict | None = None):
    """A long table: one run per (algorithm, seed), held-out values at steps 0, 4, 8."""
    rows = []
    for alg, ys in values.items():
        for seed in range(seeds):
            for metric, series in {"eval/m": ys, **(extra or {})}.items():
                rows += [{"run_id": f"{alg}{seed}", "seed": seed, HUE: alg, "step": step, "metric": metric,
                          "value": y + 0.0625 * seed, SAMPLES_COLUMN: samples} for step, y in zip((0, 4, 8), series)]
    return pd.DataFrame(rows)


def _intervals(frame: pd.DataFrame, metric: str) -> pd.DataFrame:
    return point_intervals(frame, metric, HUE, aggregate_curves(frame, metric, [HUE], smoothing=None))


def test_one_seed_gets_the_wilson_interval_of_its_samples():
    frame = _rows({"grpo": [0.25, 0.5, 0.0]}).assign(metric="eval/format_ok_rate")
    bars = _intervals(frame, "eval/format_ok_rate")
    assert list(bars["kind"]) == ["wilson"] * 3 and list(bars["n"]) == [16] * 3
    assert (bars.loc[0, "low"], bars.loc[0, "high"]) == pytest.approx(wilson_interval(4, 16))
    assert (bars.loc[2, "low"], bars.loc[2, "high"]) == pytest.approx(wilson_interval(0, 16))  # 0/16 still has width
    assert bars.loc[2, "high"] > 0.15


def test_a_pooled_step_accuracy_counts_its_checked_steps():
    # 3 true of 17 checked steps: 16 samples x 1.0625 checked steps each
    frame = _rows({"grpo": [3 / 17] * 3}, extra={"eval/checked_steps_per_sample": [1.0625] * 3})
    frame["metric"] = frame["metric"].replace({"eval/m": "eval/step_accuracy"})
    bars = _intervals(frame, "eval/step_accuracy")
    assert list(bars["n"]) == [17] * 3
    assert (bars.loc[0, "low"], bars.loc[0, "high"]) == pytest.approx(wilson_interval(3, 17))


def test_a_value_that_is_not_k_of_n_is_refused_with_the_metric():
    frame = _rows({"grpo": [0.3, 0.5, 0.5]}).assign(metric="eval/success_rate")
    with pytest.raises(ValueError, match=r"eval/success_rate = 0.3 at step 0 of grpo0 is not k/n for its n = 16"):
        _intervals(frame, "eval/success_rate")


def test_several_seeds_take_the_bootstrap_over_seeds_and_pass_k_takes_none():
    frame = _rows({"grpo": [0.25, 0.5, 0.5]}, seeds=3).assign(metric="eval/success_rate")
    bars = _intervals(frame, "eval/success_rate")
    agg = aggregate_curves(frame, "eval/success_rate", [HUE], smoothing=None)
    assert list(bars["kind"]) == ["seeds"] * 3
    assert np.allclose(bars["low"], agg["ci_low"]) and np.allclose(bars["high"], agg["ci_high"])
    one = _rows({"grpo": [0.3, 0.5, 0.5]}).assign(metric="eval/pass@2")
    assert list(_intervals(one, "eval/pass@2")["kind"]) == ["none"] * 3
    assert is_proportion("eval/pass@1") and is_proportion("eval/sample_accuracy") and not is_proportion("eval/pass@4")


def _plot(metrics):
    return plot_config({"kind": "metric_panels", "metrics": metrics, "hue": HUE, "ylim": [0, 1]}, "plot")


def test_the_figure_draws_a_bar_per_held_out_point_and_says_what_it_is():
    frame = _rows({"grpo": [0.25, 0.5, 0.625], "bot_grpo": [0.25, 0.625, 0.75]}).assign(metric="eval/sample_accuracy")
    fig = draw(frame, _plot(["eval/sample_accuracy"]), smoke=False)
    try:
        bars = [c for c in fig.axes[0].containers if isinstance(c, ErrorbarContainer)]
        assert len(bars) == 2 and all(len(c.lines[2][0].get_segments()) == 3 for c in bars)
        text = figure_caption(fig)
        assert "as measured (unsmoothed)" in text and "95% Wilson score interval of k/n (n = 16 samples)" in text
        # the measured values, not smoothed ones: GRPO's line goes through 0.5 at step 4
        grpo = next(line for line in fig.axes[0].lines if line.get_label() == "GRPO")
        assert 0.5 in list(grpo.get_ydata())
    finally:
        plt.close(fig)


def test_without_recorded_samples_the_figure_is_as_before():
    frame = _rows({"grpo": [0.25, 0.5, 0.625]}, samples=np.nan).assign(metric="eval/sample_accuracy")
    fig = draw(frame, _plot(["eval/sample_accuracy"]), smoke=False)
    try:
        assert not [c for c in fig.axes[0].containers if isinstance(c, ErrorbarContainer)]
        assert "Wilson" not in figure_caption(fig)
    finally:
        plt.close(fig)


def test_load_figure_runs_reads_each_evaluations_sample_count(tmp_path):
    run = write_run_dir(tmp_path / "r", run_config("grpo", 0),
                        curve_records([0, 1, 4], {"eval/x": [0.5, None, 0.25], "loss": [None, 1.0, 1.0]}), run_info(0))
    for step, n in ((0, 2), (4, 4)):
        folder = run / "eval" / f"step_{step:06d}"
        folder.mkdir(parents=True)
        (folder / "samples.jsonl").write_text("".join(json.dumps({"sample": i}) + "\n" for i in range(n)) + "\n")
    frame = load_figure_runs(tmp_path, [])
    held = frame[frame.metric == "eval/x"].set_index("step")[SAMPLES_COLUMN].to_dict()
    assert held == {0: 2, 4: 4}
    assert frame.loc[frame.metric == "loss", SAMPLES_COLUMN].isna().all()
