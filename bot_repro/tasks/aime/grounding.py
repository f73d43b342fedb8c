"""Grounding of arithmetic claims (docs/method.md §3): may a step's "a op b = c" use these operands?

A true claim is *grounded* when each operand is available, where the available numbers are

* the problem's numbers, read from the problem text (``problem_numbers``): every numeral (digits
  with an optional decimal part, any Unicode digits; "1,000" also counts as 1000), every number
  word (zero to nineteen, the tens, hundred, thousand, million, and "twenty-five"-style compounds),
  the multiplier and fraction words twice / double / half (2), thrice / triple / third (3),
  quarter (4) and dozen (12), and 100 when the problem says "%" or "percent";
* the results c of the sample's earlier grounded true claims, in reading order: earlier steps,
  and earlier claims of the same step ("3 + 4 = 7, 7 * 2 = 14" chains within one step).

Operands are compared by absolute value (a sign never makes a new magnitude: "5 - 8 = -3" then
"-3 + 10 = 7" is a chain). Nothing else is available: no free constants such as 1, 2 or 60 unless
the problem writes them, no gold answer, and no result of a false or unsupported claim, so a chain
that starts on numbers from nowhere stays unsupported all the way down. The problem side is read
generously (the policy cannot change it); the step side is strict.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Protocol

_NUMERAL = re.compile(r"(?<![\d.])\d+(?:\.\d+)?")
_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])")
_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_WORDS = {
    **{w: i for i, w in enumerate(_UNITS)}, **_TENS, "hundred": 100, "thousand": 1000, "million": 10**6,
    "twice": 2, "double": 2, "doubled": 2, "doubles": 2, "half": 2, "halves": 2, "halved": 2,
    "thrice": 3, "triple": 3, "tripled": 3, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
    "dozen": 12, "dozens": 12, "percent": 100,
}  # fmt: skip
_WORD = re.compile(r"\b(" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_COMPOUND = re.compile(r"\b(" + "|".join(_TENS) + r")-(" + "|".join(_UNITS[1:10]) + r")\b", re.IGNORECASE)


class ClaimLike(Protocol):
    true: bool
    operands: tuple[float, float]
    result: float


def _key(value: float) -> float:
    return abs(float(value))


def problem_numbers(problem: str) -> set[float]:
    """The numbers a problem text makes available (see the module docstring), as absolute values."""
    numbers = {_key(m.group(0)) for m in _NUMERAL.finditer(problem)}
    numbers |= {_key(m.group(0).replace(",", "")) for m in _GROUPED.finditer(problem)}
    numbers |= {float(_WORDS[m.group(1).lower()]) for m in _WORD.finditer(problem)}
    numbers |= {float(_TENS[m.group(1).lower()] + _UNITS.index(m.group(2).lower())) for m in _COMPOUND.finditer(problem)}
    if "%" in problem:
        numbers.add(100.0)
    return {n for n in numbers if not math.isnan(n)}


def grounded_flags(numbers: Iterable[float], claims_per_step: Sequence[Sequence[ClaimLike]]) -> list[list[bool]]:
    """For each step, for each of its claims (in order): is it true with both operands available?

    ``numbers`` are the problem's (``problem_numbers``); each grounded claim's result becomes
    available to the claims after it."""
    available = set(numbers)
    flags = []
    for claims in claims_per_step:
        row = []
        for claim in claims:
            ok = claim.true and all(_key(x) in available for x in claim.operands)
            if ok:
                available.add(_key(claim.result))
            row.append(ok)
        flags.append(row)
    return flags
