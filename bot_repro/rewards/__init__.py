"""Reward sources (registered in ``REWARD_SOURCES``) and the span/line -> token mapper."""

from bot_repro.rewards.base import REWARD_SOURCES, RewardResult, RewardSource, SpanReward

__all__ = ["REWARD_SOURCES", "RewardResult", "RewardSource", "SpanReward"]
