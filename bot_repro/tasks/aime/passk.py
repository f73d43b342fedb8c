"""Pass@k for the AIME task: the estimator's home is ``bot_repro.tasks.passk``.

Kept only so ``aime/task.py``'s import (another branch's file) resolves until it imports
``bot_repro.tasks.passk`` directly; then this file goes.
"""

from bot_repro.tasks.passk import mean_pass_at_k, pass_at_k

__all__ = ["mean_pass_at_k", "pass_at_k"]
