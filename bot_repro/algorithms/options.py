"""Value checks for the options of the advantage estimators, keyed by option name.

An option name means the same thing in every estimator (``std`` is always the population /
unbiased switch, ``eps`` always the denominator guard), so ``OPTION_CHECKS`` holds one shared
checker per name, for every estimator to reuse. An option only one estimator has is declared with
that estimator instead (``register_advantage(..., options={"my_opt": choice("a", "b")})``), from the
checkers here. ``advantages.register_advantage`` refuses an estimator whose keyword-only option has
neither, so a new option cannot slip in unvalidated.

A choice option's checker (``Choice``) also holds the display names of its values (legends and
tables of the figures that compare them, e.g. mini_weighting's hue algorithm.options.weighting) and
how each value's arm is drawn (``styles``: a ``Style``, or the name of the algorithm whose registered
style the value draws in: an option's paper default is that algorithm's own arm);
``advantages.option_label`` and ``advantages.option_style`` read them, ``bot_repro.plots.style`` says the scheme.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot_repro.config_schema import ConfigError

Checker = Callable[[str, Any, str], None]
LineStyle = str | tuple[float, tuple[float, ...]]
HEX_COLOR = re.compile(r"#[0-9A-Fa-f]{6}")
# BoT-GRPO's variants: colours that no algorithm has (Tol's wine, rose and indigo: apart from BoT-GRPO's
# vermilion in hue and lightness), each variant with its own marker and line style (bot_repro.plots.style)
VARIANT_COLORS = ("#882255", "#CC6677", "#332288")


@dataclass(frozen=True)
class Style:
    """How one arm is drawn in every figure: ``color`` "#rrggbb", a matplotlib ``marker`` and ``linestyle``."""

    color: str
    marker: str
    linestyle: LineStyle = "-"

    def __post_init__(self) -> None:
        if not HEX_COLOR.fullmatch(self.color):  # a programming error, caught at import time
            raise TypeError(f"style color {self.color!r} is not '#rrggbb'")


ValueStyle = Style | str  # a Style, or the registered algorithm whose style the value draws in


def _bad(option: str, value: Any, where: str, allowed: str) -> ConfigError:
    return ConfigError(f"invalid value {value!r} for option {option!r} of {where}; allowed: {allowed}")


def _is_real(value: Any) -> bool:
    # bool is an int subclass, but `w_g: true` in a config is a mistake, not 1.0
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


@dataclass(frozen=True)
class Choice:
    """The checker of a choice option: ``values`` are allowed, ``labels`` name some of them in figures,
    ``styles`` draw some of them (a ``Style`` or an algorithm name)."""

    values: tuple[str, ...]
    labels: Mapping[str, str] = field(default_factory=dict)
    styles: Mapping[str, ValueStyle] = field(default_factory=dict)

    def __call__(self, option: str, value: Any, where: str) -> None:
        if value not in self.values:
            raise _bad(option, value, where, ", ".join(repr(a) for a in self.values))


def choice(*allowed: str, labels: Mapping[str, str] | None = None,
           styles: Mapping[str, ValueStyle] | None = None) -> Choice:
    """``choice("a", "b")``, or ``choice(labels={"a": "display name of a", ...}, styles={"a": "bot_grpo",
    "b": Style(...)})``: the values are the labels' keys, in order."""
    labels, styles = dict(labels or {}), dict(styles or {})
    values = allowed or tuple(labels)
    unknown = sorted((set(labels) | set(styles)) - set(values))
    if not values or unknown:  # a programming error, caught at import time
        raise TypeError(f"choice needs allowed values, and labels and styles only for them: {values}, "
                        f"labels or styles of {unknown}")
    return Choice(tuple(values), labels, styles)


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
    "std": choice(labels={"population": "population std", "unbiased": "unbiased std"}),
    "seq_reward": choice(labels={"global": "global reward", "token_mean": "token-mean reward",
                                 "token_sum": "token-sum reward"}),
    # BoT-GRPO's options: the paper default draws as BoT-GRPO, each other value as its own variant
    "weighting": choice(labels={"inverse_length": "1/L_k weighting (paper)", "uniform": "uniform weighting"},
                        styles={"inverse_length": "bot_grpo", "uniform": Style(VARIANT_COLORS[2], "h", (0, (8, 2, 2, 2)))}),
    "zero_std": choice(labels={"zero": "zero advantage", "eps": "divide by eps", "drop": "drop the group"},
                       styles={"zero": "bot_grpo", "eps": Style(VARIANT_COLORS[0], "8", (0, (5, 1))),
                               "drop": Style(VARIANT_COLORS[1], "H", (0, (2, 2)))}),
    "same_global": choice(labels={"pooled": "pooled std (paper)", "floor_std": "std floored at std_floor",
                                  "zero": "zero advantage"},
                          styles={"pooled": "bot_grpo", "floor_std": Style(VARIANT_COLORS[0], "d", (0, (5, 1))),
                                  "zero": Style(VARIANT_COLORS[1], "<", (0, (2, 2)))}),
    "std_floor": non_negative_real,
    "reduce": choice(labels={"mean": "mean to go", "sum": "sum to go"}),
    "baseline": choice(labels={"token": "token baseline", "step": "step baseline"}),
    "whiten": boolean,
    "temperature": positive_real,
    "max_completion_length": optional_positive_int,
    "overlong_buffer": non_negative_int,
    "overlong_penalty": non_negative_real,
}
# each shared choice option's values with their display names, and with their styles
CHOICE_LABELS: dict[str, dict[str, str]] = {
    name: dict(check.labels) for name, check in OPTION_CHECKS.items() if isinstance(check, Choice)
}
CHOICE_STYLES: dict[str, dict[str, ValueStyle]] = {
    name: dict(check.styles) for name, check in OPTION_CHECKS.items() if isinstance(check, Choice)
}


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
