"""Bootstrap confidence intervals over runs (the resampling unit is always a run, i.e. a seed).

Rules shared by every interval in the project:

- the default method is the percentile bootstrap: with the 3-10 seeds a study affords, BCa's jackknife
  acceleration is unstable (and undefined for degenerate samples); ``"BCa"`` and ``"basic"`` are options;
- no values -> ``(nan, nan, nan)``;
- one value -> ``(v, nan, nan)``: one seed says nothing about spread, and a zero-width interval would
  claim certainty we do not have;
- identical values -> ``(v, v, v)``: every resample is the same sample, so the interval has zero width
  (scipy's BCa would return NaN there);
- non-finite inputs are an error: callers drop missing points first and report how many they kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from scipy import stats as scipy_stats

CI_METHODS = ("percentile", "BCa", "basic")


def _check(confidence: float, method: str, n_resamples: int) -> None:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    if method not in CI_METHODS:
        raise ValueError(f"bootstrap method {method!r} is not one of {', '.join(CI_METHODS)}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples!r}")


def _finite_1d(values: Any, what: str) -> np.ndarray:
    x = np.asarray(values, dtype=float).ravel()
    if not np.all(np.isfinite(x)):
        raise ValueError(
            f"{what} contains non-finite values {x[~np.isfinite(x)][:5].tolist()}; drop them first"
        )
    return x


def bootstrap_ci(
    values: Any,
    stat: Callable[..., Any] = np.mean,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    seed: int = 0,
    method: str = "percentile",
) -> tuple[float, float, float]:
    """``(point, low, high)``: ``stat`` of ``values`` and its bootstrap interval (rules in the module doc).

    ``stat`` receives an array (and ``axis=`` when it accepts one, which makes scipy vectorise).
    """
    _check(confidence, method, n_resamples)
    x = _finite_1d(values, "bootstrap_ci input")
    if x.size == 0:
        return (np.nan, np.nan, np.nan)
    point = float(stat(x))
    if x.size == 1:
        return (point, np.nan, np.nan)
    if np.all(x == x[0]):
        return (point, point, point)
    result = scipy_stats.bootstrap(
        (x,),
        stat,
        n_resamples=n_resamples,
        confidence_level=confidence,
        method=method,
        rng=np.random.default_rng(seed),
    )
    return (point, float(result.confidence_interval.low), float(result.confidence_interval.high))


def ratio_of_means_ci(
    numerator: Any,
    denominator: Any,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    seed: int = 0,
    method: str = "percentile",
) -> tuple[float, float, float]:
    """``(mean(num) / mean(den), low, high)`` with the two samples resampled independently (unpaired).

    Empty samples, or a denominator with a value <= 0 (a ratio of crossing steps is undefined when a run
    crosses at x = 0), give NaN throughout; a sample of one value gives NaN bounds; two constant samples
    give a zero-width interval.
    """
    _check(confidence, method, n_resamples)
    num = _finite_1d(numerator, "ratio numerator")
    den = _finite_1d(denominator, "ratio denominator")
    if num.size == 0 or den.size == 0 or np.any(den <= 0):
        return (np.nan, np.nan, np.nan)
    point = float(num.mean() / den.mean())
    if num.size == 1 or den.size == 1:
        return (point, np.nan, np.nan)
    if np.all(num == num[0]) and np.all(den == den[0]):
        return (point, point, point)

    def ratio(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
        return np.mean(a, axis=axis) / np.mean(b, axis=axis)

    result = scipy_stats.bootstrap(
        (num, den),
        ratio,
        n_resamples=n_resamples,
        confidence_level=confidence,
        method=method,
        paired=False,
        vectorized=True,
        rng=np.random.default_rng(seed),
    )
    return (point, float(result.confidence_interval.low), float(result.confidence_interval.high))
