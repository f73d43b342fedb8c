"""How firm a verdict is (docs/method.md §5): the share of leave-2-seeds-out subsets in which it changes.

A verdict read from 8-10 seeds per arm can hang on one or two of them. ``leave_out`` drops every pair of
seeds in turn (from every arm at once: arms share seed numbers, so a seed is one draw of the study's
randomness), applies the same rule to what is left and counts the subsets whose verdict differs from the
full one. A verdict that changes in more than ``FRAGILE`` of them is *fragile*. An arm left with fewer
than two seeds has no interval, so its subset reads "cannot decide": a study of 3 seeds per arm is
fragile by construction, which is what it is.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import pandas as pd

LEAVE_OUT = 2  # seeds dropped per subset
FRAGILE = 0.10  # a verdict that changes in more than this share of the subsets is fragile


@dataclass(frozen=True)
class Firmness:
    changed: int  # subsets whose verdict differs from the full one
    subsets: int  # leave-LEAVE_OUT-seeds-out subsets tried

    @property
    def share(self) -> float:
        return self.changed / self.subsets if self.subsets else float("nan")

    @property
    def fragile(self) -> bool:
        return self.subsets == 0 or self.share > FRAGILE

    def text(self) -> str:
        if not self.subsets:
            return f"n/a (fewer than {LEAVE_OUT + 1} seeds)"
        return f"{self.share:.0%} of {self.subsets}" + (" (fragile)" if self.fragile else "")


def leave_out(arms: Sequence[pd.Series], decide: Callable[..., str], reference: str, seeds: Iterable | None = None,
              k: int = LEAVE_OUT) -> Firmness:
    """``arms``: per-seed values of each arm the test reads, indexed by seed (a seed may index several
    runs of an arm; dropping it drops them all). ``decide(*arrays)`` is the test's verdict word from
    arrays of values in the arms' order; ``reference`` the full data's word. Subsets are every
    k-combination of ``seeds`` (default: the seeds any arm has; a test that reads some seeds only, such as
    those that crossed a threshold, passes all of them), in sorted order."""
    seeds = sorted(set(seeds) if seeds is not None else set().union(*(set(a.index) for a in arms)), key=str)
    if len(seeds) <= k:
        return Firmness(0, 0)
    changed = total = 0
    for dropped in itertools.combinations(seeds, k):
        kept = [a[~a.index.isin(dropped)].to_numpy(dtype=float) for a in arms]
        changed += decide(*kept) != reference
        total += 1
    return Firmness(changed, total)
