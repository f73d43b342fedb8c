"""The seven advantage estimators (docs/method.md §2), registered by name in ``ADVANTAGES``.

Every registered estimator has the signature::

    fn(global_rewards: Tensor[B], local_rewards: Tensor[B, T], mask: Tensor[B, T], group_size: int,
       *, w_g: float, w_s: float, eps: float = 1e-6, <own options>) -> Tensor[B, T]

and is written here as its body ``fn(batch: RewardBatch, *, <options>)``: the registry
(``register_advantage``) checks the options and tensors, builds the batch and answers a batch
without a valid token with zeros. w_g and w_s have no default here: their one home is the reward
section (``bot_repro.rewards.RewardCfg``), and callers pass them (the trainer through
``RunConfig.advantage_options``).

Rows of a group (the K = group_size rollouts of one prompt) are contiguous; B % K == 0 and
K >= 2 (``ValueError`` otherwise). G = global_rewards, S = local_rewards, and the token reward is
r_{k,t} = w_g G_k + w_s S_{k,t}. Results are float32 whatever the input dtype, exactly 0 at
padded positions (mask == 0), and computed without Python loops over rows or tokens. Options
are checked on every call (``ConfigError`` naming the option and the allowed values).

Conventions where the paper leaves room (docs/method.md §2) (ours):
- sequence-level estimators (grpo, dr_grpo, dapo, gspo) take group statistics over all K
  rollouts, empty completions included (their sequence reward is defined; they just have no
  token to carry an advantage);
- a mean over an empty completion is 0 (``token_mean`` sequence rewards, PURE's step baseline),
  and so is PURE's token baseline when the other rollouts have no token;
- a group whose rewards are all equal gets exactly 0, not eps-amplified rounding noise (the
  per-rollout values of the sequence-level estimators are computed in float64, which costs
  nothing on [B]; token-level work stays float32);
- padded positions of local_rewards are ignored but must hold finite values (a non-finite
  reward anywhere in a row that is read raises ``ValueError`` naming the rows).
"""

from __future__ import annotations

import functools

import torch
from torch import Tensor

from bot_repro.algorithms.advantages import register_advantage
from bot_repro.algorithms.batch import (
    RewardBatch,
    group_center,
    reverse_cumsum,
    sequence_rewards,
)
from bot_repro.algorithms.options import OPTION_CHECKS, check_overlong
from bot_repro.algorithms.pooled import pooled_token_stats, same_global_groups

__all__ = [
    "bot_grpo",
    "dapo",
    "dr_grpo",
    "grpo",
    "gspo",
    "min_form_credit",
    "ps_grpo",
    "pure",
]


def _sequence_advantages(
    batch: RewardBatch,
    *,
    seq_reward: str,
    w_g: float,
    w_s: float,
    scale: bool,
    std: str = "population",
    eps: float = 1e-6,
    overlong: tuple[int, int, float] | None = None,
) -> Tensor:
    """Shared body of the sequence-level estimators: R_k, group-centred (and scaled), on every valid token."""
    R = sequence_rewards(batch, seq_reward, w_g, w_s)
    if overlong is not None:
        max_len, buffer, penalty = overlong
        R = R + penalty * ((max_len - buffer - batch.L.double()) / buffer).clamp(min=-1.0, max=0.0)
    A = group_center(batch, R, scale=scale, std=std, eps=eps)
    batch.require_finite(A)
    return batch.broadcast(A.to(torch.float32))


@register_advantage("grpo", label="GRPO", color="#0072B2", marker="s", linestyle=(0, (6, 2)))  # Okabe-Ito blue
def grpo(
    batch: RewardBatch,
    *,
    w_g: float,
    w_s: float,
    eps: float = 1e-6,
    std: str = "population",
    seq_reward: str = "global",
) -> Tensor:
    """GRPO (paper Eq. 1): A_k = (R_k - mean_j R_j) / (std_j R_j + eps) on every valid token of rollout k.

    std: ``population`` (docs/method.md §2 default) or ``unbiased`` (verl / TRL). seq_reward: ``global``
    R = w_g G (the paper's GRPO), ``token_mean`` R = w_g G + w_s mean_t S, ``token_sum``
    R = w_g G + w_s sum_t S (over valid tokens).

    Shapes: global_rewards [B], local_rewards [B, T], mask [B, T] -> advantages [B, T] float32.
    """
    return _sequence_advantages(batch, seq_reward=seq_reward, w_g=w_g, w_s=w_s, scale=True, std=std, eps=eps)


def _variant(fn, name: str, doc: str, **defaults):
    """``fn`` with other option defaults, as its own registered estimator (same body, same checks)."""
    variant = functools.partial(fn, **defaults)
    variant.__name__ = variant.__qualname__ = name
    variant.__doc__ = doc
    variant.__module__ = fn.__module__
    return variant


gspo = register_advantage(  # Okabe-Ito reddish purple
    "gspo", label="GSPO", color="#CC79A7", marker="v", linestyle=(0, (6, 2, 1, 2, 1, 2))
)(
    _variant(
        grpo.body,  # the registry wraps the variant with its own checks
        "gspo",
        """GSPO: sequence advantages as ``grpo`` with seq_reward default ``token_mean``.

    The sequence-level importance ratio and its clipping are TRL's (``importance_sampling_level``).

    Shapes: global_rewards [B], local_rewards [B, T], mask [B, T] -> advantages [B, T] float32.
    """,
        seq_reward="token_mean",
    )
)


# Okabe-Ito orange: the colour closest to BoT-GRPO's vermilion, so it goes to an algorithm no figure sets beside it
@register_advantage("dr_grpo", label="Dr. GRPO", color="#E69F00", marker="X", linestyle=(0, (3, 1.5)))
def dr_grpo(
    batch: RewardBatch,
    *,
    w_g: float,
    w_s: float,
    eps: float = 1e-6,
    seq_reward: str = "global",
) -> Tensor:
    """Dr. GRPO: A_k = R_k - mean_j R_j (no std) on every valid token of rollout k.

    seq_reward as in ``grpo``. ``eps`` is accepted for a uniform option set but unused (nothing is
    divided). The constant-normaliser loss aggregation is the trainer's.

    Shapes: global_rewards [B], local_rewards [B, T], mask [B, T] -> advantages [B, T] float32.
    """
    return _sequence_advantages(batch, seq_reward=seq_reward, w_g=w_g, w_s=w_s, scale=False)


@register_advantage(  # Okabe-Ito bluish green
    "dapo", label="DAPO", color="#009E73", marker="D", linestyle=(0, (6, 2, 1, 2)), cross_check=check_overlong
)
def dapo(
    batch: RewardBatch,
    *,
    w_g: float,
    w_s: float,
    eps: float = 1e-6,
    std: str = "population",
    seq_reward: str = "token_mean",
    max_completion_length: int | None = None,
    overlong_buffer: int = 0,
    overlong_penalty: float = 1.0,
) -> Tensor:
    """DAPO: GRPO advantages of R_k (seq_reward default ``token_mean``) plus soft overlong punishment.

    When max_completion_length (L_max) is set and overlong_buffer (L_cache) > 0:
    R_k += overlong_penalty * clip((L_max - L_cache - L_k) / L_cache, -1, 0), L_k = valid tokens
    of rollout k (0 up to L_max - L_cache, linear down to -overlong_penalty at L_max, flat after).
    Dynamic sampling and clip-higher are the trainer's.

    Shapes: global_rewards [B], local_rewards [B, T], mask [B, T] -> advantages [B, T] float32.
    """
    overlong = None
    if max_completion_length is not None and overlong_buffer > 0:
        overlong = (max_completion_length, overlong_buffer, overlong_penalty)
    return _sequence_advantages(
        batch, seq_reward=seq_reward, w_g=w_g, w_s=w_s, scale=True, std=std, eps=eps, overlong=overlong
    )


def min_form_credit(
    local_rewards: Tensor, mask: Tensor, *, w_s: float, temperature: float = 0.1
) -> Tensor:
    """PURE's min-form credit q_{k,t} = softmax_t(-p_{k,t} / temperature) p_{k,t}, p = w_s S, over valid tokens.

    Shape [B, T] -> [B, T], float32, 0 on padding and for empty rows. As temperature -> 0 the
    softmax concentrates on the smallest p, so sum_t q_{k,t} -> min_t p_{k,t}.
    """
    for option, value in (("w_s", w_s), ("temperature", temperature)):
        OPTION_CHECKS[option](option, value, "min_form_credit")
    if tuple(mask.shape) != tuple(local_rewards.shape):
        raise ValueError(
            f"mask shape {tuple(mask.shape)} differs from local_rewards shape {tuple(local_rewards.shape)}"
        )
    m = (mask != 0) if mask.dtype != torch.bool else mask
    p = local_rewards.to(torch.float32) * w_s
    weights = torch.softmax(torch.where(m, p * (-1.0 / temperature), float("-inf")), dim=-1)
    # an empty row's softmax is NaN (all -inf): where() replaces it, a product would not
    return torch.where(m, weights * p, 0.0)


def _leave_one_out_mean(x: Tensor, K: int) -> Tensor:
    """[B] mean over the other K - 1 rows of each row's group."""
    xg = x.view(-1, K)
    return ((xg.sum(-1, keepdim=True) - xg) / (K - 1)).reshape(-1)


def _leave_one_out_ratio(num: Tensor, den: Tensor, K: int) -> Tensor:
    """[B] (sum of ``num`` over the other K - 1 rows) / (sum of ``den`` over them); 0 where that sum is 0."""
    ng, dg = num.view(-1, K), den.view(-1, K)
    other_num = ng.sum(-1, keepdim=True) - ng
    other_den = dg.sum(-1, keepdim=True) - dg
    return torch.where(other_den > 0, other_num / other_den.clamp(min=1.0), 0.0).reshape(-1)


@register_advantage(  # black: far from BoT-GRPO, its closest rival in the paper
    "pure", label="PURE", color="#000000", marker="^", linestyle=(0, (1, 1.5)), verl=True
)
def pure(
    batch: RewardBatch,
    *,
    w_g: float,
    w_s: float,
    eps: float = 1e-6,
    temperature: float = 0.1,
    baseline: str = "token",
    whiten: bool = False,
    std: str = "unbiased",
) -> Tensor:
    """PURE (min-form credit assignment) as PURE's ``train_pure.sh`` runs it (RLOO), tokens as steps.

    q_{k,t} = ``min_form_credit`` (p = w_s S, softmax(-p / temperature) weights over valid tokens);
    q'_{k,t} = q_{k,t} - b_k on valid tokens, with the leave-one-out process-reward baseline
      ``baseline="token"`` (default; PURE's ``--reward_baseline token``, the one its script uses):
        b_k = sum_{j != k} sum_t q_{j,t} / sum_{j != k} L_j, the mean reward per token of the other
        rollouts' pooled tokens (0 when they have no token);
      ``baseline="step"`` (PURE's ``--reward_baseline step``):
        b_k = mean_{j != k} (sum_t q_{j,t} / L_j), the mean over the other K-1 rollouts of their
        mean reward per step (an empty rollout's mean is 0).
    The verifiable reward w_g (G_k - mean_{j != k} G_j) is added at rollout k's last valid token,
    and A_{k,t} = sum_{t' >= t} q'_{k,t'} (return to go). The two baselines agree when K = 2 or
    all lengths are equal.

    No std normalisation by default; ``whiten`` = (A - mean) / (std + eps) over all valid tokens
    of the batch, with ``std="unbiased"`` (default) the Bessel-corrected std n/(n-1) of PURE's
    verl branch (``verl_F.masked_whiten``, which uses (A - mean) * rsqrt(var + 1e-8)) or
    ``std="population"``. ``eps`` and ``std`` are only used by ``whiten``.

    Shapes: global_rewards [B], local_rewards [B, T], mask [B, T] -> advantages [B, T] float32.
    """
    m, K, L = batch.m, batch.K, batch.L
    q = min_form_credit(batch.S, m > 0, w_s=w_s, temperature=temperature)
    q_sum = q.sum(-1)
    if baseline == "token":
        b = _leave_one_out_ratio(q_sum, L, K)
    else:
        b = _leave_one_out_mean(q_sum / L.clamp(min=1.0), K)
    q = (q - b.unsqueeze(-1)) * m
    verifiable = w_g * (batch.G - _leave_one_out_mean(batch.G, K)) * (L > 0)
    batch.require_finite(torch.stack([q_sum, verifiable]))
    last = (batch.T - 1) - m.flip(-1).argmax(-1)  # argmax: first maximum = last valid token
    q.scatter_add_(1, last.unsqueeze(-1), verifiable.unsqueeze(-1))
    A = reverse_cumsum(q) * m
    if whiten:
        n_valid = m.sum()
        centred = (A - A.sum() / n_valid.clamp(min=1.0)) * m
        dof = n_valid - 1.0 if std == "unbiased" else n_valid
        A = centred / ((centred.square().sum() / dof.clamp(min=1.0)).sqrt() + eps)
    return A


@register_advantage(  # Okabe-Ito sky blue
    "ps_grpo", label="PS-GRPO", color="#56B4E9", marker="P", linestyle=(0, (1, 1.5, 1, 1.5, 4, 1.5)), verl=True
)
def ps_grpo(
    batch: RewardBatch,
    *,
    w_g: float,
    w_s: float,
    eps: float = 1e-6,
    std: str = "population",
    reduce: str = "mean",
) -> Tensor:
    """Process-supervision GRPO (DeepSeekMath), every token a step.

    r~_{k,t} = (r_{k,t} - mu) / (sigma + eps), mu and sigma the plain (unweighted) mean and std of
    all valid token rewards of the group (std option as ``grpo``). DeepSeekMath sums the
    normalised rewards of the steps at or after t; with one step per token that sum grows with
    the remaining length, so our default ``reduce="mean"`` takes A_{k,t} = mean_{t' >= t} r~_{k,t'}
    over valid tokens (length-independent scale); ``reduce="sum"`` is the literal sum.

    Shapes: global_rewards [B], local_rewards [B, T], mask [B, T] -> advantages [B, T] float32.
    """
    stats = pooled_token_stats(batch, w_g, w_s, weighting="uniform", std=std)
    normalised = stats.dev.mul_((stats.sigma + eps).reciprocal_()).view(batch.B, batch.T)
    A = reverse_cumsum(normalised)
    if reduce == "mean":
        A = A / reverse_cumsum(batch.m).clamp(min=1.0)
    return A * batch.m


@register_advantage(  # Okabe-Ito vermilion, solid and highlighted: the paper's method
    "bot_grpo", label="BoT-GRPO", color="#D55E00", marker="o", linestyle="-", highlight=True, verl=True,
    drops_groups=lambda options: options["zero_std"] == "drop",  # the trainer removes all-zero groups
)
def bot_grpo(
    batch: RewardBatch,
    *,
    w_g: float,
    w_s: float,
    eps: float = 1e-6,
    std: str = "population",
    weighting: str = "inverse_length",
    zero_std: str = "zero",
    same_global: str = "pooled",
    std_floor: float = 0.5,
) -> Tensor:
    """BoT-GRPO (paper Eqs. 2-3): token rewards normalised by bag-of-token statistics of the group.

    mu = sum_{k,t} w_{k,t} r_{k,t}; sigma^2 = sum_{k,t} w_{k,t} (r_{k,t} - mu)^2 over valid tokens;
    A_{k,t} = (r_{k,t} - mu) / (sigma + eps).
    weighting: ``inverse_length`` w = 1/(K_eff L_k) (paper) or ``uniform`` w = 1/N_tokens.
    With inverse_length this is the mu of docs/method.md §2 = (1/K) sum_k (1/L_k) sum_t r_{k,t} and
    sigma^2 = (1/K) sum_k (1/L_k) sum_t (r_{k,t} - mu)^2.
    std: ``population`` or ``unbiased`` = sigma^2 * n / (n - 1), n = K_eff (rollouts) for
    inverse_length, as GRPO's unbiased std, so that a constant local signal gives GRPO with the
    same std option whatever the lengths; n = N (tokens) for uniform; n <= 1 counts as zero std.
    Empty completions (L_k == 0) are left out of mu and sigma (K_eff = non-empty rollouts) and
    get 0. zero_std, for groups with sigma <= 1e-8: ``zero`` and ``drop`` give A = 0 (with
    ``drop`` the trainer removes the groups whose advantages are all 0), ``eps`` gives
    (r - mu) / eps.

    same_global (beyond the paper), for a same-G group: every non-empty rollout has the same
    global reward G (``pooled.same_global_groups``), so sigma is the spread of w_s S alone and the
    paper's formula scales the local signal to unit size however small w_s is:
    - ``pooled`` (paper, default): A_{k,t} = (r_{k,t} - mu) / (sigma + eps), as in every group;
    - ``floor_std``: A_{k,t} = (r_{k,t} - mu) / (max(sigma, std_floor) + eps), so a tiny local
      spread is not blown up (equals ``pooled`` where sigma >= std_floor; std_floor is in reward
      units, r = w_g G + w_s S: the default 0.5 is the std of a 0/1 G with w_g = 1 in an evenly
      split group, so a same-G group's local signal is scaled as in the most mixed group);
    - ``zero``: A_{k,t} = 0 (GRPO's behaviour: such a group teaches nothing; with zero_std=drop
      the trainer then drops it too).
    Groups with other G values are untouched; zero-std groups follow ``zero_std`` whatever this is.

    Shapes: global_rewards [B], local_rewards [B, T], mask [B, T] -> advantages [B, T] float32.
    """
    stats = pooled_token_stats(batch, w_g, w_s, weighting=weighting, std=std)
    sigma = stats.sigma
    if same_global == "floor_std":
        sigma = torch.where(same_global_groups(batch), sigma.clamp(min=std_floor), sigma)
    inv = (sigma + eps).reciprocal_()
    if same_global == "zero":
        inv.masked_fill_(same_global_groups(batch), 0.0)
    inv.masked_fill_(stats.zero, 1.0 / eps if zero_std == "eps" else 0.0)
    return stats.dev.mul_(inv).view(batch.B, batch.T)
