"""Rollouts without a score (``RewardResult.excluded``) take their whole group out of the round, for
every estimator: no advantage or statistic sees their placeholder rewards."""

from __future__ import annotations

from collections import Counter

import pytest
import torch

from bot_repro.algorithms import ADVANTAGES
from bot_repro.rewards.base import RewardResult
from bot_repro.trainer.advantage_step import into_batch, round_advantages
from bot_repro.trainer.step_log import batch_metrics, exclusion_metrics
from bot_repro.trainer.token_reward import ScoredBatch

K = 2


def _round():
    """Three groups of two; row 2 (group 1) is excluded and carries an absurd placeholder G."""
    g = torch.tensor([1.0, 0.0, 1e6, 0.3, 0.9, 0.2])
    s = torch.linspace(-1, 1, 18).view(6, 3)
    m = torch.ones(6, 3)
    x = torch.tensor([False, False, True, False, False, False])
    return g, s, m, x


@pytest.mark.parametrize("name", sorted(ADVANTAGES))
def test_an_excluded_rollout_drops_its_group_for_every_estimator(name):
    g, s, m, x = _round()
    opts = {"w_g": 1.0, "w_s": 1.0}
    stats = round_advantages(name, opts, g, s, m, K, excluded=x)
    keep = torch.tensor([True, True, False, False, True, True])
    alone = round_advantages(name, opts, g[keep], s[keep], m[keep], K)
    assert stats.kept.tolist() == [True, False, True]
    assert torch.equal(stats.adv[keep], alone.adv)  # the placeholder changed no other group's advantage
    assert (stats.adv[~keep] == 0).all() and (stats.mask[~keep] == 0).all()
    assert stats.group_valid[1].item() is False


def test_into_batch_masks_the_excluded_groups_without_a_drop_rule():
    g, s, m, x = _round()
    stats = round_advantages("grpo", {"w_g": 1.0, "w_s": 1.0}, g, s, m, K, excluded=x)
    batch = {"completion_mask": torch.ones(6, 3, dtype=torch.long)}
    into_batch(batch, stats, start=0, drops=False)
    assert batch["completion_mask"].sum(1).tolist() == [3, 3, 0, 0, 3, 3]


def test_logged_rewards_leave_the_excluded_groups_out():
    g, s, m, x = _round()
    stats = round_advantages("grpo", {"w_g": 1.0, "w_s": 0.0}, g, s, m, K, excluded=x)
    results = [RewardResult(float(v), components={"c": float(v)}, excluded="judge_outage" if e else None)
               for v, e in zip(g.tolist(), x.tolist())]
    scored = ScoredBatch(g.tolist(), [row.numpy() for row in s], results, ["t"] * 6)
    logged = batch_metrics(stats, scored, K, 1.0, 0.0)
    assert logged["global_reward_mean"] == pytest.approx((1.0 + 0.0 + 0.9 + 0.2) / 4)
    assert logged["reward/c"] == pytest.approx((1.0 + 0.0 + 0.9 + 0.2) / 4)
    everything = round_advantages("grpo", {"w_g": 1.0, "w_s": 0.0}, g, s, m, K, excluded=torch.ones(6, dtype=torch.bool))
    assert batch_metrics(everything, scored, K, 1.0, 0.0) == {}  # nothing trains: no reward to log


def test_exclusion_metrics_count_by_reason():
    out = exclusion_metrics(Counter({"judge_outage": 3, "worker_stalled": 1}), groups=2, skipped=False, out_of=16)
    assert out == {"excluded/judge_outage": 3.0, "excluded/worker_stalled": 1.0, "excluded/rollouts": 4.0,
                   "excluded/out_of": 16.0, "excluded/groups": 2.0, "judge/step_skipped": 0.0}


def test_verl_drops_the_group_of_a_masked_excluded_row():
    """verl's path: the agent loop zeroes an excluded row's mask; its group gets no advantage there either."""
    from bot_repro.integrations.verl.estimators import make_estimator
    from bot_repro.integrations.verl.layout import EXCLUDED_KEY, exclusion_info, group_rows, mask_excluded

    info = exclusion_info("judge_outage")
    assert info == {EXCLUDED_KEY: 1.0, "bot/excluded_judge_outage": 1.0, "bot/excluded_worker_stalled": 0.0}
    row = {"response_mask": torch.ones(3, dtype=torch.int64)}
    mask_excluded(row, info)
    mask_excluded(kept := {"response_mask": torch.ones(3, dtype=torch.int64)}, exclusion_info(None))
    assert row["response_mask"].sum() == 0 and kept["response_mask"].sum() == 3
    mask = torch.ones(6, 3)
    mask[3] = 0  # row 3 (group "b") was excluded
    groups = group_rows(["b", "a", "c", "b", "a", "c"], mask)
    assert (groups.n_groups, groups.dropped, sorted(groups.skipped.tolist())) == (2, 1, [0, 3])
    rewards = torch.cat([torch.tensor([1.0, 0.0, 0.3, 1e6, 0.5, 0.9])[:, None], torch.zeros(6, 3)], dim=1)
    adv, _ = make_estimator("bot_grpo")(rewards, mask, index=["b", "a", "c", "b", "a", "c"])
    assert (adv[[0, 3]] == 0).all() and (adv[[1, 2, 4, 5]].abs().sum(1) > 0).all()


def test_verl_says_when_no_group_of_a_batch_was_scored(caplog):
    """Every group dropped: zero advantages, and a WARNING that verl's optimizer still steps (the plugin
    cannot stop it; the TRL trainer makes no update, tests/integration/test_judge_faults_train.py)."""
    from bot_repro.integrations.verl.estimators import make_estimator

    mask = torch.ones(4, 3)
    mask[[0, 3]] = 0  # one excluded row in each group
    rewards = torch.cat([torch.tensor([1.0, 0.0, 0.3, 0.5])[:, None], torch.zeros(4, 3)], dim=1)
    with caplog.at_level("WARNING", logger="bot_repro.integrations.verl.estimators"):
        adv, _ = make_estimator("bot_grpo")(rewards, mask, index=["a", "a", "b", "b"])
    assert (adv == 0).all() and "optimizer step still runs" in caplog.text
