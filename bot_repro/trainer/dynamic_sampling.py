"""DAPO's dynamic sampling: drop groups without a learning signal and refill the batch from new rounds.

Every decision is taken on the gathered validity of whole rounds, so all ranks take the same ones,
in the same rounds, as one process with the whole batch would: the kept groups are the first valid
ones of the global batch in round order, and a rank's slots may be filled with rows generated on
another rank. A slot left unfilled after ``max_rounds`` extra rounds keeps an invalid group with
zero loss weight. ``plan_slots`` is that decision (pure); ``refill`` runs the rounds and merges the
kept rows (``batch_ops.select_rows``) and their scores; the trainer supplies the generation round
and the cross-rank pooling.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import Tensor

from bot_repro.config import DynamicSampling
from bot_repro.trainer.advantage_step import RoundStats, loss_mask, padded_local_rewards
from bot_repro.trainer.batch_ops import select_rows
from bot_repro.trainer.token_reward import ScoredBatch

Round = tuple[dict, ScoredBatch, RoundStats]  # TRL's batch dict, its scores, the gathered statistics


@dataclass
class Refill:
    """The batch that trains (this rank's rows), its scores and statistics, and DAPO's counters."""

    batch: dict
    scored: ScoredBatch
    stats: RoundStats
    metrics: dict[str, float]


def check_whole_groups(b: int, k: int) -> None:
    """Dynamic sampling keeps or drops whole groups, so each process must hold whole groups."""
    if b % k:
        raise ValueError(
            f"dynamic sampling needs whole groups per process: per-process generation batch {b} is not a "
            f"multiple of num_generations {k}; make per_device_train_batch_size * steps_per_generation a "
            f"multiple of {k}"
        )


def plan_slots(valid: list[Tensor], n: int, world: int, rank: int) -> tuple[list[tuple[int, int]], int]:
    """This rank's ``n`` group slots as ``(round, global group)``, and how many hold a valid group.

    ``valid[r]``: [world * n] bool validity of round r's groups (gathered, in rank order). The global
    batch takes the first ``world * n`` valid groups in round order; rank ``rank`` gets slots
    ``rank * n ... rank * n + n - 1`` of it, padded with invalid groups when too few were valid.
    """
    total = world * n
    good = [(r, g) for r, v in enumerate(valid) for g in range(total) if v[g]][:total]
    n_filled = min(n, max(0, len(good) - rank * n))
    order = good + [(r, g) for r, v in enumerate(valid) for g in range(total) if not v[g]]
    return order[rank * n : (rank + 1) * n], n_filled


def take_scores(batches: list[ScoredBatch], rows: list[tuple[int, int]]) -> ScoredBatch:
    """The scores of rows ``[(batch index, row index), ...]`` as one ScoredBatch."""
    return ScoredBatch(
        [batches[b].global_rewards[i] for b, i in rows],
        [batches[b].local_rewards[i] for b, i in rows],
        [batches[b].results[i] for b, i in rows],
        [batches[b].texts[i] for b, i in rows],
    )


def refill(
    first: Round,
    next_round: Callable[[], Round],
    pool: Callable[[list[tuple[dict, ScoredBatch]]], list[list[tuple[dict, ScoredBatch]]]],
    cfg: DynamicSampling,
    *,
    k: int,
    world: int,
    rank: int,
    pad_token_id: int,
) -> Refill:
    """Draw rounds (``next_round``) until ``world * n`` valid groups or ``cfg.max_rounds`` extra rounds,
    then merge this rank's rows. ``pool(rounds)``: every rank's rounds as [rank][round]. The returned
    batch lacks ``num_items_in_batch`` (a cross-rank sum: the trainer adds it)."""
    out = first[0]
    b = out["completion_mask"].shape[0]
    check_whole_groups(b, k)
    n = b // k
    rounds, generated = [first[:2]], [first[2]]
    while len(rounds) <= cfg.max_rounds and sum(int(st.group_valid.sum()) for st in generated) < world * n:
        o, s, st = next_round()
        rounds.append((o, s))
        generated.append(st)
    slots, n_filled = plan_slots([st.group_valid for st in generated], n, world, rank)
    pooled = pool(rounds)  # pooled[owner rank][round] = (batch, scored)
    picks = [(r, g, j) for r, g in slots for j in range(k)]
    sources = sorted({(g // n, r) for r, g, _ in picks})  # (owner rank, round) of the kept rows
    at = {src: i for i, src in enumerate(sources)}
    rows = [(at[g // n, r], (g % n) * k + j) for r, g, j in picks]
    merged = select_rows([pooled[o][r][0] for o, r in sources], rows, pad_token_id)
    device = out["completion_mask"].device
    merged = {key: v.to(device) if isinstance(v, Tensor) else v for key, v in merged.items()}
    for slot in range(n_filled, n):  # unfilled slots keep a degenerate group with zero loss weight
        merged["completion_mask"][slot * k : (slot + 1) * k] = 0
    scored = take_scores([pooled[o][r][1] for o, r in sources], rows)
    adv = merged["advantages"]
    # statistics of the kept batch, local rows only (the full batch was already reduced)
    stats = RoundStats(
        global_=torch.tensor(scored.global_rewards, device=adv.device),
        local=padded_local_rewards(scored.local_rewards, adv.shape[1], adv.device),
        mask=loss_mask(merged).float(),
        adv=adv,
    )
    n_groups = sum(len(st.group_valid) for st in generated)
    n_valid = sum(int(st.group_valid.sum()) for st in generated)
    metrics = {"dapo/dropped_groups": float(n_groups - n_valid), "dapo/extra_rounds": float(len(rounds) - 1),
               "dapo/unfilled_groups": float(n - n_filled)}  # fmt: skip
    return Refill(merged, scored, stats, metrics)
