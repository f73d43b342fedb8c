"""Value checks for the options of the advantage estimators, keyed by option name.

An option name means the same thing in every estimator (``std`` is always the population /
unbiased switch, ``eps`` always the denominator guard), so one checker per name serves all of
them. ``registry.register_advantage`` refuses to register an estimator whose keyword-only option
has no checker here, so a new option cannot slip in unvalidated.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

from bot_repro.config_errors import ConfigError

# each choice option's values with their display names (legends and tables of the figures that
# compare them, e.g. mini_weighting's hue algorithm.options.weighting)
CHOICE_LABELS: dict[str, dict[str, str]] = {
    "std": {"population": "population std", "unbiased": "unbiased std"},
    "seq_reward": {"global": "global reward", "token_mean": "token-mean reward", "token_sum": "token-sum reward"},
    "weighting": {"inverse_length": "1/L_k weighting (paper)", "uniform": "uniform weighting"},
    "zero_std": {"zero": "zero advantage", "eps": "divide by eps", "drop": "drop the group"},
    "same_global": {"pooled": "pooled std (paper)", "floor_std": "std floored at std_floor", "zero": "zero advantage"},
    "reduce": {"mean": "mean to go", "sum": "sum to go"},
    "baseline": {"token": "token baseline", "step": "step baseline"},
}
STD_CHOICES = tuple(CHOICE_LABELS["std"])
SEQ_REWARD_CHOICES = tuple(CHOICE_LABELS["seq_reward"])
WEIGHTING_CHOICES = tuple(CHOICE_LABELS["weighting"])
ZERO_STD_CHOICES = tuple(CHOICE_LABELS["zero_std"])
SAME_GLOBAL_CHOICES = tuple(CHOICE_LABELS["same_global"])
REDUCE_CHOICES = tuple(CHOICE_LABELS["reduce"])
BASELINE_CHOICES = tuple(CHOICE_LABELS["baseline"])

Checker = Callable[[str, Any, str], None]


def _bad(option: str, value: Any, where: str, allowed: str) -> ConfigError:
    return ConfigError(f"invalid value {value!r} for option {option!r} of {where}; allowed: {allowed}")


def _is_real(value: Any) -> bool:
    # bool is an int subclass, but `w_g: true` in a config is a mistake, not 1.0
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def choice(*allowed: str) -> Checker:
    def check(option: str, value: Any, where: str) -> None:
        if value not in allowed:
            raise _bad(option, value, where, ", ".join(repr(a) for a in allowed))

    return check


def finite_real(option: str, value: Any, where: str) -> None:
    if not _is_real(value) or not math.isfinite(value):
        raise _bad(option, value, where, "a finite number")


def positive_real(option: str, value: Any, where: str) -> None:
    if not _is_real(value) or not math.isfinite(value) or value <= 0:
        raise _bad(option, value, where, "a finite number > 0")


def non_negative_real(option: str, value: Any, where: str) -> None:
    if not _is_real(value) or not math.isfinite(value) or value < 0:
        raise _bad(option, value, where, "a finite number >= 0")


def boolean(option: str, value: Any, where: str) -> None:
    if not isinstance(value, bool):
        raise _bad(option, value, where, "true or false")


def non_negative_int(option: str, value: Any, where: str) -> None:
    if not _is_int(value) or value < 0:
        raise _bad(option, value, where, "an integer >= 0")


def optional_positive_int(option: str, value: Any, where: str) -> None:
    if value is not None and (not _is_int(value) or value <= 0):
        raise _bad(option, value, where, "null or an integer > 0")


OPTION_CHECKS: dict[str, Checker] = {
    "w_g": finite_real,
    "w_s": finite_real,
    "eps": positive_real,
    "std": choice(*STD_CHOICES),
    "seq_reward": choice(*SEQ_REWARD_CHOICES),
    "weighting": choice(*WEIGHTING_CHOICES),
    "zero_std": choice(*ZERO_STD_CHOICES),
    "same_global": choice(*SAME_GLOBAL_CHOICES),
    "std_floor": non_negative_real,
    "reduce": choice(*REDUCE_CHOICES),
    "baseline": choice(*BASELINE_CHOICES),
    "whiten": boolean,
    "temperature": positive_real,
    "max_completion_length": optional_positive_int,
    "overlong_buffer": non_negative_int,
    "overlong_penalty": non_negative_real,
}


def option_label(option: str, value: Any) -> str | None:
    """The display name of ``value`` of choice option ``option`` (None when it has none)."""
    return CHOICE_LABELS.get(option, {}).get(value) if isinstance(value, str) else None


def check_overlong(options: dict[str, Any], where: str) -> None:
    """DAPO's soft overlong punishment needs L_max when a buffer is set, and L_cache <= L_max."""
    max_len, buffer = options["max_completion_length"], options["overlong_buffer"]
    if buffer > 0 and max_len is None:
        raise ConfigError(
            f"option 'overlong_buffer'={buffer} of {where} needs 'max_completion_length' (got null); "
            "set it or use overlong_buffer: 0"
        )
    if max_len is not None and buffer > max_len:
        raise ConfigError(
            f"option 'overlong_buffer'={buffer} of {where} exceeds 'max_completion_length'={max_len}; "
            f"allowed: 0..{max_len}"
        )
