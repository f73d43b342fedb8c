"""Bag-of-token statistics: one weighted mean and std over every valid token of a group (SPEC §2, Eqs. 2-3).

Shared by ``bot_grpo`` (weights 1/(K_eff L_k) or 1/N) and ``ps_grpo`` (plain 1/N), and exported
for the trainer as ``zero_std_groups`` (which groups carry no signal) and ``group_token_stats``
(mu and sigma per group, for logging).

Numerics: token rewards are first shifted by one valid token reward of the group (the first
token of its first non-empty rollout). A group whose token rewards are all equal then gives
exactly zero deviations and sigma == 0, so the zero-std rule is exact instead of depending on
how the rounding noise of a float32 mean compares with a tolerance. The variance is two-pass
(deviations from the mean, then their weighted squares), stable for long completions.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from bot_repro.algorithms.batch import RewardBatch, check_finite_rows
from bot_repro.algorithms.options import OPTION_CHECKS

# sigma at or below this is "zero std": the group's token rewards are (numerically) all equal
ZERO_STD_TOL = 1e-8


@dataclass
class PooledStats:
    """dev: [n_groups, K, T] r - mu on valid tokens, 0 on padding (a fresh tensor, safe to modify);
    mu, sigma: [n_groups] pooled mean and std (0 and 0 for a group without any token);
    zero: [n_groups] bool, sigma <= ZERO_STD_TOL (also true for a group without any token)."""

    dev: Tensor
    mu: Tensor
    sigma: Tensor
    zero: Tensor


def _reference_columns(batch: RewardBatch, ref_rows: Tensor) -> Tensor:
    """[n] first valid column of each reference row (0 for an empty row)."""
    starts_at_zero = batch.m[ref_rows, 0] > 0
    if bool(starts_at_zero.all()):  # right-padded masks, the usual layout: no scan needed
        return torch.zeros_like(ref_rows)
    # argmax returns the first maximal index, i.e. the first valid column
    return batch.m[ref_rows].argmax(-1)


def pooled_token_stats(batch: RewardBatch, w_g: float, w_s: float, *, weighting: str, std: str) -> PooledStats:
    """Weighted mean / std of r_{k,t} = w_g G_k + w_s S_{k,t} over the valid tokens of each group.

    Token weight: ``inverse_length`` 1/(K_eff L_k) (every non-empty rollout weighs 1/K_eff in
    total), ``uniform`` 1/N (N = valid tokens of the group). Empty rollouts have no tokens and so
    no weight; K_eff counts the non-empty ones. ``unbiased`` divides the weighted variance by
    1 - sum_i w_i^2 (reliability-weights correction; equals N/(N-1) for uniform weights); a pool
    of a single token, where that is 0, counts as zero std.
    """
    n, K, T = batch.n_groups, batch.K, batch.T
    m = batch.m.view(n, K, T)
    Lg = batch.L.view(n, K)
    nonempty = Lg > 0
    group_index = torch.arange(n, device=Lg.device)
    ref_rows = group_index * K + nonempty.to(torch.uint8).argmax(-1)  # first non-empty rollout
    S_ref = batch.S[ref_rows, _reference_columns(batch, ref_rows)]
    G_ref = batch.G[ref_rows]

    # d = r - r_ref, built as w_s (S - S_ref) + w_g (G - G_ref) so equal rewards give exact zeros
    d = batch.S.view(n, K, T) - S_ref.view(n, 1, 1)
    d.mul_(w_s).add_((w_g * (batch.G.view(n, K) - G_ref.unsqueeze(-1))).unsqueeze(-1)).mul_(m)
    row_sums = d.sum(-1)
    check_finite_rows(row_sums, "token reward")

    nonempty_f = nonempty.to(torch.float32)
    if weighting == "inverse_length":
        row_weight = nonempty_f / nonempty_f.sum(-1, keepdim=True).clamp(min=1.0)
    else:
        row_weight = Lg / Lg.sum(-1, keepdim=True).clamp(min=1.0)
    token_weight = row_weight / Lg.clamp(min=1.0)  # [n, K]; 0 for empty rollouts

    mu_d = (token_weight * row_sums).sum(-1)
    d.sub_(mu_d.view(n, 1, 1)).mul_(m)
    sq_sums = torch.linalg.vecdot(d, d)  # [n, K]
    var = (token_weight * sq_sums).sum(-1)
    if std == "unbiased":
        denom = 1.0 - (token_weight.square() * Lg).sum(-1)
        var = torch.where(denom > 0, var / denom.clamp(min=torch.finfo(torch.float32).tiny), 0.0)
    sigma = var.sqrt()
    has_tokens = nonempty.any(-1)
    mu = torch.where(has_tokens, w_g * G_ref + w_s * S_ref + mu_d, 0.0)
    return PooledStats(dev=d, mu=mu, sigma=sigma, zero=sigma <= ZERO_STD_TOL)


def _checked_batch(global_rewards, local_rewards, mask, group_size, options: dict, where: str) -> RewardBatch:
    for key, value in options.items():
        OPTION_CHECKS[key](key, value, where)
    return RewardBatch.from_inputs(global_rewards, local_rewards, mask, group_size)


def zero_std_groups(
    global_rewards: Tensor, local_rewards: Tensor, mask: Tensor, group_size: int, w_g: float = 1.0, w_s: float = 1.0
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
    return pooled_token_stats(batch, w_g, w_s, weighting="inverse_length", std="population").zero


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
    stats = pooled_token_stats(batch, w_g, w_s, weighting=weighting, std=std)
    return stats.mu, stats.sigma
