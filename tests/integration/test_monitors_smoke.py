"""The reward-hacking monitors reach metrics.jsonl at every training step of a smoke run (arith and mini)."""

from __future__ import annotations

import math

import pytest

from bot_repro.run_folder import read_metrics
from tests.integration.helpers import SMALL, run_inprocess

EVERY_TASK = {"monitor/local_up_global_not", "monitor/repeat_frac", "monitor/length_ratio"}
STEP_FORMAT = {"monitor/true_steps_wrong_answer", "monitor/format_only"}


@pytest.mark.parametrize(("overrides", "expected", "absent"), [
    (["debug=smoke", "task=arith"], EVERY_TASK | STEP_FORMAT, set()),
    (SMALL, EVERY_TASK, STEP_FORMAT),  # task=mini: no answer check beside G, no format reward
], ids=["arith", "mini"])
def test_monitor_keys_at_every_step(overrides, expected, absent, tmp_path):
    run_inprocess([*overrides, "trainer.max_steps=2"], tmp_path / "run")
    steps = [r for r in read_metrics(tmp_path / "run" / "metrics.jsonl") if r["step"] >= 1]
    assert [r["step"] for r in steps] == [1, 2]
    for rec in steps:
        monitors = {k: v for k, v in rec.items() if k.startswith("monitor/")}
        assert set(monitors) == expected, rec["step"]
        assert all(isinstance(v, float) and math.isfinite(v) for v in monitors.values()), monitors
        shares = [v for k, v in monitors.items() if k != "monitor/length_ratio"]
        assert all(0.0 <= v <= 1.0 for v in shares), monitors
    assert steps[0]["monitor/length_ratio"] == 1.0  # the first step is the reference
    assert steps[1]["monitor/length_ratio"] == pytest.approx(
        steps[1]["completion_len_mean"] / steps[0]["completion_len_mean"])
