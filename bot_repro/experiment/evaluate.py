"""The ``evaluate`` verb of ``python -m bot_repro.experiment`` (the logic is in ``offline_eval``).

    python -m bot_repro.experiment evaluate heldout <run dir | checkpoint dir> [--step N] [--out DIR] [key=value ...]
        held-out metric of a saved checkpoint (React: compile rate + rollouts, screenshots, gallery;
        AIME: Pass@k), from the run's own config; overrides are dotted keys, e.g. trainer.eval.n_samples=8.
        A LoRA run's checkpoint (its adapter alone) is loaded on the run's own base model
    python -m bot_repro.experiment evaluate pairwise <eval dir A> <eval dir B> [--judge openai] [--max-prompts N]
        ABBA win rate of A over B from two React evaluation folders (<run>/eval/step_N or eval_offline/...)

Prints one JSON object. Exit status 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bot_repro.config_schema import ConfigError
from bot_repro.experiment import offline_eval
from bot_repro.registry import UnknownNameError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot_repro.experiment evaluate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    held = sub.add_parser("heldout", help="held-out metric of a checkpoint")
    held.add_argument("path", type=Path, help="a run dir (its last checkpoint) or a checkpoints/checkpoint-N dir")
    held.add_argument("overrides", nargs="*", help="dotted config overrides, e.g. trainer.eval.max_prompts=20")
    held.add_argument("--step", type=int, default=None, help="evaluate checkpoint-<step> of the run dir")
    held.add_argument("--out", type=Path, default=None, help="default: <run>/eval_offline/step_NNNNNN")
    pair = sub.add_parser("pairwise", help="ABBA win rate between two React evaluation folders")
    pair.add_argument("eval_a", type=Path)
    pair.add_argument("eval_b", type=Path)
    pair.add_argument("--judge", default="openai", help="a config of conf/judge/ (loopback: scripted stand-in)")
    pair.add_argument("--max-prompts", type=int, default=None)
    pair.add_argument("--rollouts-per-prompt", type=int, default=1)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "heldout":
            result = offline_eval.evaluate_checkpoint(args.path, args.step, args.overrides, args.out)
        else:
            result = offline_eval.compare_evaluations(args.eval_a, args.eval_b, args.judge, args.max_prompts,
                                                      args.rollouts_per_prompt)
    except (ConfigError, UnknownNameError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2))
    return 0
