"""End to end on CPU: a 2-step AIME smoke run with a tiny model logs Pass@k to metrics.jsonl.

Uses the packaged 16-problem smoke set (task.params.source=smoke) and, for the judge step source,
the loopback judge, so nothing leaves the machine.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not importlib.util.find_spec("bot_repro.train"),
    reason="the trainer (bot_repro.train) is not in this checkout",
)


@pytest.mark.parametrize(
    "overrides", [["reward=aime_bot", "judge=loopback"], ["reward=aime_rule"]], ids=["judge", "rule"]
)
def test_aime_smoke_run_logs_pass_at_k(tmp_path_factory, overrides):
    run_dir = tmp_path_factory.mktemp("aime_run") / "run"
    env = dict(
        os.environ, BOT_REPRO_CACHE=str(tmp_path_factory.getbasetemp() / "cache"), WANDB_MODE="disabled"
    )
    cmd = [
        sys.executable, "-m", "bot_repro.train", "task=aime", *overrides, "debug=smoke",
        "task.params.source=smoke", f"hydra.run.dir={run_dir}",
    ]  # fmt: skip
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    records = [
        json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines() if line.strip()
    ]
    evals = [r for r in records if any(k.startswith("eval/pass@") for k in r)]
    assert evals, f"no eval/pass@ keys in {records}"
    assert all(0.0 <= r["eval/pass@1"] <= 1.0 for r in evals)
    assert any("reward/format_bonus" in r for r in records)
    samples = sorted((run_dir / "eval").glob("step_*/samples.jsonl"))
    assert samples, "no saved evaluation samples"
    first = [json.loads(line) for line in samples[0].read_text().splitlines()]
    assert first and {"id", "completion", "answer", "correct", "format"} <= set(first[0])
