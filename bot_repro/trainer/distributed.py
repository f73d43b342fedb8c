"""One run, N processes: the launch, the run directory every rank shares, who owns it, and how a run ends.

``launch`` starts a resources preset's training processes (``resources.processes``, or one per
GPU) through torchrun on this node, from a plain ``python -m bot_repro.train`` (locally or as the
one task of a Slurm job), and forwards SIGTERM/SIGINT to them. Inside a launch, ``shared_run_dir``
gives every rank rank 0's run directory (Hydra names it from a timestamp, which can differ by a
second between ranks) and ``barrier`` keeps a rank from writing before every rank has checked the
folder. Only rank 0 writes the run's files (``bot_repro.ranks.is_main``). ``own`` takes the run
folder's lock for the run's life (``bot_repro.run_folder.lock``: the launcher's, shared with rank 0),
and ``die_with_launcher`` stops a rank whose launcher died, even by SIGKILL.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import torch.distributed as dist

from bot_repro import ranks
from bot_repro.run_folder.lock import LAUNCHER, RANK0, RUN, RunLock, process_alive
from bot_repro.trainer.run_dir import Terminated, discard_new_folder

LAUNCHER_PID = "BOT_REPRO_LAUNCHER_PID"  # set by ``launch`` for its ranks: the process they must not outlive
# a rank whose launcher died gets SIGTERM (rank 0 records the kill in run.json), and is ended this long after
GRACE_S = 3
GONE: list[int] = []  # the launcher's PID once this rank's watch has found it gone (for run.json's error)


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
    if shared != run_dir:  # this rank's own Hydra folder: a duplicate
        discard_new_folder(run_dir)
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
    child = subprocess.Popen(cmd, env={**os.environ, LAUNCHER_PID: str(os.getpid())})

    def forward(signum, frame):
        child.send_signal(signum)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    try:
        return child.wait()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def own(run_dir: Path, processes: int) -> RunLock | None:
    """This process's hold on ``run_dir``'s lock for the run's life (``RunFolderBusy`` if a live run has it):
    a single process's, exclusive; a launcher's, made shared before it starts ``processes`` ranks; under
    that launcher, rank 0's share; under one of its own (torchrun by hand), rank 0's, exclusive; none on
    the other ranks. A stale lock taken over is said on stderr."""
    if launched() and not ranks.is_main():
        return None
    if launched() and LAUNCHER_PID in os.environ:
        return RunLock.join(run_dir, RANK0)
    lock = RunLock.take(run_dir, RANK0 if launched() else LAUNCHER if processes > 1 else RUN)
    if lock.stale:
        print(lock.taken_over(), file=sys.stderr, flush=True)
    if processes > 1 and not launched():
        lock.share()
    return lock


def die_with_launcher() -> None:
    """Stop this rank when its launcher dies, even by SIGKILL, which forwards nothing: torchrun starts each
    rank in a session of its own, so killing the launcher's process group leaves the ranks running. A
    thread watches this rank's parent (torchrun's agent) and ``launch``'s process (``LAUNCHER_PID``, which
    also covers a launcher gone before this thread started); when either is gone it sends this process
    SIGTERM (rank 0 records ``killed``), and the kernel ends it ``GRACE_S`` later if it still runs."""
    parent = os.getppid()
    launcher = os.environ.get(LAUNCHER_PID, "")
    signal.signal(signal.SIGALRM, signal.SIG_DFL)  # the watch's deadline: the kernel's to act on, not Python's
    threading.Thread(target=_watch, args=(parent, int(launcher) if launcher.isdigit() else None),
                     name="launcher-watch", daemon=True).start()


def _watch(parent: int, launcher: int | None) -> None:
    while os.getppid() == parent and (launcher is None or process_alive(launcher)):
        time.sleep(0.2)
    gone = parent if os.getppid() != parent else launcher
    GONE.append(gone)
    os.kill(os.getpid(), signal.SIGTERM)
    # the kernel ends the process GRACE_S later (SIGALRM's default action), whatever Python is doing then: a
    # thread of it would not run once the interpreter shuts down, where a rank can wait on its dead peers
    signal.alarm(GRACE_S)
    print(f"rank {ranks.rank()}: its launcher (PID {gone}) is gone; stopping this rank (PID {os.getpid()})",
          file=sys.stderr, flush=True)


class RanksFailed(RuntimeError):
    """The training processes started by ``launch`` did not all exit 0."""


def describe(exc: BaseException) -> str:
    """The error ``run.json`` records; under a launch, says where a SIGTERM came from: the rank's watch, its
    launcher being gone, or else the launcher, which stops every rank when one fails."""
    text = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, Terminated) and ranks.world_size() > 1:
        why = (f"its launcher (PID {GONE[0]}) is gone, so every rank stops" if GONE else
               "the launcher stops every rank this way when one rank fails or the job is cancelled; the failing "
               "rank's error is in the launcher's output")
        text += f" (rank {ranks.rank()} of {ranks.world_size()}: {why})"
    return text
