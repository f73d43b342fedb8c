"""The study figures' numbers table: steps to threshold and speed-up per group, from a summary, in
the one number format (``analysis.formats``) and by display names."""

from bot_repro.algorithms import ADVANTAGES
from bot_repro.analysis.formats import interval, number, speedup
from bot_repro.plots.figures import crossing_table, plot_config

SUMMARY = {"threshold": 0.8, "baseline": "grpo", "groups": [
    {"group": {"algorithm.name": "grpo"}, "label": "grpo", "n_seeds": 3, "speedup": None,
     "final": {"mean": 0.83, "ci_low": 0.8, "ci_high": 0.85},
     "to_threshold": {"step": {"mean": 45.0, "ci_low": 40.0, "ci_high": 50.0, "n_crossed": 3, "n_runs": 3}}},
    {"group": {"algorithm.name": "bot_grpo"}, "label": "bot_grpo", "n_seeds": 3,
     "final": {"mean": 0.66, "ci_low": 0.33, "ci_high": 0.84},
     "speedup": {"step": {"ratio": 0.818, "ci_low": 0.676, "ci_high": 1.0}},
     "to_threshold": {"step": {"mean": 55.0, "ci_low": 45.0, "ci_high": 65.0, "n_crossed": 3, "n_runs": 3}}},
    {"group": {"algorithm.name": "pure"}, "label": "pure", "n_seeds": 3, "speedup": {"step": None},
     "final": {"mean": 0.5, "ci_low": None, "ci_high": None},
     "to_threshold": {"step": {"mean": None, "ci_low": None, "ci_high": None, "n_crossed": 0, "n_runs": 3}}},
]}


def test_one_number_format():
    assert [number(v) for v in (45.0, 0.8176, 1.0, 1, 12345.6, 999.96, None, float("nan"), -0.0)] == [
        "45.0", "0.818", "1.00", "1", "12,346", "1,000", "n/a", "n/a", "0.00"]
    assert speedup(0.818, 0.676, 1.0) == "0.818× [0.676, 1.00]" and speedup(1.03) == "1.03×"
    assert interval(52.5, 45, 60.0) == "52.5 [45, 60.0]" and interval(None) == "n/a"


def test_crossing_table_lists_every_group_with_its_interval_and_reference():
    cfg = plot_config({"kind": "curves", "metric": "eval/success_rate", "threshold": 0.8, "baseline": "grpo"}, "plot")
    header, rows, colors = crossing_table(SUMMARY, cfg)
    assert header == ["group", "seeds", "final [95% CI]", "steps to 0.8 [95% CI]", "crossed", "speed-up [95% CI]"]
    info = {n: ADVANTAGES[n].info for n in ("grpo", "bot_grpo", "pure")}
    assert rows[0] == [info["grpo"].label, "3", "0.830 [0.800, 0.850]", "45.0 [40.0, 50.0]", "3/3", "reference (1.00×)"]
    assert rows[1] == [info["bot_grpo"].label, "3", "0.660 [0.330, 0.840]", "55.0 [45.0, 65.0]", "3/3",
                       "0.818× [0.676, 1.00]"]
    assert rows[2] == [info["pure"].label, "3", "0.500", "n/a", "0/3", "n/a"]
    assert colors == [info[n].color for n in ("grpo", "bot_grpo", "pure")]
