"""The CPU study: ``make demo`` / ``make study`` / ``make warm-start``
(``python -m bot_repro.study demo|study|analyse|publish|warm-start``).

``demo`` runs the ``mini_demo`` sweep (GRPO, BoT-GRPO, PURE x 3 seeds); ``study`` runs every
experiment of ``conf/experiment/`` whose ``study.order`` is set, in that order (``study_experiments``;
``--experiment E``: only E): ``mini_baselines`` and ``mini_same_global`` run the claim arms' seeds 5-9
and add them to the committed seeds 0-4 (``study.extends``), ``mini_same_global`` and the sparse
levels' ``_floor`` experiments run only their new arms and reuse the shared ones of the same study
(``study.reuse``). Each experiment writes under the ignored
``runs/<experiment>/<stamp>/``: the runs in ``sweep/`` and the report in ``report/`` (figure PNG +
PDF, ``summary.json``, ``summary.md``, the archived run records), then judges its numbers against the
committed ones (``results/mini/`` for the demo, ``results/mini_study/<experiment>/`` for the study;
``bot_repro.analysis.committed``: consistent or not within intervals, identical or not, and which
hardware fields differ). ``warm-start`` rebuilds the shipped policies (one per distinct task and model
config of the demo and the study: ``warm_start_experiments``) and says whether this machine reproduces
them. Updating the committed folder is a separate, explicit step: ``python -m bot_repro.study publish
<report dir>`` (``make demo-publish`` publishes the newest demo report), which also rewrites the
report's machine paths relative to the repository (``bot_repro.analysis.committed.make_portable``).

The sweeps themselves are Hydra multiruns of ``bot_repro.train`` defined in ``conf/experiment/``,
launched through ``bot_repro.figures.sweep``; this module prepares the shared warm-started policy
once (recording its hash), shows progress (runs done, current steps, ETA) and turns the run
directories into the report through the figures' report path (``bot_repro.figures.report``), adding
the study's own numbers. ``summary.json`` also records the starting point every algorithm shares:
``policy_hash`` (the warm-started weights, ``bot_repro.models.fingerprint.policy_hash``),
``step0_success`` and ``step0_pass@8`` (held-out, the step-0 evaluation, mean over runs; with fewer
than 8 eval samples ``step0_pass@8`` is null and ``step0_pass@<k>`` gives the largest k measured) and
``step0_identical_group_share``: the share of step-1 training groups whose rollouts all got the same
global reward, i.e. the first logged ``frac_zero_std_groups`` (TRL's ``frac_reward_zero_std`` of the
global reward G our reward function hands TRL), mean over the runs without dynamic sampling (DAPO
refills its batch, so its value is not the starting policy's).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import threading
import time
from pathlib import Path

from omegaconf import DictConfig, OmegaConf, open_dict
from tqdm import tqdm

from bot_repro import paths
from bot_repro.analysis import committed
from bot_repro.analysis.study_tables import (
    DYNAMIC_SAMPLING,
    collapse_counts,
    groups_markdown,
    step0_markdown,
    step0_stats,
    training_shares,
)
from bot_repro.analysis.summary import summarise, summary_markdown, to_jsonable
from bot_repro.cache import cache_root
from bot_repro.config import validate
from bot_repro.config_errors import ConfigError
from bot_repro.figures import report, sweep
from bot_repro.figures.report import POLICY_FILE
from bot_repro.models.fingerprint import policy_hash
from bot_repro.run_folder import read_run_json
from bot_repro.tasks.base import build_task
from bot_repro.tasks.mini import shipped
from bot_repro.trainer.build import resolve_model_path
from bot_repro.trainer.run_dir import hardware

REPO = paths.REPO  # runs/<experiment>/<stamp>/ lives here
DEMO = "mini_demo"


def study_experiments() -> dict[str, DictConfig]:
    """The experiments of ``make study`` with their composed configs, in run order: every
    ``conf/experiment/*.yaml`` whose ``study.order`` is set (an experiment inherits its parent's
    block, so one that is not in the study says ``order: null``). Two experiments with one order, or
    one that reuses runs of an experiment ordered after it (or outside the study), are an error."""
    found: dict[str, tuple[int, DictConfig]] = {}
    for path in sorted((sweep.CONF_DIR / "experiment").glob("*.yaml")):
        cfg = sweep.compose_experiment(path.stem)
        order = report.study_block(cfg, path.stem).get("order")
        if order is not None:
            found[path.stem] = (order, cfg)
    by_order: dict[int, str] = {}
    for name, (order, _) in found.items():
        if order in by_order:
            raise ConfigError(f"conf/experiment/{by_order[order]}.yaml and {name}.yaml both set study.order={order} "
                              "(an inherited order? set study.order: null in the one not in the study)")
        by_order[order] = name
    for name, (order, cfg) in found.items():
        reuse = (report.study_block(cfg, name).get("reuse") or {}).get("experiment")
        if reuse is not None and (reuse not in found or found[reuse][0] >= order):
            raise ConfigError(f"conf/experiment/{name}.yaml (study.order={order}) reuses {reuse}'s runs, so {reuse} "
                              "must be in the study with a lower study.order")
    return {name: found[name][1] for _, name in sorted(by_order.items())}


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


def prepare(cfg, progress=None) -> dict:
    """Build the tiny model and the warm start once, before parallel jobs would race to; return
    (and print) what identifies the starting policy: its path, weights hash, supervised steps and
    sampled success (the last two None without a warm start). ``progress(step, total)`` follows the
    warm start."""
    run_cfg = validate(sweep.without_hydra(cfg))
    task, _ = build_task(run_cfg, with_reward=False)
    path = Path(resolve_model_path(run_cfg, task, run_cfg.seed, progress))
    # relative to the repository (a shipped policy) or $BOT_REPRO_CACHE/ (one trained here)
    info = {"model_path": paths.relative(path), "policy_hash": None, "warm_start_steps": None, "warm_start_sampled_success": None}
    ws_file = path / "warm_start.json"
    ws = json.loads(ws_file.read_text()) if ws_file.exists() else {}
    if path.is_dir():
        info["policy_hash"] = ws.get("policy_hash") or policy_hash(path)
    info["warm_start_steps"], info["warm_start_sampled_success"] = ws.get("steps"), ws.get("final_sampled_success")
    if ws:
        print(f"warm-started policy {info['policy_hash']}: {ws['steps']} supervised steps, "
              f"sampled success {ws['final_sampled_success']:.3f}")
    else:
        print(f"starting policy {info['policy_hash']} (no warm start): {path}")
    return info


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


def step_costs(cfg) -> dict:
    """``study.cost`` of the experiment config: measured wall seconds of one warm-start step and of
    one training step of the sweep (all parallel jobs together), for the progress bar's ETA."""
    node = OmegaConf.select(cfg, "study.cost")
    cost = OmegaConf.to_container(node, resolve=True) if node is not None else {}
    missing = [k for k in ("warm_start_step_s", "sweep_step_s") if not isinstance(cost.get(k), int | float) or cost[k] <= 0]
    if missing:
        raise SystemExit(f"study.cost.{missing[0]} must be a positive number of seconds (the measured cost "
                         f"of one step; conf/experiment/mini_baselines.yaml), got {cost.get(missing[0])!r}")
    return cost


class DemoBar:
    """One bar over the whole experiment: the warm start's supervised steps (when it has to run), then
    every run's training steps. The bar counts estimated seconds: each step weighs its measured cost
    (``study.cost``: a sweep step costs several warm-start steps), so tqdm's ETA holds across both
    phases instead of extrapolating the fast warm start over the sweep."""

    def __init__(self, sweep_steps: int, cost: dict):
        self.ws_s, self.sweep_s = float(cost["warm_start_step_s"]), float(cost["sweep_step_s"])
        self.sweep_total, self.offset = sweep_steps * self.sweep_s, 0.0
        self.bar = tqdm(total=round(self.sweep_total), desc="sweep", unit="s", dynamic_ncols=True,
                        bar_format="{desc}: {percentage:3.0f}%|{bar}| ~{n_fmt}/{total_fmt} est. s [{elapsed}<{remaining}{postfix}]")

    def warm_start(self, step: int, total: int) -> None:
        if self.offset != total * self.ws_s:
            self.offset = total * self.ws_s
            self.bar.total = round(self.offset + self.sweep_total)
            self.bar.set_description("warm start")
        self.bar.n = round(step * self.ws_s)
        self.bar.refresh()

    def sweep(self, steps: int, done: int, n_runs: int) -> None:
        self.bar.set_description("sweep")
        self.bar.n = min(round(self.offset + steps * self.sweep_s), self.bar.total)
        self.bar.set_postfix_str(f"runs {done}/{n_runs}")
        self.bar.refresh()


def _progress(sweep_dir: Path, n_runs: int, bar: DemoBar, stop: threading.Event) -> None:
    while not stop.wait(2.0):
        steps, done = 0, 0
        for m in sweep_dir.glob("*/metrics.jsonl"):
            lines = m.read_text().splitlines()
            if lines:
                try:
                    steps += json.loads(lines[-1]).get("step", 0)
                except json.JSONDecodeError:
                    pass
            try:
                done += (read_run_json(m.parent) or {}).get("status") == "completed"
            except ValueError:
                pass  # run.json is being rewritten
        bar.sweep(steps, done, n_runs)


def run_sweep(experiment: str, cfg: DictConfig, overrides: list[str], sweep_dir: Path) -> float:
    """Launch the experiment's Hydra multirun into ``sweep_dir`` (the figures' machinery: the same
    override parser, job expansion and launch); ``cfg``: its config composed with ``overrides``.
    Returns the sweep's wall seconds."""
    n_runs, max_steps = len(sweep.expand_jobs(cfg, overrides)), int(cfg.trainer.max_steps)
    cost = step_costs(cfg)
    print(f"{experiment}: {n_runs} runs of {max_steps} steps -> {sweep_dir}; the sweep alone is estimated at "
          f"{n_runs * max_steps * cost['sweep_step_s'] / 60:.0f} min from measured step costs (study.cost)")
    start = time.time()
    bar = DemoBar(n_runs * max_steps, cost)
    policy = prepare(cfg, bar.warm_start)
    stop = threading.Event()
    watcher = threading.Thread(target=_progress, args=(sweep_dir, n_runs, bar, stop), daemon=True)
    watcher.start()
    log = sweep_dir.parent / f"{sweep_dir.name}.log"
    try:
        sweep.run_multirun([f"experiment={experiment}", *overrides], sweep_dir, in_process=False, log=log)
    except sweep.FigureError as exc:
        raise SystemExit(f"sweep {experiment} failed: {exc}; see {log}") from exc
    finally:
        stop.set()
        watcher.join()
        bar.bar.close()
    sweep_dir.mkdir(parents=True, exist_ok=True)
    (sweep_dir / POLICY_FILE).write_text(json.dumps(policy, indent=2) + "\n")
    return time.time() - start


def archive_runs(sweep_dir: Path, out_dir: Path, prefix: str = "", keep: set[str] | None = None) -> int:
    """Copy each run's record (config, metrics, run.json, first and last rollouts) next to the report,
    so figures and notebooks can be rebuilt from committed files (checkpoints stay behind); ``keep``:
    only these run directories, ``prefix``: prepended to the folder names."""
    n = 0
    for metrics in sorted(sweep_dir.glob("*/metrics.jsonl")):
        if keep is not None and str(metrics.parent) not in keep:
            continue
        src, dst = metrics.parent, out_dir / f"{prefix}{metrics.parent.name}"
        (dst / ".hydra").mkdir(parents=True, exist_ok=True)
        for name in ("metrics.jsonl", "run.json", ".hydra/config.yaml", ".hydra/overrides.yaml"):
            if (src / name).exists():
                shutil.copy2(src / name, dst / name)
        rollouts = sorted((src / "rollouts").glob("step_*.jsonl"))
        for r in {*rollouts[:1], *rollouts[-1:]}:
            (dst / "rollouts").mkdir(exist_ok=True)
            shutil.copy2(r, dst / "rollouts" / r.name)
        n += 1
    if (sweep_dir / POLICY_FILE).exists():
        out_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy2(sweep_dir / POLICY_FILE, out_dir / POLICY_FILE)
    return n


def analyse(experiment: str, sweep_dir: Path, out_dir: Path, command: str, wall_s: float | None,
            cfg: DictConfig | None = None) -> dict:
    """Run directories -> figure + summary.json + summary.md in ``out_dir`` (``bot_repro.figures.report``
    plus the study's numbers); ``cfg``: the experiment's composed config (else composed here)."""
    cfg = sweep.compose_experiment(experiment) if cfg is None else cfg
    previous = out_dir / "summary.json"
    first_command = None
    if wall_s is None and previous.exists():  # re-analysing keeps the sweep's command and measured wall time
        old = json.loads(previous.read_text()).get("meta", {})
        wall_s = old.get("study_wall_seconds")
        first_command = old.get("command", "").split(" (re-analysed")[0] or None
    command = f"{first_command} (re-analysed: {command})" if first_command else command
    try:
        rep = report.build(experiment, experiment, cfg, [sweep_dir], command, [DYNAMIC_SAMPLING])
    except FileNotFoundError as exc:
        raise SystemExit(str(exc)) from exc
    df, settings, summary = rep.frame, rep.settings, rep.summaries[0]  # a study plots one metric
    cols, metric = settings.columns, settings.metric
    hacking = summarise(df, "eval/empty_rate", None, group_by=cols, baseline=None)
    wall = df[df.metric == metric].groupby("run_id")["time"].max()
    runs_per_group = df[df.metric == metric].drop_duplicates("run_id").set_index("run_id")[cols]
    for entry in summary["groups"]:
        mask = (runs_per_group[cols] == [entry["group"][c] for c in cols]).all(axis=1)
        entry["train_wall_seconds_mean"] = float(wall[mask[mask].index].mean())
        empty = next(h for h in hacking["groups"] if h["group"] == entry["group"])
        entry["final_empty_rate"] = empty["final"]
        entry["identical_group_share"] = training_shares(df, cols, entry["group"])
    collapse_counts(df, metric, cols, summary)
    summary["meta"] = {**rep.meta, "experiment": experiment, "sweep_dir": str(sweep_dir), "study_wall_seconds": wall_s}
    policy_file = sweep_dir / POLICY_FILE
    step0 = step0_stats(df, json.loads(policy_file.read_text()) if policy_file.exists() else None)
    summary.update(step0)
    out_dir.mkdir(parents=True, exist_ok=True)
    summary["meta"]["reused_runs"] = {str(d): n for d, n in rep.reused.items()}
    summary["meta"]["machines"] = rep.machines
    if sweep_dir != out_dir / "runs":
        summary["meta"]["archived_runs"] = archive_runs(sweep_dir, out_dir / "runs")
        for d in rep.reused:  # the reused runs travel with the report, so it re-plots from committed files
            # committed runs keep their (already prefixed) names; a sibling sweep's get its experiment's
            prefix = "" if d.name == "runs" else f"{d.parent.parent.name}__"
            summary["meta"]["archived_runs"] += archive_runs(d, out_dir / "runs", prefix=prefix, keep=set(df["run_dir"]))
    summary = paths.portable(to_jsonable(summary))  # no folder of this machine in what may be published
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    meta = {k: v for k, v in summary["meta"].items() if k in rep.meta}
    md = summary_markdown(summary, {**meta, "study wall seconds": f"{wall_s:.0f}" if wall_s else "n/a"})
    (out_dir / "summary.md").write_text(md + step0_markdown(step0) + groups_markdown(summary))
    rep.draw(out_dir / experiment, table=True)
    return summary


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        prog="python -m bot_repro.study", description=__doc__.split("\n\n")[0],
        usage="%(prog)s {demo,study,analyse,publish,warm-start} [options] [override ...]  (Hydra overrides are optional)")
    ap.add_argument("command", choices=["demo", "study", "analyse", "publish", "warm-start"])
    ap.add_argument("--ship", action="store_true", help="warm-start: replace the shipped policies with the ones built here")
    ap.add_argument("--experiment", help="analyse: which experiment's grouping to use; study: run only this experiment")
    ap.add_argument("--sweep-dir", type=Path, help="analyse: the sweep directory")
    ap.add_argument("--out", type=Path, help="demo/study/analyse: report directory (default runs/<experiment>/<stamp>/report)")
    ap.add_argument("--to", type=Path, help="publish: destination (default the experiment's committed folder)")
    # default=[]: without it argparse counts a '*' positional as required in its error message
    ap.add_argument("overrides", nargs="*", default=[], metavar="override",
                    help="optional Hydra overrides (key=value, e.g. trainer.max_steps=10) passed to every run; publish: the report "
                    "directory, 'latest' (the newest demo report) or 'latest-study' (the newest report of every study experiment)")
    args = ap.parse_intermixed_args(argv)
    command = "python -m bot_repro.study " + " ".join(argv if argv is not None else sys.argv[1:])
    try:
        _run(args, command)
    except ConfigError as exc:  # a bad study or plot block: the message names the key and what is allowed
        raise SystemExit(f"error: {exc}") from exc


def _run(args: argparse.Namespace, command: str) -> None:
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
    if args.command == "publish":
        if len(args.overrides) != 1:
            raise SystemExit("usage: python -m bot_repro.study publish <report dir>|latest|latest-study [--to DIR]")
        which = args.overrides[0]
        if which == "latest-study":  # every experiment of the newest `make study`, each to its folder
            for experiment in study_experiments():
                committed.publish(committed.latest_report(experiment))
            return
        source = committed.latest_report(DEMO) if which == "latest" else Path(which)
        committed.publish(source, args.to)
        return
    if args.command == "warm-start":
        names = args.overrides or warm_start_experiments({DEMO: sweep.compose_experiment(DEMO), **study_experiments()})
        results = [warm_start_check(e, args.ship) for e in names]
        if not all(r["reproduces"] for r in results) and not args.ship:
            print("warm-start: some policy differs from the shipped one here; runs still start from the shipped "
                  "policies (task.params.warm_start_source=shipped), so step 0 is the same as the committed results'")
        return
    if args.command == "analyse":
        if not (args.experiment and args.sweep_dir and args.out):
            raise SystemExit("usage: python -m bot_repro.study analyse --experiment E --sweep-dir DIR --out DIR")
        analyse(args.experiment, args.sweep_dir, args.out, command, None)
        return
    plan = {DEMO: None} if args.command == "demo" else {args.experiment: None} if args.experiment else study_experiments()
    for experiment, cfg in plan.items():
        if cfg is None or args.overrides:  # composed once: the sweep and its report read it
            cfg = sweep.compose_experiment(experiment, args.overrides)
        root = REPO / "runs" / experiment / stamp
        sweep_dir = root / "sweep"
        wall = run_sweep(experiment, cfg, args.overrides, sweep_dir)
        out = (args.out / experiment if len(plan) > 1 else args.out) if args.out else root / "report"
        summary = analyse(experiment, sweep_dir, out, command, wall, cfg)
        print(f"{experiment}: {len(summary['groups'])} groups, {wall:.0f} s -> {out}")
        committed.print_comparison(out, experiment)

if __name__ == "__main__":
    main()
