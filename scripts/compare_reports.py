"""Field by field: every value of each committed summary.json at REF (before the report-folder format,
issue #32) equals the rewritten report's, read through bot_repro.report_folder.

    python scripts/compare_reports.py 82e4cf3      # exit 1 when a value differs

Not compared: meta.date, meta.machine and meta.command (when, where and by which command the report
was drawn); study_wall_seconds is read as wall_seconds. real_small's old shape (per-arm curves) is
compared point by point with the new summaries' curves.
"""
import json
import math
import subprocess
import sys
from pathlib import Path

from bot_repro.report_folder import read_summary

ROOT = Path(__file__).resolve().parents[1]

STEP0 = ("policy_hash", "step0_success", "step0_pass@8", "step0_identical_group_share", "step0")
TIMES = ("date", "machine")  # when and where the analysis ran: not numbers of the runs

def leaves(x, prefix=""):
    if isinstance(x, dict):
        for k, v in x.items():
            yield from leaves(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from leaves(v, f"{prefix}[{i}]")
    else:
        yield prefix, x

def same(a, b):
    return a == b or (isinstance(a, float) and isinstance(b, float) and (math.isnan(a) and math.isnan(b)))

def check(old, new_folder):
    new = read_summary(new_folder)
    n = bad = 0
    if "runs" in old and "sweep" in old:  # real_small's old shape: per-arm curves
        titles = {"format rate (no tag error)": ("reward/format_ok", "eval/format_ok_rate"),
                  "answer accuracy": ("reward/correct", "eval/sample_accuracy"),
                  "step accuracy (checked steps)": ("reward/step_accuracy", "eval/step_accuracy")}
        by_metric = {s["metric"]: {c["group"]["algorithm.name"]: c["points"] for c in s["curves"]} for s in new["summaries"]}
        for arm, r in old["runs"].items():
            for title, (train, held) in titles.items():
                for part, metric in (("train", train), ("eval", held)):
                    o = [tuple(p) for p in r["curves"][title][part]]
                    m = [(s, v) for s, v, _ in by_metric[metric][arm]]
                    if part == "train":
                        m = [(s, v) for s, v in m if s > 0]
                    n += len(o) * 2
                    if o != m:
                        bad += 1
                        print("DIFF", arm, title, part, o, m)
        return n, bad
    old_meta = old.pop("meta")
    step0 = {k: old.pop(k) for k in STEP0 if k in old}
    first = dict(new["summaries"][0])
    first.pop("curves")
    for path, value in leaves(old):
        n += 1
        got = dict(leaves(first)).get(path, "MISSING")
        if not same(value, got):
            bad += 1
            print("DIFF summary", path, value, got)
    for path, value in leaves(step0):
        n += 1
        got = dict(leaves(new.get("step0", {}))).get(path, "MISSING")
        if not same(value, got):
            bad += 1
            print("DIFF step0", path, value, got)
    if set(leaves(first)) and len(dict(leaves(first))) != len(dict(leaves(old))):
        print("note: new summary has", len(dict(leaves(first))), "leaves, old", len(dict(leaves(old))))
    renamed = {"study_wall_seconds": "wall_seconds"}
    for key, value in old_meta.items():
        if key in TIMES or key == "command":
            continue
        n += 1
        got = new["meta"].get(renamed.get(key, key), "MISSING")
        if not same(json.dumps(value, sort_keys=True), json.dumps(got, sort_keys=True)):
            bad += 1
            print("DIFF meta", key, str(value)[:200], "|", str(got)[:200])
    return n, bad

def main(ref: str) -> int:
    listed = subprocess.run(["git", "ls-tree", "-r", "--name-only", ref, "results"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    total = 0
    for name in sorted(p for p in listed if p.endswith("/summary.json")):
        old = subprocess.run(["git", "show", f"{ref}:{name}"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        n, bad = check(json.loads(old), ROOT / Path(name).parent)
        print(f"{name}: {n} values compared, {bad} differ")
        total += bad
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "82e4cf3"))
