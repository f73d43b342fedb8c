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

from bot_repro.algorithms.batch import RewardBatch
from bot_repro.algorithms.options import OPTION_CHECKS

# sigma at or below this is "zero std": the group's token rewards are (numerically) all equal
ZERO_STD_TOL = 1e-8


@dataclass
class PooledStats:
    """dev: [n_groups, K, T] r - mu on valid tokens, 0 on padding (a fresh tensor, safe to modify);
    sigma: [n_groups] pooled std; zero: [n_groups] bool, sigma <= ZERO_STD_TOL (true for a group
    without any token); mu_shift, r_ref: [n_groups] with mu = r_ref + mu_shift; lengths: [n_groups, K]."""

    dev: Tensor
    sigma: Tensor
    zero: Tensor
    mu_shift: Tensor
    r_ref: Tensor
    lengths: Tensor

    @property
    def mu(self) -> Tensor:
        """[n_groups] pooled mean of the token rewards (0 for a group without any token)."""
        return torch.where(self.lengths.sum(-1) > 0, self.r_ref + self.mu_shift, 0.0)


def _reference(batch: RewardBatch) -> tuple[Tensor, Tensor]:
    """(G_ref, S_ref), each [n, 1]: the rewards of one valid token per group (any will do, see module doc).

    Fast path: the first rollout of the group whose column 0 is valid (right-padded masks).
    Otherwise the first valid token of the first non-empty rollout (found by a scan).
    """
    n, K = batch.n_groups, batch.K
    col0 = batch.m[:, 0].view(n, K)
    row = col0.argmax(-1, keepdim=True)  # argmax returns the first maximum
    if bool(col0.gather(1, row).all()):
        return batch.G.view(n, K).gather(1, row), batch.S[:, 0].view(n, K).gather(1, row)
    row = (batch.L.view(n, K) > 0).to(torch.uint8).argmax(-1, keepdim=True)
    flat = row.squeeze(-1) + torch.arange(0, batch.B, K, device=row.device)
    col = batch.m[flat].argmax(-1)  # first valid column (0 for a group without tokens)
    return batch.G[flat].unsqueeze(-1), batch.S[flat, col].unsqueeze(-1)


def pooled_token_stats(
    batch: RewardBatch, w_g: float, w_s: float, *, weighting: str, std: str
) -> PooledStats:
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
    G_ref, S_ref = _reference(batch)
    # d = r - r_ref = fl(w_s S) + (w_g (G - G_ref) - fl(w_s S_ref)): two separately rounded steps,
    # so a token equal to the reference gives exactly 0 (a fused multiply-add would leave 1 ulp)
    offset = (batch.G.view(n, K) - G_ref) * w_g - S_ref * w_s
    d = batch.S.view(n, K, T) * w_s
    d.add_(offset.unsqueeze(-1)).mul_(m)

    if weighting == "inverse_length":
        k_eff = (Lg > 0).sum(-1, keepdim=True)
        token_weight = (Lg * k_eff).clamp(min=1.0).reciprocal()
    else:
        token_weight = Lg.sum(-1, keepdim=True).clamp(min=1.0).reciprocal()
    # empty rollouts contribute nothing below whatever their weight: their sums are 0 and L_k = 0

    mu_shift = (token_weight * d.sum(-1)).sum(-1, keepdim=True)  # [n, 1]
    d.addcmul_(m, mu_shift.neg().unsqueeze(-1))
    var = (token_weight * torch.linalg.vector_norm(d, dim=-1).square()).sum(-1)
    if std == "unbiased":
        denom = 1.0 - (token_weight.square() * Lg).sum(-1)
        var = torch.where(denom > 0, var / denom.clamp(min=torch.finfo(torch.float32).tiny), 0.0)
    batch.require_finite(var)
    sigma = var.sqrt()
    r_ref = (G_ref * w_g + S_ref * w_s).squeeze(-1)
    return PooledStats(
        dev=d, sigma=sigma, zero=sigma <= ZERO_STD_TOL, mu_shift=mu_shift.squeeze(-1), r_ref=r_ref, lengths=Lg
    )


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
