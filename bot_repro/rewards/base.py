"""The reward-source contract: a global score and located local penalties per completion.

A reward source never sees tokens. It reads the completion *text* and reports
(docs/method.md §3, Eq. 4) a global score G and local signals located on character spans or on lines of
that text; ``bot_repro.rewards.mapper`` turns them into per-token local rewards S_t using
offsets computed from the sampled token ids. The trainer then forms r_t = w_g G + w_s S_t.

``RewardCfg`` is the typed reward section every source is built from: the one home (and the one
default) of the weights w_g, w_s and the window w. It lives here, below tasks and config, so that
sources (layer 2) and the config schemas (layer 3) share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from bot_repro.config_schema import NON_NEGATIVE, checked
from bot_repro.registry import Registry

# RewardResult.excluded's reasons (each logged as excluded/<reason>): a judge gave no verdict (no reply,
# or one that cannot be read); a checker worker was stopped (bot_repro/tasks/stalls.py)
JUDGE_OUTAGE = "judge_outage"
WORKER_STALLED = "worker_stalled"
EXCLUSIONS = (JUDGE_OUTAGE, WORKER_STALLED)


@dataclass
class RewardCfg:
    """The reward section (conf/reward/*.yaml), checked by ``bot_repro.config_schema.build_options``:
    the one home of its weights and window (r_t = w_g G + w_s S_t, docs/method.md §3) on the TRL path,
    on verl and in every reward source (``build_task`` hands a source this object)."""

    source: str
    w_g: float = checked(1.0, NON_NEGATIVE)
    w_s: float = checked(1.0, NON_NEGATIVE)
    window: int = checked(3, NON_NEGATIVE)  # neighbours each side a line/step score spreads to
    params: dict[str, Any] = field(default_factory=dict)  # the source's own options, checked by its factory


@dataclass
class SpanReward:
    """Value added to every token overlapping characters [start, end) of the completion text."""

    start: int
    end: int
    value: float


@dataclass
class RewardResult:
    """What a reward source says about one completion.

    global_score: G, added to every token (after the w_g weight).
    lines: {0-indexed line of the completion text: penalty}; spread to neighbouring lines with
        phi(d) = max(0, 1 - d/(w+1)) by the mapper (w = ``RewardCfg.window``). Values from
        several sources add up on a line.
    spans: values on character spans, applied to overlapping tokens without spreading.
    components: named parts of the global score and other scalars, logged as means per step.
    info: free-form detail kept with saved rollouts (diagnostics, failure reasons, ...).
    excluded: why this completion has no score and must not train (one of ``EXCLUSIONS``), or None
        when its score is a real verdict. Its G and S are then placeholders that no estimator may read
        (docs/method.md §3); an unparseable judge reply is no verdict either (``judge_outage``).
    """

    global_score: float
    lines: dict[int, float] = field(default_factory=dict)
    spans: list[SpanReward] = field(default_factory=list)
    components: dict[str, float] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)
    excluded: str | None = None

    def add_line(self, line: int, value: float) -> None:
        self.lines[line] = self.lines.get(line, 0.0) + value


class RewardSource(Protocol):
    """Scores a batch of completions; ``rows`` are the dataset rows they answer (same order).

    Must never raise on bad model output: a completion that cannot be checked scores as a
    failure with the reason in ``info["failure"]``.
    """

    def score(self, completions: list[str], rows: list[dict[str, Any]]) -> list[RewardResult]: ...


# name -> factory(reward: RewardCfg, context: dict) -> RewardSource.
# ``context`` carries shared objects (e.g. the judge client) built once per run.
REWARD_SOURCES: Registry = Registry("reward source")
