"""The committed CPU-study reports (``results/mini/``, ``results/mini_study/<experiment>/``): where
they live, a new report's numbers set beside them, and ``publish``, the explicit step that replaces one."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

from bot_repro.analysis.formats import number

REPO = Path(__file__).resolve().parents[2]


def committed_dir(experiment: str) -> Path:
    """Where the committed report of ``experiment`` lives."""
    return REPO / "results" / ("mini" if experiment == "mini_demo" else f"mini_study/{experiment}")


def _final(entry: dict | None) -> tuple[float | None, float | None, float | None]:
    f = (entry or {}).get("final") or {}
    return f.get("mean"), f.get("ci_low"), f.get("ci_high")


def _close(a, b) -> bool:
    return a is not None and b is not None and math.isclose(a, b, rel_tol=0.0, abs_tol=1e-9)


def compare(new: dict, committed: dict | None) -> list[str]:
    """Lines setting this report's numbers beside the committed ones: per algorithm (group label)
    the final held-out value with its interval, seeds that crossed the threshold, and a verdict
    ``same`` (equal to 1e-9), ``within intervals`` (each mean inside the other's interval) or
    ``DIFFERS``; first the step-0 policy and its numbers."""
    if committed is None:
        return ["no committed summary to compare with"]
    lines = []
    for key in ("policy_hash", "step0_success", "step0_pass@8", "step0_identical_group_share"):
        a, b = new.get(key), committed.get(key)
        same = a == b if key == "policy_hash" or a is None or b is None else _close(a, b)
        lines.append(f"{key:28s} here {number(a):>18s}   committed {number(b):>18s}   {'same' if same else 'DIFFERS'}")
    ours = {g["label"]: g for g in new.get("groups", [])}
    theirs = {g["label"]: g for g in committed.get("groups", [])}

    def cell(entry):
        m, lo, hi = _final(entry)
        crossed = ((entry or {}).get("to_threshold") or {}).get("step") or {}
        return f"{number(m)} [{number(lo)}, {number(hi)}] crossed {crossed.get('n_crossed', '?')}/{crossed.get('n_runs', '?')}"

    lines.append(f"{'algorithm':14s} {'here: final [95% CI]':36s} {'committed: final [95% CI]':36s} verdict")
    for label in sorted(set(ours) | set(theirs)):
        a, b = ours.get(label), theirs.get(label)
        if a is None or b is None:
            verdict = "only here" if b is None else "only committed"
        else:
            (ma, la, ha), (mb, lb, hb) = _final(a), _final(b)
            if _close(ma, mb):
                verdict = "same"
            elif None not in (ma, la, ha, mb, lb, hb) and lb <= ma <= hb and la <= mb <= ha:
                verdict = "within intervals"
            else:
                verdict = "DIFFERS"
        lines.append(f"{label:14s} {cell(a) if a else '-':36s} {cell(b) if b else '-':36s} {verdict}")
    return lines


def print_comparison(report_dir: Path, experiment: str) -> list[str]:
    new = json.loads((report_dir / "summary.json").read_text())
    committed_file = committed_dir(experiment) / "summary.json"
    committed = json.loads(committed_file.read_text()) if committed_file.exists() else None
    lines = compare(new, committed)
    print(f"{experiment}: {report_dir} vs committed {committed_file.parent}")
    print("\n".join(lines))
    print(f"to update the committed folder: python -m bot_repro.study publish {report_dir}")
    return lines


def publish(report_dir: Path, dest: Path | None = None) -> Path:
    """Replace the committed folder of the report's experiment (or ``dest``) with ``report_dir``."""
    report_dir = Path(report_dir).resolve()
    summary_file = report_dir / "summary.json"
    if not summary_file.exists():
        raise SystemExit(f"{report_dir} is not a study report (no summary.json)")
    experiment = json.loads(summary_file.read_text()).get("meta", {}).get("experiment")
    if dest is None:
        if not experiment:
            raise SystemExit(f"{summary_file} names no experiment; pass --to")
        dest = committed_dir(experiment)
    dest = Path(dest).resolve()
    if dest == report_dir or report_dir in dest.parents or dest in report_dir.parents:
        raise SystemExit(f"refusing to publish {report_dir} onto {dest} (one contains the other)")
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(report_dir, dest)
    print(f"published {report_dir} -> {dest} (commit it with git)")
    return dest


def latest_report(experiment: str = "mini_demo") -> Path:
    """The newest ``runs/<experiment>/<stamp>/report`` (for ``make demo-publish``)."""
    reports = sorted((REPO / "runs" / experiment).glob("*/report/summary.json"))
    if not reports:
        raise SystemExit(f"no report under runs/{experiment}/; run `make demo` first")
    return reports[-1].parent
