"""What an experiment prints while its sweep trains: a bar over every run's steps, one line per finished run.

The sweep's jobs print no steps of their own (``bot_repro.train`` in a multirun); a thread polls the sweep
folder every ``POLL_S`` seconds instead (``poll``: the steps in each run's ``metrics.jsonl`` and its
``run.json`` status), so the bar counts the same steps whichever launcher runs the jobs. On a terminal the
bar is tqdm's, redrawn in place, with a line above it for each run that finishes. In a log (stderr not a
terminal) nothing is redrawn: a line for each run that finishes, and between them at most one line a
minute (``LOG_EVERY_S``), only when steps were made since the last one.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from tqdm import tqdm

from bot_repro.run_folder import find_run_dirs, last_step, read_run_json, status

POLL_S = 2.0
LOG_EVERY_S = 60.0
UNFINISHED = (None, "running")  # run.json's status while a run trains (None: not written yet)


@dataclass(frozen=True)
class RunState:
    name: str  # the run folder, relative to the sweep folder
    steps: int
    status: str | None


def poll(sweep_dir: Path) -> list[RunState]:
    """Every run under ``sweep_dir``; none until a run has written its first metrics line (the sweep
    folder exists before any run folder does)."""
    try:
        dirs = [d for _, d in find_run_dirs(sweep_dir)]
    except FileNotFoundError:
        return []
    return [RunState(d.relative_to(sweep_dir.resolve()).as_posix(), last_step(d), status(d)) for d in dirs]


def _finished_line(run: RunState, sweep_dir: Path) -> str:
    if run.status == "completed":
        return f"{run.name}: completed, {run.steps} steps"
    try:
        error = str((read_run_json(sweep_dir / run.name) or {}).get("error") or "").strip().splitlines()
    except ValueError:  # being rewritten, or a format this reader does not know: the status says enough
        error = []
    return f"{run.name}: {run.status} at step {run.steps}{f': {error[-1][:300]}' if error else ''}"


class SweepProgress:
    """The bar of experiment ``name`` over ``n_runs`` runs of ``total_steps`` steps in all, written in ``sweep_dir``;
    a context manager that polls the folder in a thread until it exits."""

    def __init__(self, name: str, sweep_dir: Path, n_runs: int, total_steps: int, file: TextIO | None = None):
        self.name, self.sweep_dir, self.n_runs = name, sweep_dir, n_runs
        self.total = total_steps
        self.file = file or sys.stderr
        self.tty = self.file.isatty()
        self.bar = tqdm(total=self.total, desc=f"{name} steps", unit="step", dynamic_ncols=True,
                        file=self.file) if self.tty else None  # fmt: skip
        self.start = self.last_line = time.time()
        self.steps = self.logged_steps = 0
        # runs finished before this sweep (a continued one's): not reported again unless they train again
        earlier = poll(sweep_dir)
        self.reported = {r.name: r.status for r in earlier if r.status not in UNFINISHED}
        # steps made before this sitting: the time left is estimated from this sitting's own pace
        self.first_steps = min(sum(r.steps for r in earlier), self.total)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> SweepProgress:
        kept = sum(s == "completed" for s in self.reported.values())
        if kept:
            self._write(f"{self.name}: {kept} of {self.n_runs} run(s) completed earlier, kept")
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.update(poll(self.sweep_dir))  # the last run's line, written between two polls
        if self.bar is not None:
            self.bar.close()

    def _watch(self) -> None:
        while not self._stop.wait(POLL_S):
            self.update(poll(self.sweep_dir))

    def _write(self, line: str) -> None:
        if self.bar is not None:
            self.bar.write(line, file=self.file)
        else:
            print(line, file=self.file, flush=True)
        self.last_line, self.logged_steps = time.time(), self.steps

    def state(self, done: int) -> str:
        """``runs 3/9, steps 210/630, 04:10 elapsed, ~08:20 left``: the bar's numbers as one line."""
        elapsed, made = time.time() - self.start, self.steps - self.first_steps
        left = f", ~{tqdm.format_interval(elapsed / made * (self.total - self.steps))} left" if made > 0 else ""
        return f"runs {done}/{self.n_runs}, steps {self.steps}/{self.total}, {tqdm.format_interval(elapsed)} elapsed{left}"

    def update(self, runs: list[RunState]) -> None:
        """Take one poll: move the bar, and write a line for each run that finished since the last poll."""
        self.steps = min(sum(r.steps for r in runs), self.total)
        done = sum(r.status == "completed" for r in runs)
        for run in runs:
            if run.status in UNFINISHED:
                self.reported.pop(run.name, None)  # training (again): its next end is news
            elif self.reported.get(run.name) != run.status:
                self.reported[run.name] = run.status
                line = _finished_line(run, self.sweep_dir)
                self._write(line if self.tty else f"{line} ({self.state(done)})")
        if self.bar is not None:
            self.bar.n = self.steps
            self.bar.set_postfix_str(f"runs done {done}/{self.n_runs}")
            self.bar.refresh()
        elif time.time() - self.last_line >= LOG_EVERY_S and self.steps > self.logged_steps:
            self._write(f"{self.name}: {self.state(done)}")
