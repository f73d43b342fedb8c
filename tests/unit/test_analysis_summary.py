"""End-to-end summary: synthetic run directories -> load_runs -> summarise -> JSON and Markdown."""

from __future__ import annotations

import json

import pytest

from bot_repro.analysis.load import load_runs
from bot_repro.analysis.summary import collect_meta, summarise, summary_markdown, to_jsonable
from bot_repro.analysis.synthetic import curve_records, run_config, run_info, write_run_dir

STEPS = [0, 20, 40, 60, 80, 100]
# (algorithm, seed, compile rate per step): GRPO crosses 0.8 at 80 and 100, BoT at 40 and 50 would be
# off-schedule, so BoT crosses at 40 and 60; BoT seed 1 peaks at 0.9 and ends at 0.6 (drop 0.3).
CURVES = [
    ("grpo", 0, [0, 0, 0, 0, 0.8, 0.9]),
    ("grpo", 1, [0, 0, 0, 0, 0.5, 0.85]),
    ("bot_grpo", 0, [0, 0, 0.9, 0.9, 0.9, 0.9]),
    ("bot_grpo", 1, [0, 0, 0.5, 0.81, 0.9, 0.6]),
]
META = {"command": "make reproduce-figure-1", "git_sha": "abc123", "date": "2026-01-01", "machine": "ci"}


@pytest.fixture
def sweep_df(tmp_path):
    for job, (alg, seed, values) in enumerate(CURVES):
        records = curve_records(STEPS, {"eval/compile_rate": values, "loss": [1.0] * len(STEPS)})
        write_run_dir(tmp_path / "sweep" / str(job), run_config(alg, seed), records, run_info(seed))
    return load_runs(tmp_path / "sweep")


def test_summary_numbers(sweep_df):
    summary = summarise(sweep_df, "eval/compile_rate", 0.8, smoothing=None, n_resamples=2000)
    groups = {g["label"]: g for g in summary["groups"]}
    assert list(groups) == ["bot_grpo", "grpo"]
    bot, grpo = groups["bot_grpo"], groups["grpo"]
    assert bot["n_seeds"] == 2 and bot["group"] == {"algorithm.name": "bot_grpo"}
    assert bot["final"]["mean"] == pytest.approx(0.75) and bot["final"]["n"] == 2
    assert bot["to_threshold"]["step"] == {
        "mean": 50.0,
        "ci_low": 40.0,
        "ci_high": 60.0,
        "n_crossed": 2,
        "n_runs": 2,
    }
    assert bot["to_threshold"]["time"]["mean"] == 500.0  # curve_records: 10 s per step
    assert bot["to_threshold"]["generated_tokens"]["mean"] == 50000.0
    assert grpo["to_threshold"]["step"]["mean"] == 90.0
    assert bot["speedup"]["step"]["ratio"] == pytest.approx(1.8)
    assert bot["speedup"]["time"]["ratio"] == pytest.approx(1.8)
    assert 80 / 60 <= bot["speedup"]["step"]["ci_low"] < 1.8 < bot["speedup"]["step"]["ci_high"] <= 100 / 40
    assert grpo["speedup"] is None
    assert bot["peak_to_final_drop"]["mean"] == pytest.approx(0.15)
    assert grpo["peak_to_final_drop"] == {"mean": 0.0, "ci_low": 0.0, "ci_high": 0.0, "n": 2}
    assert summary["baseline_column"] == "algorithm.name"
    json.dumps(summary, allow_nan=False)  # NaN-free and serialisable


def test_start_and_gain_pair_each_run_with_its_own_first_point(tmp_path):
    curves = [("grpo", 0, [0.2, 0.5]), ("grpo", 1, [0.4, 0.5]), ("bot_grpo", 0, [0.3, 0.3]), ("bot_grpo", 1, [0.1, 0.4])]
    for job, (alg, seed, values) in enumerate(curves):
        write_run_dir(tmp_path / "sweep" / str(job), run_config(alg, seed),
                      curve_records([0, 10], {"eval/pass@1": values}), run_info(seed))
    summary = summarise(load_runs(tmp_path / "sweep"), "eval/pass@1", None, baseline=None, n_resamples=2000)
    groups = {g["label"]: g for g in summary["groups"]}
    # grpo: gains 0.3 and 0.1 (finals 0.5, 0.5 from starts 0.2, 0.4); bot_grpo: 0.0 and 0.3
    assert groups["grpo"]["gain"] == pytest.approx({"mean": 0.2, "ci_low": 0.1, "ci_high": 0.3, "n": 2})
    assert groups["grpo"]["start"]["mean"] == pytest.approx(0.3) and groups["bot_grpo"]["gain"]["mean"] == pytest.approx(0.15)
    row = next(line for line in summary_markdown(summary, META).splitlines() if line.startswith("| GRPO |"))
    assert "| 0.300 [0.200, 0.400] | 0.500 [0.500, 0.500] | 0.200 [0.100, 0.300] |" in row
    # GRPO seed 1 starts at 0.4, above a threshold of 0.35: its crossing at step 0 is named, not hidden in a mean
    crossed = summarise(load_runs(tmp_path / "sweep"), "eval/pass@1", 0.35, baseline=None, smoothing=None, n_resamples=500)
    grpo = next(g for g in crossed["groups"] if g["label"] == "grpo")["crossed"]
    assert grpo == {"n_crossed": 2, "n_runs": 2, "seeds": [0, 1], "at_start": [1]}
    assert "**Crossed at their first logged point**, with no training: seeds GRPO: [1]." in summary_markdown(crossed, META)


def test_summary_with_default_smoothing_and_without_threshold(sweep_df):
    smoothed = summarise(sweep_df, "eval/compile_rate", 0.8, n_resamples=500)
    # EMA(0.5): GRPO curves end at 0.65 and 0.55, so neither crosses 0.8; BoT seed 0 reaches 0.89375 at
    # step 100 (0.7875 at 80), BoT seed 1 peaks at 0.715 and never crosses
    groups = {g["label"]: g for g in smoothed["groups"]}
    assert groups["grpo"]["to_threshold"]["step"] == {
        "mean": None,
        "ci_low": None,
        "ci_high": None,
        "n_crossed": 0,
        "n_runs": 2,
    }
    assert groups["bot_grpo"]["to_threshold"]["step"] == {
        "mean": 100.0,
        "ci_low": None,
        "ci_high": None,
        "n_crossed": 1,
        "n_runs": 2,
    }
    speed = groups["bot_grpo"]["speedup"]["step"]
    assert speed["ratio"] is None and (speed["n_crossed"], speed["n_crossed_baseline"]) == (1, 0)
    assert groups["bot_grpo"]["peak_to_final_drop"]["mean"] == pytest.approx((0.715 - 0.6575) / 2)
    bare = summarise(sweep_df, "eval/compile_rate", None, baseline=None, n_resamples=500)
    assert all(g["to_threshold"] == {} and g["speedup"] is None for g in bare["groups"])
    json.dumps(bare, allow_nan=False)


def test_summary_grouped_by_two_columns(sweep_df):
    summary = summarise(
        sweep_df,
        "eval/compile_rate",
        0.8,
        group_by=["model.name", "algorithm.name"],
        smoothing=None,
        n_resamples=500,
    )
    labels = [g["label"] for g in summary["groups"]]
    assert labels == ["tiny-qwen2/bot_grpo", "tiny-qwen2/grpo"]
    assert summary["groups"][0]["speedup"]["step"]["ratio"] == pytest.approx(1.8)


def test_summary_unknown_baseline_fails(sweep_df):
    with pytest.raises(ValueError, match="baseline 'ppo' is not a value of any group column"):
        summarise(sweep_df, "eval/compile_rate", 0.8, baseline="ppo", n_resamples=100)


def test_markdown_report(sweep_df):
    summary = summarise(sweep_df, "eval/compile_rate", 0.8, smoothing=None, n_resamples=2000)
    text = summary_markdown(summary, {**META, "device": "cpu"})
    assert "- command: `make reproduce-figure-1`" in text and "- git_sha: abc123" in text
    assert "- device: cpu" in text
    table = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(table) == 3  # header + two groups
    assert table[0].count("|") == 12  # eleven columns
    # groups by their display names, numbers in the one format (analysis.formats)
    bot_row = next(line for line in table if line.startswith("| BoT-GRPO |"))
    assert "| 50.0 [40.0, 60.0] (2/2) |" in bot_row and "(2/2 vs 2/2 crossed)" in bot_row
    assert "× [" in bot_row and "speed-up vs GRPO (steps)" in table[0]
    grpo_row = next(line for line in table if line.startswith("| GRPO |"))
    assert grpo_row.endswith("| reference | reference |")
    with pytest.raises(ValueError, match=r"meta lacks \['machine'\]"):
        summary_markdown(summary, {k: v for k, v in META.items() if k != "machine"})


def test_to_jsonable_and_meta():
    import numpy as np

    assert to_jsonable({"a": np.float64("nan"), "b": (np.int64(2), float("inf")), 3: np.bool_(True)}) == {
        "a": None,
        "b": [2, None],
        "3": True,
    }
    meta = collect_meta("python -m x")
    assert set(meta) == {"command", "git_sha", "date", "machine"} and meta["command"] == "python -m x"
    assert meta["git_sha"] == "unknown" or len(meta["git_sha"].removesuffix("-dirty")) == 40
