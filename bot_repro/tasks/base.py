"""The task contract and ``build_task``, the one place a task and its reward source are built.

A task is one folder ``bot_repro/tasks/<name>/`` (data, checker, reward source, evaluation) plus
one ``conf/task/<name>.yaml``. Its package registers a factory in ``TASKS`` and its reward
source(s) in ``bot_repro.rewards.REWARD_SOURCES`` at import time; ``bot_repro.plugins`` lists the
packages to import. ``Task`` declares every hook the trainer, the figures and the study call,
with the default a task gets when it does not override it.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bot_repro.config_schema import ConfigError
from bot_repro.registry import Registry
from bot_repro.rewards.base import REWARD_SOURCES, RewardCfg, RewardSource


class Task:
    """Rows are dicts with at least ``prompt`` (a list of chat messages) and ``id``."""

    name: str = ""

    def datasets(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Return (train_rows, test_rows), deterministic for the task config."""
        raise NotImplementedError

    def evaluate(self, completions: list[list[str]], rows: list[dict[str, Any]]) -> dict[str, float]:
        """Held-out metrics from n completions per test row (e.g. ``compile_rate``, ``pass@1``)."""
        raise NotImplementedError

    def evaluate_and_save(self, completions: list[list[str]], rows: list[dict[str, Any]],
                          out_dir: str | Path) -> dict[str, float]:
        """``evaluate``, keeping what was evaluated under ``out_dir`` (default: ``samples.jsonl``)."""
        metrics = self.evaluate(completions, rows)
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        with (out / "samples.jsonl").open("w") as f:
            for row, comps in zip(rows, completions):
                f.write(json.dumps({"id": row.get("id"), "completions": comps}) + "\n")
        return metrics

    def tokenizer_corpus(self) -> list[str] | None:
        """Texts a tiny in-process tokenizer is trained on (None: the tiny model's default corpus)."""
        return None

    def warm_start(self, model_dir: Path, cache: Path, seed: int, progress=None) -> Path:
        """The policy training starts from (default: the model itself; the mini task fine-tunes).
        ``progress(step, total)``, when given, is called as the warm start advances."""
        return Path(model_dir)

    def reward(self, reward: RewardCfg, context: dict[str, Any]) -> RewardSource:
        """The reward source named by ``reward.source``, built from the typed section with the run's
        shared objects."""
        return REWARD_SOURCES[reward.source](reward, context)


def check_rows(rows: list[dict[str, Any]], split: str) -> None:
    """Every row needs a non-empty ``prompt`` list of chat messages; name the first bad row."""
    for i, row in enumerate(rows):
        prompt = row.get("prompt")
        ok = isinstance(prompt, list) and prompt and all(isinstance(m, dict) and "content" in m for m in prompt)
        if not ok:
            raise ConfigError(
                f"{split} row {i} (id {row.get('id', '?')!r}) has no valid 'prompt': expected a non-empty list "
                f"of chat messages {{'role', 'content'}}, got {str(prompt)[:80]!r}"
            )


# name -> factory(task_params: dict, model_cfg: dict) -> Task
TASKS: Registry = Registry("task")


def build_task(cfg: Any, *, judge=None, run_dir: Path | None = None, seed: int = 0,
               with_reward: bool = True) -> tuple[Task, RewardSource | None]:
    """The task and its reward source from a validated config (``bot_repro.config.validate`` or
    ``validate_stack``: its ``task``, ``reward`` and ``model`` dataclasses).

    ``judge`` is the run's judge client or None. The task's rows are loaded and checked before the
    reward source is built (a learned PRM or a judge costs more than a malformed data file should).
    Used by the trainer, verl, offline evaluation, the study and the tests; ``with_reward=False``
    skips the reward.
    """
    task = TASKS[cfg.task.name](dict(cfg.task.params), asdict(cfg.model))
    train_rows, test_rows = task.datasets()
    check_rows(train_rows, "train")
    check_rows(test_rows, "test")
    if not with_reward:  # held-out evaluation and warm starts need no reward source (nor its judge)
        return task, None
    return task, task.reward(cfg.reward, {"judge": judge, "run_dir": run_dir, "seed": seed})
