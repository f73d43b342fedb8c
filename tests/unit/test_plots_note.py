"""The study figures' inset: steps to threshold and speed-up per group, from a summary."""

from bot_repro.plots.figures import crossing_note


def test_crossing_note_lists_every_group_with_its_interval_and_reference():
    summary = {"threshold": 0.8, "baseline": "grpo", "groups": [
        {"label": "grpo", "n_seeds": 3, "speedup": None,
         "to_threshold": {"step": {"mean": 45.0, "ci_low": 40.0, "ci_high": 50.0, "n_crossed": 3, "n_runs": 3}}},
        {"label": "bot_grpo", "n_seeds": 3,
         "speedup": {"step": {"ratio": 0.818, "ci_low": 0.676, "ci_high": 1.0}},
         "to_threshold": {"step": {"mean": 55.0, "ci_low": 45.0, "ci_high": 65.0, "n_crossed": 3, "n_runs": 3}}},
        {"label": "pure", "n_seeds": 3, "speedup": {"step": None},
         "to_threshold": {"step": {"mean": None, "ci_low": None, "ci_high": None, "n_crossed": 0, "n_runs": 3}}},
    ]}
    lines = crossing_note(summary).splitlines()
    assert lines[0].startswith("steps to 0.8") and "speed-up vs grpo" in lines[0]
    assert lines[1] == "grpo: 45 [40, 50] 3/3 | reference"
    assert lines[2] == "bot_grpo: 55 [45, 65] 3/3 | 0.818x [0.676, 1]"
    assert lines[3] == "pure: n/a [n/a, n/a] 0/3 | n/a"
