"""verl advantage estimators that call bot_repro's registry (``bot_repro.algorithms.ADVANTAGES``).

verl's contract for an estimator registered with ``core_algos.register_adv_est(name)``::

    fn(token_level_rewards [bs, W], response_mask [bs, T], index (uid per row), config, **extra)
        -> (advantages [bs, T], returns [bs, T])

For each of ``ESTIMATORS`` (the registry's estimators registered with ``verl=True``: today
``bot_grpo``, ``ps_grpo`` and ``pure``; verl's built-ins cover the sequence-level ones), ``make_estimator`` reads w_g G and
w_s S out of the split layout (``layout.unpack_split``), puts the rows of each uid next to each other
(verl's rows come in any order; ``layout.group_rows``), calls ``ADVANTAGES[name]`` with unit weights
(the weights were applied by the reward manager) and the options in ``algorithm.bot_options``, and
puts the rows back. The numbers are the registry's: this module computes nothing itself.
Returns equal advantages, as verl's GRPO does.

This module does not import verl; ``plugin.register_estimators`` registers the functions.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

import torch
from torch import Tensor

from bot_repro.algorithms import ADVANTAGES, drops_groups
from bot_repro.algorithms.advantages import validate_options
from bot_repro.config_schema import ConfigError
from bot_repro.integrations.verl.layout import group_rows, scatter_rows, unpack_split

log = logging.getLogger(__name__)
ESTIMATORS = tuple(name for name, fn in ADVANTAGES.items() if fn.info.verl)
OPTIONS_KEY = "bot_options"  # algorithm.bot_options in verl's config
# the rewards arrive weighted (the reward manager applied reward.w_g / reward.w_s), so the estimator's are 1
UNIT_WEIGHTS = {"w_g": 1.0, "w_s": 1.0}


def estimator_options(name: str, config: Any) -> dict[str, Any]:
    """The registry options for ``name`` from verl's ``algorithm`` config (``algorithm.bot_options``)."""
    raw = None
    if config is not None:
        getter = getattr(config, "get", None)
        raw = getter(OPTIONS_KEY, None) if getter is not None else getattr(config, OPTIONS_KEY, None)
    if raw is None:
        options: dict[str, Any] = {}
    else:
        try:  # a DictConfig in verl's trainer; a plain dict in tests
            from omegaconf import OmegaConf

            if OmegaConf.is_config(raw):
                raw = OmegaConf.to_container(raw, resolve=True)
        except ImportError:  # pragma: no cover - omegaconf ships with verl
            pass
        if not isinstance(raw, Mapping):
            raise ConfigError(f"algorithm.{OPTIONS_KEY} must be a mapping of {name!r} options, got {raw!r}")
        options = dict(raw)
    for weight in ("w_g", "w_s"):
        if weight in options:
            raise ConfigError(
                f"algorithm.{OPTIONS_KEY}.{weight} is not used on verl: the reward manager applies w_g and w_s "
                "(from the reward stack, reward.bot) before the rewards reach the estimator; set them there"
            )
    validate_options(name, {**options, **UNIT_WEIGHTS})
    if drops_groups(name, options):
        raise ConfigError(
            f"algorithm.{OPTIONS_KEY}={options} asks for the TRL trainer's group dropping (zero_std='drop'); on "
            "verl use zero_std='zero' (zero advantage, the default) and verl's algorithm.filter_groups to drop groups"
        )
    return options


def make_estimator(name: str) -> Callable[..., tuple[Tensor, Tensor]]:
    """verl-facing estimator for registry entry ``name``."""
    registry_fn = ADVANTAGES[name]

    def estimator(
        token_level_rewards: Tensor,
        response_mask: Tensor,
        index: Any = None,
        config: Any = None,
        **_unused: Any,  # verl may pass reward_baselines and others; our estimators do not read them
    ) -> tuple[Tensor, Tensor]:
        if index is None:
            raise ValueError(f"advantage estimator {name!r} needs verl's group index (non_tensor_batch['uid'])")
        options = estimator_options(name, config)
        weighted_global, weighted_local = unpack_split(token_level_rewards, response_mask)
        groups = group_rows(index, response_mask)
        bs = response_mask.shape[0]
        if groups.n_groups == 0:
            if bs:  # every group dropped (a rollout without a score, or no tokens): verl steps its optimizer
                # anyway, which an estimator cannot stop; say so
                log.warning("%s: no group of this batch of %d rows has a scored rollout: zero advantages, but verl's "
                            "optimizer step still runs (AdamW's moments move the weights); the TRL trainer makes no "
                            "update here (docs/method.md §3)", name, bs)
            advantages = torch.zeros(response_mask.shape, dtype=torch.float32, device=response_mask.device)
        else:
            order = torch.as_tensor(groups.order, device=response_mask.device)
            grouped = registry_fn(
                weighted_global[order],
                weighted_local[order],
                response_mask[order],
                groups.K,
                **UNIT_WEIGHTS,
                **options,
            )
            advantages = scatter_rows(grouped, groups, bs)
        return advantages, advantages.clone()

    estimator.__name__ = f"bot_repro_{name}"
    estimator.__qualname__ = estimator.__name__
    estimator.__doc__ = (
        f"verl adapter for bot_repro's {name!r} (split-layout rewards, rows grouped by uid); see "
        "bot_repro.integrations.verl.estimators."
    )
    estimator.bot_repro_name = name
    return estimator


# built once per process, so registering twice (entry point + VERL_USE_EXTERNAL_MODULES) is a no-op
VERL_ESTIMATORS: dict[str, Callable[..., tuple[Tensor, Tensor]]] = {name: make_estimator(name) for name in ESTIMATORS}
