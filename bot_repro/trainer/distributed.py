"""One run, N processes: the launch, the run directory every rank shares, and how a run ends.

``launch`` starts a resources preset's training processes (``resources.processes``, or one per
GPU) through torchrun on this node, from a plain ``python -m bot_repro.train`` (locally or as the
one task of a Slurm job), and forwards SIGTERM/SIGINT to them. Inside a launch, ``shared_run_dir``
gives every rank rank 0's run directory (Hydra names it from a timestamp, which can differ by a
second between ranks) and ``barrier`` keeps a rank from writing before every rank has checked the
folder. Only rank 0 writes the run's files (``bot_repro.ranks.is_main``).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import torch.distributed as dist

from bot_repro import ranks
from bot_repro.trainer.run_dir import Terminated

# Hydra's own files in a fresh run folder: a rank's folder holding only these is its duplicate
HYDRA_FILES = {".hydra", "train.log"}


def launched() -> bool:
    """This process is one rank of a torchrun / accelerate / srun-with-env launch."""
    return "WORLD_SIZE" in os.environ


def init() -> None:
    """Start the process group the trainer will use (accelerate's, so TRL finds it up)."""
    if launched() and ranks.world_size() > 1 and not dist.is_initialized():
        from accelerate import PartialState

        PartialState()


def shared_run_dir(run_dir: Path) -> Path:
    """Rank 0's run directory, on every rank; a rank's own differently named Hydra folder is removed."""
    if not (launched() and ranks.world_size() > 1):
        return run_dir
    init()
    box = [str(run_dir)]
    dist.broadcast_object_list(box, src=0)
    shared = Path(box[0])
    if shared != run_dir and run_dir.is_dir() and {p.name for p in run_dir.iterdir()} <= HYDRA_FILES:
        shutil.rmtree(run_dir, ignore_errors=True)
        if run_dir.parent.is_dir() and not any(run_dir.parent.iterdir()):
            run_dir.parent.rmdir()
    return shared


def barrier() -> None:
    if dist.is_available() and dist.is_initialized():
        dist.barrier()


def launch(n: int, run_dir: Path, overrides: list[str]) -> int:
    """Run this training command as ``n`` torchrun processes into ``run_dir``; return their exit code.

    The children get the command line's config overrides (a sweep job's: its own values), with
    ``hydra.run.dir=run_dir`` and no Hydra output folder of their own (this process already wrote
    ``.hydra/``); Hydra's own overrides (mode, sweeper, launcher) stay here. SIGTERM / SIGINT reach
    them through torchrun, which stops every rank when one fails: a dead rank ends the run.
    """
    cmd = [
        sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={n}",
        "-m", "bot_repro.train", *overrides, f"hydra.run.dir={run_dir}", "hydra.output_subdir=null",
    ]  # fmt: skip
    print(f"launching {n} training processes: {' '.join(cmd)}", flush=True)
    child = subprocess.Popen(cmd)

    def forward(signum, frame):
        child.send_signal(signum)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    try:
        return child.wait()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class RanksFailed(RuntimeError):
    """The training processes started by ``launch`` did not all exit 0."""


def describe(exc: BaseException) -> str:
    """The error ``run.json`` records; under a launch, says that a SIGTERM may come from another rank."""
    text = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, Terminated) and ranks.world_size() > 1:
        text += (f" (rank {ranks.rank()} of {ranks.world_size()}: the launcher stops every rank this way when one "
                 "rank fails or the job is cancelled; the failing rank's error is in the launcher's output)")
    return text
