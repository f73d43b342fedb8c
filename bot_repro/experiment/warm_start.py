"""``python -m bot_repro.experiment warm-start`` (``make warm-start``): rebuild the shipped starting
policies here and say whether this machine reproduces them.

``warm-start [EXPERIMENT ...] [--ship]`` rebuilds one policy per distinct task and model config of
the demo and the study (``warm_start_experiments``; the study's list is ``spec.study_list``);
``--adapter NAME`` does the same for a real model's shipped starting adapter
(``bot_repro.experiment.adapter``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

from omegaconf import DictConfig, open_dict

from bot_repro.cache import cache_root
from bot_repro.config import validate
from bot_repro.config_schema import ConfigError
from bot_repro.experiment import adapter, spec, sweep
from bot_repro.tasks.arith.warm_start import SPECS
from bot_repro.tasks.base import build_task
from bot_repro.tasks.mini import shipped
from bot_repro.trainer.build import resolve_model_path
from bot_repro.trainer.run_dir import hardware

DEMO = "mini_demo"


def warm_start_experiments(configs: dict[str, DictConfig]) -> list[str]:
    """The first of ``configs`` (name -> composed config, in order) for each distinct ``task`` and
    ``model`` config: the warm start is a function of those two, so one run of it covers the rest."""
    seen, out = set(), []
    for name, cfg in configs.items():
        key = json.dumps([sweep.resolved(cfg, "task"), sweep.resolved(cfg, "model")], sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            out.append(name)
    return out


def warm_start_check(experiment: str, ship: bool = False) -> dict:
    """Train the warm start of ``experiment``'s config here (a fresh folder, not the cache: this is
    the regeneration ``make warm-start`` promises) and compare its hash with the shipped policy's
    (``bot_repro.tasks.mini.shipped``); ``ship``: replace the shipped policy with this one."""
    cfg = sweep.without_hydra(sweep.compose_experiment(experiment, ["task.params.warm_start_source=build"]))
    sec = validate(cfg)
    task, _ = build_task(sec, with_reward=False)
    with open_dict(cfg):
        cfg.task.params.warm_start = False
    tiny = Path(resolve_model_path(validate(cfg), task, sec["seed"]))  # the tiny random-init model only
    key = task.warm_start_key(tiny)
    shipped_dir = shipped.POLICIES / key
    record = shipped_dir / "warm_start.json"
    shipped_hash = json.loads(record.read_text())["policy_hash"] if record.exists() else None
    scratch = cache_root() / "warm-check" / f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    built = task.warm_start(tiny, scratch, sec["seed"])
    built_hash = json.loads((built / "warm_start.json").read_text())["policy_hash"]
    verdict = ("no policy ships for this config" if shipped_hash is None else
               "this machine REPRODUCES the shipped policy" if built_hash == shipped_hash else
               "this machine does NOT reproduce the shipped policy (runs use the shipped one, so step 0 is still the same)")
    print(f"{experiment}: built {built_hash}, shipped {shipped_hash or '-'} ({key}): {verdict}")
    step0 = task.held_out_check(shipped_dir if shipped_hash else built)
    print(f"{experiment}: step 0 of the policy runs use: held-out success {step0['success_rate']:.3f}, pass@8 "
          f"{step0['pass@8']:.3f}, prompts whose 8 samples share one global reward {step0['identical_group_share']:.3f}")
    out = {"experiment": experiment, "key": key, "built": built_hash, "shipped": shipped_hash,
           "reproduces": built_hash == shipped_hash, "step0": step0, "hardware": hardware()}
    if ship:
        params = {k: v for k, v in vars(task.p).items() if k != "warm_start_source"}
        print(f"shipped -> {shipped.ship(built, key, {'task_params': params, 'built_on': out['hardware']})}")
    shutil.rmtree(scratch, ignore_errors=True)
    return out


def main(argv: list[str] | None = None) -> int:
    """The ``warm-start`` verb; ``argv`` are its arguments (after ``warm-start``). Exit status 2 on bad input."""
    ap = argparse.ArgumentParser(prog="python -m bot_repro.experiment warm-start", description=__doc__.split("\n\n")[0])
    ap.add_argument("experiments", nargs="*", default=[], metavar="experiment",
                    help="experiments whose warm start to rebuild (default: one per task and model config of the demo and the study)")
    ap.add_argument("--ship", action="store_true", help="replace the shipped policies (or adapters) with the ones built here")
    ap.add_argument("--adapter", action="append", default=[], choices=sorted(SPECS),
                    help="a shipped starting adapter of a real model to rebuild instead (bot_repro/experiment/adapter.py)")
    ap.add_argument("--lengths", type=lambda s: [int(x) for x in s.split(",")], default=None,
                    help="with one --adapter: the training-length probe over these step counts, written to --out")
    ap.add_argument("--out", type=Path, default=None,
                    help="with --adapter: write the check's (or the probe's) result to this JSON file")
    args = ap.parse_intermixed_args(argv)
    if args.adapter:
        if args.lengths:
            adapter.probe(args.adapter[0], args.lengths, args.out or Path("results/adapter_probe/probe.json"))
            return 0
        results = [adapter.check(name, args.ship) for name in args.adapter]
        if args.out:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(results, indent=1) + "\n")
        if not all(r["reproduces"] for r in results) and not args.ship:
            print("warm-start: some adapter differs from the shipped one here; runs load the shipped adapter (its hash is checked)")
        return 0
    try:
        names = args.experiments or warm_start_experiments(
            {n: sweep.compose_experiment(n) for n in dict.fromkeys([DEMO, *spec.study_list()])})
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    results = [warm_start_check(e, args.ship) for e in names]
    if not all(r["reproduces"] for r in results) and not args.ship:
        print("warm-start: some policy differs from the shipped one here; runs still start from the shipped "
              "policies (task.params.warm_start_source=shipped), so step 0 is the same as the committed results'")
    return 0
