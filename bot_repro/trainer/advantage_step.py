"""One generation round's advantages: the registry's [B, T] tensor in place of TRL's per-sequence one.

``padded_local_rewards`` is the one place the per-token local rewards S_t of a ``ScoredBatch`` become a
padded [B, T] tensor. ``round_advantages`` runs the registered estimator on the batch gathered from
all processes (a group whose rollouts sit on different processes is normalised as one group) and
marks the groups with a learning signal; ``into_batch`` puts this process's rows into TRL's batch
dict. No TRL and no process group here: the trainer gathers, these functions compute.

A rollout with no score (``RewardResult.excluded``: a judge call that gave no reply, a checker worker
that stalled) takes its whole group out of the round (docs/method.md §3 "Excluded rollouts"): the
estimator runs on the other groups only, so no advantage, baseline or batch statistic sees a
placeholder reward, and the group's rows get zero advantage and a zero loss mask.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
from torch import Tensor

from bot_repro.algorithms.advantages import compute_advantages, drops_groups


@dataclass
class RoundStats:
    """Rewards and advantages of a batch. global_: [B]; local, mask, adv: [B, T]; group_valid: [B / K]
    bool (a group with any nonzero advantage on a valid token), None for a batch already filtered."""

    global_: Tensor
    local: Tensor
    mask: Tensor
    adv: Tensor
    group_valid: Tensor | None = None
    kept: Tensor | None = None  # [B / K] bool: groups without an excluded rollout (None: all kept)


def padded_local_rewards(local_rewards: Sequence[np.ndarray], width: int, device: torch.device | str) -> Tensor:
    """[B, width] float32: row i holds ``local_rewards[i]`` cut to ``width``, zero after its end."""
    local = torch.zeros(len(local_rewards), width, dtype=torch.float32, device=device)
    for i, s in enumerate(local_rewards):
        n = min(len(s), width)
        local[i, :n] = torch.as_tensor(s[:n], dtype=torch.float32)
    return local


def loss_mask(batch: dict) -> Tensor:
    """TRL's [B, T] completion mask, times its tool mask when the batch has one (tokens that train)."""
    mask = batch["completion_mask"]
    return mask * batch["tool_mask"] if batch.get("tool_mask") is not None else mask


def round_advantages(name: str, options: dict, global_: Tensor, local: Tensor, mask: Tensor, k: int,
                     excluded: Tensor | None = None) -> RoundStats:
    """Advantages of estimator ``name`` on a gathered round (global_ [B], local and mask [B, T], groups
    of ``k`` contiguous rows). ``excluded`` [B] bool marks rollouts without a score: their groups are
    left out of the estimator and masked. When the estimator drops groups without signal, their
    mask is zeroed too."""
    kept = None
    if excluded is not None and bool(excluded.any()):
        kept = ~excluded.to(torch.bool).view(-1, k).any(dim=1)
        rows = kept.repeat_interleave(k).to(mask.device)
        adv = torch.zeros_like(local)
        if bool(rows.any()):
            adv[rows] = compute_advantages(name, global_[rows], local[rows], mask[rows], k, **options)
        mask = mask * rows[:, None]
    else:
        adv = compute_advantages(name, global_, local, mask, k, **options)
    group_valid = (adv.abs() * mask).view(-1, k, adv.shape[1]).sum(dim=(1, 2)) > 0
    if drops_groups(name, options):
        mask = mask * group_valid.repeat_interleave(k)[:, None]
    return RoundStats(global_, local, mask, adv, group_valid, kept)


def into_batch(batch: dict, stats: RoundStats, start: int, drops: bool) -> None:
    """Write rows ``start : start + B`` of the gathered ``stats`` into this process's TRL ``batch``
    (B, T: its completion mask's shape): ``advantages``, and with ``drops`` or excluded groups the
    dropped groups' mask."""
    b, width = batch["completion_mask"].shape
    device = batch["completion_mask"].device
    batch["advantages"] = stats.adv[start : start + b, :width].to(device)
    if drops or stats.kept is not None:
        kept = stats.mask[start : start + b, :width].bool().any(1)[:, None]
        batch["completion_mask"] = batch["completion_mask"] * kept
