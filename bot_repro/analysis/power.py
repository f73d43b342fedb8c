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

A study never runs fewer than ``MIN_SEEDS`` per arm, whatever the arithmetic says. ``study_size`` reads
all of it off a committed baseline report: #52's difference (half the arm's own mean gain) and speed-up
(``SPEEDUP``, to a threshold halfway between the highest step-0 value of any seed and the mean final one).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from scipy import stats

from bot_repro.analysis.findings import ARM, Reports
from bot_repro.analysis.stats import crossings_per_run
from bot_repro.analysis.verdict import difference_ci, verdict

MIN_SEEDS = 8
MAX_SEEDS = 1000
POWER, ALPHA = 0.8, 0.05
SPEEDUP = 1.5  # the speed-up to the threshold the study must be able to see


def t_power(n: int, delta: float, sd: float, alpha: float = ALPHA) -> float:
    """Power of the two-sided two-sample t-test with ``n`` seeds per arm against a true difference ``delta``."""
    if n < 2 or sd <= 0:
        raise ValueError(f"need n >= 2 and sd > 0, got n={n!r}, sd={sd!r}")
    df, nc = 2 * n - 2, abs(delta) / (sd * math.sqrt(2.0 / n))
    crit = stats.t.ppf(1 - alpha / 2, df)
    return float(stats.nct.sf(crit, df, nc) + stats.nct.cdf(-crit, df, nc))


def seeds_for_difference(delta: float, sd: float, power: float = POWER, alpha: float = ALPHA) -> int:
    """The smallest n per arm with ``t_power(n) >= power`` (ValueError past ``MAX_SEEDS``)."""
    if delta == 0 or not 0 < power < 1:
        raise ValueError(f"need delta != 0 and 0 < power < 1, got delta={delta!r}, power={power!r}")
    for n in range(2, MAX_SEEDS + 1):
        if t_power(n, delta, sd, alpha) >= power:
            return n
    raise ValueError(f"more than {MAX_SEEDS} seeds per arm for delta={delta:g} at sd={sd:g}")


def seeds_for_speedup(ratio: float, cv: float, power: float = POWER, alpha: float = ALPHA) -> int:
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


def study_size(folder: Path, arm: str, metric: str = "eval/pass@1") -> dict:
    """Seeds per arm for a study at ``arm``'s setting, from the committed report ``folder``: the spread of
    the arm's final ``metric`` over seeds against half its mean gain, and the coefficient of variation of its
    steps to the threshold (halfway from the highest step-0 value to the mean final one) against ``SPEEDUP``.
    ValueError when the arm did not gain (there is no effect to size a study for)."""
    reports, name = Reports(folder.parent), folder.name
    summary = reports.summary(name, metric)
    final = reports.per_seed(name, summary, "final", arm)
    gain = reports.per_seed(name, summary, "gain", arm)
    if not gain.mean() > 0:
        raise ValueError(f"{folder}: arm {arm!r} did not gain on {metric} (mean gain {gain.mean():.4g}): no study to size")
    start = final - gain  # each seed's step-0 value
    threshold = float(start.max() + (final.mean() - start.max()) / 2)
    df = reports.frame(name, metric)
    cross = crossings_per_run(df[df[ARM] == arm], metric, threshold, ARM, "step", summary["smoothing"], summary["direction"])
    steps = cross.loc[cross["crossed"], "crossing"].to_numpy(dtype=float)
    sd = float(final.std(ddof=1))
    cv = float(steps.std(ddof=1) / steps.mean()) if steps.size > 1 and steps.std(ddof=1) > 0 else None
    n_difference = seeds_for_difference(gain.mean() / 2, sd, POWER, ALPHA)
    n_speedup = seeds_for_speedup(SPEEDUP, cv, POWER, ALPHA) if cv is not None else None
    return {"arm": arm, "metric": metric, "seeds": int(final.size), "final_sd": sd, "mean_gain": float(gain.mean()),
            "difference": float(gain.mean() / 2), "seeds_for_difference": n_difference, "threshold": threshold,
            "crossed": int(steps.size), "crossing_cv": cv, "speedup": SPEEDUP, "seeds_for_speedup": n_speedup,
            "seeds_per_arm": max(MIN_SEEDS, n_difference, n_speedup or 0)}
