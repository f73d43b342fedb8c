"""Report of ``experiment=real_small`` (``make real-demo``): curves and a summary per arm.

``python -m bot_repro.analysis.real_small <sweep dir>|latest [--out DIR]`` reads each run's
``metrics.jsonl`` and writes ``real_small.png/.pdf`` and ``summary.json`` (default: ``<sweep>/report``).
Three panels, training samples (every step) and held-out samples (``eval/``, every ``eval.every``):
format rate (no tag error), answer accuracy, step accuracy (checked steps whose arithmetic holds,
pooled: mean ``steps_true`` / mean ``steps_checked`` of the step's samples).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot_repro.run_folder import read_config, read_metrics, read_run_info

PANELS = [  # (title, training metric (or a ratio of two), held-out metric)
    ("format rate (no tag error)", "reward/format_ok", "eval/format_ok_rate"),
    ("answer accuracy", "reward/correct", "eval/sample_accuracy"),
    ("step accuracy (checked steps)", ("reward/steps_true", "reward/steps_checked"), "eval/step_accuracy"),
]


def _train_value(record, key):
    if isinstance(key, tuple):
        num, den = record.get(key[0]), record.get(key[1])
        return None if num is None or not den else num / den
    return record.get(key)


def curves(run_dir: Path) -> dict:
    records = read_metrics(run_dir / "metrics.jsonl")
    out = {}
    for title, train_key, eval_key in PANELS:
        train = [(r["step"], _train_value(r, train_key)) for r in records if r["step"] > 0]
        held = [(r["step"], r[eval_key]) for r in records if eval_key in r]
        out[title] = {"train": [(s, v) for s, v in train if v is not None], "eval": held}
    return out


def report(sweep: Path, out: Path) -> dict:
    runs = sorted(p.parent for p in sweep.rglob("metrics.jsonl"))
    if not runs:
        raise SystemExit(f"no runs (metrics.jsonl) under {sweep}")
    summary = {"sweep": str(sweep), "runs": {}}
    for run in runs:
        cfg, info = read_config(run) or {}, read_run_info(run) or {}
        arm = cfg.get("algorithm.name", run.name)
        c = curves(run)
        summary["runs"][arm] = {
            "run_dir": str(run), "seed": cfg.get("seed"), "status": info.get("run.status"),
            "git_sha": info.get("run.git_sha"), "steps": max((s for p in c.values() for s, _ in p["train"]), default=0),
            "curves": c,
        }
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    _plot(summary, out / "real_small")
    return summary


def _plot(summary: dict, stem: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from bot_repro.plots.style import apply_style, group_styles, save

    apply_style()
    arms = sorted(summary["runs"])
    styles = group_styles(arms)  # each algorithm's registered colour, marker and display name
    fig, axes = plt.subplots(1, len(PANELS), figsize=(4 * len(PANELS), 3.2), sharex=True)
    for ax, (title, _, _) in zip(axes, PANELS):
        for arm in arms:
            c, st = summary["runs"][arm]["curves"][title], styles[arm]
            if c["train"]:
                xs, ys = zip(*c["train"])
                ax.plot(xs, ys, color=st.color, linestyle=st.linestyle, alpha=0.45, lw=1,
                        label=f"{st.label} (training samples)")
            if c["eval"]:
                xs, ys = zip(*c["eval"])
                ax.plot(xs, ys, color=st.color, marker=st.marker, lw=2, label=f"{st.label} (held-out)")
        ax.set_title(title)
        ax.set_xlabel("step")
        ax.set_ylim(-0.03, 1.03)
    axes[0].legend(fontsize=7)
    fig.suptitle("SmolLM2-135M-Instruct on CPU, task=arith: GRPO vs BoT-GRPO (1 seed each)", fontsize=10)
    save(fig, stem)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sweep", help="a runs/real_small/<stamp> folder, or 'latest'")
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    sweep = Path(a.sweep)
    if a.sweep == "latest":
        stamps = sorted(p for p in Path("runs/real_small").glob("*") if p.is_dir())
        if not stamps:
            raise SystemExit("no runs/real_small/<stamp> folder: run `make real-demo` first")
        sweep = stamps[-1]
    summary = report(sweep, Path(a.out) if a.out else sweep / "report")
    for arm, r in summary["runs"].items():
        print(f"{arm}: {r['steps']} steps, status {r['status']}, {r['run_dir']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
