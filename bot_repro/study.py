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
import sys
import threading
import time
from pathlib import Path

from omegaconf import OmegaConf, open_dict
from tqdm import tqdm

from bot_repro.analysis.load import find_run_dirs, read_run_info
from bot_repro.analysis.summary import collect_meta, summarise, summary_markdown, to_jsonable
from bot_repro.config import validate
from bot_repro.figures import sweep
from bot_repro.figures.runs import load_figure_runs
from bot_repro.plots.figures import SMOKE_COLUMN, PlotCfg, draw_and_save, plot_config
from bot_repro.tasks.base import build_task
from bot_repro.trainer.build import resolve_model_path

REPO = Path(__file__).resolve().parents[1]


def plot_settings(experiment: str, cfg) -> PlotCfg:
    """``plot.<experiment>`` of the experiment config: metric, grouping, threshold and baseline."""
    raw = OmegaConf.select(cfg, f"plot.{experiment}")
    if raw is None:
        raise SystemExit(f"conf/experiment/{experiment}.yaml has no plot.{experiment} block")
    return plot_config(OmegaConf.to_container(raw, resolve=True), f"plot.{experiment} of conf/experiment/{experiment}.yaml")


def prepare(cfg) -> None:
    """Build the tiny model and the warm start once, before parallel jobs would race to."""
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
    """Launch the experiment's Hydra multirun into ``sweep_dir`` (the figures' machinery: the same
    override parser, job expansion and launch); return its wall seconds."""
    cfg = sweep.compose_experiment(experiment, overrides)
    n_runs, max_steps = len(sweep.expand_jobs(cfg, overrides)), int(cfg.trainer.max_steps)
    print(f"{experiment}: {n_runs} runs of {max_steps} steps -> {sweep_dir}")
    prepare(cfg)
    start = time.time()
    stop = threading.Event()
    watcher = threading.Thread(target=_progress, args=(sweep_dir, n_runs, max_steps, stop), daemon=True)
    watcher.start()
    log = sweep_dir.parent / f"{sweep_dir.name}.log"
    try:
        sweep.run_multirun([f"experiment={experiment}", *overrides], sweep_dir, in_process=False, log=log)
    except sweep.FigureError as exc:
        raise SystemExit(f"sweep {experiment} failed: {exc}; see {log}") from exc
    finally:
        stop.set()
        watcher.join()
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
    settings = plot_settings(experiment, sweep.compose_experiment(experiment))
    cols, baseline, metric, threshold = settings.columns, settings.baseline, settings.metric, settings.threshold
    previous = out_dir / "summary.json"
    first_command = None
    if wall_s is None and previous.exists():  # re-analysing keeps the sweep's command and measured wall time
        old = json.loads(previous.read_text()).get("meta", {})
        wall_s = old.get("study_wall_seconds")
        first_command = old.get("command", "").split(" (re-analysed")[0] or None
    df = load_figure_runs(sweep_dir, [*cols, SMOKE_COLUMN])  # a smoke study is labelled as one
    if df.empty:
        raise SystemExit(f"no runs with metrics below {sweep_dir}")
    summary = summarise(df, metric, threshold, group_by=cols, baseline=baseline,
                        on=settings.hue if baseline else None)
    hacking = summarise(df, "eval/empty_rate", None, group_by=cols, baseline=None)
    wall = df[df.metric == metric].groupby("run_id")["time"].max()
    runs_per_group = df[df.metric == metric].drop_duplicates("run_id").set_index("run_id")[cols]
    for entry in summary["groups"]:
        mask = (runs_per_group[cols] == [entry["group"][c] for c in cols]).all(axis=1)
        entry["train_wall_seconds_mean"] = float(wall[mask[mask].index].mean())
        empty = next(h for h in hacking["groups"] if h["group"] == entry["group"])
        entry["final_empty_rate"] = empty["final"]
    meta = collect_meta(f"{first_command} (re-analysed: {command})" if first_command else command, REPO)
    # the code that ran is the runs' own record, not the checkout at analysis time
    shas = sorted({(read_run_info(d) or {}).get("run.git_sha") or "unknown" for _, d in find_run_dirs(sweep_dir)})
    meta["git_sha"] = ", ".join(shas)
    summary["meta"] = {**meta, "experiment": experiment, "sweep_dir": str(sweep_dir), "study_wall_seconds": wall_s}
    out_dir.mkdir(parents=True, exist_ok=True)
    summary["meta"]["archived_runs"] = archive_runs(sweep_dir, out_dir / "runs") if sweep_dir != out_dir / "runs" else None
    (out_dir / "summary.json").write_text(json.dumps(to_jsonable(summary), indent=2) + "\n")
    md = summary_markdown(summary, {**meta, "study wall seconds": f"{wall_s:.0f}" if wall_s else "n/a"})
    (out_dir / "summary.md").write_text(md)

    draw_and_save(df, settings, out_dir / experiment)
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
