"""Bag-of-token statistics: one weighted mean and std over every valid token of a group (docs/method.md §2, Eqs. 2-3).

Shared by ``bot_grpo`` (weights 1/(K_eff L_k) or 1/N) and ``ps_grpo`` (plain 1/N).

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

# sigma at or below this is "zero std": the group's token rewards are (numerically) all equal
ZERO_STD_TOL = 1e-8


@dataclass
class PooledStats:
    """dev: [n_groups, K, T] r - mu on valid tokens, 0 on padding (a fresh tensor, safe to modify);
    sigma: [n_groups, 1, 1] pooled std; zero: [n_groups, 1, 1] bool, sigma <= ZERO_STD_TOL (true
    for a group without any token)."""

    dev: Tensor
    sigma: Tensor
    zero: Tensor


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


def pooled_token_stats(batch: RewardBatch, w_g: float, w_s: float, *, weighting: str, std: str) -> PooledStats:
    """Weighted mean / std of r_{k,t} = w_g G_k + w_s S_{k,t} over the valid tokens of each group.

    Token weight: ``inverse_length`` 1/(K_eff L_k) (every non-empty rollout weighs 1/K_eff in
    total), ``uniform`` 1/N (N = valid tokens of the group). Empty rollouts have no tokens and so
    no weight; K_eff counts the non-empty ones.

    ``unbiased`` applies Bessel's correction n / (n - 1) with n the number of units the weights
    treat as samples: the rollouts (n = K_eff) for ``inverse_length``, where each rollout is one
    sample of weight 1/K_eff, so that BoT with a constant local signal is GRPO with the unbiased
    std whatever the lengths (docs/method.md §2); the tokens (n = N) for ``uniform``, the plain sample
    variance of the pool. A pool with n <= 1 counts as zero std.
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
        units = nonempty.sum(1, keepdim=True) if weighting == "inverse_length" else Lg.sum(1, keepdim=True)
        var = torch.where(units > 1, var * units / (units - 1).clamp_(min=1.0), 0.0)
    batch.require_finite(var)
    sigma = var.sqrt_()
    return PooledStats(dev=d, sigma=sigma, zero=sigma <= ZERO_STD_TOL)


def same_global_groups(batch: RewardBatch) -> Tensor:
    """[n_groups, 1, 1] bool: every non-empty rollout of the group has the same global reward G.

    Empty rollouts are left out, as they are of the pooled statistics: the groups where BoT's
    sigma is the spread of the local signal alone. A group with at most one non-empty rollout
    counts as same-G (true).
    """
    n, K = batch.n_groups, batch.K
    G = batch.G.view(n, K, 1)
    nonempty = batch.L.view(n, K, 1) > 0
    ref = G.gather(1, nonempty.to(torch.uint8).argmax(1, keepdim=True))  # G of the first non-empty rollout
    return ~((G != ref) & nonempty).any(1, keepdim=True)
