"""React code generation task (SPEC §4): prompt corpus, compile-and-render checks, evaluation.

Importing this package registers the ``react`` task; the reward source lives in
``bot_repro.rewards.react``.
"""

from bot_repro.tasks.react.task import ReactTask, make_react_task

__all__ = ["ReactTask", "make_react_task"]
