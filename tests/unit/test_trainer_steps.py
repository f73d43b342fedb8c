"""The trainer's components without TRL: one round's advantages, DAPO's refill, the logged statistics."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from bot_repro.config import DynamicSampling
from bot_repro.rewards.base import RewardResult
from bot_repro.trainer.advantage_step import (
    RoundStats,
    into_batch,
    loss_mask,
    padded_local_rewards,
    round_advantages,
)
from bot_repro.trainer.dynamic_sampling import check_whole_groups, plan_slots, refill
from bot_repro.trainer.step_log import batch_metrics, rollout_rows
from bot_repro.trainer.token_reward import ScoredBatch


def test_local_rewards_are_cut_and_zero_padded():
    t = padded_local_rewards([np.array([1.0, 2.0, 3.0]), np.array([4.0]), np.array([])], 2, "cpu")
    assert t.dtype == torch.float32 and t.tolist() == [[1.0, 2.0], [4.0, 0.0], [0.0, 0.0]]


def test_loss_mask_applies_the_tool_mask():
    cm = torch.tensor([[1, 1, 0]])
    assert torch.equal(loss_mask({"completion_mask": cm}), cm)
    assert loss_mask({"completion_mask": cm, "tool_mask": torch.tensor([[1, 0, 1]])}).tolist() == [[1, 0, 0]]


def _gathered():
    """Two groups of two: group 0 has different rewards, group 1 identical ones (no signal)."""
    g = torch.tensor([1.0, 0.0, 0.5, 0.5])
    s = torch.zeros(4, 3)
    m = torch.tensor([[1, 1, 0], [1, 1, 1], [1, 0, 0], [1, 1, 0]], dtype=torch.float32)
    return g, s, m


@pytest.mark.parametrize("zero_std, dropped", [("zero", False), ("drop", True)])
def test_round_advantages_mark_groups_and_drop_only_when_asked(zero_std, dropped):
    g, s, m = _gathered()
    opts = {"std": "population", "weighting": "inverse_length", "zero_std": zero_std, "same_global": "pooled",
            "std_floor": 0.5, "w_g": 1.0, "w_s": 1.0}
    st = round_advantages("bot_grpo", opts, g, s, m, 2)
    assert st.group_valid.tolist() == [True, False]
    assert (st.adv[2:] == 0).all() and (st.adv[:2].abs() * m[:2]).sum() > 0
    assert (st.mask[2:].sum() == 0) == dropped and torch.equal(st.mask[:2], m[:2])


def test_into_batch_takes_this_ranks_rows_and_drops_their_mask():
    g, s, m = _gathered()
    st = RoundStats(g, s, m * torch.tensor([1.0, 1, 0, 0])[:, None], torch.arange(12.0).view(4, 3), torch.tensor([True, False]))
    batch = {"completion_mask": torch.ones(2, 2, dtype=torch.long)}
    into_batch(batch, st, start=2, drops=True)  # rank 1 of 2: rows 2, 3; width 2
    assert batch["advantages"].tolist() == [[6.0, 7.0], [9.0, 10.0]]
    assert batch["completion_mask"].sum() == 0


def test_plan_slots_takes_the_first_valid_groups_in_round_order():
    valid = [torch.tensor([True, False, True, False]), torch.tensor([True, True, False, False])]
    assert plan_slots(valid, n=2, world=2, rank=0) == ([(0, 0), (0, 2)], 2)
    assert plan_slots(valid, n=2, world=2, rank=1) == ([(1, 0), (1, 1)], 2)


def test_plan_slots_pads_with_invalid_groups_when_too_few_are_valid():
    valid = [torch.tensor([False, True, False, False])]
    assert plan_slots(valid, n=2, world=2, rank=0) == ([(0, 1), (0, 0)], 1)
    assert plan_slots(valid, n=2, world=2, rank=1) == ([(0, 2), (0, 3)], 0)


def test_partial_groups_are_refused():
    with pytest.raises(ValueError, match="generation batch 3 is not a multiple of num_generations 2"):
        check_whole_groups(3, 2)


def _round(tag: float, valid: list[bool], width: int, k: int = 2):
    """A one-process round: rows carry ``tag + row`` in their advantages and scores."""
    b = len(valid) * k
    batch = {
        "prompt_ids": torch.full((b, 2), 5), "prompt_mask": torch.ones(b, 2, dtype=torch.long),
        "completion_ids": torch.full((b, width), 7), "completion_mask": torch.ones(b, width, dtype=torch.long),
        "advantages": (tag + torch.arange(b, dtype=torch.float32))[:, None].expand(b, width).clone(),
        "num_items_in_batch": torch.tensor(b * width),
    }
    scored = ScoredBatch([tag + i for i in range(b)], [np.full(width, tag + i) for i in range(b)],
                         [RewardResult(global_score=tag + i) for i in range(b)], [f"{tag}/{i}" for i in range(b)])
    stats = RoundStats(torch.zeros(b), torch.zeros(b, width), torch.ones(b, width), batch["advantages"],
                       torch.tensor(valid))
    return batch, scored, stats


def test_refill_keeps_valid_groups_across_rounds_and_repads():
    extra = iter([_round(100.0, [True, False], width=4)])
    r = refill(_round(0.0, [False, True], width=3), lambda: next(extra), lambda rounds: [rounds],
               DynamicSampling(enabled=True, max_rounds=3), k=2, world=1, rank=0, pad_token_id=0)
    assert r.scored.global_rewards == [2.0, 3.0, 100.0, 101.0]  # round 0's group 1, then round 1's group 0
    assert r.batch["completion_ids"].shape == (4, 4) and r.batch["completion_ids"][0, 3] == 0  # right-padded
    assert r.batch["advantages"][:, 0].tolist() == [2.0, 3.0, 100.0, 101.0]
    assert r.metrics == {"dapo/dropped_groups": 2.0, "dapo/extra_rounds": 1.0, "dapo/unfilled_groups": 0.0}
    assert r.stats.local[:, 0].tolist() == [2.0, 3.0, 100.0, 101.0] and r.stats.local[0, 3] == 0
    assert "num_items_in_batch" not in r.batch


def test_refill_stops_after_max_rounds_and_zeroes_unfilled_slots():
    calls = []

    def again():
        calls.append(1)
        return _round(10.0 * len(calls), [False, False], width=3)

    r = refill(_round(0.0, [True, False], width=3), again, lambda rounds: [rounds],
               DynamicSampling(enabled=True, max_rounds=2), k=2, world=1, rank=0, pad_token_id=0)
    assert len(calls) == 2 and r.metrics["dapo/extra_rounds"] == 2.0 and r.metrics["dapo/unfilled_groups"] == 1.0
    assert r.batch["completion_mask"][:2].sum() == 6 and r.batch["completion_mask"][2:].sum() == 0


def test_batch_metrics_follow_the_token_mean_rule():
    g = torch.tensor([1.0, 0.0, 0.5, 0.5])
    s = torch.tensor([[0.2, 0.4, 9.0], [0.0, 0.0, 0.0], [1.0, 9.0, 9.0], [0.3, 0.3, 9.0]])
    m = torch.tensor([[1, 1, 0], [0, 0, 0], [1, 0, 0], [1, 1, 0]], dtype=torch.float32)
    adv = torch.tensor([[1.0, 2.0, 50.0], [7.0, 7.0, 7.0], [-1.0, 50.0, 50.0], [0.0, 0.0, 50.0]])
    scored = ScoredBatch([0.0] * 4, [], [RewardResult(0.0, components={"x": float(i)}) for i in range(4)], [""] * 4,
                         metrics={"judge/calls": 3})
    out = batch_metrics(RoundStats(g, s, m, adv), scored, 2, w_g=2.0, w_s=0.5)
    seq = [2 * 1.0 + 0.5 * 0.3, 0.0, 2 * 0.5 + 0.5 * 1.0, 2 * 0.5 + 0.5 * 0.3]  # empty row: mean S = 0
    assert out["reward_mean"] == pytest.approx(np.mean(seq), rel=1e-6)
    assert out["reward_std"] == pytest.approx(np.std(seq), rel=1e-6)
    assert out["local_reward_mean"] == pytest.approx(np.mean([0.3, 0.0, 1.0, 0.3]), rel=1e-6)
    assert out["global_reward_mean"] == pytest.approx(0.5)
    assert (out["adv_min"], out["adv_max"]) == (-1.0, 2.0)  # padding and empty rows left out
    assert out["reward/x"] == 1.5 and out["judge/calls"] == 3.0


class _Tok:
    def convert_ids_to_tokens(self, ids):
        return [f"t{i}" for i in ids]


def test_rollout_rows_cut_each_rollout_at_its_length():
    batch = {"completion_ids": torch.tensor([[1, 2, 3], [4, 5, 6]]), "completion_mask": torch.tensor([[1, 1, 0], [1, 1, 1]]),
             "advantages": torch.tensor([[0.123456, 1.0, 9.0], [2.0, 2.0, 2.0]])}
    scored = ScoredBatch([1.0, 0.0], [np.array([0.5, 0.25, 9.0]), np.zeros(3)],
                         [RewardResult(1.0, components={"c": 1.0}), RewardResult(0.0)], ["ab", "cd"])
    rows = rollout_rows(batch, scored, step=4, n=1, tokenizer=_Tok())
    assert rows == [{"step": 4, "index": 0, "text": "ab", "tokens": ["t1", "t2"], "global_reward": 1.0,
                     "local_rewards": [0.5, 0.25], "advantages": [0.12346, 1.0], "components": {"c": 1.0},
                     "info": {}}]
