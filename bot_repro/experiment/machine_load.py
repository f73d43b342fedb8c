"""The machine's load while a sweep trains: one CSV row every ``PERIOD_S`` in the sweep folder
(``report_folder.LOAD``), archived with the runs, so a wall time in a report says how busy the cores were.

Columns: ``utc``, the 1/5/15-minute load averages (/proc/loadavg) and ``busy_cores``: the CPU seconds
the whole machine spent in user, nice and system time per wall second since the previous row
(/proc/stat, as bench/header.py counts them), so 2.00 on 2 cores is a machine with no idle time. A
continued sweep appends to the same file. Linux only: elsewhere nothing is recorded.
"""

from __future__ import annotations

import csv
import os
import threading
import time
from pathlib import Path

from bot_repro.report_folder import LOAD

PERIOD_S = 30.0
COLUMNS = ("utc", "load1", "load5", "load15", "busy_cores")
_CLK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _busy_ticks() -> int | None:
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
    except OSError:
        return None
    return sum(int(x) for x in fields[1:4])  # user, nice, system


def _loadavg() -> list[str]:
    with open("/proc/loadavg") as f:
        return f.read().split()[:3]


class LoadRecord:
    """``with LoadRecord(sweep_dir):`` samples the machine until the block ends (a daemon thread)."""

    def __init__(self, folder: Path, period_s: float = PERIOD_S):
        self.path = Path(folder) / LOAD
        self.period_s = period_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="load-record", daemon=True)

    def __enter__(self) -> LoadRecord:
        if _busy_ticks() is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _loop(self) -> None:
        new = not self.path.exists()
        with self.path.open("a", newline="") as f:
            out = csv.writer(f)
            if new:
                out.writerow(COLUMNS)
            ticks, start = _busy_ticks(), time.monotonic()
            while not self._stop.wait(self.period_s):
                now_ticks, now = _busy_ticks(), time.monotonic()
                busy = (now_ticks - ticks) / _CLK / max(now - start, 1e-9)
                ticks, start = now_ticks, now
                out.writerow([time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), *_loadavg(), f"{busy:.2f}"])
                f.flush()


def load_summary(path: Path) -> dict | None:
    """``{"samples", "mean_busy_cores", "max_load1"}`` of a load record, None when there is none."""
    try:
        with Path(path).open(newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return None
    if not rows:
        return None
    busy = [float(r["busy_cores"]) for r in rows]
    return {"samples": len(rows), "mean_busy_cores": round(sum(busy) / len(busy), 2),
            "max_load1": max(float(r["load1"]) for r in rows)}
