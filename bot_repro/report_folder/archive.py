"""A report's archive: its runs' records in one file, ``<report>/runs.tar.xz`` (``ARCHIVE``).

``write_archive`` packs a folder (``runs/``: one folder per run, plus ``policy.json`` and
``load.csv``) as a tar whose members are the folder's files under its name (``runs/0_grpo_s0/...``),
in name order, with mtime 0, owner 0 and mode 0644, compressed as xz: the same records give the
same bytes, so re-publishing unchanged runs changes nothing in git.

``unpack`` is the one reader: it unpacks a report's archive once per process into a temporary
folder (removed when the process ends) and returns the ``runs/`` folder there, which every reader of
run folders (``bot_repro.run_folder``, the figure loaders, ``findings``) reads as it read the committed
``runs/`` folder before. Run ids stay ``runs/<run>``; ``unpacked`` maps each unpacked folder to the
report it came from, so ``bot_repro.paths`` publishes its runs as ``<report>/runs/<run>``.
``archive_members`` reads the members in memory (the repository tests that scan committed text).
"""

from __future__ import annotations

import atexit
import io
import lzma
import shutil
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

RUNS = "runs"  # the folder an archive holds and unpacks to; run ids are runs/<run>
ARCHIVE = f"{RUNS}.tar.xz"  # under the report

_UNPACKED: dict[Path, Path] = {}  # unpacked runs/ folder -> the report folder it came from


def write_archive(folder: str | Path, dest: str | Path) -> Path:
    """Pack every file under ``folder`` into the archive ``dest`` (module docstring); returns ``dest``."""
    folder, dest = Path(folder), Path(dest)
    files = sorted((p.relative_to(folder).as_posix(), p) for p in folder.rglob("*") if p.is_file())
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, path in files:
            data = path.read_bytes()
            info = tarfile.TarInfo(f"{folder.name}/{name}")  # mtime 0, uid/gid 0, no owner names, mode 0644
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(lzma.compress(buffer.getvalue(), format=lzma.FORMAT_XZ, preset=6))
    return dest


def archive_members(archive: str | Path) -> Iterator[tuple[str, bytes]]:
    """(member name, bytes) of every file in ``archive``, in the archive's (name) order."""
    with tarfile.open(archive, "r:xz") as tar:
        for info in tar:
            if info.isfile():
                yield info.name, tar.extractfile(info).read()


def has_archive(folder: str | Path) -> bool:
    return (Path(folder) / ARCHIVE).is_file()


def unpack(folder: str | Path) -> Path:
    """The ``runs/`` folder of the report ``folder``'s archive, unpacked (once per process) into a
    temporary folder that is removed when the process ends. No archive is a FileNotFoundError."""
    folder = Path(folder).resolve()
    for runs, source in _UNPACKED.items():
        if source == folder:
            return runs
    archive = folder / ARCHIVE
    if not archive.is_file():
        raise FileNotFoundError(f"{folder} has no {ARCHIVE} (a report folder's archived runs)")
    tmp = Path(tempfile.mkdtemp(prefix="bot_repro_archive_")).resolve()
    atexit.register(shutil.rmtree, tmp, True)
    runs = extract_archive(archive, tmp)
    _UNPACKED[runs] = folder
    return runs


def extract_archive(archive: str | Path, into: str | Path) -> Path:
    """Extract ``archive`` into the folder ``into``; returns the ``runs/`` folder it made there."""
    with tarfile.open(archive, "r:xz") as tar:
        tar.extractall(into, filter="data")  # refuses members outside ``into``, links and devices
    runs = Path(into) / RUNS
    if not runs.is_dir():
        raise FileNotFoundError(f"{archive} holds no {RUNS}/ folder")
    return runs


def unpacked() -> dict[Path, Path]:
    """Each archive unpacked in this process: its ``runs/`` folder -> the report folder it came from."""
    return dict(_UNPACKED)


def unpacked_from(path: str | Path) -> Path | None:
    """The report folder whose archive was unpacked at ``path`` (a ``runs/`` folder), else None."""
    return _UNPACKED.get(Path(path).resolve())


def run_root(path: str | Path) -> Path:
    """``path`` as a folder of run folders: a report folder with an archive, or the archive file itself,
    gives its runs unpacked; any other path is returned as it is."""
    path = Path(path)
    if path.name == ARCHIVE and path.is_file():
        return unpack(path.parent)
    return unpack(path) if path.is_dir() and has_archive(path) else path
