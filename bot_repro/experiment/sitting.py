"""A long study's sittings: the runs one sitting made, committed so the next can continue on any machine.

``pack`` writes what the experiment's newest stopped sweep adds to the earlier sittings as
``results/<name>/sitting_<n>.tar.xz``: each completed run's record (``report_folder``'s archive: config,
overrides, choices, metrics, run.json, first and last rollouts, held-out samples), and each run stopped
part-way with its record and its last checkpoint, with the sweep's starting policy and its machine-load log.
``restore`` gives a machine with no sweep of the experiment a new sweep folder holding every committed
sitting's runs (a later sitting's copy of a run replaces an earlier one's), which ``run`` then continues like
its own stopped sweep (``sweep.unfinished_sweep``): completed runs are kept, a packed checkpoint resumes, the
rest train from the start. ``describe`` tells what each committed sitting holds: the tables a results
folder's README shows, generated from the archives.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import statistics
import tempfile
from datetime import datetime
from pathlib import Path

from bot_repro import report_folder
from bot_repro.experiment import sweep
from bot_repro.experiment.report import SWEEP
from bot_repro.experiment.sweep import ExperimentError
from bot_repro.run_folder import (
    OVERRIDES,
    copy_record,
    counter_total,
    last_checkpoint,
    read_metrics,
    read_run_json,
)
from bot_repro.run_folder.schema import CHECKPOINTS, METRICS, RUN_INFO

log = logging.getLogger("bot_repro.experiment")
NAME = re.compile(r"^sitting_(\d+)\.tar\.xz$")
COMPLETED = "completed"


def archives(folder: Path) -> list[Path]:
    """The sitting archives of the committed folder ``folder``, in sitting order."""
    found = [(int(m.group(1)), p) for p in Path(folder).glob("sitting_*.tar.xz") if (m := NAME.match(p.name))]
    return [p for _, p in sorted(found)]


def _packed(folder: Path) -> dict[str, str]:
    """Run folder name -> what the committed sittings hold of it, the latest sitting's: ``completed`` or the
    name of its checkpoint (``checkpoint-N``)."""
    held: dict[str, str] = {}
    for archive in archives(folder):
        found: dict[str, str] = {}
        for name, data in report_folder.archive_members(archive):
            parts = name.split("/")
            if len(parts) == 3 and parts[2] == RUN_INFO and json.loads(data).get("status") == COMPLETED:
                found[parts[1]] = COMPLETED
            elif len(parts) > 4 and parts[2] == CHECKPOINTS:
                found.setdefault(parts[1], parts[3])
        held.update(found)
    return held


def _progress(run: Path) -> str | None:
    """What packing ``run`` would commit of it: ``completed``, its last checkpoint's name, or None (nothing)."""
    if (read_run_json(run) or {}).get("status") == COMPLETED:
        return COMPLETED
    last = last_checkpoint(run)
    return last.name if last is not None else None


def pack(name: str, runs_root: Path, folder: Path, report_name: str) -> Path:
    """Commit-ready ``folder/sitting_<n>.tar.xz`` of what ``name``'s newest sweep under ``runs_root`` adds to
    the earlier sittings (completed runs, and stopped runs with a newer checkpoint); ExperimentError when
    there is nothing new to pack."""
    stamps = sorted(p.parent for p in (runs_root / name).glob(f"*/{SWEEP}"))
    if not stamps:
        raise ExperimentError(f"{name}: no sweep under {runs_root / name} to pack")
    stamp = stamps[-1]
    if (stamp / report_name).exists():
        raise ExperimentError(f"{name}: the newest sweep {stamp} is finished (it has a report): publish it instead")
    held = _packed(folder)
    runs = {r: _progress(r) for r in sorted(p.parent.parent for p in (stamp / SWEEP).rglob(OVERRIDES))}
    new = {r: got for r, got in runs.items() if got is not None and got != held.get(r.name)}
    if not new:
        raise ExperimentError(f"{name}: no completed run or newer checkpoint in {stamp} that the sittings under "
                              f"{folder} do not already hold")
    n = len(archives(folder)) + 1
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / report_folder.RUNS
        for run, got in new.items():
            copy_record(run, target / run.name, checkpoint=got != COMPLETED)
        for extra in (report_folder.POLICY, report_folder.LOAD):
            if (stamp / SWEEP / extra).is_file():
                shutil.copyfile(stamp / SWEEP / extra, target / extra)
        out = report_folder.write_archive(target, Path(folder) / f"sitting_{n}.tar.xz")
    log.info("%s: sitting %d packs %d run(s) of %s: %s", name, n, len(new), stamp,
             ", ".join(f"{r.name} ({got})" for r, got in new.items()))
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
                if item.name == report_folder.LOAD:  # each sitting's load log stays in its archive
                    continue
                if item.is_dir() and (target / item.name).exists():  # a later sitting's copy of the run
                    shutil.rmtree(target / item.name)
                shutil.move(str(item), target / item.name)
    log.info("%s: %d committed sitting(s) restored into %s: completed runs are kept, packed checkpoints resume",
             name, len(found), target)
    return stamp


def _minutes(start: str | None, end: str | None) -> float | None:
    if not start or not end:
        return None
    parse = lambda t: datetime.strptime(t, "%Y-%m-%dT%H:%M:%S%z")  # noqa: E731  RunRecord's format
    return (parse(end) - parse(start)).total_seconds() / 60


def _attempts(info: dict) -> list[dict]:
    """Every attempt of a run, earliest first: start, end, status, and (recorded since #52) code and CPU."""
    current = {k: info.get(k) for k in ("start_time", "end_time", "status", "git_sha")}
    current["cpu_model"] = (info.get("hardware") or {}).get("cpu_model")
    return [*info.get("history", []), current]


def _row(run: Path, held: str, metric: str) -> str:
    records = read_metrics(run / METRICS)
    curve = [f"{r[metric]:.3f}" for r in records if metric in r]
    steps = [r["step_seconds"] for r in records if "step_seconds" in r]
    eval_s = counter_total(r["eval_seconds"] for r in records if "eval_seconds" in r)
    attempts = _attempts(read_run_json(run) or {})
    walls = [_minutes(a.get("start_time"), a.get("end_time")) for a in attempts]
    wall = f"{sum(walls):.0f} min" if None not in walls else "stopped"
    where = sorted({f"{(a.get('git_sha') or '?')[:7]} on {a.get('cpu_model') or '?'}" for a in attempts
                    if a.get("git_sha") or a.get("cpu_model")})
    step = f"{statistics.median(steps):.0f} s" if steps else "-"
    return (f"| `{run.name}` | {held} | {', '.join(curve)} | {wall} (median step {step}; {len(curve)} evaluations, "
            f"{eval_s:,.0f} s) | {len(attempts)} | {'; '.join(where) or '-'} |")


def describe(folder: Path, metric: str = "eval/pass@1") -> str:
    """Markdown, one table per committed sitting of ``folder``: each run it holds (completed, or the
    checkpoint it stopped at), ``metric`` at every held-out evaluation, its wall time (the attempts' run.json
    times; "stopped" when an attempt never recorded its end), median step seconds and evaluation seconds
    (metrics.jsonl), its attempts, and the code and CPU each ran on."""
    found = archives(folder)
    if not found:
        raise ExperimentError(f"{folder}: no sitting_<n>.tar.xz here (python -m bot_repro.experiment pack NAME)")
    out = []
    for archive in found:
        with tempfile.TemporaryDirectory() as tmp:
            runs = report_folder.extract_archive(archive, tmp)
            out += [f"### {archive.name}", "",
                    f"| run | holds | held-out {metric} at each evaluation | wall | attempts | code on CPU |",
                    "|---|---|---|---|---|---|"]
            for run in sorted(p for p in runs.iterdir() if (p / METRICS).is_file()):
                out.append(_row(run, _progress(run) or "nothing", metric))
            out.append("")
    return "\n".join(out)
