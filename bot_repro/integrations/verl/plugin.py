"""verl plugin entry point (``[project.entry-points."verl.plugins"] bot_repro``).

verl imports this module at ``import verl`` in the driver and in every Ray worker (or through
``VERL_USE_EXTERNAL_MODULES=bot_repro.integrations.verl.plugin``). It registers:

- advantage estimators ``bot_grpo``, ``ps_grpo``, ``pure`` (``estimators``);
- reward manager ``bot_token`` (``reward_manager``) and agent loop ``bot_single_turn``
  (``agent_loop``).

verl logs a plugin that fails to load at DEBUG level only, so this module logs its own failures
as errors before re-raising; ``registered()`` says what is in verl's registries.
"""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)


def register_estimators() -> None:
    from verl.trainer.ppo.core_algos import ADV_ESTIMATOR_REGISTRY, register_adv_est

    from bot_repro.integrations.verl.estimators import VERL_ESTIMATORS

    for name, fn in VERL_ESTIMATORS.items():
        if ADV_ESTIMATOR_REGISTRY.get(name) is not fn:
            register_adv_est(name)(fn)


def register_components() -> None:
    import bot_repro.integrations.verl.agent_loop  # noqa: F401  (registers bot_single_turn)
    import bot_repro.integrations.verl.reward_manager  # noqa: F401  (registers bot_token)


def registered() -> dict[str, bool]:
    """Which of our names verl's registries hold, with our objects."""
    from verl.experimental.agent_loop.agent_loop import _agent_loop_registry
    from verl.experimental.reward_loop.reward_manager.registry import REWARD_MANAGER
    from verl.trainer.ppo.core_algos import ADV_ESTIMATOR_REGISTRY

    from bot_repro.integrations.verl.estimators import VERL_ESTIMATORS

    out = {name: ADV_ESTIMATOR_REGISTRY.get(name) is fn for name, fn in VERL_ESTIMATORS.items()}
    manager = REWARD_MANAGER.get("bot_token")
    out["bot_token"] = manager is not None and manager.__module__ == "bot_repro.integrations.verl.reward_manager"
    loop = _agent_loop_registry.get("bot_single_turn", {})
    out["bot_single_turn"] = loop.get("_target_", "").startswith("bot_repro.integrations.verl.agent_loop.")
    return out


for _step in (register_estimators, register_components):
    try:
        _step()
    except Exception:
        logger.exception("bot_repro verl plugin: %s failed", _step.__name__)
        raise
