"""Reward source for the mini task: global success plus one of four local-signal variants.

G = 1 if the completion closes the document exactly, else 0. Local signals live on the completion's
units (tags or stray words) and a value on unit i is spread to unit j with the paper's decay phi(d) =
max(0, 1 - d/(w+1)), d = |i - j| in units, w = the reward section's ``window`` (the mini task is one
line, so units play the role of React's lines). The *end* of the answer is located too: a value on the
end is the span [len(text), len(text) + 1), which the mapper puts on the EOS token (a special token has
an empty character range at len(text); ``bot_repro.rewards.mapper.local_token_rewards``), and is not
spread (the end is not a unit: spreading a stop penalty onto the last closer would punish a correct
tag). A completion cut at the length limit has no EOS, so its end value reaches no token.

The paper's design rule (docs/method.md §3): local signals bounded, stable, positively correlated with
success. ``progress`` follows it; the other three break one part of it on purpose (the CPU study's
"unstable" arms):

- ``progress`` (the clean signal): -1 on the first located error, where stopping while elements are
  still open is an error located on the end (EOS); +``progress_credit`` on every correctly closed
  tag and on the end of a correct answer. At most one -1, so bounded; every shortfall is located.
- ``penalty`` (breaks "correlated with success"): -1 on the first wrong token only. Missing closers
  are never located, so stopping early (even an empty answer) carries no local penalty: the stop hole.
- ``noisy`` (breaks "stable"): ``progress`` with a fraction ``noise`` of labels corrupted (sign
  flipped or moved to a random unit or the end), seeded per completion.
- ``unbounded`` (breaks "bounded"): every error -``error_weight`` (all of them, summed) and -1 per
  element left open, placed on the end of the text; no bound on the total.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from bot_repro.algorithms.options import VARIANT_COLORS, Style, ValueStyle
from bot_repro.config_schema import ConfigError, build_options
from bot_repro.rewards.base import REWARD_SOURCES, RewardCfg, RewardResult, SpanReward
from bot_repro.rewards.mapper import phi
from bot_repro.tasks.mini.checker import TOKEN, check

VARIANTS = ("penalty", "progress", "noisy", "unbounded")
# how each variant's arm is drawn (bot_repro.plots.style): progress is the clean signal of the paper's
# rule, so its BoT-GRPO arm is BoT-GRPO's own; the broken ones are BoT-GRPO variants
VARIANT_STYLES: dict[str, ValueStyle] = {
    "progress": "bot_grpo",
    "noisy": Style(VARIANT_COLORS[0], "*", (0, (5, 1))),
    "penalty": Style(VARIANT_COLORS[1], ">", (0, (2, 2))),
    "unbounded": Style(VARIANT_COLORS[2], "p", (0, (8, 2, 2, 2))),
}


@dataclass
class MiniRewardParams:
    variant: str = "progress"
    progress_credit: float = 0.5
    noise: float = 0.3
    error_weight: float = 1.0


class MiniReward:
    def __init__(self, reward: RewardCfg, context: dict[str, Any]):
        self.p = build_options(MiniRewardParams, reward.params, "reward.params (mini)")
        if self.p.variant not in VARIANTS:
            raise ConfigError(f"reward.params.variant={self.p.variant!r}; allowed: {', '.join(VARIANTS)}")
        if not 0.0 <= self.p.noise <= 1.0:
            raise ConfigError(f"reward.params.noise={self.p.noise} must be in [0, 1]")
        self.window = reward.window
        self.seed = int(context.get("seed", 0))

    def _spread(self, units: list[tuple[int, int]], idx: int, value: float) -> list[SpanReward]:
        weights = phi(np.arange(len(units)) - idx, self.window)
        return [SpanReward(s, e, value * float(w)) for (s, e), w in zip(units, weights) if w > 0]

    def score_one(self, document: str, text: str) -> RewardResult:
        p = self.p
        res = check(document, text, all_errors=p.variant == "unbounded")
        units = [(m.start(1), m.end(1)) for m in TOKEN.finditer(text)]
        index = {span: i for i, span in enumerate(units)}
        end = len(units)  # label index of the end of the answer (EOS), after the last unit
        labels: list[tuple[int, float]] = []  # (unit index or ``end``, value) before spreading
        for s, e, _ in res.errors[: None if p.variant == "unbounded" else 1]:
            labels.append((index[(s, e)], -p.error_weight if p.variant == "unbounded" else -1.0))
        if p.variant in ("progress", "noisy"):
            labels += [(index[span], p.progress_credit) for span in res.closed]
            if res.success:
                labels.append((end, p.progress_credit))  # a correct end
            elif not res.errors and res.unclosed:
                labels.append((end, -1.0))  # stopped while elements were open: the located error
        if p.variant == "noisy":
            digest = hashlib.sha256(f"{self.seed}|{document}|{text}".encode()).digest()
            rng = random.Random(int.from_bytes(digest[:8], "little"))
            noisy = []
            for i, v in labels:
                if rng.random() < p.noise:
                    i, v = (i, -v) if rng.random() < 0.5 else (rng.randrange(len(units) + 1), v)
                noisy.append((i, v))
            labels = noisy
        out = RewardResult(global_score=1.0 if res.success else 0.0)
        for i, v in labels:
            if i == end:
                out.spans.append(SpanReward(len(text), len(text) + 1, v))
            else:
                out.spans += self._spread(units, i, v)
        if p.variant == "unbounded" and res.unclosed:
            out.spans.append(SpanReward(len(text), len(text) + 1, -float(res.unclosed)))
        out.components = {
            "success": float(res.success),
            "closed_frac": len(res.closed) / max(1, res.n_tags),
            "has_error": float(bool(res.errors)),
            "unclosed_frac": res.unclosed / max(1, res.n_tags),
            "empty": float(not text.strip()),
            "stopped_open": float(not res.errors and res.unclosed > 0),
        }
        if res.errors:
            out.info["failure"] = res.errors[0][2]
        return out

    def score(self, completions: list[str], rows: list[dict[str, Any]]) -> list[RewardResult]:
        return [self.score_one(row["document"], text) for text, row in zip(completions, rows)]


@REWARD_SOURCES.register("mini")
def build_mini_reward(reward: RewardCfg, context: dict[str, Any]) -> MiniReward:
    return MiniReward(reward, context)
