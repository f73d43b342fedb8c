"""Which process of a run this is, read from the launcher's environment (torchrun, accelerate, srun).

Layer 0 on purpose: caches, worker pools and writers below the trainer need the answer before
``torch.distributed`` is up (the tiny model is built before the trainer exists), so it comes from
the variables every launcher sets, not from a process group.
"""

from __future__ import annotations

import os


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value.lstrip("-").isdigit() else default


def world_size() -> int:
    return _int("WORLD_SIZE", 1)


def rank() -> int:
    return _int("RANK", 0)


def local_rank() -> int:
    return _int("LOCAL_RANK", 0)


def local_world_size() -> int:
    """Processes of this run on this machine (torchrun sets LOCAL_WORLD_SIZE; 1 outside a launch)."""
    return _int("LOCAL_WORLD_SIZE", 1 if world_size() == 1 else world_size())


def is_main() -> bool:
    """The process that writes the run's files (rank 0 of the whole run)."""
    return rank() == 0


def is_local_main() -> bool:
    """The process that builds this machine's caches (local rank 0)."""
    return local_rank() == 0


def cpu_share() -> int:
    """Cores this process may use: the cores it is allowed on, split evenly among the run's local
    processes (at least 1), so N ranks on one machine do not each start a pool of every core."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, cores // max(1, local_world_size()))
