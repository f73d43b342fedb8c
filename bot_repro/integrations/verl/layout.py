"""How one rollout's (G, S) travels through verl's ``rm_scores``, and how verl's ``index`` becomes groups.

verl hands a custom advantage estimator only ``token_level_rewards [bs, W]``, ``response_mask
[bs, T]``, ``index`` (the prompt uid of each row) and the ``algorithm`` config; no
``non_tensor_batch`` (verl 0.9.1 passes that to its GDPO estimator only). Our estimators need
the global reward G and the local rewards S_t apart (PURE adds G once at the last token and
spreads only S with its min-form weights), so one response-aligned tensor of T values cannot
carry them. The BoT reward path therefore writes rows one slot longer than the response
("split layout")::

    rm_scores[k] = [w_g * G_k,  w_s * S_{k,0}, ..., w_s * S_{k,L_k-1}]      (length L_k + 1)

verl stores each row as is (nested tensors in TransferQueue) and pads every field on its own
when it builds the advantage batch, so ``token_level_rewards`` arrives one column wider than
``response_mask``; ``unpack_split`` takes column 0 as w_g G and columns 1.. as w_s S (aligned
with the response tokens). The estimators then call the registry with unit weights on these
weighted values: the registry forms the same token rewards r = w_g G + w_s S as on the TRL path.
verl's own bookkeeping only sums ``rm_scores`` per row (``critic/score``, validation
``reward``, DAPO's group filter), which gives w_g G + w_s sum_t S.

A rollout without a score (``RewardResult.excluded``: a judge call with no reply, a stalled checker
worker) travels as a row of zeros with ``reward_extra_info[EXCLUDED_KEY] = 1``; the agent loop zeroes
its ``response_mask`` (``mask_excluded``; verl's v1 loop copies it into ``loss_mask``), and
``group_rows`` then drops its whole group: a group with a token-less row beside rows with tokens gets
zero advantage, as the TRL trainer drops it (docs/method.md §3 "Excluded rollouts").

This module imports torch and numpy only (no verl), so the main test suite checks it too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
from torch import Tensor

from bot_repro.rewards.base import EXCLUSIONS

EXCLUDED_KEY = "bot/excluded"  # reward_extra_info: 1.0 for a rollout without a score, else 0.0


def exclusion_info(excluded: str | None) -> dict[str, float]:
    """The ``reward_extra_info`` entries of one rollout's exclusion (the same keys for every rollout,
    as verl gathers them into columns)."""
    out = {EXCLUDED_KEY: float(excluded is not None)}
    out.update({f"bot/excluded_{reason}": float(excluded == reason) for reason in EXCLUSIONS})
    return out


def mask_excluded(output: dict, info: dict) -> None:
    """Zero an excluded rollout's ``response_mask`` in an agent loop's ``as_dict`` output: none of its
    tokens enters the loss, and the estimator sees a token-less row and drops its group."""
    if info.get(EXCLUDED_KEY):
        output["response_mask"] = torch.zeros_like(output["response_mask"])


class LayoutError(ValueError):
    """verl's token_level_rewards are not in the BoT split layout."""


def pack_split(global_weighted: float, local_weighted: Sequence[float]) -> list[float]:
    """One row of ``rm_scores`` in the split layout: [w_g G, w_s S_0, ..., w_s S_{L-1}]."""
    return [float(global_weighted), *(float(x) for x in local_weighted)]


def unpack_split(token_level_rewards: Tensor, response_mask: Tensor) -> tuple[Tensor, Tensor]:
    """(w_g G [bs], w_s S [bs, T]) from split-layout rewards [bs, T + 1] and the response mask [bs, T]."""
    if token_level_rewards.dim() != 2 or response_mask.dim() != 2:
        raise LayoutError(
            f"expected 2-D token_level_rewards and response_mask, got shapes {tuple(token_level_rewards.shape)} "
            f"and {tuple(response_mask.shape)}"
        )
    bs, width = token_level_rewards.shape
    if response_mask.shape[0] != bs:
        raise LayoutError(f"token_level_rewards has {bs} rows but response_mask has {response_mask.shape[0]}")
    T = response_mask.shape[1]
    if width != T + 1:
        raise LayoutError(
            f"token_level_rewards is {width} wide for a response_mask {T} wide: the BoT estimators read the split "
            "layout [w_g*G, w_s*S_0..S_{L-1}] (one column wider than the response) that the 'bot_token' reward "
            "manager and the 'bot_single_turn' agent loop write. Set reward.reward_manager.name=bot_token and "
            "actor_rollout_ref.rollout.agent.default_agent_loop=bot_single_turn (conf/verl/*.yaml do), keep "
            "algorithm.use_kl_in_reward=false, and use verl's v1 trainer (trainer.use_v1=true)"
        )
    return token_level_rewards[:, 0], token_level_rewards[:, 1:]


@dataclass
class Groups:
    """verl rows regrouped for the registry: ``order`` lists row indices group by group (K each).

    ``skipped``: rows of groups without a single valid token (verl's synthetic padding rows, which
    share one ``pad...`` uid, or groups whose responses are all empty) and rows of groups dropped for
    an excluded rollout (``dropped``: a row without tokens beside rows with tokens, ``mask_excluded``):
    their advantage is 0 and their group size is not checked.
    """

    order: np.ndarray
    K: int
    n_groups: int
    skipped: np.ndarray
    dropped: int = 0


def group_rows(index: Sequence, response_mask: Tensor) -> Groups:
    """Regroup rows by uid (any row order); all groups that carry tokens must have the same size K >= 2."""
    uids = np.asarray(index, dtype=object)
    bs = response_mask.shape[0]
    if uids.shape != (bs,):
        raise ValueError(f"index has shape {uids.shape}, expected ({bs},): one uid per row")
    has_tokens = (response_mask != 0).any(-1).cpu().numpy()
    members: dict[object, list[int]] = {}
    for row, uid in enumerate(uids.tolist()):
        members.setdefault(uid, []).append(row)
    kept = [rows for rows in members.values() if has_tokens[rows].all()]
    skipped = [r for rows in members.values() if not has_tokens[rows].all() for r in rows]
    dropped = sum(1 for rows in members.values() if has_tokens[rows].any() and not has_tokens[rows].all())
    sizes = sorted({len(rows) for rows in kept})
    if len(sizes) > 1:
        counts = {s: sum(len(rows) == s for rows in kept) for s in sizes}
        raise ValueError(
            f"uneven group sizes in verl's batch: {counts} (group size: number of groups); the BoT estimators "
            "normalise over the K rollouts of a prompt and need every prompt to have K rows (rollout.n). Groups "
            "become uneven when rows are filtered or dropped before the advantage step"
        )
    K = sizes[0] if sizes else 0
    if kept and K < 2:
        raise ValueError(f"group size K={K}: group-relative advantages need K >= 2 (actor_rollout_ref.rollout.n)")
    order = np.fromiter((r for rows in kept for r in rows), dtype=np.int64, count=K * len(kept))
    return Groups(order=order, K=K, n_groups=len(kept), skipped=np.asarray(skipped, dtype=np.int64), dropped=dropped)


def scatter_rows(values: Tensor, groups: Groups, bs: int) -> Tensor:
    """[n_groups * K, T] values in group order -> [bs, T] in verl's row order, 0 on skipped rows."""
    out = values.new_zeros((bs, values.shape[1]))
    if len(groups.order):
        out[torch.as_tensor(groups.order, device=values.device)] = values
    return out
