"""Advantage estimators, registered by name in ``ADVANTAGES``.

Contract (relied on by the trainer, the tasks and users)::

    fn(global_rewards: Tensor[B], local_rewards: Tensor[B, T], mask: Tensor[B, T],
       group_size: int, **options) -> Tensor[B, T]

Rows of one group (the K = group_size rollouts of one prompt) are contiguous, B % K == 0.
The token reward is ``w_g * global + w_s * local``. Computation is float32 whatever the input
dtype, and padded positions (mask == 0) are exactly 0 in the output.

Every module of this package (including folders added to its ``__path__``) is imported by
``load_estimators``, which runs on import and again from ``bot_repro.plugins.load_plugins``, so a new
estimator is one module that calls ``register_advantage``: nothing else lists the algorithms.
"""

import importlib
import pkgutil

from bot_repro.algorithms.advantages import ADVANTAGES, algorithm_info, drops_groups, register_advantage

__all__ = ["ADVANTAGES", "algorithm_info", "drops_groups", "load_estimators", "register_advantage"]


def estimator_modules() -> list[str]:
    """Every module of this package, sorted (the infrastructure modules register nothing)."""
    return sorted(f"{__name__}.{m.name}" for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def load_estimators() -> None:
    """Import every module of the package, so that each estimator registers itself (idempotent)."""
    for name in estimator_modules():
        importlib.import_module(name)


load_estimators()
