"""Command line of the figures: ``python -m bot_repro.figures {list,reproduce,plot} ...``.

    reproduce <slug|N> [options] [hydra overrides...]   sweep + evaluation + plot (make reproduce-figure-N)
    plot <slug|N|all> [options] [hydra overrides...]    replot from existing runs (make figure-N, make figures)
    list                                                the ten figures

Hydra overrides pass through to every job of the sweep (``debug=smoke``, ``cluster=slurm``,
``resources=a100_80g``, ``seed=0,1,2,3``, ``judge=anthropic``, ...) and to the plot settings
(``plot.fig1_compile_rate.threshold=0.9``). Exit status: 0 done, 1 a figure failed, 2 bad input.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from bot_repro.config_errors import ConfigError
from bot_repro.figures import pipeline, sweep
from bot_repro.figures.specs import ordered, resolve
from bot_repro.figures.sweep import FigureError
from bot_repro.registry import UnknownNameError

log = logging.getLogger("bot_repro.figures")


COMMANDS = ("list", "reproduce", "plot")


def _parser(command: str) -> argparse.ArgumentParser:
    cmd = argparse.ArgumentParser(prog=f"python -m bot_repro.figures {command}", description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    if command == "list":
        return cmd
    cmd.add_argument("figure", help="figure slug or number" + (", or 'all'" if command == "plot" else ""))
    cmd.add_argument("overrides", nargs="*", help="Hydra overrides (key=value)")
    cmd.add_argument("--runs-root", type=Path, default=None,
                     help="runs folder (default: runs, or runs/smoke with debug=smoke)")
    cmd.add_argument("--results-root", type=Path, default=None,
                     help="figures folder (default: results, or <runs root>/results with debug=smoke)")
    if command == "reproduce":
        cmd.add_argument("--subprocess", action="store_true",
                         help="run the multirun in a child process instead of this one")
        cmd.add_argument("--retrain", action="store_true",
                         help="train even when a figure that reads another figure's runs finds them complete")
    else:
        cmd.add_argument("--runs", type=Path, nargs="+", default=None,
                         help="plot these run folders instead of the figure's default folder")
    return cmd


def main(argv: Sequence[str] | None = None) -> int:
    if not log.handlers:  # our own handler: the root logger belongs to Hydra's jobs
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("[%(name)s] %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        print(__doc__, file=sys.stderr)
        return 2
    command = argv[0]
    args = _parser(command).parse_intermixed_args(argv[1:])
    if command == "list":
        for spec in ordered():
            print(f"{spec.number:>2}  {spec.slug:<24} {spec.claim:<4} {spec.shows}")
        return 0
    try:
        roots = pipeline.Roots.default(sweep.is_smoke(args.overrides), args.runs_root, args.results_root)
        if command == "reproduce":
            paths = pipeline.reproduce(resolve(args.figure), args.overrides, roots, in_process=not args.subprocess,
                                       retrain=args.retrain)
            print("\n".join(map(str, paths)))
            return 0
        if args.figure == "all":
            return _plot_all(args.overrides, roots)
        paths = pipeline.plot(resolve(args.figure), args.overrides, roots, args.runs)
        print("\n".join(map(str, paths)))
        return 0
    except (UnknownNameError, ConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except FigureError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


def _plot_all(overrides: Sequence[str], roots: pipeline.Roots) -> int:
    """Replot every figure that has runs; figures without runs are listed, not errors."""
    failed, missing = [], []
    for spec in ordered():
        source = roots.runs / (spec.slug if spec.post else spec.runs_slug)
        if not source.exists():
            missing.append(spec.slug)
            continue
        try:
            for path in pipeline.plot(spec, overrides, roots):
                print(path)
        except FigureError as exc:
            print(f"error: {exc}", file=sys.stderr)
            failed.append(spec.slug)
    if missing:
        print(f"no runs yet (make reproduce-figure-N): {', '.join(missing)}", file=sys.stderr)
    return 1 if failed else 0
