"""``reproduce`` (sweep -> post-training evaluation -> plot) and ``plot`` (replot from run folders).

Folders: training runs go to ``<runs root>/<runs_slug>/<timestamp>/<job>/`` (a fresh timestamped
sweep folder per reproduce, so earlier sweeps are never overwritten), figure 2's pairwise results to
``<runs root>/fig2_win_rate/<timestamp>/``, and the figure with its summary to
``<results root>/<slug>/``. Smoke mode (``debug=smoke``) defaults to ``runs/smoke`` and
``runs/smoke/results`` so toy numbers never land next to real ones (``make clean-runs`` removes them).
The figure and its numbers come from the one report path, ``bot_repro.figures.report``; this module adds
the figure's ``summary.json`` (every panel's summary) and ``runs.csv``.
"""

from __future__ import annotations

import json
import logging
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from omegaconf import DictConfig

from bot_repro import paths
from bot_repro.analysis import summary_markdown
from bot_repro.config import validate
from bot_repro.config_errors import ConfigError, build_options
from bot_repro.figures import report, sweep
from bot_repro.figures.pairwise import PairwiseCfg, run_pairwise
from bot_repro.figures.runs import run_table
from bot_repro.figures.specs import FigureSpec
from bot_repro.figures.sweep import FigureError
from bot_repro.plots.curves import SMOKE_TITLE
from bot_repro.plots.figures import PlotCfg, is_smoke
from bot_repro.train import check_resources, resources_given

log = logging.getLogger("bot_repro.figures")


@dataclass(frozen=True)
class Roots:
    runs: Path
    results: Path

    @classmethod
    def default(cls, smoke: bool, runs: str | Path | None = None, results: str | Path | None = None) -> Roots:
        run_root = Path(runs) if runs else Path("runs/smoke" if smoke else "runs")
        result_root = Path(results) if results else (run_root / "results" if smoke else Path("results"))
        return cls(run_root, result_root)


def plot_settings(spec: FigureSpec, cfg: DictConfig) -> PlotCfg:
    """``plot.<slug>`` of the figure's composed config (``report.plot_settings``), as a FigureError."""
    try:
        return report.plot_settings(cfg, spec.slug, spec.experiment)
    except ConfigError as exc:
        raise FigureError(str(exc)) from exc


def _check_resources(cfg: DictConfig, overrides: Sequence[str]) -> None:
    """The trainer's own check (``bot_repro.train.check_resources``) before the sweep starts: hub-size
    models on the CPU preset only when the user asked for it; the jobs may run on cluster nodes."""
    try:
        check_resources(validate(sweep.without_hydra(cfg)), resources_given(overrides), here=False)
    except ConfigError as exc:
        raise FigureError(str(exc)) from exc


def reproduce(spec: FigureSpec, overrides: Sequence[str], roots: Roots, in_process: bool = True,
              retrain: bool = False) -> list[Path]:
    """Train the figure's sweep (reusing complete runs for a figure that reads another's), run its
    post-training evaluation, and plot. Returns the written figure files."""
    cfg, args = sweep.compose_jobs(spec.experiment, overrides)
    plot_settings(spec, cfg)  # a broken plot block fails now, not after days of training
    train_root = roots.runs / spec.runs_slug
    missing = sweep.missing_jobs(cfg, args, train_root) if spec.runs_of and not retrain else None
    if missing == []:
        log.info("%s: every job of the sweep has a completed run under %s; reusing them", spec.slug, train_root)
    else:
        _check_resources(cfg, overrides)
        jobs = sweep.expand_jobs(cfg, args)
        sweep_dir = sweep.new_sweep_dir(train_root)
        log.info("%s: %d job(s) -> %s", spec.slug, len(jobs), sweep_dir)
        sweep.run_multirun(args, sweep_dir, in_process=in_process)
    if spec.post == "pairwise":
        pairwise(spec, cfg, train_root, roots)
    return plot(spec, overrides, roots, cfg=cfg)


def pairwise(spec: FigureSpec, cfg: DictConfig, train_root: Path, roots: Roots) -> list[Path]:
    from bot_repro.judges import build_judge_client

    raw = sweep.resolved(cfg, "sweep.pairwise")
    try:
        settings = build_options(PairwiseCfg, raw, "sweep.pairwise")
    except ConfigError as exc:
        raise FigureError(str(exc)) from exc
    out_dir = sweep.new_sweep_dir(roots.runs / spec.slug)
    judge = build_judge_client(sweep.resolved(cfg, "judge"), out_dir)
    if judge is None:
        raise FigureError(f"{spec.slug} needs the pairwise judge: pass judge=openai|anthropic|bedrock|hf_local "
                          "(smoke mode uses judge=loopback)")
    try:
        judge.check_credentials()
        written = run_pairwise(train_root, out_dir, settings, judge)
    except ValueError as exc:
        raise FigureError(f"{spec.slug}: {exc}") from exc
    finally:
        judge.close()
    log.info("%s: %d pairwise result folder(s) under %s", spec.slug, len(written), out_dir)
    return written


def plot(spec: FigureSpec, overrides: Sequence[str], roots: Roots, run_roots: Sequence[Path] | None = None,
         cfg: DictConfig | None = None) -> list[Path]:
    """Draw the figure from existing run folders (default ``<runs root>/<slug or runs_of>``); write
    ``<results root>/<slug>/<slug>.png|.pdf``, ``summary.json``, ``summary.md`` and ``runs.csv``.
    ``cfg``: the experiment's composed config when the caller has it (else composed here)."""
    cfg = sweep.compose_experiment(spec.experiment, overrides) if cfg is None else cfg
    source = [roots.runs / (spec.slug if spec.post else spec.runs_slug)] if not run_roots else list(run_roots)
    command, replot = command_lines(spec, overrides)
    try:
        rep = report.build(spec.slug, spec.experiment, cfg, source, command)
    except ConfigError as exc:
        raise FigureError(str(exc)) from exc
    except FileNotFoundError as exc:
        raise FigureError(f"{spec.slug}: {exc}; run `make reproduce-figure-{spec.number}` first") from exc
    smoke = sweep.is_smoke(overrides) or is_smoke(rep.frame)
    out_dir = roots.results / spec.slug
    written = rep.draw(out_dir / spec.slug, smoke=smoke)
    write_summary(spec, rep, out_dir, smoke=smoke, replot=replot)
    table = run_table(rep.frame, rep.settings.columns)
    table["run_dir"] = table["run_dir"].map(paths.relative)  # results/ names no folder of this machine
    table.to_csv(out_dir / "runs.csv", index=False)
    log.info("%s: wrote %s", spec.slug, ", ".join(map(str, written)))
    return written


def command_lines(spec: FigureSpec, overrides: Sequence[str]) -> tuple[str, str]:
    """(the command that ran, the command that redraws the figure from the same runs).

    When this process is the figures CLI (``python -m bot_repro.figures ...``, which ``make
    reproduce-figure-N`` and ``make figure-N`` call) the first is its command line as typed; else
    (a library call) it is the equivalent ``plot`` command."""
    prog = ["python", "-m", "bot_repro.figures"]
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is None or argv0.name != "__main__.py" or argv0.parent.name != "figures":
        replot = shlex.join([*prog, "plot", spec.slug, *overrides])
        return replot, replot
    args = list(sys.argv[1:])
    figure = next((i for i, a in enumerate(args) if i > 0 and a in ("all", spec.slug, str(spec.number))), None)
    replot = ["plot", *args[1:]]
    if figure is not None:
        replot[figure] = spec.slug  # `reproduce 1` and `plot all` replot as `plot fig1_compile_rate`
    replot = [a for a in replot if a not in ("--subprocess", "--retrain")]
    return shlex.join([*prog, *args]), shlex.join([*prog, *replot])


def write_summary(spec: FigureSpec, rep: report.Report, out_dir: Path, smoke: bool = False,
                  replot: str | None = None) -> None:
    """``summary.json`` (the report's meta and machines, one summary per panel metric) and
    ``summary.md``; ``replot``: the command that redraws the figure from its runs, when it differs."""
    meta = {**rep.meta, "figure": spec.slug, "claim": spec.claim}
    if replot and replot != meta["command"]:
        meta["replot"] = replot
    if smoke:
        meta["smoke"] = f"{SMOKE_TITLE}: a few steps of a random-init model; the numbers test the pipeline only"
    meta = paths.portable(meta)  # results/ names no folder of this machine
    markdown = [summary_markdown(summary, meta) for summary in rep.summaries]
    out_dir.mkdir(parents=True, exist_ok=True)
    doc = {"meta": {**meta, "machines": rep.machines}, "summaries": rep.summaries}
    (out_dir / "summary.json").write_text(json.dumps(doc, indent=2) + "\n")
    (out_dir / "summary.md").write_text("\n".join(markdown) if markdown else f"# {spec.slug}\n\nNo metric data.\n")
