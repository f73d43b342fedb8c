"""What a user sees of a run's life: its folder, early refusals, resume checks and kills (issue #17)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from bot_repro.trainer import build
from tests.conftest import REPO
from tests.integration.helpers import SMALL


def _train(*args, env=None, timeout=600):
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    return subprocess.run([sys.executable, "-m", "bot_repro.train", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=timeout)


def _step_lines(stdout: str) -> list[str]:
    """The ``step k/N`` heads of the console's step lines (held-out lines left out)."""
    return [" ".join(line.split()[:2]) for line in stdout.splitlines() if line.startswith("step ") and "held-out" not in line]


@pytest.mark.parametrize(("overrides", "message"), [
    (["algorithm.name=bot_grop", "debug=smoke"], "unknown algorithm 'bot_grop'"),
    (["model=qwen2_5_3b"], "this run trains Qwen/Qwen2.5-3B-Instruct but resources=cpu"),  # not smoke: the 3B model
    (["judge=openai", "task=react", "debug=smoke"], "OPENAI_API_KEY"),
    (["trainer.max_steps=abc", "debug=smoke"], "trainer.max_steps='abc' is not allowed: expected an integer"),
])
def test_failed_validation_leaves_no_folder_and_says_why(tmp_path, overrides, message):
    (tmp_path / "mine").mkdir()  # made by the user before the run: kept, though the refused run leaves it empty
    run_dir = tmp_path / "mine" / "runs" / "r"
    env = {"BOT_REPRO_CACHE": str(tmp_path / "cache")}
    if "judge=openai" in overrides:
        env["OPENAI_API_KEY"] = ""
    out = _train(*overrides, f"hydra.run.dir={run_dir}", env=env, timeout=300)
    assert out.returncode == 2, out.stderr[-2000:]
    assert message in out.stderr
    assert not run_dir.exists() and not (tmp_path / "mine" / "runs").exists() and (tmp_path / "mine").is_dir()
    assert not (tmp_path / "cache").exists()  # no tiny model built, no warm start
    assert "Unclosed client session" not in out.stderr
    assert "Traceback" not in out.stderr


def test_unreachable_hub_is_one_clear_error(monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(build, "_hub_reachable", lambda: False)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    start = time.time()
    with pytest.raises(build.ModelUnavailableError, match="cannot reach the Hugging Face hub .* not in the local cache"):
        build._use_hub_cache_or_fail("bot-repro-tests/no-such-model")
    assert time.time() - start < 5  # no retries


def test_run_dir_printed_resume_refuses_changes_and_keeps_configs(tmp_path):
    run_dir = tmp_path / "run"
    first = _train(*SMALL, "algorithm=grpo", f"hydra.run.dir={run_dir}")
    assert first.returncode == 0, first.stderr[-3000:]
    assert f"run directory: {run_dir}\n" in first.stdout
    assert f"run directory: {run_dir} (completed, 2 steps)" in first.stdout
    # the console: one readable line per step (bot_repro.trainer.console), never TRL's metric dictionary
    assert _step_lines(first.stdout) == ["step 1/2", "step 2/2"], first.stdout
    assert "{'" not in first.stdout + first.stderr
    original = (run_dir / ".hydra" / "config.yaml").read_text()
    assert not (run_dir / "checkpoints" / "README.md").exists()  # no TRL model card

    changed = _train(*SMALL, "algorithm=grpo", "trainer.max_steps=3", f"hydra.run.dir={run_dir}", "resume=true")
    assert changed.returncode == 2
    assert "trainer.max_steps: 2 -> 3" in changed.stderr and "resume_allow_changes=true" in changed.stderr
    assert not list((run_dir / ".hydra").glob("resume-*"))  # the refused attempt left nothing

    allowed = _train(*SMALL, "algorithm=grpo", "trainer.max_steps=3", f"hydra.run.dir={run_dir}", "resume=true",
                     "resume_allow_changes=true")
    assert allowed.returncode == 0, allowed.stderr[-3000:]
    assert "resuming from checkpoint-2" in allowed.stdout
    assert _step_lines(allowed.stdout) == ["step 3/3"], allowed.stdout
    assert "missing keys" not in allowed.stderr  # the tied lm_head is not reported as missing
    assert (run_dir / ".hydra" / "config.yaml").read_text() == original
    attempts = list((run_dir / ".hydra").glob("resume-*/config.yaml"))
    assert len(attempts) == 1 and yaml.safe_load(attempts[0].read_text())["trainer"]["max_steps"] == 3
    info = json.loads((run_dir / "run.json").read_text())
    assert info["status"] == "completed" and info["attempts"] == 2 and info["history"][0]["status"] == "completed"
    steps = [json.loads(line)["step"] for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert steps == [0, 1, 2, 3]


def test_a_live_run_owns_its_folder_and_a_terminated_run_is_marked_killed(tmp_path):
    run_dir = tmp_path / "run"
    cmd = [sys.executable, "-m", "bot_repro.train", *SMALL, "trainer.max_steps=10000", "trainer.eval.every=0",
           f"hydra.run.dir={run_dir}"]
    proc = subprocess.Popen(cmd, cwd=REPO, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        metrics = run_dir / "metrics.jsonl"
        if metrics.exists() and metrics.read_text().strip():
            break  # training has started
        time.sleep(0.2)
    # a second run on the live run's folder (issue #53) is refused naming its PID, before Hydra writes there
    config = (run_dir / ".hydra" / "config.yaml").read_text()
    second = _train(*SMALL, "seed=7", f"hydra.run.dir={run_dir}", timeout=300)
    assert second.returncode == 2 and proc.poll() is None, second.stderr[-2000:]
    assert f"run folder in use: {run_dir} is in use by a run that is still alive: its run.lock is held by PID " \
           f"{proc.pid} (run)" in second.stderr and f"kill {proc.pid}" in second.stderr, second.stderr[-2000:]
    assert (run_dir / ".hydra" / "config.yaml").read_text() == config and "Traceback" not in second.stderr
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=120)
    info = json.loads((run_dir / "run.json").read_text())
    assert info["status"] == "killed", proc.stderr.read().decode()[-2000:]
    assert "SIGTERM" in info["error"]
    assert Path(run_dir / ".hydra" / "config.yaml").exists()
    assert (run_dir / "run.lock").read_text() == ""  # let go at the end: the next run has nothing to take over
