"""Advantage estimators, registered by name in ``ADVANTAGES``.

Contract (relied on by the trainer, the tasks and users)::

    fn(global_rewards: Tensor[B], local_rewards: Tensor[B, T], mask: Tensor[B, T],
       group_size: int, **options) -> Tensor[B, T]

Rows of one group (the K = group_size rollouts of one prompt) are contiguous, B % K == 0.
The token reward is ``w_g * global + w_s * local``. Computation is float32 whatever the input
dtype, and padded positions (mask == 0) are exactly 0 in the output.
"""

# importing the modules registers the estimators
from bot_repro.algorithms import core_algos  # noqa: F401,E402
from bot_repro.algorithms.registry import ADVANTAGES, register_advantage

__all__ = ["ADVANTAGES", "register_advantage"]
