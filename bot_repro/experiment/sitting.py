"""A long study's sittings: the runs one sitting finished, committed so the next can continue on any machine.

``pack`` writes the completed runs of the experiment's newest stopped sweep that no earlier sitting holds as
``results/<name>/sitting_<n>.tar.xz`` (the run records of ``report_folder``'s archive: config, overrides,
choices, metrics, run.json, first and last rollouts, held-out samples; no checkpoints), with the sweep's
starting policy and its machine-load log. ``restore`` gives a machine with no sweep of the experiment a new
sweep folder holding every committed sitting's runs, which ``run`` then continues like its own stopped sweep
(``sweep.unfinished_sweep``): the completed runs are kept, the rest train. A run a sitting stopped part-way
is not packed (its checkpoints stay on its machine) and trains again from the start elsewhere.
"""

from __future__ import annotations

import logging
import re
import shutil
import tempfile
from pathlib import Path

from bot_repro import report_folder
from bot_repro.experiment import sweep
from bot_repro.experiment.report import SWEEP
from bot_repro.experiment.sweep import ExperimentError
from bot_repro.run_folder import OVERRIDES, copy_record, read_run_json

log = logging.getLogger("bot_repro.experiment")
NAME = re.compile(r"^sitting_(\d+)\.tar\.xz$")
COMPLETED = "completed"


def archives(folder: Path) -> list[Path]:
    """The sitting archives of the committed folder ``folder``, in sitting order."""
    found = [(int(m.group(1)), p) for p in Path(folder).glob("sitting_*.tar.xz") if (m := NAME.match(p.name))]
    return [p for _, p in sorted(found)]


def _packed(folder: Path) -> set[str]:
    """Run folder names the committed sittings already hold."""
    names = set()
    for archive in archives(folder):
        names |= {name.split("/")[1] for name, _ in report_folder.archive_members(archive) if name.count("/") >= 2}
    return names


def pack(name: str, runs_root: Path, folder: Path, report_name: str) -> Path:
    """Commit-ready ``folder/sitting_<n>.tar.xz`` of the completed runs of ``name``'s newest sweep under
    ``runs_root`` that no earlier sitting holds; ExperimentError when there is nothing new to pack."""
    stamps = sorted(p.parent for p in (runs_root / name).glob(f"*/{SWEEP}"))
    if not stamps:
        raise ExperimentError(f"{name}: no sweep under {runs_root / name} to pack")
    stamp = stamps[-1]
    if (stamp / report_name).exists():
        raise ExperimentError(f"{name}: the newest sweep {stamp} is finished (it has a report): publish it instead")
    done = _packed(folder)
    runs = sorted(p.parent.parent for p in (stamp / SWEEP).rglob(OVERRIDES)
                  if (read_run_json(p.parent.parent) or {}).get("status") == COMPLETED)
    new = [r for r in runs if r.name not in done]
    if not new:
        raise ExperimentError(f"{name}: no completed run in {stamp} that the sittings under {folder} do not already hold")
    n = len(archives(folder)) + 1
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / report_folder.RUNS
        for run in new:
            copy_record(run, target / run.name)
        for extra in (report_folder.POLICY, report_folder.LOAD):
            if (stamp / SWEEP / extra).is_file():
                shutil.copyfile(stamp / SWEEP / extra, target / extra)
        out = report_folder.write_archive(target, Path(folder) / f"sitting_{n}.tar.xz")
    log.info("%s: sitting %d packs %d completed run(s) of %s: %s", name, n, len(new), stamp, ", ".join(r.name for r in new))
    return out


def restore(name: str, runs_root: Path, folder: Path) -> Path | None:
    """A new sweep folder under ``runs_root/name`` holding the runs of every committed sitting in ``folder``,
    when this machine has no sweep of ``name`` and some sitting is committed; else None."""
    found = archives(folder)
    if not found or list((runs_root / name).glob(f"*/{SWEEP}")):
        return None
    stamp = sweep.new_sweep_dir(runs_root / name)
    target = stamp / SWEEP
    target.mkdir(parents=True)
    for archive in found:
        with tempfile.TemporaryDirectory() as tmp:
            for item in report_folder.extract_archive(archive, tmp).iterdir():
                if item.name != report_folder.LOAD:  # each sitting's load log stays in its archive
                    shutil.move(str(item), target / item.name)
    log.info("%s: %d committed sitting(s) restored into %s: their completed runs are kept", name, len(found), target)
    return stamp
