"""The one number format of every figure and table: three significant digits, trailing zeros kept.

``number(45.0) == "45.0"``, ``number(0.8176) == "0.818"``, ``number(1.0) == "1.00"``,
``number(12345.6) == "12,346"``; a missing value (None, NaN) is ``"n/a"``. Intervals are
``"mean [low, high]"`` and speed-ups carry ``×``: ``"0.818× [0.676, 1.00]"``. The summary tables,
the figures' numbers tables and the committed-report comparison all print through these, so one
quantity never reads "1x" in one place and "1.03x" in another.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

MISSING = "n/a"
TIMES = "×"


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isnan(value))


def number(value: Any) -> str:
    """``value`` in the project's format (integers as they are, with thousands separators)."""
    if _missing(value):
        return MISSING
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return str(value)
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}"
    value = float(value) + 0.0  # no "-0.00"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if abs(float(f"{value:.3g}")) >= 1000:  # 999.96 rounds to 1,000, not 1.00e+03
        return f"{value:,.0f}"
    return f"{value:#.3g}".rstrip(".")


def interval(mean: Any, low: Any = None, high: Any = None, unit: str = "") -> str:
    """``"mean<unit> [low, high]"`` (``"mean<unit>"`` alone when the interval is missing)."""
    text = number(mean) + (unit if not _missing(mean) else "")
    if _missing(low) and _missing(high):
        return text
    return f"{text} [{number(low)}, {number(high)}]"


def speedup(ratio: Any, low: Any = None, high: Any = None) -> str:
    """A speed-up with its interval: ``"1.03× [0.917, 1.14]"``."""
    return interval(ratio, low, high, unit=TIMES)


def cell(text: str) -> str:
    """``text`` as one Markdown table cell: pipes escaped, newlines as spaces."""
    return text.replace("|", "\\|").replace("\n", " ")
