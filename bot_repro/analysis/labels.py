"""Display names of group values (the values a figure or table groups runs by), from their homes.

An algorithm name (in any column: a study may relabel GRPO's runs into an option's column) is
shown by the label it was registered with (``bot_repro.algorithms.advantages.AlgorithmInfo``); a
value of a choice option (column ``algorithm.options.<option>``) by its checker's labels
(``advantages.option_label``: ``options.CHOICE_LABELS`` or an estimator's own ``options=``);
anything else (a reward variant, a model, a w_s value) as itself, or by the ``labels`` of the
figure's ``plot`` block in its experiment config. No value is ever shown by its raw config
spelling when one of those homes names it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot_repro.algorithms import ADVANTAGES
from bot_repro.algorithms.advantages import option_label

OPTION_PREFIX = "algorithm.options."


def value_text(value: Any) -> str:
    """A config value as text: ``1.0`` -> ``"1"`` (config keys are strings, table values numbers)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def group_label(value: Any, column: str | None = None, labels: Mapping[str, str] | None = None) -> str:
    """The display name of ``value`` of group column ``column``; ``labels`` (value text -> name, an
    experiment's ``report.plot.labels``) comes first."""
    text = value_text(value)
    if labels and text in labels:
        return labels[text]
    if isinstance(value, str) and value in ADVANTAGES:
        return ADVANTAGES[value].info.label
    if column and column.startswith(OPTION_PREFIX):
        named = option_label(column[len(OPTION_PREFIX):], value)
        if named is not None:
            return named
    return text


def group_key_label(group: Mapping[str, Any], labels: Mapping[str, str] | None = None) -> str:
    """The display name of a group of several columns (``{column: value}``), joined by ", "."""
    return ", ".join(group_label(v, c, labels) for c, v in group.items()) or "all runs"
