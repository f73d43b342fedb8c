"""Build-once entries under ``BOT_REPRO_CACHE``, safe with many processes on one machine.

An entry is a folder (a tiny model, a warm-started policy, ...). ``build_once`` builds it at most
once per machine: under a file lock beside it, into a temporary folder that is renamed into place
only after the builder returned and the completion marker was written. An entry without the marker
(a build killed half-way, an older layout, a copy cut short) is rebuilt, never loaded. Under a
distributed launch the local main process builds and the other local ranks wait for the marker,
so N ranks never build N copies; independent jobs (sweep processes) take turns on the lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bot_repro import ranks

COMPLETE = ".bot_repro_complete"  # written last, inside the entry, holding the entry's metadata
WAIT_S = 6 * 3600  # how long a non-main rank waits for its local main's build (a long warm start fits)


def cache_root() -> Path:
    """Where every cache of the project lives: ``BOT_REPRO_CACHE``, default ``~/.cache/bot_repro``."""
    return Path(os.environ.get("BOT_REPRO_CACHE") or Path.home() / ".cache" / "bot_repro")


def is_complete(entry: Path, meta: dict[str, Any] | None = None) -> bool:
    """The entry holds a finished build (of ``meta``, when given)."""
    marker = Path(entry) / COMPLETE
    try:
        recorded = json.loads(marker.read_text())
    except (OSError, ValueError):
        return False
    return meta is None or recorded == _jsonable(meta)


def _jsonable(meta: dict[str, Any] | None) -> Any:
    return json.loads(json.dumps(meta or {}, sort_keys=True, default=str))


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive ``flock`` on ``path`` (created if missing), released when the block ends or the
    process dies: a killed builder never leaves the lock held."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def build_once(
    entry: str | Path,
    build: Callable[[Path], Any],
    meta: dict[str, Any] | None = None,
    wait_s: float | None = None,
) -> Path:
    """Return ``entry`` once it holds a complete build, calling ``build(folder)`` if it does not.

    ``build`` writes the entry's files into the (empty, temporary) ``folder`` it is given; it must
    not write to ``entry`` itself. ``meta`` (JSON-able) is stored in the completion marker: an entry
    built with other metadata is rebuilt. Non-main local ranks of a distributed launch wait up to
    ``wait_s`` (default ``WAIT_S``) for the local main's build instead of building.
    """
    entry = Path(entry)
    if is_complete(entry, meta):
        return entry
    if not ranks.is_local_main():
        return _wait_for(entry, meta, WAIT_S if wait_s is None else wait_s)
    entry.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(entry.parent / f".{entry.name}.lock"):
        if is_complete(entry, meta):  # another job built it while this one waited for the lock
            return entry
        for stale in entry.parent.glob(f".{entry.name}.tmp-*"):  # left by killed builds (we hold the lock)
            shutil.rmtree(stale, ignore_errors=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{entry.name}.tmp-", dir=entry.parent))
        tmp.chmod(0o755)  # mkdtemp's 0700 would hide a shared machine's cache from its other users
        try:
            build(tmp)
            (tmp / COMPLETE).write_text(json.dumps(_jsonable(meta), sort_keys=True))
            if entry.exists() or entry.is_symlink():  # incomplete, or built from other metadata
                shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
            tmp.rename(entry)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return entry


def _wait_for(entry: Path, meta: dict[str, Any] | None, wait_s: float) -> Path:
    deadline = time.monotonic() + wait_s
    while not is_complete(entry, meta):
        if time.monotonic() > deadline:
            raise TimeoutError(
                f"local rank {ranks.local_rank()} waited {wait_s:.0f} s for cache entry {entry}, which the local "
                "main process (LOCAL_RANK=0) builds; it did not finish. Check that process's log, or build the "
                "entry with a one-process run first"
            )
        time.sleep(0.2)
    return entry
