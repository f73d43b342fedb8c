"""Kill a run mid-training, resume it, and find every step exactly once in metrics.jsonl."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.integration.helpers import SMALL

REPO = Path(__file__).resolve().parents[2]


def _cmd(run_dir, *extra):
    return [
        sys.executable, "-m", "bot_repro.train", *SMALL, "trainer.max_steps=12", "trainer.save_steps=2",
        "trainer.save_total_limit=null", "trainer.eval.every=4", f"hydra.run.dir={run_dir}", *extra,
    ]  # fmt: skip


def _steps(run_dir):
    return [json.loads(x)["step"] for x in (run_dir / "metrics.jsonl").read_text().splitlines() if x.strip()]


def test_kill_and_resume_logs_each_step_once(tmp_path):
    run_dir = tmp_path / "run"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(_cmd(run_dir), cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 300
    killed_after = None
    while time.time() < deadline and proc.poll() is None:
        ckpts = list((run_dir / "checkpoints").glob("checkpoint-*")) if (run_dir / "checkpoints").exists() else []
        if any(c.name == "checkpoint-4" for c in ckpts) and (run_dir / "metrics.jsonl").exists():
            killed_after = _steps(run_dir)
            if max(killed_after) >= 5:  # logged past its last checkpoint
                proc.send_signal(signal.SIGKILL)
                break
        time.sleep(0.02)
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read().decode()[-2000:]
    assert json.loads((run_dir / "run.json").read_text())["status"] == "running"  # killed, never finished

    again = subprocess.run(_cmd(run_dir, "resume=true"), cwd=REPO, env=env, capture_output=True, timeout=600)
    assert again.returncode == 0, again.stderr.decode()[-3000:]
    steps = _steps(run_dir)
    assert steps == list(range(0, 13)), steps
    info = json.loads((run_dir / "run.json").read_text())
    assert info["status"] == "completed" and info["attempts"] == 2
    assert Path(info["resumed_from"]).name in {"checkpoint-4", "checkpoint-6", "checkpoint-8", "checkpoint-10"}
    assert (run_dir / ".hydra" / "config.yaml").exists()
    # counters survive: generated tokens keep growing across the restart
    recs = [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()]
    tokens = [r["generated_tokens"] for r in recs]
    assert tokens == sorted(tokens) and tokens[-1] > 0
    # and both clocks go on from the checkpoint's: training time, and the evaluations' (it was reset to 0)
    evals = [r["eval_seconds"] for r in recs if "eval_seconds" in r]
    assert evals == sorted(evals) and evals[-1] > 0, evals
    times = [r["time"] for r in recs]
    assert times == sorted(times), times
    assert all(r["step_seconds"] > 0 for r in recs if "step_seconds" in r)
