"""Was a checker worker stopped? How the checker pools tell a stalled worker from a sample's own hang.

The React check pool (Node workers) and the math-verify pool give each sample a deadline; a sample
past it normally scores as a failed check. That is wrong when the worker was *stopped* (state ``T``,
by SIGSTOP or job control; ``t``, by a debugger): it ran nothing, so the timeout says nothing about
the sample. A sample cannot stop its own worker (the Node worker only
parses, bundles, lints and type-checks its code; math-verify only parses its answer), so a stopped
process among the worker's at the deadline means infrastructure, and the pools re-run the sample on
a fresh worker instead of scoring it (issue #43).

What is not told apart: a worker that runs but slowly (starved of CPU on a loaded machine) still
scores its sample as timed out, because a CPU-time threshold would depend on the load; and without
``/proc`` (not Linux) no process reads as stopped, so every timeout scores as before.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

STOPPED_STATES = ("T", "t")  # /proc/<pid>/stat: stopped by a signal, stopped by a tracer
# A sample whose worker stalled this many times in one call is given up: no score, excluded from
# the loss (RewardResult.excluded = "worker_stalled") rather than re-run without end.
MAX_STALLS = 2


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state first), or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def state(pid: int) -> str | None:
    """A process's state letter (``R``, ``S``, ``T``, ``Z``, ...), or None when it is gone."""
    fields = _stat_fields(pid)
    return fields[0] if fields else None


def group(pgid: int) -> list[int]:
    """The processes of process group ``pgid`` (a React worker and the servers it started)."""
    pids = []
    for name in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if name.isdigit():
            fields = _stat_fields(int(name))
            if fields and len(fields) > 2 and fields[2] == str(pgid):
                pids.append(int(name))
    return pids


def any_stopped(pids: Iterable[int]) -> bool:
    """Whether any of ``pids`` is stopped (a stopped worker, or a stopped server it waits on)."""
    return any(state(pid) in STOPPED_STATES for pid in pids)
