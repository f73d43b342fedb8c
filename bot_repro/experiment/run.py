"""``run``, ``report``, ``publish`` and ``pack`` of an experiment (``python -m bot_repro.experiment``).

Folders: ``run`` trains the experiment's sweep into ``<runs root>/<name>/<stamp>/sweep/`` (a fresh
stamp each time, so earlier runs stay readable) and writes its report to
``<runs root>/<name>/<stamp>/report/``; ``report`` redraws a report from existing runs (by default
the committed report's archived runs, else the newest sweep); ``publish`` copies the newest report
to the experiment's committed folder ``results/<report.results>``; ``pack`` commits a stopped sweep's
completed runs as a sitting there, which ``run`` on a machine with no sweep of its own continues from
(``sitting``). Smoke mode (``debug=smoke``)
defaults the runs root to ``runs/smoke`` so toy numbers never land beside real ones.

An experiment with ``report.pairwise`` trains nothing itself: it makes sure the experiment it judges
has a completed run of every job (training the missing ones), then judges those runs. One with
``report.step0`` first prepares the starting policy its runs share (tiny model, warm start) and records
it in ``policy.json``, so reports can find the runs of other experiments that start from the same one.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot_repro import paths, report_folder
from bot_repro.analysis import committed
from bot_repro.config import validate
from bot_repro.config_schema import ConfigError
from bot_repro.experiment import report as reporting
from bot_repro.experiment import sitting, spec, sweep
from bot_repro.experiment.machine_load import LoadRecord
from bot_repro.experiment.pairwise import run_pairwise
from bot_repro.experiment.policy import prepare
from bot_repro.experiment.progress import SweepProgress
from bot_repro.experiment.sweep import ExperimentError
from bot_repro.judges import build_judge_client
from bot_repro.train import check_resources, resources_given

log = logging.getLogger("bot_repro.experiment")
SMOKE_RUNS = Path("runs/smoke")
# what a redrawn committed report keeps from the run that made it (its archive holds those runs)
CARRIED = ("sweep_dir", "wall_seconds", "continued", "reused_runs", "archived_runs")
REPORT = "report"  # a stamp's report folder, beside its sweep


@dataclass(frozen=True)
class Roots:
    runs: Path

    @classmethod
    def default(cls, smoke: bool, runs: str | Path | None = None) -> Roots:
        return cls(Path(runs) if runs else paths.REPO / (SMOKE_RUNS if smoke else Path("runs")))


def train(exp: spec.Experiment, overrides: Sequence[str], sweep_dir: Path, in_process: bool) -> float:
    """Train ``exp``'s sweep into ``sweep_dir`` with a progress bar over every run's steps and a line per
    finished run (``bot_repro.experiment.progress``); returns the wall seconds. ``in_process=False``: in
    a child process, its output in ``<sweep_dir>.log``."""
    cfg, args = sweep.compose_jobs(exp.name, [*spec.search_overrides(exp.search_dir), *overrides])
    try:
        check_resources(validate(sweep.without_hydra(cfg)), resources_given(overrides), here=False)
        steps = [c.trainer.max_steps for _, c in job_configs(exp, cfg, args)]  # a job's overrides may set its length
    except ConfigError as exc:
        raise ExperimentError(str(exc)) from exc
    n_runs, total = len(steps), sum(steps)
    log.info("%s: %d run(s), %d steps in all -> %s", exp.name, n_runs, total, sweep_dir)
    start = time.time()
    if exp.report.step0:
        report_folder.write_policy(sweep_dir, prepare(cfg))
    logfile = None if in_process else sweep_dir.parent / f"{sweep_dir.name}.log"
    try:
        with SweepProgress(exp.name, sweep_dir, n_runs, total), LoadRecord(sweep_dir):
            sweep.run_multirun(args, sweep_dir, in_process=in_process, log=logfile)
    except ExperimentError as exc:
        raise ExperimentError(f"{exc}{f'; see {logfile}' if logfile else ''}") from exc
    return time.time() - start


def job_configs(exp: spec.Experiment, cfg, args: Sequence[str]) -> list[tuple[list[str], Any]]:
    """(overrides, validated run config) of each job of ``exp``'s sweep (``cfg``, ``args``: ``sweep.compose_jobs``),
    composed as ``bot_repro.train`` will; a job that fails validation is a ConfigError naming it."""
    out = []
    for i, job in enumerate(sweep.expand_jobs(cfg, args)):
        try:
            out.append((job, validate(sweep.without_hydra(sweep.compose_experiment(exp.name, sweep.merge_overrides(args, job))))))
        except ConfigError as exc:
            raise ConfigError(f"{exp.name}, job {i} ({' '.join(job)}): {exc}") from exc
    return out


def dry_run(name: str, overrides: Sequence[str], search_dir: Path | None = None) -> list[list[str]]:
    """Every job of ``name``'s sweep composed and validated as ``bot_repro.train`` would (the device
    left to the machine that trains: a GPU preset checks here), printed one line each, nothing trained."""
    exp = spec.load(name, overrides, search_dir)
    cfg, args = sweep.compose_jobs(exp.name, [*spec.search_overrides(exp.search_dir), *overrides])
    jobs, steps = [], 0
    for i, (job, run_cfg) in enumerate(job_configs(exp, cfg, args)):
        try:
            check_resources(run_cfg, resources_given(overrides), here=False)
        except ConfigError as exc:
            raise ConfigError(f"{exp.name}, job {i} ({' '.join(job)}): {exc}") from exc
        jobs.append(job)
        steps += run_cfg.trainer.max_steps
        res = run_cfg.resources
        print(f"{i:>3}  {' '.join(o for o in job if not o.startswith('experiment='))}  "
              f"[{res.name}: {res.device}, {'bf16' if res.bf16 else 'fp32'}, "
              f"{'vLLM' if res.use_vllm else 'transformers'}; {run_cfg.trainer.max_steps} steps]")
    print(f"{exp.name}: {len(jobs)} job(s), {steps} training steps in all; valid (dry run: nothing trained)")
    return jobs


def ensure_runs(name: str, overrides: Sequence[str], roots: Roots, in_process: bool, retrain: bool,
                search_dir: Path | None) -> Path:
    """The runs folder of experiment ``name``, with a completed run of every job of its sweep
    (training, in a fresh stamp, only when one is missing or ``retrain``)."""
    exp = spec.load(name, overrides, search_dir)
    cfg, args = sweep.compose_jobs(exp.name, [*spec.search_overrides(search_dir), *overrides])
    root = roots.runs / exp.name
    if not retrain and sweep.missing_jobs(cfg, args, root) == []:
        log.info("%s: every job has a completed run under %s; reusing them", exp.name, root)
        return root
    train(exp, overrides, sweep.new_sweep_dir(root) / reporting.SWEEP, in_process)
    return root


def judge(exp: spec.Experiment, overrides: Sequence[str], source_root: Path, out_dir: Path) -> None:
    """``report.pairwise``: the ABBA judge over the runs under ``source_root`` -> run-like folders."""
    cfg, _ = sweep.compose_jobs(exp.name, [*spec.search_overrides(exp.search_dir), *overrides])
    client = build_judge_client(sweep.resolved(cfg, "judge"), out_dir)
    if client is None:
        raise ExperimentError(f"{exp.name} needs the pairwise judge: pass judge=openai|anthropic|bedrock|hf_local "
                          "(smoke mode uses judge=loopback)")
    try:
        client.check_credentials()
        written = run_pairwise(source_root, out_dir, exp.pairwise[1], client)
    except ValueError as exc:
        raise ExperimentError(f"{exp.name}: {exc}") from exc
    finally:
        client.close()
    log.info("%s: %d pairwise result folder(s) under %s", exp.name, len(written), out_dir)


def run(name: str, overrides: Sequence[str], roots: Roots, command: str, out: Path | None = None,
        in_process: bool = True, retrain: bool = False, search_dir: Path | None = None) -> Path:
    """Train (or judge) and report experiment ``name``; returns the report folder."""
    exp = spec.load(name, overrides, search_dir)  # a broken report block fails now, not after training
    stamp, continued = sweep.new_sweep_dir(roots.runs / exp.name), False
    if exp.pairwise is not None:
        sweep_dir = stamp / reporting.SWEEP
        source = ensure_runs(exp.pairwise[0], overrides, roots, in_process, retrain, search_dir)
        start = time.time()
        judge(exp, overrides, source, sweep_dir)
        wall = time.time() - start
    else:
        if not retrain:  # a machine without a sweep of its own continues from the committed sittings
            sitting.restore(exp.name, roots.runs, committed.committed_dir(exp.results))
        stopped = None if retrain else stopped_sweep(exp, overrides, roots)
        stamp, continued = (stopped, True) if stopped is not None else (stamp, False)
        sweep_dir = stamp / reporting.SWEEP
        # resume=true: a completed run is kept as it is, a stopped one goes on from its last checkpoint
        wall = train(exp, [*overrides, "resume=true"] if continued else overrides, sweep_dir, in_process)
    return write_report(exp, [sweep_dir], out or stamp / REPORT, command, sweep.is_smoke(overrides),
                        {"sweep_dir": paths.relative(sweep_dir), "wall_seconds": wall, "continued": continued})


def stopped_sweep(exp: spec.Experiment, overrides: Sequence[str], roots: Roots) -> Path | None:
    """The stamp of ``exp``'s newest sweep when it stopped before its report and each of its runs was
    made with the config its job composes to today: ``run`` continues it instead of starting over."""
    _, args = sweep.compose_jobs(exp.name, [*spec.search_overrides(exp.search_dir), *overrides])
    stamp, why = sweep.unfinished_sweep(exp.name, args, roots.runs / exp.name, REPORT)
    if stamp is None:
        log.info("%s: a new sweep (%s)", exp.name, why)
    else:
        log.info("%s: continuing the stopped sweep %s: completed runs are kept, the others resume", exp.name, stamp)
    return stamp


def write_report(exp: spec.Experiment, sources: Sequence[Path], out: Path, command: str, smoke: bool,
                 extra_meta: dict) -> Path:
    try:
        rep = reporting.build(exp, sources, command)
    except FileNotFoundError as exc:
        raise ExperimentError(f"{exp.name}: {exc}; run `python -m bot_repro.experiment run {exp.name}` first") from exc
    for path in reporting.write(rep, sources, out, smoke, extra_meta):
        print(path)
    committed_summary = committed.committed_dir(exp.results) / report_folder.SUMMARY
    if exp.report.step0 and committed_summary.exists() and committed_summary.parent != out.resolve():
        committed.print_comparison(out, exp.results)
    return out


def default_sources(exp: spec.Experiment, roots: Roots) -> list[Path]:
    """The committed report's archived runs (unpacked) when it has an archive, else the newest sweep of ``exp``."""
    folder = committed.committed_dir(exp.results)
    if report_folder.has_archive(folder):
        return [report_folder.unpack(folder)]
    sweeps = sorted((roots.runs / exp.name).glob(f"*/{reporting.SWEEP}"))
    if not sweeps:
        raise ExperimentError(f"{exp.name} has no committed runs ({paths.relative(folder / report_folder.ARCHIVE)}) "
                              f"and no runs under {roots.runs / exp.name}: run `python -m bot_repro.experiment run {exp.name}` first")
    return [sweeps[-1]]


def redraw(name: str, overrides: Sequence[str], roots: Roots, command: str, runs: Sequence[Path] | None = None,
           out: Path | None = None, search_dir: Path | None = None) -> Path:
    """Report experiment ``name`` from existing runs (``runs``, where a report folder or its archive
    reads as its archived runs; else ``default_sources``). Redrawing a report from its archive keeps
    the command and wall time of the run that made it."""
    exp = spec.load(name, overrides, search_dir)
    sources = [report_folder.run_root(r) for r in runs] if runs else default_sources(exp, roots)
    extra: dict = {"sweep_dir": str(paths.relative(sources[0]))}
    made = report_folder.unpacked_from(sources[0])  # the report whose archive these runs are
    if made is not None and (made / report_folder.SUMMARY).is_file():
        before = report_folder.read_summary(made)["meta"]
        first = str(before.get("command", "")).split(" (re-analysed")[0]
        command = f"{first} (re-analysed: {command})" if first else command
        extra.update({k: before[k] for k in CARRIED if k in before})
    out = out or sweep.new_sweep_dir(roots.runs / exp.name) / REPORT
    return write_report(exp, sources, out, command, sweep.is_smoke(overrides), extra)


def latest_report(name: str, roots: Roots) -> Path:
    reports = sorted((roots.runs / name).glob(f"*/{REPORT}/{report_folder.SUMMARY}"))
    if not reports:
        raise ExperimentError(f"no report under {roots.runs / name}: run `python -m bot_repro.experiment run {name}` first")
    return reports[-1].parent


def pack(name: str, roots: Roots, search_dir: Path | None = None) -> Path:
    """The completed runs of ``name``'s stopped sweep that no committed sitting holds -> its next sitting archive."""
    exp = spec.load(name, (), search_dir)
    return sitting.pack(exp.name, roots.runs, committed.committed_dir(exp.results), REPORT)


def sittings(name: str, search_dir: Path | None = None) -> str:
    """Markdown tables of what each committed sitting of ``name`` holds (``sitting.describe``)."""
    exp = spec.load(name, (), search_dir)
    return sitting.describe(committed.committed_dir(exp.results))


def publish(name: str, roots: Roots, source: Path | None = None, search_dir: Path | None = None) -> Path:
    """Copy the newest report of ``name`` (or ``source``) into its committed folder."""
    exp = spec.load(name, (), search_dir)
    return committed.publish(source or latest_report(exp.name, roots), committed.committed_dir(exp.results))
