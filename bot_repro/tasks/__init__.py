"""Tasks registered by name in ``TASKS`` (see ``bot_repro.tasks.base``)."""

from bot_repro.tasks.base import TASKS, Task

__all__ = ["TASKS", "Task"]
