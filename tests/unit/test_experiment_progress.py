"""The experiment command's progress poll (bot_repro.experiment.run.progress): it runs in a thread
beside the sweep, so it must not raise while the sweep folder exists but no run has logged yet (the
state of every sweep's first seconds; an exception there killed the progress bar of real_seeds)."""

import json

from bot_repro.experiment.run import progress
from bot_repro.run_folder.schema import METRICS, RUN_INFO


def test_progress_before_any_run_folder(tmp_path):
    assert progress(tmp_path / "not_yet") == (0, 0)
    (tmp_path / "sweep" / "0_grpo_s0").mkdir(parents=True)  # a job's folder, no metrics yet
    assert progress(tmp_path / "sweep") == (0, 0)


def test_progress_counts_steps_and_completed_runs(tmp_path):
    for name, steps, state in (("0_a", 3, "completed"), ("1_b", 2, "running")):
        run = tmp_path / name
        run.mkdir()
        (run / METRICS).write_text("".join(json.dumps({"step": s}) + "\n" for s in range(1, steps + 1)))
        (run / RUN_INFO).write_text(json.dumps({"status": state}))
    assert progress(tmp_path) == (5, 1)
