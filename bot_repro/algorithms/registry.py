"""The ``ADVANTAGES`` registry, option validation, and ``compute_advantages``.

Kept apart from the estimators so their modules can import it without cycles. Every registered
estimator is wrapped so that each call checks its options first (unknown name, bad value), with
the same ``ConfigError`` the trainer gets from ``validate_options`` at start-up.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from torch import Tensor

from bot_repro.algorithms.options import OPTION_CHECKS
from bot_repro.config_errors import ConfigError
from bot_repro.registry import Registry, UnknownNameError

ADVANTAGES: Registry = Registry("algorithm")

CrossCheck = Callable[[dict[str, Any], str], None]


def _option_defaults(fn: Callable[..., Any]) -> dict[str, Any]:
    params = inspect.signature(fn).parameters.values()
    return {p.name: p.default for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}


def register_advantage(name: str, *, cross_check: CrossCheck | None = None):
    """Decorator: ``@register_advantage("grpo")`` adds a validating wrapper of the function to ``ADVANTAGES``.

    ``cross_check(options_with_defaults, where)`` may raise ``ConfigError`` for combinations of
    options that are each valid alone.
    """

    def wrap(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
        defaults = _option_defaults(fn)
        unchecked = sorted(set(defaults) - set(OPTION_CHECKS))
        if unchecked:  # a programming error in this package, caught at import time
            raise TypeError(f"advantage estimator {name!r} has options without a checker: {unchecked}")

        @functools.wraps(fn)
        def validated(global_rewards, local_rewards, mask, group_size, **options):
            validate_options(name, options)
            return fn(global_rewards, local_rewards, mask, group_size, **options)

        validated.option_defaults = defaults
        validated.cross_check = cross_check
        ADVANTAGES.register(name)(validated)
        return validated

    return wrap


def validate_options(name: str, options: dict[str, Any]) -> None:
    """Raise ``ConfigError`` for an unknown estimator, an unknown option, or an invalid option value."""
    try:
        fn = ADVANTAGES[name]
    except UnknownNameError as exc:
        raise ConfigError(str(exc)) from exc
    where = f"advantage estimator {name!r}"
    defaults: dict[str, Any] = fn.option_defaults
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise ConfigError(f"unknown option(s) {unknown} for {where}; allowed options: {', '.join(defaults)}")
    merged = {**defaults, **options}
    for key, value in merged.items():
        OPTION_CHECKS[key](key, value, where)
    if fn.cross_check is not None:
        fn.cross_check(merged, where)


def compute_advantages(
    name: str, global_rewards: Tensor, local_rewards: Tensor, mask: Tensor, group_size: int, **options: Any
) -> Tensor:
    """Validate ``options`` for estimator ``name`` and return its advantages ``[B, T]`` (float32)."""
    validate_options(name, options)
    # the registered wrapper would validate again; call the estimator itself
    return ADVANTAGES[name].__wrapped__(global_rewards, local_rewards, mask, group_size, **options)
