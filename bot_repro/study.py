"""The CPU study: ``make demo`` / ``make study`` (``python -m bot_repro.study demo|study|analyse``).

``demo`` runs the ``mini_demo`` sweep (every algorithm x 3 seeds) and writes ``results/mini/``:
the figure (PNG + PDF), ``summary.json`` and ``summary.md``. ``study`` runs ``mini_baselines``,
``mini_weighting`` and ``mini_signals`` (5 seeds each) into ``results/mini_study/<experiment>/``.
The sweeps themselves are Hydra multiruns of ``bot_repro.train`` defined in
``conf/experiment/``; this module prepares the shared warm-started policy once, shows progress
(runs done, current steps, ETA) and turns the run directories into the report.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import threading
import time
from pathlib import Path

from tqdm import tqdm

REPO = Path(__file__).resolve().parents[1]
THRESHOLD = 0.8
METRIC = "eval/success_rate"

# experiment -> (group columns, baseline value or None, label of the grouping)
ANALYSES = {
    "mini_demo": (["algorithm.name"], "grpo"),
    "mini_baselines": (["algorithm.name"], "grpo"),
    "mini_weighting": (["algorithm.options.weighting"], None),
    "mini_signals": (["reward.params.variant", "algorithm.name"], "grpo"),
}


def _is_sweep(override: str) -> bool:
    value = override.split("=", 1)[-1]
    return "=" in override and "," in value and not value.startswith(("[", "{", "'", '"'))


def _compose(experiment: str, overrides: list[str]):
    """The experiment's config without command-line sweeps (which only a multirun can take)."""
    from hydra import compose, initialize_config_dir

    single = [o for o in overrides if not _is_sweep(o)]
    with initialize_config_dir(config_dir=str(REPO / "conf"), version_base="1.3"):
        return compose(config_name="train", overrides=[f"experiment={experiment}", *single], return_hydra_config=True)


def sweep_size(cfg, overrides: list[str]) -> int:
    """Runs in the sweep: the experiment's sweeper params, replaced by any command-line sweep."""
    counts = {str(k): len(str(v).split(",")) for k, v in (cfg.hydra.sweeper.params or {}).items()}
    for o in overrides:
        key, value = o.split("=", 1) if "=" in o else (o, "")
        counts[key.lstrip("+")] = len(value.split(",")) if _is_sweep(o) else 1 if key in counts else counts.get(key, 1)
    return math.prod(counts.values())


def prepare(cfg) -> None:
    """Build the tiny model and the warm start once, before parallel jobs would race to."""
    from omegaconf import open_dict

    from bot_repro.config import validate
    from bot_repro.tasks.base import build_task
    from bot_repro.trainer.build import resolve_model_path

    cfg = cfg.copy()
    with open_dict(cfg):
        del cfg["hydra"]
    sec = validate(cfg)
    task, _ = build_task(sec, with_reward=False)
    path = resolve_model_path(sec, task, sec["seed"])
    info = Path(path) / "warm_start.json"
    if info.exists():
        ws = json.loads(info.read_text())
        print(f"warm-started policy: {ws['steps']} supervised steps, sampled success {ws['final_sampled_success']:.3f}")


def _progress(sweep_dir: Path, n_runs: int, max_steps: int, stop: threading.Event) -> None:
    bar = tqdm(total=n_runs * max_steps, desc="steps", unit="step", dynamic_ncols=True)
    while not stop.wait(2.0):
        steps, done = 0, 0
        for m in sweep_dir.glob("*/metrics.jsonl"):
            lines = m.read_text().splitlines()
            if lines:
                try:
                    steps += json.loads(lines[-1]).get("step", 0)
                except json.JSONDecodeError:
                    pass
            info = m.parent / "run.json"
            if info.exists() and '"completed"' in info.read_text():
                done += 1
        bar.n = min(steps, bar.total)
        bar.set_postfix_str(f"runs {done}/{n_runs}")
        bar.refresh()
    bar.close()


def run_sweep(experiment: str, overrides: list[str], sweep_dir: Path) -> float:
    """Launch the experiment's Hydra multirun into ``sweep_dir``; return its wall seconds."""
    cfg = _compose(experiment, overrides)
    n_runs, max_steps = sweep_size(cfg, overrides), int(cfg.trainer.max_steps)
    print(f"{experiment}: {n_runs} runs of {max_steps} steps -> {sweep_dir}")
    prepare(cfg)
    cmd = [sys.executable, "-m", "bot_repro.train", "-m", f"experiment={experiment}", f"hydra.sweep.dir={sweep_dir}"]
    start = time.time()
    stop = threading.Event()
    watcher = threading.Thread(target=_progress, args=(sweep_dir, n_runs, max_steps, stop), daemon=True)
    watcher.start()
    log = sweep_dir.parent / f"{sweep_dir.name}.log"
    sweep_dir.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as f:
        proc = subprocess.run([*cmd, *overrides], cwd=REPO, stdout=f, stderr=subprocess.STDOUT)
    stop.set()
    watcher.join()
    if proc.returncode != 0:
        raise SystemExit(f"sweep {experiment} failed (exit {proc.returncode}); see {log}")
    return time.time() - start


def archive_runs(sweep_dir: Path, out_dir: Path) -> int:
    """Copy each run's record (config, metrics, run.json, first and last rollouts) next to the report,
    so figures and notebooks can be rebuilt from committed files (checkpoints stay behind)."""
    import shutil

    n = 0
    for metrics in sorted(sweep_dir.glob("*/metrics.jsonl")):
        src, dst = metrics.parent, out_dir / metrics.parent.name
        (dst / ".hydra").mkdir(parents=True, exist_ok=True)
        for name in ("metrics.jsonl", "run.json", ".hydra/config.yaml", ".hydra/overrides.yaml"):
            if (src / name).exists():
                shutil.copy2(src / name, dst / name)
        rollouts = sorted((src / "rollouts").glob("step_*.jsonl"))
        for r in {*rollouts[:1], *rollouts[-1:]}:
            (dst / "rollouts").mkdir(exist_ok=True)
            shutil.copy2(r, dst / "rollouts" / r.name)
        n += 1
    return n


def analyse(experiment: str, sweep_dir: Path, out_dir: Path, command: str, wall_s: float | None) -> dict:
    """Run directories -> figure + summary.json + summary.md in ``out_dir``."""
    import matplotlib.pyplot as plt

    from bot_repro.analysis.load import load_runs
    from bot_repro.analysis.stats import aggregate_curves
    from bot_repro.analysis.summary import collect_meta, summarise, summary_markdown, to_jsonable
    from bot_repro.plots.curves import panel_grid, plot_curves, threshold_line
    from bot_repro.plots.style import apply_style, save

    cols, baseline = ANALYSES[experiment]
    previous = out_dir / "summary.json"
    first_command = None
    if wall_s is None and previous.exists():  # re-analysing keeps the sweep's command and measured wall time
        old = json.loads(previous.read_text()).get("meta", {})
        wall_s = old.get("study_wall_seconds")
        first_command = old.get("command", "").split(" (re-analysed")[0] or None
    keys = sorted({*cols, "algorithm.name", "seed", "reward.params.variant", "algorithm.options.weighting"})
    df = load_runs(sweep_dir, config_keys=keys)
    if df.empty:
        raise SystemExit(f"no runs with metrics below {sweep_dir}")
    summary = summarise(df, METRIC, THRESHOLD, group_by=cols, baseline=baseline, on="algorithm.name" if baseline else None)
    hacking = summarise(df, "eval/empty_rate", None, group_by=cols, baseline=None)
    wall = df[df.metric == METRIC].groupby("run_id")["time"].max()
    runs_per_group = df[df.metric == METRIC].drop_duplicates("run_id").set_index("run_id")[cols]
    for entry in summary["groups"]:
        mask = (runs_per_group[cols] == [entry["group"][c] for c in cols]).all(axis=1)
        entry["train_wall_seconds_mean"] = float(wall[mask[mask].index].mean())
        empty = next(h for h in hacking["groups"] if h["group"] == entry["group"])
        entry["final_empty_rate"] = empty["final"]
    meta = collect_meta(f"{first_command} (re-analysed: {command})" if first_command else command, REPO)
    # the code that ran is the runs' own record, not the checkout at analysis time
    from bot_repro.analysis.load import find_run_dirs, read_run_info

    shas = sorted({(read_run_info(d) or {}).get("run.git_sha") or "unknown" for _, d in find_run_dirs(sweep_dir)})
    meta["git_sha"] = ", ".join(shas)
    summary["meta"] = {**meta, "experiment": experiment, "sweep_dir": str(sweep_dir), "study_wall_seconds": wall_s}
    out_dir.mkdir(parents=True, exist_ok=True)
    summary["meta"]["archived_runs"] = archive_runs(sweep_dir, out_dir / "runs") if sweep_dir != out_dir / "runs" else None
    (out_dir / "summary.json").write_text(json.dumps(to_jsonable(summary), indent=2) + "\n")
    md = summary_markdown(summary, {**meta, "study wall seconds": f"{wall_s:.0f}" if wall_s else "n/a"})
    (out_dir / "summary.md").write_text(md)

    apply_style()
    panels = sorted(df[cols[0]].dropna().unique()) if len(cols) > 1 else [None]
    fig, axes = panel_grid(len(panels))
    for ax, panel in zip(axes, panels):
        sub = df if panel is None else df[df[cols[0]] == panel]
        hue = cols[-1]
        agg = aggregate_curves(sub, METRIC, [hue], x="step")
        plot_curves(ax, agg, x="step", hue=hue)
        threshold_line(ax, THRESHOLD, f"{THRESHOLD:.0%} threshold")
        ax.set_title(f"{cols[0].split('.')[-1]} = {panel}" if panel is not None else experiment)
        ax.set_xlabel("step")
        ax.set_ylabel("held-out success rate")
        ax.legend(fontsize=7)
    save(fig, out_dir / experiment)
    plt.close(fig)
    return summary


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bot_repro.study", description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=["demo", "study", "analyse"])
    ap.add_argument("--experiment", help="analyse: which experiment's grouping to use")
    ap.add_argument("--sweep-dir", type=Path, help="analyse: the sweep directory")
    ap.add_argument("--out", type=Path, help="output directory (default results/mini or results/mini_study)")
    ap.add_argument("overrides", nargs="*", help="extra Hydra overrides passed to every run")
    args = ap.parse_intermixed_args(argv)
    command = "python -m bot_repro.study " + " ".join(argv if argv is not None else sys.argv[1:])
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
    if args.command == "analyse":
        analyse(args.experiment, args.sweep_dir, args.out, command, None)
        return
    plan = ["mini_demo"] if args.command == "demo" else ["mini_baselines", "mini_weighting", "mini_signals"]
    for experiment in plan:
        sweep_dir = REPO / "runs" / experiment / stamp
        wall = run_sweep(experiment, args.overrides, sweep_dir)
        out = args.out or (REPO / "results" / ("mini" if args.command == "demo" else f"mini_study/{experiment}"))
        summary = analyse(experiment, sweep_dir, out, command, wall)
        print(f"{experiment}: {len(summary['groups'])} groups, {wall:.0f} s -> {out}")


if __name__ == "__main__":
    main()
