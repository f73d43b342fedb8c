"""How many seeds a study needs (docs/method.md §5): sample sizes for the two declared kinds of test, from
a baseline's own seed-to-seed spread.

- A difference of final values (mean A - mean B): ``seeds_for_difference``, the smallest n per arm at which
  a two-sided two-sample t-test at level ``alpha`` has ``power`` against a true difference ``delta`` with a
  per-seed standard deviation ``sd`` (exact, from the noncentral t: power = P(|T| > t_crit), T ~ t'(2n - 2,
  delta / (sd sqrt(2 / n)))).
- A speed-up in steps to a threshold (mean B / mean A): ``seeds_for_speedup``, the same on the log scale,
  where a ratio r of means is a difference log r, and the spread of log(mean steps) over n seeds is about
  cv / sqrt(n) (the delta method; cv = the baseline's sd / mean of its crossing steps).
- ``simulated_power``: the share of simulated studies (normal per-seed values with the baseline's sd) whose
  verdict under the rule itself (``verdict.difference_ci``, a bootstrap) is "supports": a check that the
  t-based n holds for the interval the study really reads.

A study never runs fewer than ``MIN_SEEDS`` per arm, whatever the arithmetic says.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from bot_repro.analysis.verdict import difference_ci, verdict

MIN_SEEDS = 8
MAX_SEEDS = 1000


def t_power(n: int, delta: float, sd: float, alpha: float = 0.05) -> float:
    """Power of the two-sided two-sample t-test with ``n`` seeds per arm against a true difference ``delta``."""
    if n < 2 or sd <= 0:
        raise ValueError(f"need n >= 2 and sd > 0, got n={n!r}, sd={sd!r}")
    df, nc = 2 * n - 2, abs(delta) / (sd * math.sqrt(2.0 / n))
    crit = stats.t.ppf(1 - alpha / 2, df)
    return float(stats.nct.sf(crit, df, nc) + stats.nct.cdf(-crit, df, nc))


def seeds_for_difference(delta: float, sd: float, power: float = 0.8, alpha: float = 0.05) -> int:
    """The smallest n per arm with ``t_power(n) >= power`` (ValueError past ``MAX_SEEDS``)."""
    if delta == 0 or not 0 < power < 1:
        raise ValueError(f"need delta != 0 and 0 < power < 1, got delta={delta!r}, power={power!r}")
    for n in range(2, MAX_SEEDS + 1):
        if t_power(n, delta, sd, alpha) >= power:
            return n
    raise ValueError(f"more than {MAX_SEEDS} seeds per arm for delta={delta:g} at sd={sd:g}")


def seeds_for_speedup(ratio: float, cv: float, power: float = 0.8, alpha: float = 0.05) -> int:
    """Seeds per arm for a speed-up ``ratio`` (> 1) in mean steps to a threshold whose per-seed coefficient of
    variation is ``cv`` (the slower arm's; the faster one is assumed to scale with it)."""
    if ratio <= 1 or cv <= 0:
        raise ValueError(f"need ratio > 1 and cv > 0, got ratio={ratio!r}, cv={cv!r}")
    return seeds_for_difference(math.log(ratio), cv, power, alpha)


def simulated_power(n: int, delta: float, sd: float, sims: int = 400, seed: int = 0, n_resamples: int = 2000) -> float:
    """Share of ``sims`` simulated studies (n seeds per arm, normal values with spread ``sd``, arm A ahead by
    ``delta``) whose bootstrap interval of A - B lies wholly above 0: the verdict rule's own power."""
    rng = np.random.default_rng(seed)
    hits = 0
    for i in range(sims):
        a, b = rng.normal(delta, sd, n), rng.normal(0.0, sd, n)
        _, low, high = difference_ci(a, b, n_resamples=n_resamples, seed=i)
        hits += verdict(low, high) == "supports"
    return hits / sims
