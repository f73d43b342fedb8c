"""Reward-hacking monitors: what share of a training batch the local or the format reward favours while
the answer is wrong, how far completion length drifts, and how much of the text repeats.

docs/method.md §3 ("Reward-hacking monitors") defines each one and its warning threshold. The values are
pure functions of per-sample arrays; ``batch_monitors`` reads them off a scored batch and
``bot_repro.trainer.step_log.batch_metrics`` logs them as ``monitor/<name>`` on every step that
generates. ``StepMonitors`` adds the length ratio to each ``metrics.jsonl`` record (it needs the first
step's length, so it keeps state) and returns one warning per monitor and crossing of its threshold
(``bot_repro.config.MonitorCfg``: ``trainer.monitors.*``); ``bot_repro.trainer.callbacks.MetricsJsonl`` logs them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import fields

import numpy as np

from bot_repro.config import MonitorCfg
from bot_repro.rewards.base import RewardResult
from bot_repro.run_folder.schema import MONITOR_PREFIX

LOCAL_UP = MONITOR_PREFIX + "local_up_global_not"
FORMAT_ONLY = MONITOR_PREFIX + "format_only"
REPEAT = MONITOR_PREFIX + "repeat_frac"
LENGTH_RATIO = MONITOR_PREFIX + "length_ratio"
# step-truth components (counts of a sample's steps that hold) -> the key of "true steps, wrong answer".
# A grounded rule's component joins by name, e.g. "steps_grounded": "grounded_steps_wrong_answer", with a
# ``MonitorCfg`` field of the key's name for its threshold.
STEP_TRUTH = {"steps_true": "true_steps_wrong_answer"}
# the metrics.jsonl key whose first value is the length reference (TRL's mean completion tokens)
LENGTH_KEY = "completion_len_mean"

REPEAT_N = 4  # n of the repeated n-gram share (Welleck et al. 2019's rep-n uses 4 too)
# a word or a run of punctuation (NLTK's wordpunct pattern): "</a></a>" is 5 units, not one word
_UNITS = re.compile(r"\w+|[^\w\s]+")
# rewards reach these functions through float32 tensors: two rows of equal reward may differ by a few
# float32 steps (~1e-7 relative) after averaging, which must not count as "above the group's mean"
_TOL = 1e-6


def _above(x: np.ndarray, ref: np.ndarray) -> np.ndarray:
    return x > ref + _TOL * np.maximum(1.0, np.abs(ref))


def local_up_global_not(global_: Sequence[float], local: Sequence[float], k: int) -> float:
    """Share of samples whose local reward is above their group's mean while their global reward is not.

    ``global_``: G per sample; ``local``: the sample's mean local reward (1/L) sum_t S_t; groups of ``k``
    consecutive samples. In advantage terms: the local signal pushes the sample up, the global one
    does not (a group with all-equal G counts its above-mean local samples; all-equal S counts none).
    """
    g = np.asarray(global_, dtype=np.float64)
    s = np.asarray(local, dtype=np.float64)
    if g.shape != s.shape or g.ndim != 1 or k < 1 or len(g) % k:
        raise ValueError(f"need two equal 1-D arrays of a multiple of k={k} samples; got {g.shape} and {s.shape}")
    if not len(g):
        return 0.0
    g, s = g.reshape(-1, k), s.reshape(-1, k)
    s_up = _above(s, s.mean(axis=1, keepdims=True))
    g_up = _above(g, g.mean(axis=1, keepdims=True))
    return float((s_up & ~g_up).mean())


def _wrong(correct: np.ndarray) -> np.ndarray:
    return correct < 0.5  # 1[correct] is 0 or 1


def true_steps_wrong_answer(true_steps: Sequence[float], correct: Sequence[float]) -> float:
    """Share of samples with at least one true step (``true_steps`` > 0) and a wrong answer."""
    t, c = np.asarray(true_steps, dtype=np.float64), np.asarray(correct, dtype=np.float64)
    return float(((t > 0) & _wrong(c)).mean()) if len(t) else 0.0


def format_only(format_reward: Sequence[float], correct: Sequence[float]) -> float:
    """Share of samples rewarded for format (``format_reward`` > 0) whose answer is wrong."""
    f, c = np.asarray(format_reward, dtype=np.float64), np.asarray(correct, dtype=np.float64)
    return float(((f > 0) & _wrong(c)).mean()) if len(f) else 0.0


def repeated_fraction(text: str, n: int = REPEAT_N) -> float:
    """rep-n of one text: 1 - |distinct n-grams| / |n-grams| over its word and punctuation units
    (0 with fewer than n units). Linear in the text's length."""
    units = _UNITS.findall(text)
    total = len(units) - n + 1
    if total <= 0:
        return 0.0
    return 1.0 - len(set(zip(*(units[i:] for i in range(n))))) / total


def repeat_frac(texts: Iterable[str], n: int = REPEAT_N) -> float:
    """Mean rep-n over ``texts`` (0 for none)."""
    values = [repeated_fraction(t, n) for t in texts]
    return float(np.mean(values)) if values else 0.0


def length_ratio(mean_now: float, mean_first: float) -> float:
    """Mean completion length now over the first logged step's (which must be > 0)."""
    if not mean_first > 0:
        raise ValueError(f"the reference length must be > 0, got {mean_first!r}")
    return float(mean_now) / float(mean_first)


def true_steps(res: RewardResult, component: str) -> float | None:
    """A sample's true steps by ``component``; for ``steps_true`` without that component (task=aime),
    the steps its step scorer scored positive (``info["step_scores"]``); None when neither exists."""
    if component in res.components:
        return float(res.components[component])
    if component == "steps_true" and "step_scores" in res.info:
        return float(sum(v > 0 for v in res.info["step_scores"]))
    return None


def batch_monitors(global_: Sequence[float], local: Sequence[float], k: int,
                   results: Sequence[RewardResult], texts: Sequence[str]) -> dict[str, float]:
    """The ``monitor/`` values of a batch: ``local_up_global_not`` from G and mean S of the whole (gathered)
    batch in groups of ``k``; from the scored samples ``results`` and ``texts``: ``repeat_frac``, and
    where every sample has the components they read (``correct`` with a step truth or ``format_bonus``:
    the step-format tasks arith and aime; absent for mini and react), ``true_steps_wrong_answer`` and
    ``format_only``."""
    out = {LOCAL_UP: local_up_global_not(global_, local, k), REPEAT: repeat_frac(texts)}
    if not results or not all("correct" in r.components for r in results):
        return out
    correct = [r.components["correct"] for r in results]
    for component, name in STEP_TRUTH.items():
        counts = [true_steps(r, component) for r in results]
        if all(c is not None for c in counts):
            out[MONITOR_PREFIX + name] = true_steps_wrong_answer(counts, correct)
    if all("format_bonus" in r.components for r in results):
        out[FORMAT_ONLY] = format_only([r.components["format_bonus"] for r in results], correct)
    return out


class StepMonitors:
    """Per run: the length reference, and which monitors are past their threshold (so each crossing
    warns once, and again only after the value has come back)."""

    def __init__(self, cfg: MonitorCfg | None = None):
        self.cfg = cfg or MonitorCfg()
        self.reference: float | None = None  # the first logged mean completion length > 0
        self.firing: set[str] = set()

    def resume(self, records: Iterable[dict]) -> None:
        """Take the length reference from a resumed run's earlier ``metrics.jsonl`` records."""
        for rec in records:
            self._set_reference(rec)

    def _set_reference(self, rec: dict) -> None:
        value = rec.get(LENGTH_KEY)
        if self.reference is None and isinstance(value, int | float) and value > 0:
            self.reference = float(value)

    def observe(self, rec: dict) -> tuple[dict[str, float], list[str]]:
        """(keys to add to ``rec``: the length ratio when ``rec`` has a length, warnings to log)."""
        self._set_reference(rec)
        extra = {}
        if isinstance(rec.get(LENGTH_KEY), int | float) and self.reference is not None:
            extra[LENGTH_RATIO] = length_ratio(rec[LENGTH_KEY], self.reference)
        values = {**rec, **extra}
        warnings = []
        for alarm, key, bad, limit in self._tests(values):
            if not bad:
                self.firing.discard(alarm)
            elif alarm not in self.firing:
                self.firing.add(alarm)
                warnings.append(f"step {rec.get('step')}: {key} = {values[key]:.3f} is {limit} "
                                "(reward-hacking monitor, docs/method.md §3); warned once until it comes back")
        return extra, warnings

    def _tests(self, values: dict) -> list[tuple[str, str, bool, str]]:
        """(alarm, key, past its threshold, the threshold in words) for each monitor ``values`` holds;
        the length ratio has two alarms, above ``length_ratio_high`` and below ``length_ratio_low``."""
        tests = []
        for f in fields(self.cfg):
            key, limit = MONITOR_PREFIX + f.name, getattr(self.cfg, f.name)
            if f.name.startswith("length_ratio_"):
                key, high = LENGTH_RATIO, f.name.endswith("_high")
            else:
                high = True
            if isinstance(values.get(key), int | float):
                bad = values[key] > limit if high else values[key] < limit
                words = f"{'above' if high else 'below'} trainer.monitors.{f.name}={limit}"
                tests.append((f.name, key, bad, words))
        return tests
