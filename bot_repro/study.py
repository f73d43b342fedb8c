"""The CPU study: its experiment list (``conf/study.yaml``) and ``make warm-start``
(``python -m bot_repro.study warm-start [EXPERIMENT ...] [--ship]``).

``make study`` is ``python -m bot_repro.experiment run study``: every experiment of ``conf/study.yaml``,
in the listed order (``study_list``). An experiment whose report reads another's runs
(``report.reads``) comes after it in the list; the report finds those runs by the other experiment's
name and the starting policy's hash (``bot_repro.experiment.report.reads_source``). ``make demo`` is
``python -m bot_repro.experiment run mini_demo``.

``warm-start`` rebuilds the shipped policies (one per distinct task and model config of the demo and
the study: ``warm_start_experiments``) and says whether this machine reproduces them; ``--adapter NAME``
does the same for a real model's shipped starting adapter (``bot_repro.experiment.adapter``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
from pathlib import Path

import yaml
from omegaconf import DictConfig, open_dict

from bot_repro.cache import cache_root
from bot_repro.config import validate
from bot_repro.config_errors import ConfigError
from bot_repro.experiment import adapter
from bot_repro.figures import sweep
from bot_repro.tasks.arith.warm_start import SPECS
from bot_repro.tasks.base import build_task
from bot_repro.tasks.mini import shipped
from bot_repro.trainer.build import resolve_model_path
from bot_repro.trainer.run_dir import hardware

STUDY_FILE = sweep.CONF_DIR / "study.yaml"
DEMO = "mini_demo"


def study_list(path: Path = STUDY_FILE) -> list[str]:
    """The study's experiments in run order, checked: each names an experiment file, none twice,
    and one that reads another study experiment's runs comes after it. Only the listed experiments
    are composed (to read their ``report.reads``)."""
    doc = yaml.safe_load(path.read_text()) or {}
    names = doc.get("experiments")
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise ConfigError(f"{path}: 'experiments' must be a non-empty list of experiment names, got {names!r}")
    unknown = sorted(set(doc) - {"experiments"})
    if unknown:
        raise ConfigError(f"{path}: unknown key {unknown[0]!r}; allowed: experiments")
    known = {p.stem for p in (sweep.CONF_DIR / "experiment").glob("*.yaml")}
    for i, name in enumerate(names):
        if name not in known:
            raise ConfigError(f"{path}: experiments[{i}]={name!r} is not an experiment file; known: {', '.join(sorted(known))}")
        if name in names[:i]:
            raise ConfigError(f"{path}: {name} is listed twice")
        reads = (sweep.resolved(sweep.compose_experiment(name), "report.reads") or {}).get("experiment")
        if reads in names and names.index(reads) > i:
            raise ConfigError(f"{path}: {name} reads {reads}'s runs, so {reads} must come before it in the list")
    return list(names)


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


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bot_repro.study", description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=["warm-start"])
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
            return
        results = [adapter.check(name, args.ship) for name in args.adapter]
        if args.out:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(results, indent=1) + "\n")
        if not all(r["reproduces"] for r in results) and not args.ship:
            print("warm-start: some adapter differs from the shipped one here; runs load the shipped adapter (its hash is checked)")
        return
    try:
        names = args.experiments or warm_start_experiments(
            {n: sweep.compose_experiment(n) for n in dict.fromkeys([DEMO, *study_list()])})
    except ConfigError as exc:
        raise SystemExit(f"error: {exc}") from exc
    results = [warm_start_check(e, args.ship) for e in names]
    if not all(r["reproduces"] for r in results) and not args.ship:
        print("warm-start: some policy differs from the shipped one here; runs still start from the shipped "
              "policies (task.params.warm_start_source=shipped), so step 0 is the same as the committed results'")


if __name__ == "__main__":
    main()
