"""The one curve smoothing used by every statistic and figure (crossings, drops, plotted curves).

Smoothing runs over a run's sequence of logged points in step order (evaluation points for ``eval/*``
metrics), ignoring their spacing in steps, time or tokens. Non-finite values (NaN, inf) are missing
points: their output is NaN and they do not move the smoother's state.

- ``"ema"`` (default): ``s_1 = y_1``, ``s_i = alpha * y_i + (1 - alpha) * s_{i-1}``; ``alpha`` is the
  weight of the newest point (default 0.5). Causal, so a crossing is never claimed from future points.
- ``"window"``: trailing mean of the last ``window`` points (fewer at the start); causal too.
- ``"none"``: the raw values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

SMOOTHING_METHODS = ("ema", "window", "none")


@dataclass(frozen=True)
class Smoothing:
    """A validated smoothing setting; call it on a 1-D array of values."""

    method: str = "ema"
    alpha: float = 0.5
    window: int = 3

    def __post_init__(self) -> None:
        if self.method not in SMOOTHING_METHODS:
            raise ValueError(f"smoothing method {self.method!r} is not one of {', '.join(SMOOTHING_METHODS)}")
        if not isinstance(self.alpha, int | float) or not 0 < self.alpha <= 1:
            raise ValueError(f"smoothing alpha must be in (0, 1], got {self.alpha!r}")
        if isinstance(self.window, bool) or not isinstance(self.window, int) or self.window < 1:
            raise ValueError(f"smoothing window must be an integer >= 1, got {self.window!r}")

    def __call__(self, values: Any) -> np.ndarray:
        return smooth(values, self.method, self.alpha, self.window)

    def describe(self) -> str:
        """Short text for captions and summaries, e.g. ``"ema (alpha=0.5)"``."""
        if self.method == "ema":
            return f"ema (alpha={self.alpha:g})"
        if self.method == "window":
            return f"trailing mean (window={self.window})"
        return "none"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


DEFAULT_SMOOTHING = Smoothing()
NO_SMOOTHING = Smoothing("none")

SmoothingArg = Smoothing | Mapping[str, Any] | str | None


def as_smoothing(spec: SmoothingArg) -> Smoothing:
    """Accept a ``Smoothing``, a config mapping (``{"method": "window", "window": 5}``), a method name, or
    ``None`` for no smoothing."""
    if spec is None:
        return NO_SMOOTHING
    if isinstance(spec, Smoothing):
        return spec
    if isinstance(spec, str):
        return Smoothing(spec)
    if isinstance(spec, Mapping):
        unknown = sorted(set(spec) - {"method", "alpha", "window"})
        if unknown:
            raise ValueError(f"unknown smoothing key(s) {unknown}; allowed keys: method, alpha, window")
        return Smoothing(**spec)
    raise TypeError(f"smoothing must be a Smoothing, a mapping, a method name or None, got {spec!r}")


def smooth(values: Any, method: str = "ema", alpha: float = 0.5, window: int = 3) -> np.ndarray:
    """Smoothed copy of the 1-D ``values`` as float64 (see the module docstring for the methods)."""
    Smoothing(method, alpha, window)  # validates the arguments
    y = np.asarray(values, dtype=float)
    if y.ndim != 1:
        raise ValueError(f"smooth expects a 1-D sequence, got shape {y.shape}")
    out = np.full(y.shape, np.nan)
    finite = np.flatnonzero(np.isfinite(y))
    points = y[finite]
    if method == "none" or points.size == 0:
        out[finite] = points
    elif method == "ema":
        state = points[0]
        smoothed = np.empty_like(points)
        for i, value in enumerate(points):
            state = value if i == 0 else alpha * value + (1.0 - alpha) * state
            smoothed[i] = state
        out[finite] = smoothed
    else:
        sums = np.concatenate([[0.0], np.cumsum(points)])
        end = np.arange(1, points.size + 1)
        start = np.maximum(0, end - window)
        out[finite] = (sums[end] - sums[start]) / (end - start)
    return out
