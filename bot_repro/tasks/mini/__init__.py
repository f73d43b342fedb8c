"""The mini task: close a tiny markup document's open tags (CPU study, tests and smoke runs)."""

from bot_repro.tasks.mini.task import MiniTask

__all__ = ["MiniTask"]
