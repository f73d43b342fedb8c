"""Write a bot_repro task's train/test rows as verl parquet files.

    python -m bot_repro.integrations.verl.data --out data/verl/react task=react model=qwen2_5_3b

The overrides are bot_repro's (conf/), the same a TRL run takes, so the rows and their split are
the TRL run's. Each verl row: ``prompt`` (chat messages), ``data_source`` (``bot_repro/<task>``),
``reward_model.ground_truth`` (the row's answer, if any), ``agent_name`` (``bot_single_turn``) and
``extra_info.bot_row``: the task row as JSON, which the ``bot_token`` reward manager hands to the
reward source (React's request, AIME's answer, mini's document).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

AGENT_LOOP = "bot_single_turn"


def verl_row(row: dict[str, Any], task: str, split: str, i: int) -> dict[str, Any]:
    answer = row.get("answer")
    return {
        "data_source": f"bot_repro/{task}",
        "prompt": [{"role": str(m["role"]), "content": str(m["content"])} for m in row["prompt"]],
        "ability": task,
        "reward_model": {"style": "rule", "ground_truth": "" if answer is None else str(answer)},
        "agent_name": AGENT_LOOP,
        "extra_info": {"split": split, "index": i, "id": str(row.get("id", i)),
                       "bot_row": json.dumps(row, default=str, sort_keys=True)},
    }


def write_task(overrides: list[str], out: Path, seed: int = 0) -> dict[str, int]:
    """Write ``out/train.parquet``, ``out/test.parquet`` and ``out/stack.json``; return the row counts."""
    import pandas as pd

    from bot_repro.integrations.verl.stack import compose_stack
    from bot_repro.tasks.base import build_task

    stack = compose_stack(overrides, seed=seed)
    name = stack.task.name
    task, _ = build_task(stack, with_reward=False, seed=seed)  # the rows checked as on the TRL path
    train, test = task.datasets()
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    for split, rows in (("train", train), ("test", test)):
        pd.DataFrame([verl_row(r, name, split, i) for i, r in enumerate(rows)]).to_parquet(out / f"{split}.parquet")
        counts[split] = len(rows)
    record = {"overrides": overrides, "seed": seed, "task": asdict(stack.task), "reward": asdict(stack.reward),
              "rows": counts}
    (out / "stack.json").write_text(json.dumps(record, indent=2, default=str))
    return counts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="output folder (train.parquet, test.parquet)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("overrides", nargs="*", help="bot_repro config overrides, e.g. task=react model=qwen2_5_3b")
    args = parser.parse_args(argv)
    counts = write_task(args.overrides, args.out, args.seed)
    print(f"wrote {counts['train']} train and {counts['test']} test rows to {args.out}")


if __name__ == "__main__":
    main()
