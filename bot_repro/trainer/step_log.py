"""What the trainer logs about the batch that trains: its statistics and a few saved rollouts.

``batch_metrics`` gives the ``BATCH_KEYS`` of ``metrics.jsonl`` (``bot_repro.run_folder.schema``): the
sequence reward w_g G + w_s mean_t S_t of the estimators' own ``token_mean`` rule
(``bot_repro.algorithms.batch.sequence_rewards``), its parts and the advantages on valid tokens, plus
the reward sources' components (``reward/<name>``), any accounting carried by the scores and the
reward-hacking monitors (``monitor/<name>``, ``bot_repro.trainer.monitors``). Groups left out for an
excluded rollout (``RoundStats.kept``) are left out of these statistics too: their rewards are
placeholders, not scores; ``exclusion_metrics`` counts them.
``rollout_rows`` are the first rollouts of a step as ``rollouts/step_NNNNNN.jsonl`` saves them.
"""

from __future__ import annotations

from collections import Counter

import torch

from bot_repro.algorithms.batch import RewardBatch, sequence_rewards
from bot_repro.trainer.advantage_step import RoundStats
from bot_repro.trainer.monitors import batch_monitors
from bot_repro.trainer.token_reward import ScoredBatch


def batch_metrics(stats: RoundStats, scored: ScoredBatch, k: int, w_g: float, w_s: float) -> dict[str, float]:
    """Logged statistics of a batch (``stats``: [B] global, [B, T] local, mask and advantages, groups
    of ``k``), over the groups it keeps."""
    results, texts = scored.results, scored.texts
    if stats.kept is not None:
        rows = stats.kept.repeat_interleave(k).to(stats.mask.device)
        if not bool(rows.any()):
            return {}  # nothing trains: no reward has a meaning to log
        stats = RoundStats(stats.global_[rows], stats.local[rows], stats.mask[rows], stats.adv[rows])
        if len(results) == len(rows):  # one process: its samples are the gathered rows
            results = [r for r, keep in zip(results, rows.tolist()) if keep]
            texts = [t for t, keep in zip(texts, rows.tolist()) if keep]
        else:
            results = [r for r in results if r.excluded is None]
            texts = [t for t, r in zip(texts, scored.results) if r.excluded is None]
    batch = RewardBatch.from_inputs(stats.global_, stats.local, stats.mask, k)
    # per-row values by the estimators' rule (float64), reduced as float32 like every logged statistic;
    # the former float32 restatement of the rule differed from it in the last float32 bit
    seq = sequence_rewards(batch, "token_mean", w_g, w_s).to(torch.float32)
    local_mean = sequence_rewards(batch, "token_mean", 0.0, 1.0).to(torch.float32)
    valid = batch.m.bool()
    adv = stats.adv[valid] if valid.any() else stats.adv.new_zeros(1)
    values = {
        "reward_mean": seq.mean(),
        "reward_std": seq.std(unbiased=False),
        "global_reward_mean": batch.G.mean(),
        "local_reward_mean": local_mean.mean(),
        "adv_mean": adv.mean(),
        "adv_std": adv.std(unbiased=False),
        "adv_min": adv.min(),
        "adv_max": adv.max(),
    }
    out = {key: float(v) for key, v in values.items()}
    comps: dict[str, list[float]] = {}
    for res in results:
        for name, val in res.components.items():
            comps.setdefault(name, []).append(float(val))
    out.update({f"reward/{name}": sum(vals) / len(vals) for name, vals in comps.items()})
    out.update({name: float(val) for name, val in scored.metrics.items()})
    out.update(batch_monitors(batch.G.tolist(), local_mean.tolist(), k, results, texts))
    return out


def exclusion_metrics(reasons: Counter, groups: int, skipped: bool, out_of: int) -> dict[str, float]:
    """``excluded/<reason>``: rollouts without a score by why (``RewardResult.excluded``), summed over a
    step's rounds and processes, and ``excluded/rollouts`` their sum; ``excluded/out_of``: every rollout
    the step scored (the run's excluded share is their ratio over all steps, ``outage.excluded_note``);
    ``excluded/groups``: groups left out for them; ``judge/step_skipped``: 1 when the step made no update
    for a judge outage (``judge.on_outage=skip``)."""
    out = {f"excluded/{reason}": float(n) for reason, n in sorted(reasons.items())}
    out.update({"excluded/rollouts": float(sum(reasons.values())), "excluded/out_of": float(out_of),
                "excluded/groups": float(groups), "judge/step_skipped": float(skipped)})
    return out


def rollout_rows(batch: dict, scored: ScoredBatch, step: int, n: int, tokenizer) -> list[dict]:
    """The first ``n`` rollouts of TRL's ``batch`` at ``step``: text, tokens, rewards, advantages, info."""
    ids, mask = batch["completion_ids"], batch["completion_mask"]
    rows = []
    for i in range(min(n, len(scored.texts))):
        length = int(mask[i].sum())
        rows.append({
            "step": step,
            "index": i,
            "text": scored.texts[i],
            "tokens": tokenizer.convert_ids_to_tokens(ids[i, :length].tolist()),
            "global_reward": scored.global_rewards[i],
            "local_rewards": [round(float(x), 5) for x in scored.local_rewards[i][:length]],
            "advantages": [round(float(x), 5) for x in batch["advantages"][i, :length].tolist()],
            "components": scored.results[i].components,
            "info": scored.results[i].info,
        })
    return rows
