"""The mini task: close a tiny markup document's open tags (CPU study, tests and smoke runs).

Importing this package registers the ``mini`` task and the ``mini`` reward source.
"""

from bot_repro.tasks.mini.reward import MiniReward
from bot_repro.tasks.mini.task import MiniTask

__all__ = ["MiniReward", "MiniTask"]
