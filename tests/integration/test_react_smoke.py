"""End-to-end CPU smoke run of the React task: train 2 steps, evaluate, log compile rate and rewards."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot_repro.tasks.react.render import renderer_missing
from bot_repro.tasks.react.workers import toolchain_missing

ROOT = Path(__file__).resolve().parents[2]
MISSING = toolchain_missing() or renderer_missing()


@pytest.mark.skipif(not importlib.util.find_spec("bot_repro.train"), reason="the trainer (bot_repro.train) is absent")
@pytest.mark.skipif(MISSING is not None, reason=f"React toolchain unavailable: {MISSING}")
def test_react_smoke_run_logs_compile_rate_and_reward_breakdown(tmp_path):
    run_dir = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, "-m", "bot_repro.train", "task=react", "reward=react_static_only", "debug=smoke",
         f"hydra.run.dir={run_dir}"],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    records = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines() if line.strip()]
    keys = set().union(*records)
    assert {"eval/compile_rate", "eval/console_error_rate", "eval/blank_render_rate"} <= keys, sorted(keys)
    assert {"reward/compile_fail", "reward/eslint", "reward/code_judge", "reward/vlm_judge", "reward/compiled",
            "reward/console_error", "reward/blank_render"} <= keys
    evals = sorted((run_dir / "eval").iterdir())
    assert evals and all((d / "index.html").is_file() and (d / "rollouts.jsonl").is_file() for d in evals)
