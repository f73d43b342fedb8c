"""A study killed mid-sweep and run again keeps its finished runs and trains only the rest, as a user
would do it: ``python -m bot_repro.experiment run`` in a subprocess, SIGKILL to its process group; and the
same stopped study packed as a sitting (``pack``: the finished run, and the stopped run's last checkpoint)
continues on another machine (a fresh runs root), its stopped run resuming there as it would here."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot_repro import report_folder
from bot_repro.run_folder import last_checkpoint, metrics_path, read_metrics, read_run_json, status
from tests.conftest import REPO
from tests.integration.helpers import mini_experiment

EXPERIMENT = """\
hydra:
  sweeper:
    params:
      algorithm: grpo
      seed: 0,1
  sweep:
    subdir: ${hydra.job.num}_s${seed}
report:
  shows: one algorithm, two seeds
  results: {results}
  plot: {kind: curves, metric: eval/success_rate, hue: algorithm.name}
"""


def _run(common: list[str], verb: str = "run", **kw) -> subprocess.Popen:
    # 6 steps, a checkpoint after each: the second job is caught between its first checkpoint and its end
    cmd = [sys.executable, "-m", "bot_repro.experiment", verb, "two_seeds", "debug=smoke", "trainer.max_steps=6", *common]
    return subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True, **kw)


def _losses(run: Path) -> list[tuple]:
    """(step, loss, grad norm, mean reward) of each optimizer step the run logged."""
    rows = read_metrics(metrics_path(run))
    return [(r["step"], r["loss"], r["grad_norm"], r["reward_mean"]) for r in rows if "loss" in r]


@pytest.mark.slow
def test_a_killed_study_runs_again_without_retraining_finished_runs(tmp_path: Path):
    committed = tmp_path / "results" / "two_seeds"  # report.results: the experiment's committed folder
    common = mini_experiment(tmp_path, "two_seeds", EXPERIMENT.replace("{results}", str(committed)))
    root = tmp_path / "runs" / "two_seeds"

    first = _run(common)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and first.poll() is None:
        runs = sorted(root.glob("*/sweep/0_s0"))
        second = runs[0].parent / "1_s1" if runs else None
        if runs and status(runs[0]) == "completed" and status(second) == "running" and last_checkpoint(second):
            break  # the first job is done and the second has saved a checkpoint: kill the study there
        time.sleep(0.2)
    assert first.poll() is None, "the study ended before it could be killed:\n" + first.stdout.read()[-3000:]
    os.killpg(first.pid, signal.SIGKILL)
    first.wait(timeout=30)
    (stamp,) = sorted(p.parent for p in root.glob("*/sweep"))
    done, stopped = stamp / "sweep" / "0_s0", stamp / "sweep" / "1_s1"
    kept = read_run_json(done)
    assert status(stopped) != "completed" and not (stamp / "report").exists()

    packed = _run(common, "pack")  # the sitting's completed runs, committed
    out, _ = packed.communicate(timeout=300)
    assert packed.returncode == 0 and (committed / "sitting_1.tar.xz").is_file(), out[-3000:]
    packed_at = last_checkpoint(stopped).name
    held = {name for name, _ in report_folder.archive_members(committed / "sitting_1.tar.xz")}
    assert "runs/0_s0/run.json" in held and not any(n.startswith("runs/0_s0/checkpoints/") for n in held)
    assert f"runs/1_s1/checkpoints/{packed_at}/trainer_state.json" in held  # the stopped run's last checkpoint
    twice = _run(common, "pack")
    assert twice.wait(timeout=300) == 1 and "do not already hold" in twice.stdout.read()  # nothing new: no sitting_2

    elsewhere = [*common[:-1], str(tmp_path / "other_machine")]  # --runs-root of a machine with none of the runs
    moved = _run(elsewhere)
    out, _ = moved.communicate(timeout=900)
    assert moved.returncode == 0, out[-3000:]
    assert "1 committed sitting(s) restored" in out and "two_seeds: 1 of 2 run(s) completed earlier, kept" in out
    assert f"resuming from {packed_at}" in out  # the stopped run continues from its packed checkpoint
    (there,) = sorted((tmp_path / "other_machine" / "two_seeds").glob("*/sweep"))
    assert read_run_json(there / "0_s0") == kept and status(there / "1_s1") == "completed"
    assert read_run_json(there / "1_s1")["attempts"] == 2

    again = _run(common)
    out, _ = again.communicate(timeout=900)
    assert again.returncode == 0, out[-3000:]
    assert "continuing the stopped sweep" in out and "two_seeds: 1 of 2 run(s) completed earlier, kept" in out
    assert sorted(p.parent for p in root.glob("*/sweep")) == [stamp]  # no new sweep folder
    assert read_run_json(done) == kept  # the finished run was not touched, let alone retrained
    assert status(stopped) == "completed" and read_run_json(stopped)["attempts"] == 2
    # resumed from the same checkpoint, here and on the other machine: the same steps, the same losses
    assert f"resuming from {packed_at}" in out
    assert _losses(stopped) == _losses(there / "1_s1") and len(_losses(stopped)) == 6
    doc = report_folder.read_summary(stamp / "report")
    assert doc["meta"]["continued"] is True
    assert {p.parent.name for p in report_folder.unpack(stamp / "report").glob("*/metrics.jsonl")} == {"0_s0", "1_s1"}


PARALLEL = "trainer: {max_steps: 50}\n" + EXPERIMENT.replace("  results: {results}\n", "")  # long enough to stop


@pytest.mark.slow
def test_a_term_signal_to_the_study_ends_its_worker_processes_too(tmp_path: Path):
    # joblib's workers train the jobs: killed with the study's process alone, they used to train on, orphaned
    common = mini_experiment(tmp_path, "side_by_side", PARALLEL)
    cmd = [sys.executable, "-m", "bot_repro.experiment", "run", "side_by_side", "cluster=joblib", *common]
    study = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    root, deadline = tmp_path / "runs" / "side_by_side", time.monotonic() + 600
    while time.monotonic() < deadline and study.poll() is None:
        if any(status(r) == "running" for r in root.glob("*/sweep/*_s*")):
            break  # a worker is training (and the pool's other is up)
        time.sleep(0.2)
    assert study.poll() is None, "the study ended before it could be stopped:\n" + study.stdout.read()[-3000:]
    study.send_signal(signal.SIGTERM)  # the study's own process only, as `kill PID` does
    try:
        out, _ = study.communicate(timeout=120)
    except subprocess.TimeoutExpired:  # orphaned workers hold the study's output open
        os.killpg(study.pid, signal.SIGKILL)
        pytest.fail("the stopped study's worker processes were still running two minutes later")
    assert study.returncode == 130 and "again continues a stopped sweep" in out, out[-3000:]
    while time.monotonic() < deadline:
        try:
            os.killpg(study.pid, 0)  # any process left in the study's group?
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        os.killpg(study.pid, signal.SIGKILL)
        pytest.fail("worker processes of the stopped study were still running")
