"""React code generation task (docs/method.md §4): prompt corpus, compile-and-render checks, reward, evaluation.

Importing this package registers the ``react`` task and the ``react`` reward source.
"""

from bot_repro.tasks.react.reward import ReactReward
from bot_repro.tasks.react.task import ReactTask, make_react_task

__all__ = ["ReactReward", "ReactTask", "make_react_task"]
