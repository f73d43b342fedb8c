"""What the policy-drift measures cost on real SmolLM2 steps: ``results/policy_drift/cost.json`` from its runs.

Reads each run folder under ``results/policy_drift/`` (its ``metrics.jsonl``: ``policy/kl_seconds``,
``policy/delta_seconds``, ``step_seconds``) and writes, per run, over the steps whose KL ran a forward
(step 2 on: step 1's rollouts are the start's own, so no forward runs): the mean seconds of each measure,
the mean step, the KL's share of the step time (its seconds summed over the steps' seconds summed), and
the range of the KL estimates; values to 3 significant digits. The runs' commands are in their run.json
(README.md there).

    python scripts/policy_drift_cost.py [results/policy_drift]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from bot_repro.run_folder import find_run_dirs, read_metrics, read_run_json


def _round(x: float) -> float:
    return float(f"{x:.3g}")


def cost(run_dir: Path) -> dict:
    records = [r for r in read_metrics(run_dir / "metrics.jsonl") if r["step"] >= 2 and "policy/kl_seconds" in r]
    kl = [r["policy/kl_seconds"] for r in records]
    delta = [r["policy/delta_seconds"] for r in records]
    step = [r["step_seconds"] for r in records]
    info = read_run_json(run_dir)
    return {
        "command": info["command"],
        "adapter": ((info.get("lora") or {}).get("adapter") or {}).get("spec"),  # None: every weight trained
        "steps": [r["step"] for r in records],
        "kl_seconds_mean": _round(sum(kl) / len(kl)),
        "delta_seconds_mean": _round(sum(delta) / len(delta)),
        "step_seconds_mean": _round(sum(step) / len(step)),
        "kl_share_of_step": _round(sum(kl) / sum(step)),
        "delta_share_of_step": _round(sum(delta) / sum(step)),
        "kl_start_min": _round(min(r["policy/kl_start"] for r in records)),
        "kl_start_max": _round(max(r["policy/kl_start"] for r in records)),
        "weight_delta_last": _round(records[-1]["policy/weight_delta"]),
    }


def main(root: Path) -> None:
    out = {Path(run_dir).name: cost(Path(run_dir)) for _, run_dir in find_run_dirs(root)}
    (root / "cost.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(json.dumps(out, indent=1, sort_keys=True))


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "results/policy_drift"))
