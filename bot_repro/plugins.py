"""Import every task package, so that its task and reward source(s) register by name, and every
estimator module (``bot_repro.algorithms.load_estimators``), so that a new algorithm registers too.

A task is one folder ``bot_repro/tasks/<name>/`` whose ``__init__`` registers them; registration
happens at import time, and entry points call ``load_plugins()`` once so that Hydra names resolve.
Every sub-package of ``bot_repro.tasks`` (including folders added to its ``__path__``) is imported.
"""

from __future__ import annotations

import importlib
import pkgutil

import bot_repro.tasks
from bot_repro.algorithms import load_estimators


def task_packages() -> list[str]:
    return sorted(f"bot_repro.tasks.{m.name}" for m in pkgutil.iter_modules(bot_repro.tasks.__path__) if m.ispkg)


def load_plugins() -> None:
    load_estimators()
    for name in task_packages():
        importlib.import_module(name)
