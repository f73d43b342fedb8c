"""The verdict rule (docs/method.md §5): a claim that arm A beats arm B is judged from an interval of
the *difference* between them, never from two intervals side by side.

- Continuous quantities (final values, steps to a threshold): ``difference_ci`` (mean A - mean B) or
  ``ratio_ci`` (mean A / mean B), percentile bootstrap with seeds as the resampling unit, the two arms
  resampled independently (their seeds are different runs).
- Counts of seeds (crossed, collapsed): ``newcombe_ci``, Newcombe's hybrid score interval of p_A - p_B
  (his method 10, built from the two Wilson intervals): informative at 0/n and n/n, where a bootstrap
  of proportions degenerates.
- An interaction (A's gain over B at one level against the same gain at another): ``interaction_ci``,
  the bootstrap of (mean A1 - mean B1) - (mean A2 - mean B2), all four arms resampled independently.

``verdict(low, high, null)`` turns an interval into one word: ``supports`` when the whole interval lies
on the claimed side of ``null`` (0 for a difference, 1 for a ratio), ``contradicts`` when it lies wholly
on the other side, ``cannot decide`` when it contains ``null`` or is missing (one seed gives none).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy import stats as scipy_stats

from bot_repro.analysis.bootstrap import _check, _finite_1d, ratio_of_means_ci
from bot_repro.analysis.stats import wilson_interval

VERDICTS = ("supports", "contradicts", "cannot decide")


def _bootstrap(samples: Sequence[np.ndarray], stat, confidence: float, n_resamples: int, seed: int) -> tuple[float, float]:
    if any(s.size < 2 for s in samples):
        return (math.nan, math.nan)  # one seed in an arm says nothing about its spread
    if all(np.all(s == s[0]) for s in samples):
        point = float(stat(*samples, axis=-1))
        return (point, point)
    res = scipy_stats.bootstrap(tuple(samples), stat, n_resamples=n_resamples, confidence_level=confidence,
                                method="percentile", paired=False, vectorized=True, rng=np.random.default_rng(seed))
    return (float(res.confidence_interval.low), float(res.confidence_interval.high))


def difference_ci(a: Sequence[float], b: Sequence[float], confidence: float = 0.95, n_resamples: int = 10000,
                  seed: int = 0) -> tuple[float, float, float]:
    """``(mean(a) - mean(b), low, high)``: a, b are per-seed values of two arms, shape [n_a], [n_b]."""
    _check(confidence, "percentile", n_resamples)
    x, y = _finite_1d(a, "arm A"), _finite_1d(b, "arm B")
    if x.size == 0 or y.size == 0:
        return (math.nan, math.nan, math.nan)
    low, high = _bootstrap([x, y], lambda p, q, axis: p.mean(axis=axis) - q.mean(axis=axis), confidence, n_resamples, seed)
    return (float(x.mean() - y.mean()), low, high)


def ratio_ci(a: Sequence[float], b: Sequence[float], confidence: float = 0.95, n_resamples: int = 10000,
             seed: int = 0) -> tuple[float, float, float]:
    """``(mean(a) / mean(b), low, high)``, the arms resampled independently (``bootstrap.ratio_of_means_ci``)."""
    return ratio_of_means_ci(a, b, confidence=confidence, n_resamples=n_resamples, seed=seed)


def interaction_ci(a1: Sequence[float], b1: Sequence[float], a2: Sequence[float], b2: Sequence[float],
                   confidence: float = 0.95, n_resamples: int = 10000, seed: int = 0) -> tuple[float, float, float]:
    """``((mean a1 - mean b1) - (mean a2 - mean b2), low, high)``: does A's gain over B at level 1
    exceed its gain at level 2? Per-seed values of four arms, each resampled independently."""
    _check(confidence, "percentile", n_resamples)
    arms = [_finite_1d(v, name) for v, name in ((a1, "a1"), (b1, "b1"), (a2, "a2"), (b2, "b2"))]
    if any(s.size == 0 for s in arms):
        return (math.nan, math.nan, math.nan)

    def stat(p, q, r, s, axis):
        return (p.mean(axis=axis) - q.mean(axis=axis)) - (r.mean(axis=axis) - s.mean(axis=axis))

    low, high = _bootstrap(arms, stat, confidence, n_resamples, seed)
    point = (arms[0].mean() - arms[1].mean()) - (arms[2].mean() - arms[3].mean())
    return (float(point), low, high)


def newcombe_ci(k_a: int, n_a: int, k_b: int, n_b: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """``(k_a/n_a - k_b/n_b, low, high)``: Newcombe's hybrid score interval of a difference of two
    independent proportions, from the Wilson intervals (l, u) of each:
    low = d - sqrt((p_a - l_a)^2 + (u_b - p_b)^2), high = d + sqrt((u_a - p_a)^2 + (p_b - l_b)^2)."""
    if n_a == 0 or n_b == 0:
        return (math.nan, math.nan, math.nan)
    (la, ua), (lb, ub) = wilson_interval(k_a, n_a, confidence), wilson_interval(k_b, n_b, confidence)
    pa, pb = k_a / n_a, k_b / n_b
    d = pa - pb
    return (d, d - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2), d + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2))


def verdict(low: float, high: float, null: float = 0.0, better: str = "above") -> str:
    """One of ``VERDICTS`` for a claim that the quantity is ``better`` (above | below) ``null``."""
    if better not in ("above", "below"):
        raise ValueError(f"better={better!r}; allowed: above, below")
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return "cannot decide"
    if low > null:
        return "supports" if better == "above" else "contradicts"
    if high < null:
        return "contradicts" if better == "above" else "supports"
    return "cannot decide"
