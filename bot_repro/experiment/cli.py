"""``python -m bot_repro.experiment``: every experiment through one command.

    run NAME [overrides]       train (or judge) the experiment's sweep, then report it; a sweep that
                               stopped before its report is continued (its finished runs kept)
    report NAME [overrides]    redraw its report from existing runs (default: the committed ones)
    publish NAME               copy its newest report to its committed folder under results/
    pack NAME                  a stopped sweep's completed runs and part-way runs' last checkpoints ->
                               results/<NAME>/sitting_<n>.tar.xz, which `run` on another machine
                               continues from (bot_repro/experiment/sitting.py)
    sittings NAME              what each committed sitting of NAME holds, as markdown tables (its runs'
                               held-out curves, wall and step times, code and CPU) for its README
    list                       every experiment, paper figures first
    findings                   write results/FINDINGS.md from the committed reports (--out: elsewhere)
    warm-start [EXPERIMENT ...] rebuild the shipped starting policies (or --adapter NAME) and say whether
                               this machine reproduces them (``make warm-start``; warm-start --help)
    evaluate heldout|pairwise  evaluate a saved checkpoint, or judge two evaluations (evaluate --help)

NAME is an experiment file's name (``conf/experiment/<NAME>.yaml``), a figure number (``1`` ->
``fig1_compile_rate``), ``study`` (every experiment of ``conf/study.yaml``, in order) or, for
``report``, ``figures`` (every paper figure that has runs). Overrides are Hydra overrides passed to
every job (``debug=smoke``, ``seed=0,1,2``, ``cluster=slurm``, ``resources=a100_80g``,
``judge=anthropic``). Exit status: 0 done, 1 a run or report failed, 2 bad input, 130 stopped (Ctrl-C,
or SIGTERM, which ends the sweep's worker processes too).
"""

from __future__ import annotations

import argparse
import logging
import shlex
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from bot_repro.analysis import findings
from bot_repro.config_schema import ConfigError
from bot_repro.experiment import evaluate, spec, sweep, warm_start
from bot_repro.experiment import run as runner
from bot_repro.experiment.sweep import ExperimentError
from bot_repro.registry import UnknownNameError

# verbs with arguments of their own, parsed by their module (``<verb> --help``)
VERBS = {"warm-start": warm_start.main, "evaluate": evaluate.main}
COMMANDS = ("run", "report", "publish", "pack", "sittings", "list", "findings", *VERBS)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m bot_repro.experiment", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=COMMANDS)
    ap.add_argument("name", nargs="?", help="experiment name, figure number, 'study' or 'figures'")
    ap.add_argument("overrides", nargs="*", default=[], metavar="override", help="Hydra overrides (key=value)")
    ap.add_argument("--runs-root", type=Path, default=None, help="runs folder (default runs/, runs/smoke with debug=smoke)")
    ap.add_argument("--conf-dir", type=Path, default=None,
                    help="a folder with more experiment files (<dir>/experiment/<NAME>.yaml)")
    ap.add_argument("--out", type=Path, default=None,
                    help="report folder (default <runs root>/<NAME>/<stamp>/report); findings: the file (default results/FINDINGS.md)")
    ap.add_argument("--runs", type=Path, nargs="+", default=None,
                    help="report: read these run folders (a report folder or its runs.tar.xz: its archived runs)")
    ap.add_argument("--subprocess", action="store_true", help="run: train in a child process, its output in a log file")
    ap.add_argument("--dry-run", action="store_true",
                    help="run: compose and validate every job, print them, train nothing")
    ap.add_argument("--retrain", action="store_true",
                    help="run: a new sweep, even when the last one stopped (or, judged, is complete)")
    return ap


def _names(name: str, command: str, search_dir: Path | None) -> list[str]:
    if name == "study":
        return spec.study_list()
    if name == "figures" and command == "report":
        return [n for n in spec.names(search_dir) if spec.FIGURE_NAME.match(n)]
    return [spec.resolve(name, search_dir)]


def _list(search_dir: Path | None) -> None:
    for name in spec.names(search_dir):
        block = spec.raw_report(name, search_dir)
        number = block.get("figure")
        print(f"{'' if number is None else number:>2}  {name:<24} {block.get('claim') or '':<4} {block.get('shows') or ''}")


def _interrupt(signum, _frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: Sequence[str] | None = None) -> int:
    log = logging.getLogger("bot_repro.experiment")
    if not log.handlers:  # our own handler: the root logger belongs to Hydra's jobs
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("[%(name)s] %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in VERBS:
        return VERBS[argv[0]](argv[1:])
    args = _parser().parse_intermixed_args(argv)
    command = shlex.join(["python", "-m", "bot_repro.experiment", *argv])
    # `kill PID` stops the sweep as Ctrl-C does: joblib ends its workers (by default they would train on, orphaned)
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        if args.command == "list":
            _list(args.conf_dir)
            return 0
        if args.command == "findings":
            print(f"wrote {findings.write(args.out)}")
            return 0
        if not args.name:
            raise ConfigError(f"`{args.command}` needs an experiment NAME (python -m bot_repro.experiment list)")
        roots = runner.Roots.default(sweep.is_smoke(args.overrides), args.runs_root)
        names = _names(args.name, args.command, args.conf_dir)
        for name in names:
            out = args.out / name if args.out and len(names) > 1 else args.out
            if args.command == "run" and args.dry_run:
                runner.dry_run(name, args.overrides, args.conf_dir)
            elif args.command == "run":
                runner.run(name, args.overrides, roots, command, out, in_process=not args.subprocess,
                           retrain=args.retrain, search_dir=args.conf_dir)
            elif args.command == "report":
                if args.name == "figures" and not (roots.runs / name).exists():
                    print(f"{name}: no runs yet", file=sys.stderr)
                    continue
                runner.redraw(name, args.overrides, roots, command, args.runs, out, args.conf_dir)
            elif args.command == "pack":
                print(runner.pack(name, roots, args.conf_dir))
            elif args.command == "sittings":
                print(runner.sittings(name, args.conf_dir))
            else:
                print(runner.publish(name, roots, search_dir=args.conf_dir))
        return 0
    except (UnknownNameError, ConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (ExperimentError, findings.FindingsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"stopped; `{command}` again continues a stopped sweep (its finished runs kept)", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
