"""Input checking and shared tensor steps of the advantage estimators.

``RewardBatch.from_inputs`` checks shapes and the group layout once and converts the rewards to
float32 (token-level work is float32 whatever the input dtype). The helpers here are the
pieces several estimators share: sequence rewards, group normalisation of per-rollout values,
reverse cumulative sums over valid tokens.

Padded positions are handled by multiplying with the 0/1 float mask rather than ``torch.where``
(several times cheaper on CPU); their values are therefore ignored only when finite. Each
estimator checks one small result it computes anyway (``RewardBatch.require_finite``) and
reports non-finite rewards as an error naming the rows.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass

import torch
from torch import Tensor


def _as_float32(x: Tensor) -> Tensor:
    # the common case skips a (no-op) dispatch: this runs on every call, on the hot path
    return x if x.dtype == torch.float32 else x.to(torch.float32)


def _as_float_mask(mask: Tensor) -> Tensor:
    """0/1 float32 copy of ``mask`` (nonzero = valid token).

    The routes avoid bool intermediates, whose CPU kernels are not vectorised: bool -> uint8 is a
    free reinterpretation and uint8 -> float32 is ~5x faster than bool -> float32; numeric masks
    (TRL's completion masks are float or int) compare straight into a float32 output, ~6x faster
    than going through a bool tensor.
    """
    if mask.dtype == torch.bool:
        return mask.view(torch.uint8).to(torch.float32)
    return torch.ne(mask, 0, out=torch.empty(mask.shape, dtype=torch.float32, device=mask.device))


@dataclass
class RewardBatch:
    """Checked float32 view of one batch of rewards.

    G: [B] global rewards; S: [B, T] local rewards (may be the caller's tensor: never modify in
    place); m: [B, T] 0/1 float mask; L: [B] valid-token counts (float); K: group size.
    """

    G: Tensor
    S: Tensor
    m: Tensor
    L: Tensor
    K: int

    @classmethod
    def from_inputs(cls, global_rewards: Tensor, local_rewards: Tensor, mask: Tensor, group_size: int):
        for arg, value in (
            ("global_rewards", global_rewards),
            ("local_rewards", local_rewards),
            ("mask", mask),
        ):
            if not isinstance(value, Tensor):
                raise TypeError(f"{arg} must be a torch.Tensor, got {type(value).__name__}")
            if value.is_complex():
                raise TypeError(f"{arg} must be real, got dtype {value.dtype}")
        if local_rewards.dim() != 2:
            raise ValueError(f"local_rewards must have shape [B, T], got {tuple(local_rewards.shape)}")
        B = local_rewards.shape[0]
        if tuple(mask.shape) != tuple(local_rewards.shape):
            raise ValueError(
                f"mask shape {tuple(mask.shape)} differs from local_rewards shape {tuple(local_rewards.shape)}"
            )
        if tuple(global_rewards.shape) != (B,):
            raise ValueError(
                f"global_rewards must have shape [B] = ({B},), got {tuple(global_rewards.shape)}"
            )
        if isinstance(group_size, bool):
            raise TypeError(f"group_size must be an int, got {group_size!r}")
        try:
            K = operator.index(group_size)
        except TypeError:
            raise TypeError(f"group_size must be an int, got {group_size!r}") from None
        if K < 2:
            raise ValueError(f"group_size K={K} is invalid: group-relative advantages need K >= 2")
        if B % K:
            raise ValueError(
                f"batch size B={B} is not a multiple of group_size K={K} (rows of a group are contiguous)"
            )
        m = _as_float_mask(mask)
        return cls(G=_as_float32(global_rewards), S=_as_float32(local_rewards), m=m, L=m.sum(-1), K=K)

    @property
    def B(self) -> int:
        return self.S.shape[0]

    @property
    def T(self) -> int:
        return self.S.shape[1]

    @property
    def n_groups(self) -> int:
        return self.B // self.K

    @property
    def empty(self) -> bool:
        """No token at all: every estimator returns an all-zero [B, T] result."""
        return self.S.numel() == 0

    def zeros(self) -> Tensor:
        return torch.zeros(self.B, self.T, dtype=torch.float32, device=self.S.device)

    def require_finite(self, result: Tensor) -> None:
        """Raise ``ValueError`` naming the input rows at fault when ``result`` (a small tensor the
        estimator computed from all rewards it reads) is not finite.

        Checking one small result instead of the [B, T] inputs keeps the check off the hot path.
        """
        # a sum is finite only if every term is (short of overflow): one reduction and one sync
        if math.isfinite(result.sum().item()):
            return
        bad_global = torch.nonzero(~torch.isfinite(self.G)).flatten().tolist()
        bad_local = torch.nonzero(~torch.isfinite(self.S).all(-1)).flatten().tolist()
        raise ValueError(
            f"non-finite rewards: global_rewards rows {bad_global[:10]}, local_rewards rows {bad_local[:10]} "
            "(padded positions included: they are ignored only when finite); if both lists are empty, "
            "the rewards are too large and overflowed float32"
        )

    def broadcast(self, per_row: Tensor) -> Tensor:
        """[B] -> [B, T]: each row's value on its valid tokens, exactly 0 on padding."""
        return self.m * per_row.unsqueeze(-1)


def sequence_rewards(batch: RewardBatch, seq_reward: str, w_g: float, w_s: float) -> Tensor:
    """[B] float64 sequence reward R_k: ``global`` w_g G; ``token_mean`` w_g G + w_s mean_t S;
    ``token_sum`` w_g G + w_s sum_t S (over valid tokens; the mean over an empty completion is 0).

    Per-row values are float64 (negligible cost on [B]): a float32 mean of L copies of 0.7 depends
    on L in its last bit, and GRPO's division by (std + eps) would blow that up to ~1e-2 for a
    group whose completions all carry the same local reward.
    """
    R = batch.G.double() * w_g
    if seq_reward == "global":
        return R
    # S * m is exact (m is 0/1); the float64 accumulation of float32 terms is exact up to 2^29 terms
    sums = torch.mul(batch.S, batch.m).sum(-1, dtype=torch.float64)
    if seq_reward == "token_mean":
        sums = sums / batch.L.double().clamp(min=1.0)
    return R + w_s * sums


def group_center(batch: RewardBatch, R: Tensor, *, scale: bool, std: str = "population", eps: float = 1e-6):
    """[B] (R_k - mean_j R_j), divided by (std_j R_j + eps) when ``scale``; all K rollouts of a group count.

    Rewards are shifted by the group's first reward before the mean is taken, so a group of equal
    rewards gives exactly 0 instead of rounding noise amplified by 1/eps. Keeps R's dtype.
    """
    Rg = R.view(batch.n_groups, batch.K)
    x = Rg - Rg[:, :1]
    dev = x - x.mean(-1, keepdim=True)
    if scale:
        sd = torch.std(x, dim=-1, correction=1 if std == "unbiased" else 0, keepdim=True)
        dev = dev / (sd + eps)
    return dev.reshape(batch.B)


def reverse_cumsum(x: Tensor) -> Tensor:
    """[B, T] out[:, t] = sum_{t' >= t} x[:, t'] (flip/cumsum/flip: no cancellation from total - prefix)."""
    return x.flip(-1).cumsum(-1).flip(-1)
