"""A run folder has one owner: ``run.lock``, locked while a run writes the folder.

A run takes the lock (``RunLock.take``, an exclusive ``flock``) once its config has passed every check
and holds it to its end; a second ``train`` or ``resume=true`` on the folder is refused at once
(``RunFolderBusy``, naming the PIDs that hold it). The file names its holders, one JSON line each
(``pid``, ``host``, ``since``, ``role``). A run of N processes: the launcher takes the lock and makes it
shared before it starts the ranks, and rank 0 (the one writer) joins it shared, so the folder stays
locked while either lives. ``flock`` ends with its process: a lock whose holders died holding it (SIGKILL,
a lost node) still names them but is held by nobody, and the next run takes it over, saying so. A run
that ends releases the lock and empties the file.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import sys
import time
import weakref
from pathlib import Path

from bot_repro.run_folder.schema import LOCK

RUN, LAUNCHER, RANK0 = "run", "launcher", "rank 0"  # a holder's role: one process, N processes' launcher, their writer


class RunFolderBusy(RuntimeError):
    """A live run holds the folder's lock."""


def process_alive(pid: int) -> bool:
    """Process ``pid`` of this machine runs (a zombie, dead but not yet reaped by its parent, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # Linux: the state after the command's closing parenthesis
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return not Path("/proc/self/stat").exists()  # gone just now; without /proc, kill(0) is the answer


def _records(fd: int) -> list[dict]:
    out = []
    for line in os.pread(fd, 1 << 16, 0).decode(errors="replace").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(rec, dict) and isinstance(rec.get("pid"), int):
            out.append(rec)
    return out


def describe(records: list[dict]) -> str:
    """``PID 123 (launcher) on host since <time>, ...``."""
    return ", ".join(f"PID {r['pid']} ({r.get('role', '?')}) on {r.get('host', '?')} since {r.get('since', '?')}"
                     for r in records) or "a process that wrote no record"


def _busy(run_dir: Path, fd: int) -> RunFolderBusy:
    records = _records(fd)
    here = socket.gethostname()
    alive = [r for r in records if r.get("host") != here or process_alive(r["pid"])] or records
    kill = " ".join(str(r["pid"]) for r in alive if r.get("host") == here) or "<pid>"
    return RunFolderBusy(f"{run_dir} is in use by a run that is still alive: its {LOCK} is held by {describe(alive)}. "
                         f"Wait for that run to end, or stop it (kill {kill}) and continue it with resume=true")


def _lock(fd: int, mode: int, run_dir: Path) -> None:
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
    except BlockingIOError:
        raise _busy(run_dir, fd) from None
    except OSError as exc:  # a file system without flock (some network mounts): run, unguarded
        print(f"warning: cannot lock {run_dir / LOCK} ({exc.strerror}): nothing stops a second run on this folder",
              file=sys.stderr, flush=True)


def _open_locked(run_dir: Path, flags: int, mode: int) -> int:
    """A descriptor of ``run_dir``'s lock file holding the lock in ``mode`` (closed again if busy)."""
    fd = os.open(run_dir / LOCK, flags, 0o644)
    try:
        _lock(fd, mode, run_dir)
    except RunFolderBusy:
        os.close(fd)
        raise
    return fd


def check_free(run_dir: Path) -> None:
    """Raise ``RunFolderBusy`` if a live run holds ``run_dir``'s lock; make nothing."""
    if (Path(run_dir) / LOCK).is_file():
        os.close(_open_locked(Path(run_dir), os.O_RDONLY, fcntl.LOCK_EX))  # free (or stale): let it go at once


class RunLock:
    """This process's hold on a run folder's lock, from ``take`` or ``join`` to ``release``."""

    def __init__(self, run_dir: Path, fd: int, owner: bool, stale: list[dict]):
        self.run_dir, self.fd, self.owner = run_dir, fd, owner
        self.stale = stale  # the records of holders that died holding it (taken over)
        _HELD.add(self)

    @classmethod
    def take(cls, run_dir: Path, role: str) -> RunLock:
        """The folder's lock, exclusive (folder and file made if need be); ``RunFolderBusy`` if a live run holds it."""
        run_dir = Path(run_dir)
        run_dir.mkdir(parents=True, exist_ok=True)
        fd = _open_locked(run_dir, os.O_RDWR | os.O_CREAT, fcntl.LOCK_EX)
        stale = _records(fd)  # a clean release empties the file
        os.ftruncate(fd, 0)
        os.pwrite(fd, _line(role), 0)
        return cls(run_dir, fd, owner=True, stale=stale)

    @classmethod
    def join(cls, run_dir: Path, role: str) -> RunLock:
        """A share of the lock its launcher holds shared (``share``); ``RunFolderBusy`` if another run holds it."""
        run_dir = Path(run_dir)
        fd = _open_locked(run_dir, os.O_RDWR | os.O_CREAT, fcntl.LOCK_SH)
        os.pwrite(fd, _line(role), os.fstat(fd).st_size)
        return cls(run_dir, fd, owner=False, stale=[])

    def share(self) -> None:
        """Make the lock shared, so that the ranks' writer can join it (the launcher, before it starts them).
        flock converts by letting go first: a run that took it in between keeps it, and this one is refused."""
        try:
            _lock(self.fd, fcntl.LOCK_SH, self.run_dir)
        except RunFolderBusy:
            os.close(self.fd)
            self.fd = None
            raise

    def taken_over(self) -> str:
        """The line that says a stale lock was taken over ('' if it was not stale)."""
        return f"{self.run_dir / LOCK}: taking over from {describe(self.stale)}, which is gone" if self.stale else ""

    def release(self) -> None:
        """Let go (the owner empties the file first: nobody left holding it); once."""
        if self.fd is None:
            return
        if self.owner:
            os.ftruncate(self.fd, 0)
        os.close(self.fd)
        self.fd = None


# A forked child (a multiprocessing worker) shares its parent's descriptors, and a flock lives while any
# descriptor of it is open: the child lets go of its copies, so that the lock ends with the run's own process.
_HELD: weakref.WeakSet[RunLock] = weakref.WeakSet()


def _forget_in_child() -> None:
    for lock in list(_HELD):
        if lock.fd is not None:
            os.close(lock.fd)  # the parent's lock stays: its own descriptor is still open
            lock.fd = None


os.register_at_fork(after_in_child=_forget_in_child)


def _line(role: str) -> bytes:
    record = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "role": role}
    return (json.dumps(record) + "\n").encode()
