"""The TRL-facing reward function: runs a reward source and keeps its token-level output aside.

TRL calls reward functions with the local completions and their sampled ``completion_ids`` and
expects one scalar per completion. We return the global score G (so TRL's own reward logging
stays meaningful) and stash, for the trainer, the per-token local rewards S_t computed with the
shared mapper from the same ids, plus the component breakdown for logging and saved rollouts.

Private TRL 1.16 behaviour this module depends on (guarded by tests/unit/test_trl_surface.py):
``GRPOTrainer._calculate_rewards`` adds the reward kwargs in ``_TRL_KWARGS`` beside the dataset
columns; every other kwarg is taken for a dataset column.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bot_repro.rewards.base import RewardResult, RewardSource
from bot_repro.rewards.mapper import local_token_rewards, token_char_offsets

# keys TRL adds to the reward kwargs that are not dataset columns
_TRL_KWARGS = {"trainer_state", "log_extra", "log_metric", "environments"}


class NonFiniteRewardError(ValueError):
    """A reward source produced NaN or infinity; the message names the sample."""


@dataclass
class ScoredBatch:
    """Token-level reward data for the completions of one reward call (local process)."""

    global_rewards: list[float]
    local_rewards: list[np.ndarray]  # one array per completion, len == len(completion_ids[i])
    results: list[RewardResult]
    texts: list[str]
    rows: list[dict[str, Any]] = field(default_factory=list)
    metrics: dict[str, float] = field(default_factory=dict)  # e.g. judge accounting for this call


def score_completions(source: RewardSource, tokenizer, completion_ids, rows: list[dict[str, Any]], window: int) -> ScoredBatch:
    """Score sampled completions with ``source``: G per completion and S_t per sampled token.

    Text and token offsets come from the sampled ids (``token_char_offsets``), never from
    re-tokenising. Engine-independent (no TRL): the TRL reward function and the verl reward
    manager (``bot_repro.integrations.verl``) both call it.
    """
    n = len(completion_ids)
    decoded = [token_char_offsets(tokenizer, ids) for ids in completion_ids]
    texts = [text for text, _ in decoded]
    results = source.score(texts, rows)
    if len(results) != n:
        raise ValueError(f"reward source {type(source).__name__} returned {len(results)} results for {n}")
    local = []
    for i, ((text, offsets), res) in enumerate(zip(decoded, results)):
        s = local_token_rewards(text, offsets, res, window)
        bad_local = not np.all(np.isfinite(s))
        if not math.isfinite(res.global_score) or bad_local:
            what = "local rewards" if bad_local else f"global score {res.global_score}"
            raise NonFiniteRewardError(
                f"non-finite {what} for sample {i} (row id {rows[i].get('id', '?')!r}); completion starts "
                f"{text[:80]!r}. Reward sources must return finite values."
            )
        local.append(s)
    return ScoredBatch([float(r.global_score) for r in results], local, results, texts, rows)


class TokenRewardFunction:
    """Callable handed to ``GRPOTrainer(reward_funcs=[...])``; ``window`` is the run's ``reward.window``
    (``RewardCfg``, the one place it is set), which the mapper spreads line values with."""

    def __init__(self, source: RewardSource, tokenizer, window: int, judge=None):
        self.source = source
        self.judge = judge
        self.tokenizer = tokenizer
        self.window = window
        self.__name__ = "token_reward"
        self._pending: list[ScoredBatch] = []
        self._last: tuple[list, list[dict[str, Any]]] | None = None  # the last call's ids and rows (rescore)

    def __call__(self, prompts, completions, completion_ids, **kwargs) -> list[float]:
        n = len(completion_ids)
        columns = {k: v for k, v in kwargs.items() if k not in _TRL_KWARGS and isinstance(v, list) and len(v) == n}
        rows = [{k: v[i] for k, v in columns.items()} for i in range(n)]
        self._last = (completion_ids, rows)
        batch = score_completions(self.source, self.tokenizer, completion_ids, rows, self.window)
        if self.judge is not None:
            log_metric = kwargs.get("log_metric")
            if log_metric is not None:  # TRL's public hook: every call counts, averaged per logged step
                for name, value in self.judge.pop_metrics().items():
                    log_metric(name, float(value))
            else:  # called outside TRL: the trainer logs them with the batch
                batch.metrics = self.judge.pop_metrics()
        self._pending.append(batch)
        return batch.global_rewards

    def rescore(self) -> ScoredBatch:
        """Score the last call's completions again (after a judge outage ended), judge counters with it."""
        if self._last is None:
            raise RuntimeError("rescore() before any scoring call")
        batch = score_completions(self.source, self.tokenizer, *self._last, self.window)
        if self.judge is not None:
            batch.metrics = self.judge.pop_metrics()
        return batch

    def pop(self) -> ScoredBatch:
        """The scored batch of the last call (exactly one call per generation round)."""
        if len(self._pending) != 1:
            raise RuntimeError(f"expected one pending scored batch, found {len(self._pending)}")
        return self._pending.pop()
