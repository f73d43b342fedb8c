"""The task contract: prompts with metadata, plus a task-level evaluation of completions.

A task owns its data (train/test rows) and the held-out metric of its figures (compile rate for
React, Pass@k for AIME, success rate for the mini task). Rewards live in ``bot_repro.rewards``.
"""

from __future__ import annotations

from typing import Any, Protocol

from bot_repro.registry import Registry


class Task(Protocol):
    """Rows are dicts with at least ``prompt`` (a list of chat messages) and ``id``."""

    name: str

    def datasets(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Return (train_rows, test_rows), deterministic for the task config."""
        ...

    def evaluate(self, completions: list[list[str]], rows: list[dict[str, Any]]) -> dict[str, float]:
        """Held-out metrics from n completions per test row (e.g. ``compile_rate``, ``pass@1``)."""
        ...


# name -> factory(task_cfg: dict, model_cfg: dict) -> Task
TASKS: Registry = Registry("task")
