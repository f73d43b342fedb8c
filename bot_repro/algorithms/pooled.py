"""Bag-of-token statistics: one weighted mean and std over every valid token of a group (SPEC §2, Eqs. 2-3).

Shared by ``bot_grpo`` (weights 1/(K_eff L_k) or 1/N) and ``ps_grpo`` (plain 1/N), and exported
for the trainer as ``zero_std_groups`` (which groups carry no signal) and ``group_token_stats``
(mu and sigma per group, for logging).

Numerics: token rewards are first shifted by the reward of one token of the group (the first
valid token of its first non-empty rollout). A group whose token rewards are all
equal then gives exactly zero deviations and sigma == 0, so the zero-std rule is exact instead
of depending on how the rounding noise of a float32 mean (~1e-7 |r|, far above the 1e-8
tolerance for |r| ~ 1) compares with the tolerance. The variance is two-pass (deviations from
the mean, then their weighted squares), stable for long completions. Padding is handled by
multiplying with the float mask, so the work is a handful of elementwise passes and row
reductions over [B, T] (see bench/algorithms.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from bot_repro.algorithms.batch import RewardBatch
from bot_repro.algorithms.options import OPTION_CHECKS

# sigma at or below this is "zero std": the group's token rewards are (numerically) all equal
ZERO_STD_TOL = 1e-8


@dataclass
class PooledStats:
    """dev: [n_groups, K, T] r - mu on valid tokens, 0 on padding (a fresh tensor, safe to modify);
    sigma: [n_groups, 1, 1] pooled std; zero: [n_groups, 1, 1] bool, sigma <= ZERO_STD_TOL (true
    for a group without any token); mu: [n_groups] pooled mean (0 for a group without tokens)."""

    dev: Tensor
    sigma: Tensor
    zero: Tensor
    mu: Tensor | None


def _reference_local(batch: RewardBatch, nonempty: Tensor, ref_row: Tensor) -> Tensor:
    """[n, 1, 1] S at the first valid token of rollout ``ref_row`` [n, 1, 1] of each group.

    A group without tokens gets any finite value: its tokens are all masked out.
    """
    n, K = batch.n_groups, batch.K
    if torch.equal(batch.m[:, 0], nonempty.view(-1)):  # all rollouts start at column 0 (right padding)
        return batch.S[:, 0].view(n, K, 1).gather(1, ref_row)
    rows = ref_row.view(n) + torch.arange(0, batch.B, K, device=ref_row.device)
    col = batch.m[rows].argmax(-1)  # argmax returns the first maximum: the first valid column
    return (batch.S[rows, col] * batch.m[rows, col]).view(n, 1, 1)


def pooled_token_stats(
    batch: RewardBatch, w_g: float, w_s: float, *, weighting: str, std: str, need_mu: bool = False
) -> PooledStats:
    """Weighted mean / std of r_{k,t} = w_g G_k + w_s S_{k,t} over the valid tokens of each group.

    Token weight: ``inverse_length`` 1/(K_eff L_k) (every non-empty rollout weighs 1/K_eff in
    total), ``uniform`` 1/N (N = valid tokens of the group). Empty rollouts have no tokens and so
    no weight; K_eff counts the non-empty ones. ``unbiased`` divides the weighted variance by
    1 - sum_i w_i^2 (reliability-weights correction; equals N/(N-1) for uniform weights); a pool
    of a single token, where that is 0, counts as zero std. ``mu`` is only filled when
    ``need_mu`` (the estimators do not need it).
    """
    n, K, T = batch.n_groups, batch.K, batch.T
    m = batch.m.view(n, K, T)
    # per-rollout values are kept as [n, K, 1] and per-group ones as [n, 1, 1]: they broadcast
    # against the [n, K, T] tokens without reshaping (every op counts at this size)
    Lg = batch.L.view(n, K, 1)
    Gg = batch.G.view(n, K, 1)
    nonempty = Lg.clamp(max=1.0)  # 1.0 for a non-empty rollout, 0.0 for an empty one (L_k is integral)

    ref_row = nonempty.argmax(1, keepdim=True)  # [n, 1, 1] first non-empty rollout (first maximum)
    G_ref = Gg.gather(1, ref_row)
    ws_S_ref = _reference_local(batch, nonempty, ref_row).mul_(w_s)
    # d = r - r_ref = fl(w_s S) + (w_g (G - G_ref) - fl(w_s S_ref)): two separately rounded steps,
    # so a token equal to the reference gives exactly 0 (a fused multiply-add would leave 1 ulp)
    offset = torch.sub(Gg, G_ref).mul_(w_g).sub_(ws_S_ref)
    d = batch.S.view(n, K, T) * w_s
    d.add_(offset).mul_(m)

    if weighting == "inverse_length":
        token_weight = (Lg * nonempty.sum(1, keepdim=True)).clamp_(min=1.0).reciprocal_()
    else:
        token_weight = Lg.sum(1, keepdim=True).clamp_(min=1.0).reciprocal_()
    # an empty rollout's weight does not matter: its sums below are 0, and so is its L_k

    mu_shift = torch.mul(token_weight, d.sum(-1, keepdim=True)).sum(1, keepdim=True)  # [n, 1, 1]
    d.addcmul_(m, mu_shift, value=-1.0)
    var = torch.linalg.vector_norm(d, dim=-1, keepdim=True).square_().mul_(token_weight).sum(1, keepdim=True)
    if std == "unbiased":
        denom = 1.0 - (token_weight.square() * Lg).sum(1, keepdim=True)
        var = torch.where(denom > 0, var / denom.clamp(min=torch.finfo(torch.float32).tiny), 0.0)
    batch.require_finite(var)
    sigma = var.sqrt_()
    mu = None
    if need_mu:
        mu = (G_ref * w_g + ws_S_ref + mu_shift).mul_(nonempty.amax(1, keepdim=True)).view(n)
    return PooledStats(dev=d, sigma=sigma, zero=sigma <= ZERO_STD_TOL, mu=mu)


def _checked_batch(global_rewards, local_rewards, mask, group_size, options: dict, where: str) -> RewardBatch:
    for key, value in options.items():
        OPTION_CHECKS[key](key, value, where)
    return RewardBatch.from_inputs(global_rewards, local_rewards, mask, group_size)


def zero_std_groups(
    global_rewards: Tensor,
    local_rewards: Tensor,
    mask: Tensor,
    group_size: int,
    w_g: float = 1.0,
    w_s: float = 1.0,
) -> Tensor:
    """BoolTensor[B // K]: groups whose token rewards r = w_g G + w_s S are all equal (sigma == 0).

    A group without any valid token counts as zero std too. These are the groups ``bot_grpo``
    with ``zero_std="drop"`` expects the trainer to drop. The answer does not depend on the token
    weighting (positive weights have zero variance exactly when all values are equal).
    """
    batch = _checked_batch(
        global_rewards, local_rewards, mask, group_size, {"w_g": w_g, "w_s": w_s}, "zero_std_groups"
    )
    if batch.empty:
        return torch.ones(batch.n_groups, dtype=torch.bool, device=batch.S.device)
    return pooled_token_stats(batch, w_g, w_s, weighting="inverse_length", std="population").zero.view(-1)


def group_token_stats(
    global_rewards: Tensor,
    local_rewards: Tensor,
    mask: Tensor,
    group_size: int,
    *,
    w_g: float = 1.0,
    w_s: float = 1.0,
    weighting: str = "inverse_length",
    std: str = "population",
) -> tuple[Tensor, Tensor]:
    """(mu, sigma), each [B // K]: the pooled token statistics ``bot_grpo`` normalises with (for logging)."""
    options = {"w_g": w_g, "w_s": w_s, "weighting": weighting, "std": std}
    batch = _checked_batch(global_rewards, local_rewards, mask, group_size, options, "group_token_stats")
    if batch.empty:
        zeros = torch.zeros(batch.n_groups, dtype=torch.float32, device=batch.S.device)
        return zeros, zeros.clone()
    stats = pooled_token_stats(batch, w_g, w_s, weighting=weighting, std=std, need_mu=True)
    return stats.mu, stats.sigma.view(-1)
