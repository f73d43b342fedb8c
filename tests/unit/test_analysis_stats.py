"""Known-answer tests for smoothing, bootstrap intervals, crossings, speed-ups, drops and curves."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from bot_repro.analysis.bootstrap import bootstrap_ci, ratio_of_means_ci
from bot_repro.analysis.smoothing import NO_SMOOTHING, Smoothing, as_smoothing, smooth
from bot_repro.analysis.stats import (
    aggregate_curves,
    crossings_per_run,
    final_values,
    first_crossing,
    group_ci,
    peak_to_final_drop,
    peak_to_final_drops,
    speedup_vs,
    steps_to_threshold,
)


def long_df(runs: dict[str, tuple[dict, list[int], list[float]]], metric: str = "m") -> pd.DataFrame:
    """A ``load_runs``-shaped table: run_id -> (config columns, steps, values); time = 10 s per step."""
    rows = [
        {
            "run_id": rid,
            "run_dir": f"/x/{rid}",
            "step": s,
            "time": 10.0 * s,
            "generated_tokens": 100.0 * s,
            "metric": metric,
            "value": v,
            **cfg,
        }
        for rid, (cfg, steps, values) in runs.items()
        for s, v in zip(steps, values)
    ]
    return pd.DataFrame(rows)


# --- smoothing ---------------------------------------------------------------------------------------


def test_smoothing_known_values():
    np.testing.assert_allclose(smooth([0, 1, 1, 0], "ema", alpha=0.5), [0, 0.5, 0.75, 0.375])
    np.testing.assert_allclose(smooth([0, 1, 1, 0], "ema", alpha=1.0), [0, 1, 1, 0])
    np.testing.assert_allclose(smooth([0, 1, 1, 0], "window", window=2), [0, 0.5, 1, 0.5])
    np.testing.assert_allclose(smooth([3, 6, 9, 12], "window", window=3), [3, 4.5, 6, 9])
    # a missing point stays missing and does not move the state
    np.testing.assert_allclose(smooth([1, np.nan, 3], "ema", alpha=0.5), [1, np.nan, 2])
    np.testing.assert_allclose(smooth([1, np.inf, 3], "window", window=2), [1, np.nan, 2])
    np.testing.assert_allclose(smooth([1, np.inf], "none"), [1, np.nan])
    assert smooth([], "ema").shape == (0,)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"method": "median"}, "not one of ema, window, none"),
        ({"alpha": 0.0}, r"alpha must be in \(0, 1\]"),
        ({"window": 0}, "window must be an integer >= 1"),
    ],
)
def test_smoothing_rejects_bad_settings(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Smoothing(**kwargs)


def test_as_smoothing_forms():
    assert as_smoothing(None) == NO_SMOOTHING
    assert as_smoothing({"method": "window", "window": 5}) == Smoothing("window", window=5)
    assert as_smoothing("none") == NO_SMOOTHING
    with pytest.raises(ValueError, match=r"unknown smoothing key\(s\) \['span'\]"):
        as_smoothing({"span": 3})


# --- bootstrap ---------------------------------------------------------------------------------------


def test_bootstrap_degenerate_cases():
    assert bootstrap_ci([2.5, 2.5, 2.5]) == (2.5, 2.5, 2.5)
    assert bootstrap_ci([2.5, 2.5], method="BCa") == (2.5, 2.5, 2.5)  # scipy alone would give NaN
    point, low, high = bootstrap_ci([4.0])
    assert point == 4.0 and math.isnan(low) and math.isnan(high)
    assert all(math.isnan(v) for v in bootstrap_ci([]))
    with pytest.raises(ValueError, match="non-finite"):
        bootstrap_ci([1.0, np.nan])
    with pytest.raises(ValueError, match="bootstrap method 'bca' is not one of"):
        bootstrap_ci([1.0, 2.0], method="bca")


def test_bootstrap_two_values_spans_them():
    # resampled means of {1, 3} are 1, 2 or 3 with probabilities 1/4, 1/2, 1/4: the 95% percentile
    # interval is exactly [1, 3]
    assert bootstrap_ci([1.0, 3.0]) == (2.0, 1.0, 3.0)


def test_bootstrap_other_statistic_and_determinism():
    values = [1.0, 2.0, 4.0, 8.0, 16.0]
    point, low, high = bootstrap_ci(values, stat=np.median)
    assert point == 4.0 and 1.0 <= low <= 4.0 <= high <= 16.0
    assert bootstrap_ci(values, seed=3) == bootstrap_ci(values, seed=3)


def test_bootstrap_coverage_on_normal_data():
    rng = np.random.default_rng(12345)
    trials, covered, widths = 200, 0, []
    for trial in range(trials):
        sample = rng.normal(5.0, 2.0, size=30)
        _, low, high = bootstrap_ci(sample, n_resamples=1000, seed=trial)
        covered += low <= 5.0 <= high
        widths.append(high - low)
    assert 0.88 <= covered / trials <= 0.99
    # the normal-theory width is 2 * 1.96 * 2 / sqrt(30) = 1.43
    assert 1.2 < np.mean(widths) < 1.6


def test_ratio_of_means_ci():
    assert ratio_of_means_ci([4.0, 4.0], [2.0, 2.0]) == (2.0, 2.0, 2.0)
    ratio, low, high = ratio_of_means_ci([80.0, 100.0], [40.0, 50.0])
    assert ratio == 2.0 and 80 / 50 <= low < 2.0 < high <= 100 / 40
    ratio, low, high = ratio_of_means_ci([90.0], [40.0, 50.0])
    assert ratio == 2.0 and math.isnan(low) and math.isnan(high)
    assert all(math.isnan(v) for v in ratio_of_means_ci([], [1.0, 2.0]))
    assert all(math.isnan(v) for v in ratio_of_means_ci([10.0, 20.0], [0.0, 5.0]))


# --- crossings and drops -----------------------------------------------------------------------------


def test_first_crossing_exact_and_without_interpolation():
    x, y = [0, 10, 20, 30], [0.1, 0.5, 0.8, 0.9]
    assert first_crossing(x, y, 0.8, NO_SMOOTHING) == 20  # >= : touching the threshold counts
    assert first_crossing(x, y, 0.85, NO_SMOOTHING) == 30  # not 25: no interpolation between points
    assert math.isnan(first_crossing(x, y, 0.95, NO_SMOOTHING))
    assert first_crossing([0.0, 12.5, 30.2, 41.0], y, 0.8, NO_SMOOTHING) == 30.2  # x = wall seconds
    assert first_crossing(x, [0.9, 0.5, 0.2, 0.1], 0.2, NO_SMOOTHING, direction="below") == 20


def test_first_crossing_uses_the_smoothed_curve():
    # EMA(0.5) of [0, 1, 1, 1] is [0, 0.5, 0.75, 0.875]: raw crosses 0.8 at x=1, smoothed only at x=3
    assert first_crossing([0, 1, 2, 3], [0, 1, 1, 1], 0.8) == 3
    assert first_crossing([0, 1, 2, 3], [0, 1, 1, 1], 0.8, NO_SMOOTHING) == 1


def test_first_crossing_rejects_unsorted_x():
    with pytest.raises(ValueError, match="non-decreasing"):
        first_crossing([0, 2, 1], [0, 0, 1], 0.5)


def test_peak_to_final_drop():
    assert peak_to_final_drop([0.1, 0.2, 0.5, 0.9]) == 0.0
    assert peak_to_final_drop([0.0, 0.8, 0.4], NO_SMOOTHING) == pytest.approx(0.4)
    assert peak_to_final_drop([0.0, 1.0, 0.0]) == pytest.approx(0.25)  # EMA(0.5): [0, 0.5, 0.25]
    assert peak_to_final_drop([0.0, 0.8, 0.4, np.nan], NO_SMOOTHING) == pytest.approx(0.4)
    assert math.isnan(peak_to_final_drop([np.nan]))


# --- table-level functions ---------------------------------------------------------------------------

GRPO, BOT = {"algorithm.name": "grpo"}, {"algorithm.name": "bot_grpo"}


def crossing_df():
    steps = [0, 20, 40, 60, 80, 100]
    return long_df(
        {
            "g0": (GRPO, steps, [0, 0, 0, 0, 0.8, 0.9]),  # crosses 0.8 at 80
            "g1": (GRPO, steps, [0, 0, 0, 0, 0.5, 0.85]),  # crosses at 100
            "g2": (GRPO, steps, [0, 0, 0, 0, 0.1, 0.2]),  # never
            "b0": (BOT, steps, [0, 0, 0.9, 0.9, 0.9, 0.9]),  # crosses at 40
            "b1": (BOT, steps, [0, 0, 0.5, 0.81, 0.9, 0.6]),  # crosses at 60, drops 0.3 at the end
        }
    )


def test_crossings_and_steps_to_threshold():
    df = crossing_df()
    per_run = crossings_per_run(df, "m", 0.8, "algorithm.name", smoothing=None).set_index("run_id")
    assert per_run["crossing"].to_dict() == pytest.approx(
        {"g0": 80, "g1": 100, "g2": np.nan, "b0": 40, "b1": 60}, nan_ok=True
    )
    assert per_run.loc["g2", "last_x"] == 100 and not per_run.loc["g2", "crossed"]
    table = steps_to_threshold(df, "m", 0.8, "algorithm.name", smoothing=None).set_index("algorithm.name")
    assert table.loc["grpo", ["n_runs", "n_crossed", "mean"]].tolist() == [3, 2, 90.0]
    assert table.loc["bot_grpo", ["ci_low", "ci_high"]].tolist() == [40.0, 60.0]
    by_time = steps_to_threshold(df, "m", 0.8, "algorithm.name", x="time", smoothing=None)
    assert by_time.set_index("algorithm.name").loc["bot_grpo", "mean"] == 500.0


def test_speedup_counts_only_crossing_runs():
    per_run = crossings_per_run(crossing_df(), "m", 0.8, "algorithm.name", smoothing=None)
    table = speedup_vs(per_run, baseline="grpo")
    assert table["algorithm.name"].tolist() == ["bot_grpo"]  # the baseline is not compared with itself
    row = table.iloc[0]
    assert row["ratio"] == pytest.approx(90 / 50)
    assert 80 / 60 <= row["ci_low"] < 1.8 < row["ci_high"] <= 100 / 40
    assert (row["n_crossed"], row["n_runs"], row["n_crossed_baseline"], row["n_runs_baseline"]) == (
        2,
        2,
        2,
        3,
    )


def test_speedup_within_strata_and_errors():
    steps = [10, 20, 30, 40]
    runs = {}
    for model, (base_cross, bot_cross) in {"qwen": (40, 20), "phi": (30, 30)}.items():
        for seed in range(2):
            for alg, at in (("grpo", base_cross), ("bot_grpo", bot_cross)):
                cfg = {"model.name": model, "algorithm.name": alg}
                runs[f"{model}-{alg}-{seed}"] = (cfg, steps, [1.0 if s >= at else 0.0 for s in steps])
    per_run = crossings_per_run(long_df(runs), "m", 0.5, ["model.name", "algorithm.name"], smoothing=None)
    table = speedup_vs(per_run, "grpo").set_index("model.name")
    assert table.loc["qwen", "ratio"] == 2.0 and table.loc["phi", "ratio"] == 1.0
    assert table.loc["qwen", ["ci_low", "ci_high"]].tolist() == [2.0, 2.0]  # identical seeds: zero width
    with pytest.raises(ValueError, match="baseline 'ppo' is not a value of any group column"):
        speedup_vs(per_run, "ppo")
    with pytest.raises(ValueError, match="baseline 'ppo' not found in column 'algorithm.name'"):
        speedup_vs(per_run, "ppo", on="algorithm.name")


def test_drops_and_final_values():
    df = crossing_df()
    drops = peak_to_final_drops(df, "m", "algorithm.name", smoothing=None)
    assert drops.set_index("run_id")["drop"].to_dict() == pytest.approx(
        {"g0": 0, "g1": 0, "g2": 0, "b0": 0, "b1": 0.3}
    )
    summary = group_ci(drops, "drop", "algorithm.name").set_index("algorithm.name")
    assert summary.loc["bot_grpo", ["n_runs", "n"]].tolist() == [2, 2]
    assert summary.loc["bot_grpo", "mean"] == pytest.approx(0.15)
    assert summary.loc["grpo", ["mean", "ci_low", "ci_high"]].tolist() == [0.0, 0.0, 0.0]
    finals = final_values(df, "m", "algorithm.name", final_window=2).set_index("run_id")
    assert finals.loc["b1", "final"] == pytest.approx(0.75) and finals.loc["b1", "last_step"] == 100
    with pytest.raises(ValueError, match="final_window must be an integer >= 1"):
        final_values(df, "m", "algorithm.name", final_window=0)


def test_aggregate_curves_by_step():
    df = long_df(
        {
            "a0": (GRPO, [0, 10, 20], [0.0, 0.2, 0.4]),
            "a1": (GRPO, [0, 10, 20], [0.2, 0.4, 0.6]),
            "a2": (GRPO, [0, 10], [0.4, 0.6]),  # no point at step 20
            "b0": (BOT, [0, 10, 20], [0.5, 0.5, 0.5]),
        }
    )
    agg = aggregate_curves(df, "m", "algorithm.name", smoothing=None)
    grpo = agg[agg["algorithm.name"] == "grpo"].set_index("step")
    assert grpo["mean"].tolist() == pytest.approx([0.2, 0.4, 0.5])
    assert grpo["n_seeds"].tolist() == [3, 3, 2]
    assert (grpo["ci_low"] <= grpo["mean"]).all() and (grpo["mean"] <= grpo["ci_high"]).all()
    bot = agg[agg["algorithm.name"] == "bot_grpo"]
    assert bot["mean"].tolist() == [0.5] * 3 and bot["ci_low"].isna().all()  # one run: no band
    smoothed = aggregate_curves(df, "m", "algorithm.name").set_index(["algorithm.name", "step"])
    # EMA(0.5) of a0 = [0, 0.1, 0.25], a1 = [0.2, 0.3, 0.45], a2 = [0.4, 0.5]
    assert smoothed.loc[("grpo", 20), "mean"] == pytest.approx(0.35)


def test_aggregate_curves_on_a_time_grid():
    df = long_df({"a0": (GRPO, [0, 1, 2], [0.0, 1.0, 2.0]), "a1": (GRPO, [0, 1], [1.0, 3.0])})
    agg = aggregate_curves(df, "m", [], x="time", grid=[5.0, 15.0, 25.0], smoothing=None)
    # a0 at 5 s -> 0.5, at 15 s -> 1.5, 25 s is past its end; a1 at 5 s -> 2.0, ends at 10 s
    assert agg["time"].tolist() == [5.0, 15.0]
    assert agg["mean"].tolist() == pytest.approx([1.25, 1.5])
    assert agg["n_seeds"].tolist() == [2, 1]
    evenly = aggregate_curves(df, "m", [], x="time", grid=3, smoothing=None)
    assert evenly["time"].tolist() == [0.0, 10.0, 20.0]


def test_missing_group_values_stay_a_group_and_bad_names_fail():
    df = long_df({"a": ({"algorithm.name": None}, [1, 2], [0.1, 0.2]), "b": (GRPO, [1, 2], [0.3, 0.4])})
    agg = aggregate_curves(df, "m", "algorithm.name", smoothing=None)
    assert len(agg) == 4 and agg["algorithm.name"].isna().sum() == 2
    with pytest.raises(ValueError, match=r"metric 'eval/nope' not in the table; metrics: \['m'\]"):
        aggregate_curves(df, "eval/nope", "algorithm.name")
    with pytest.raises(ValueError, match=r"group_by column\(s\) \['model'\] not in the table"):
        aggregate_curves(df, "m", "model")
    with pytest.raises(ValueError, match="x 'wall' is not one of step, time, generated_tokens"):
        aggregate_curves(df, "m", "algorithm.name", x="wall")
