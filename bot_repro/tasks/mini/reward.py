"""Reward source for the mini task: global success plus one of four local-signal variants.

G = 1 if the completion closes the document exactly, else 0. Local signals live on the
completion's units (tags or stray words) and a value on unit i is spread to unit j with the
paper's decay phi(d) = max(0, 1 - d/(w+1)), d = |i - j| in units (the mini task is one line, so
units play the role of React's lines). Variants (SPEC §3's "rich vs stable" question):

- ``penalty``: -1 on the first error only. Bounded; blind to missing closers (hackable by stopping).
- ``progress``: ``penalty`` plus +``progress_credit`` on every correctly closed tag.
- ``noisy``: ``progress`` with a fraction ``noise`` of labels corrupted (sign flipped or moved to
  a random unit), seeded per completion.
- ``unbounded``: every error -``error_weight`` (all of them, summed) and -1 per element left open,
  placed on the end of the text; no bound on the total.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from bot_repro.config_errors import ConfigError, build_options
from bot_repro.rewards.base import REWARD_SOURCES, RewardResult, SpanReward
from bot_repro.rewards.mapper import phi
from bot_repro.tasks.mini.checker import TOKEN, check

VARIANTS = ("penalty", "progress", "noisy", "unbounded")


@dataclass
class MiniRewardParams:
    variant: str = "penalty"
    progress_credit: float = 0.5
    noise: float = 0.3
    error_weight: float = 1.0


class MiniReward:
    def __init__(self, reward_cfg: dict[str, Any], context: dict[str, Any]):
        self.p = build_options(MiniRewardParams, reward_cfg.get("params"), "reward.params (mini)")
        if self.p.variant not in VARIANTS:
            raise ConfigError(f"reward.params.variant={self.p.variant!r}; allowed: {', '.join(VARIANTS)}")
        if not 0.0 <= self.p.noise <= 1.0:
            raise ConfigError(f"reward.params.noise={self.p.noise} must be in [0, 1]")
        self.window = int(reward_cfg.get("window", 1))
        self.seed = int(context.get("seed", 0))

    def _spread(self, units: list[tuple[int, int]], idx: int, value: float) -> list[SpanReward]:
        weights = phi(np.arange(len(units)) - idx, self.window)
        return [SpanReward(s, e, value * float(w)) for (s, e), w in zip(units, weights) if w > 0]

    def score_one(self, document: str, text: str) -> RewardResult:
        p = self.p
        res = check(document, text, all_errors=p.variant == "unbounded")
        units = [(m.start(1), m.end(1)) for m in TOKEN.finditer(text)]
        index = {span: i for i, span in enumerate(units)}
        labels: list[tuple[int, float]] = []  # (unit index, value) before spreading
        for s, e, _ in res.errors[: None if p.variant == "unbounded" else 1]:
            labels.append((index[(s, e)], -p.error_weight if p.variant == "unbounded" else -1.0))
        if p.variant in ("progress", "noisy"):
            labels += [(index[span], p.progress_credit) for span in res.closed]
        if p.variant == "noisy" and units:
            digest = hashlib.sha256(f"{self.seed}|{document}|{text}".encode()).digest()
            rng = random.Random(int.from_bytes(digest[:8], "little"))
            noisy = []
            for i, v in labels:
                if rng.random() < p.noise:
                    i, v = (i, -v) if rng.random() < 0.5 else (rng.randrange(len(units)), v)
                noisy.append((i, v))
            labels = noisy
        out = RewardResult(global_score=1.0 if res.success else 0.0)
        for i, v in labels:
            out.spans += self._spread(units, i, v)
        if p.variant == "unbounded" and res.unclosed:
            out.spans.append(SpanReward(len(text), len(text) + 1, -float(res.unclosed)))
        out.components = {
            "success": float(res.success),
            "closed_frac": len(res.closed) / max(1, res.n_tags),
            "has_error": float(bool(res.errors)),
            "unclosed_frac": res.unclosed / max(1, res.n_tags),
            "empty": float(not text.strip()),
        }
        if res.errors:
            out.info["failure"] = res.errors[0][2]
        return out

    def score(self, completions: list[str], rows: list[dict[str, Any]]) -> list[RewardResult]:
        return [self.score_one(row["document"], text) for text, row in zip(completions, rows)]


@REWARD_SOURCES.register("mini")
def build_mini_reward(reward_cfg: dict[str, Any], context: dict[str, Any]) -> MiniReward:
    return MiniReward(reward_cfg, context)
