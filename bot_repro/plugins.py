"""Import every module that registers tasks, reward sources or judge backends.

Registration happens at import time; entry points call ``load_plugins()`` once so that Hydra
names resolve. A module listed here that is missing from the tree is skipped.
"""

from __future__ import annotations

import importlib
import importlib.util

PLUGIN_MODULES = [
    "bot_repro.tasks.mini",
    "bot_repro.tasks.aime",
    "bot_repro.tasks.react",
]


def load_plugins() -> None:
    for name in PLUGIN_MODULES:
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name)
