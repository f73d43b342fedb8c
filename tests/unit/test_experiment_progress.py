"""The experiment command's progress (bot_repro.experiment.progress). Its poll runs in a thread beside the
sweep, so it must not raise while the sweep folder exists but no run has logged yet (the state of every
sweep's first seconds; an exception there killed the progress bar of real_seeds). In a log (not a terminal)
its bar writes a line per finished run and at most one a minute, never tqdm's redraws."""

import io
import json

from bot_repro.experiment import progress as progress_module
from bot_repro.experiment.progress import RunState, SweepProgress, poll
from bot_repro.run_folder.schema import METRICS, RUN_INFO


def test_poll_before_any_run_folder(tmp_path):
    assert poll(tmp_path / "not_yet") == []
    (tmp_path / "sweep" / "0_grpo_s0").mkdir(parents=True)  # a job's folder, no metrics yet
    assert poll(tmp_path / "sweep") == []


def test_poll_reads_each_runs_steps_and_status(tmp_path):
    for name, steps, state in (("0_a", 3, "completed"), ("1_b", 2, "running")):
        run = tmp_path / name
        run.mkdir()
        (run / METRICS).write_text("".join(json.dumps({"step": s}) + "\n" for s in range(1, steps + 1)))
        (run / RUN_INFO).write_text(json.dumps({"status": state}))
    assert poll(tmp_path) == [RunState("0_a", 3, "completed"), RunState("1_b", 2, "running")]


class _Log(io.StringIO):
    """A log file: not a terminal."""

    def isatty(self) -> bool:
        return False


class _Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _runs(done: int, steps_each: int, n: int = 3, running_steps: int = 0) -> list[RunState]:
    runs = [RunState(f"{i}_grpo_s{i}", steps_each, "completed") for i in range(done)]
    return runs + [RunState(f"{i}_grpo_s{i}", running_steps, "running") for i in range(done, n)]


def test_in_a_log_the_bar_writes_a_line_per_finished_run_or_per_minute(tmp_path, monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(progress_module.time, "time", clock)
    log = _Log()
    bar = SweepProgress("demo", tmp_path / "sweep", n_runs=3, total_steps=30, file=log)
    for second in range(0, 600, 2):  # ten minutes of polls, every 2 s, the first run done at 4 min, the rest at 9
        clock.now = 1000.0 + second
        done = 0 if second < 240 else 1 if second < 540 else 3
        bar.update(_runs(done, 10, running_steps=min(10, second // 60)))
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue()  # nothing redrawn
    finished = [line for line in lines if ": completed, 10 steps" in line]
    assert [line.split(":")[0] for line in finished] == ["0_grpo_s0", "1_grpo_s1", "2_grpo_s2"]
    assert finished[0].endswith("(runs 1/3, steps 18/30, 04:00 elapsed, ~02:40 left)")  # 10 + 2 x 4 steps
    minutes = [line for line in lines if line.startswith("demo: runs")]
    assert 5 <= len(minutes) <= 10 and len(lines) == len(finished) + len(minutes)  # at most one a minute


def test_in_a_log_nothing_is_written_while_no_step_is_made(tmp_path, monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(progress_module.time, "time", clock)
    log = _Log()
    bar = SweepProgress("demo", tmp_path / "sweep", n_runs=2, total_steps=20, file=log)
    for second in range(0, 600, 2):  # ten minutes loading a model: no step, no line
        clock.now = 1000.0 + second
        bar.update([])
    assert log.getvalue() == ""


def test_a_failed_run_is_one_line_with_its_error_and_a_continued_sweep_says_what_it_kept(tmp_path):
    sweep = tmp_path / "sweep"
    for name, state, error in (("0_grpo_s0", "completed", None), ("1_grpo_s1", "running", None)):
        run = sweep / name
        run.mkdir(parents=True)
        (run / METRICS).write_text(json.dumps({"step": 1}) + "\n")
        (run / RUN_INFO).write_text(json.dumps({"status": state, "error": error}))
    log = _Log()
    with SweepProgress("demo", sweep, n_runs=2, total_steps=2, file=log):
        (sweep / "1_grpo_s1" / RUN_INFO).write_text(json.dumps({"status": "failed", "error": "Traceback\nValueError: bad"}))
    assert log.getvalue().splitlines() == [
        "demo: 1 of 2 run(s) completed earlier, kept",
        "1_grpo_s1: failed at step 1: ValueError: bad (runs 1/2, steps 2/2, 00:00 elapsed)",  # no step made here
    ]


def test_a_continued_sweep_estimates_the_time_left_from_its_own_pace(tmp_path, monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(progress_module.time, "time", clock)
    sweep = tmp_path / "sweep"
    for i, (state, steps) in enumerate((("completed", 60), ("completed", 60), ("running", 20))):  # an earlier sitting's
        run = sweep / f"{i}_grpo_s{i}"
        run.mkdir(parents=True)
        (run / METRICS).write_text("".join(json.dumps({"step": s}) + "\n" for s in range(1, steps + 1)))
        (run / RUN_INFO).write_text(json.dumps({"status": state}))
    bar = SweepProgress("demo", sweep, n_runs=4, total_steps=240, file=_Log())
    clock.now += 600.0  # ten minutes, 20 steps made here: the 80 left take 40 minutes, not the 5 that 160 would imply
    runs = [RunState("0_grpo_s0", 60, "completed"), RunState("1_grpo_s1", 60, "completed"),
            RunState("2_grpo_s2", 30, "running"), RunState("3_grpo_s3", 10, "running")]
    bar.update(runs)
    assert bar.state(2) == "runs 2/4, steps 160/240, 10:00 elapsed, ~40:00 left"
