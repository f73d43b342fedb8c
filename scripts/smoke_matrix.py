"""The smoke matrix: every algorithm x every step-format and code task in debug=smoke, one seed.

A refactor that should not change training proves it here: run the matrix before and after, and
compare every logged key but the timings.

    python scripts/smoke_matrix.py --out /tmp/after.json                  # this checkout
    python scripts/smoke_matrix.py --ref 82e4cf3 --out /tmp/before.json   # a commit, in a git worktree
    python scripts/smoke_matrix.py --out /tmp/after.json --compare /tmp/before.json

Each cell is ``python -m bot_repro.train debug=smoke algorithm=A task=T seed=0`` in a subprocess
(the same interpreter, run from the checkout under test), read back through ``bot_repro.run_folder``
of that checkout. ``--compare`` exits 1 when a cell's status, steps or any non-timing value differs;
keys only one side has are listed (a new metric is not a changed one) and fail only with --strict-keys.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TASKS = ("mini", "arith", "aime", "react")
# wall-clock values and what follows from them: they differ between any two runs
TIMING = re.compile(r"(^time$|_seconds$|_per_s$|latency|_rss|memory)")

READER = """
import json, sys
from pathlib import Path
from bot_repro.run_folder import read_metrics, read_run_json, schema
rows = read_metrics(Path(sys.argv[1]) / schema.METRICS)
info = read_run_json(sys.argv[1]) or {}
print(json.dumps({"status": info.get("status"), "rows": rows}))
"""


def algorithms(checkout: Path) -> list[str]:
    return sorted(p.stem for p in (checkout / "conf" / "algorithm").glob("*.yaml"))


def run_cell(checkout: Path, algo: str, task: str, workdir: Path) -> dict:
    run_dir = workdir / f"{algo}_{task}"
    cmd = [sys.executable, "-m", "bot_repro.train", "debug=smoke", f"algorithm={algo}", f"task={task}", "seed=0",
           f"hydra.run.dir={run_dir}"]
    env = {**os.environ, "PYTHONPATH": str(checkout), "HF_HUB_OFFLINE": "1"}
    t0 = time.time()
    proc = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True)
    cell = {"command": " ".join(cmd[1:]), "exit": proc.returncode, "wall_s": round(time.time() - t0, 1)}
    if proc.returncode != 0:
        cell["error_tail"] = proc.stderr[-2000:]
        return cell
    read = subprocess.run([sys.executable, "-c", READER, str(run_dir)], cwd=checkout, env=env,
                          capture_output=True, text=True, check=True)
    data = json.loads(read.stdout)
    cell["status"] = data["status"]
    cell["rows"] = [{k: v for k, v in row.items() if not TIMING.search(k)} for row in data["rows"]]
    return cell


def run_matrix(checkout: Path, tasks: list[str], algos: list[str] | None) -> dict:
    algos = algos or algorithms(checkout)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=checkout, capture_output=True, text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=checkout,
                                capture_output=True, text=True).stdout.strip())
    cells = {}
    with tempfile.TemporaryDirectory(prefix="smoke_matrix_") as tmp:
        for i, (algo, task) in enumerate((a, t) for a in algos for t in tasks):
            cell = run_cell(checkout, algo, task, Path(tmp))
            cells[f"{algo}/{task}"] = cell
            print(f"[{i + 1}/{len(algos) * len(tasks)}] {algo}/{task}: exit {cell['exit']} "
                  f"({cell['wall_s']} s)", flush=True)
    return {"git_sha": sha, "dirty": dirty, "python": sys.version.split()[0], "timing_keys": TIMING.pattern,
            "cells": cells}


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def compare(new: dict, old: dict, strict_keys: bool) -> list[str]:
    """Differences between two matrices, one line each (empty: identical but for timings)."""
    problems = []
    for name in sorted(set(new["cells"]) | set(old["cells"])):
        a, b = new["cells"].get(name), old["cells"].get(name)
        if a is None or b is None:
            problems.append(f"{name}: only in {'the reference' if a is None else 'this run'}")
            continue
        if a["exit"] != b["exit"] or a.get("status") != b.get("status"):
            problems.append(f"{name}: exit/status {a['exit']}/{a.get('status')} vs {b['exit']}/{b.get('status')}")
            continue
        ra, rb = a.get("rows", []), b.get("rows", [])
        if [r.get("step") for r in ra] != [r.get("step") for r in rb]:
            problems.append(f"{name}: steps {[r.get('step') for r in ra]} vs {[r.get('step') for r in rb]}")
            continue
        for x, y in zip(ra, rb):
            for key in sorted(set(x) | set(y)):
                if key not in x or key not in y:
                    line = f"{name} step {x.get('step')}: key {key!r} only in {'this run' if key in x else 'the reference'}"
                    if strict_keys:
                        problems.append(line)
                    else:
                        print("note:", line)
                elif not _same(x[key], y[key]):
                    problems.append(f"{name} step {x.get('step')}: {key} = {x[key]!r} vs {y[key]!r}")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, help="write the matrix here (JSON)")
    ap.add_argument("--ref", help="run the matrix at this commit (a temporary git worktree) instead of this checkout")
    ap.add_argument("--compare", type=Path, help="a matrix JSON to compare against; exit 1 on any difference")
    ap.add_argument("--tasks", default=",".join(TASKS), help=f"comma-separated (default {','.join(TASKS)})")
    ap.add_argument("--algorithms", default="", help="comma-separated (default: every conf/algorithm file)")
    ap.add_argument("--strict-keys", action="store_true", help="a key only one side logs is a difference too")
    args = ap.parse_args()
    tasks = [t for t in args.tasks.split(",") if t]
    algos = [a for a in args.algorithms.split(",") if a] or None
    if args.ref:
        with tempfile.TemporaryDirectory(prefix="smoke_matrix_ref_") as tmp:
            tree = Path(tmp) / "tree"
            subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.ref], cwd=ROOT, check=True)
            try:
                for shared in ("js/node_modules",):  # ignored build outputs the tree needs
                    src = ROOT / shared
                    if src.is_dir() and not (tree / shared).exists():
                        os.symlink(src, tree / shared)
                matrix = run_matrix(tree, tasks, algos)
            finally:
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
    else:
        matrix = run_matrix(ROOT, tasks, algos)
    if args.out:
        args.out.write_text(json.dumps(matrix, indent=1, sort_keys=True) + "\n")
        print(f"wrote {args.out}")
    failed = [name for name, cell in matrix["cells"].items() if cell["exit"] != 0]
    for name in failed:
        print(f"{name} failed:\n{matrix['cells'][name].get('error_tail', '')}", file=sys.stderr)
    if args.compare:
        problems = compare(matrix, json.loads(args.compare.read_text()), args.strict_keys)
        for line in problems:
            print("DIFF", line)
        print(f"{len(matrix['cells'])} cells compared with {args.compare}: "
              f"{'identical but for timings' if not problems else f'{len(problems)} differences'}")
        return 1 if problems else 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
