"""``bot_single_turn``: verl's single-turn agent loop, with per-token ``rm_scores`` from the reward manager.

In verl 0.9 a rule-based reward is computed while rollouts stream in (the agent loop calls the
reward loop worker), and ``AgentLoopOutput.as_dict`` then puts the scalar ``reward_score`` on the
last response token; no reward manager can place per-token rewards on that path (its
``assemble_rm_scores`` hook only serves the colocated reward-model path). This loop generates
exactly as ``single_turn_agent`` does and returns an output whose ``as_dict`` writes the split
row that the ``bot_token`` manager left in ``reward_extra_info`` as ``rm_scores`` (one slot longer
than the response, see ``layout``), and drops it from the logged extra info. A rollout the reward
marked excluded gets a zero ``response_mask`` (``layout.mask_excluded``).
"""

from __future__ import annotations

from typing import Any

import torch
from verl.experimental.agent_loop.agent_loop import AgentLoopOutput, register
from verl.experimental.agent_loop.single_turn_agent_loop import SingleTurnAgentLoop

from bot_repro.integrations.verl.layout import mask_excluded
from bot_repro.integrations.verl.reward_manager import NAME as REWARD_MANAGER
from bot_repro.integrations.verl.reward_manager import SPLIT_KEY

NAME = "bot_single_turn"


class SplitRewardAgentLoopOutput(AgentLoopOutput):
    """An ``AgentLoopOutput`` whose ``rm_scores`` are the split row [w_g G, w_s S_0, ..., w_s S_{L-1}]."""

    def as_dict(self) -> dict[str, Any]:
        out = super().as_dict()
        extra = dict(out.get("extra_fields") or {})  # as_dict's extra_fields may be our own dict: copy
        info = dict(extra.get("reward_extra_info") or {})
        split = info.pop(SPLIT_KEY, None)
        if split is None:
            raise RuntimeError(
                f"agent loop {NAME!r} found no token rewards: it needs the {REWARD_MANAGER!r} reward manager "
                f"(reward.reward_manager.name={REWARD_MANAGER}) computing rewards while rollouts stream "
                "(no colocated reward model: reward.reward_model.enable=false)"
            )
        n = len(out["responses"])
        if len(split) != n + 1:
            raise RuntimeError(f"token rewards for {len(split) - 1} tokens, response has {n} (rewards scored on "
                               "other ids than the rollout's)")
        out["rm_scores"] = torch.tensor(split, dtype=torch.float32)
        mask_excluded(out, info)
        extra["reward_extra_info"] = info  # logged without the per-token list
        out["extra_fields"] = extra
        return out


def as_split_output(output: AgentLoopOutput) -> SplitRewardAgentLoopOutput:
    """The same output (same fields, same set-ness) as a ``SplitRewardAgentLoopOutput``."""
    values = {name: getattr(output, name) for name in type(output).model_fields}
    return SplitRewardAgentLoopOutput.model_construct(_fields_set=set(output.model_fields_set), **values)


@register(NAME)
class BoTSingleTurnAgentLoop(SingleTurnAgentLoop):
    """``single_turn_agent`` whose outputs carry per-token rewards (see the module docstring)."""

    async def run(self, sampling_params: dict[str, Any], **kwargs) -> AgentLoopOutput:
        return as_split_output(await super().run(sampling_params, **kwargs))
