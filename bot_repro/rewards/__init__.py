"""Reward sources (registered in ``REWARD_SOURCES``), their typed config section and the span/line -> token mapper."""

from bot_repro.rewards.base import REWARD_SOURCES, RewardCfg, RewardResult, RewardSource, SpanReward

__all__ = ["REWARD_SOURCES", "RewardCfg", "RewardResult", "RewardSource", "SpanReward"]
