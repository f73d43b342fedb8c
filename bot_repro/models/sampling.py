"""Sampling completions from a transformers causal LM on CPU, each distinct prompt prefilled once (issue #51).

``sample`` is what a CPU run generates its rollouts and held-out samples with (``trainer.sampler``): the
same distribution as transformers' ``generate(do_sample=True, temperature=T)`` with top-p 1, top-k 0
(every token, its softmax probability at temperature T), drawn faster where a small model spends its
time on this hardware (measured in ``results/bench/real_rl.json``):

- a group's K rows share their prompt: it is prefilled once, and its keys and values are held and read once
  per group, not per row (``shared_kv``; ``generate`` prefills every row and reads a copy per row);
- a draw is one two-level inverse-CDF lookup (``torch.multinomial``, which ``generate`` calls, draws an
  exponential variate per vocabulary entry: a fifth of a 135M model's decode step at 49k tokens);
- rows that have ended (EOS) leave the batch once an eighth of it has, instead of decoding pads;
- each row's own keys and values are written in place (``DynamicCache`` concatenates: a copy per token and layer);
- a LoRA policy decodes through its merged weights (``lora.merged``: one matmul per layer, not three).

Positions and masks are those of TRL's loss forward on the same rows (left-padded prompts, positions
counted from the padded start), so the sampled tokens' logprobs are the ones the loss recomputes.
"""

from __future__ import annotations

from typing import Any

import torch

from bot_repro.config_schema import ConfigError
from bot_repro.models import lora, shared_kv

# GRPOConfig's sampling settings and the value at which each changes nothing (what ``sample`` draws)
NEUTRAL = {"top_k": (0, None), "min_p": (None, 0.0), "repetition_penalty": (1.0,), "generation_kwargs": (None, {})}


def check_sampler(sampler: str, top_p: float, trl_fields: dict[str, Any]) -> None:
    """Refuse, before anything loads, a sampling setting ``sampler=shared_prefix`` does not draw."""
    if sampler != "shared_prefix":
        return
    bad = [f"trainer.top_p={top_p}"] if top_p != 1.0 else []
    bad += [f"{k}={v!r}" for k, v in trl_fields.items() if k in NEUTRAL and v not in NEUTRAL[k]]
    if bad:
        raise ConfigError(f"trainer.sampler=shared_prefix samples from the full softmax at trainer.temperature only; "
                          f"{', '.join(bad)} is not drawn by it: set trainer.sampler=transformers, or drop the setting")


BLOCK = 256  # vocabulary entries per block of the two-level lookup


def _draw(logits: torch.Tensor, temperature: float, generator: torch.Generator | None) -> torch.Tensor:
    """One token per row of ``logits`` [R, V] from softmax(logits / T): the first index whose cumulative
    probability reaches a uniform draw, found in two levels: the block of ``BLOCK`` entries (a float64 running
    sum of the float32 block totals), then the entry in it (a float64 running sum over the block, the draw's
    remainder rescaled to that sum, so it never runs past the block's last entry of nonzero probability).
    Nothing of size V is converted to float64: that copy was a tenth of a 256-row decode step. [R]"""
    p = torch.softmax(logits.float() / temperature if temperature != 1.0 else logits.float(), -1)
    rows, vocab = p.shape
    pad = -vocab % BLOCK
    blocks = (torch.nn.functional.pad(p, (0, pad)) if pad else p).view(rows, -1, BLOCK)  # [R, V / BLOCK, BLOCK]
    totals = blocks.sum(-1).double().cumsum(-1)  # [R, V / BLOCK]
    u = torch.rand(rows, 1, dtype=torch.float64, generator=generator) * totals[:, -1:]
    block = torch.searchsorted(totals, u, right=True).clamp_(max=totals.shape[1] - 1)  # [R, 1]: first total > u
    before = torch.where(block > 0, totals.gather(1, (block - 1).clamp(min=0)), torch.zeros_like(u))
    within = blocks.gather(1, block.unsqueeze(-1).expand(rows, 1, BLOCK)).squeeze(1).double().cumsum(-1)
    share = (u - before) / (totals.gather(1, block) - before)  # in [0, 1): where u falls within its block
    entry = torch.searchsorted(within, share * within[:, -1:], right=True).clamp_(max=BLOCK - 1)
    return (block * BLOCK + entry).squeeze(-1).clamp_(max=vocab - 1)


def _left_pad(prompts: list[list[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(len(p) for p in prompts)
    ids = torch.full((len(prompts), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(prompts), width), dtype=torch.long)
    for i, p in enumerate(prompts):
        ids[i, width - len(p):] = torch.tensor(p, dtype=torch.long)
        mask[i, width - len(p):] = 1
    return ids, mask


@torch.no_grad()
def _sample_chunk(model, prompts: list[list[int]], counts: list[int], max_new_tokens: int, temperature: float,
                  eos_ids: torch.Tensor, pad_id: int, generator) -> list[list[int]]:
    """``counts[i]`` samples of distinct prompt ``i``, prompt-major."""
    ids, mask = _left_pad(prompts, pad_id)
    cache = shared_kv.SharedPrefixCache(model, max_new_tokens)
    logits = model(input_ids=ids, attention_mask=mask, past_key_values=cache, use_cache=True, logits_to_keep=1,
                   shared_kv=cache).logits
    rows = torch.arange(len(prompts)).repeat_interleave(torch.tensor(counts))  # row r samples prompt rows[r]
    cache.to_rows(rows, mask == 0)
    logits, mask = logits[rows, -1], mask[rows]
    out: list[list[int]] = [[] for _ in rows]
    alive = torch.arange(len(rows))  # the output row of each row still in the batch
    for step in range(max_new_tokens):
        tokens = _draw(logits, temperature, generator)
        for r, t in zip(alive.tolist(), tokens.tolist()):
            out[r].append(t)
        ended = torch.isin(tokens, eos_ids)
        if step == max_new_tokens - 1 or bool(ended.all()):
            break
        if int(ended.sum()) * 8 >= len(alive):  # drop the ended rows (copies the cache once)
            keep = (~ended).nonzero().squeeze(-1)
            cache.keep(keep)
            alive, tokens, mask, ended = alive[keep], tokens[keep], mask[keep], ended[keep]
        # a row that has ended decodes on until it is dropped; what it draws is cut below and read by no other row
        mask = torch.cat([mask, mask.new_ones(len(alive), 1)], dim=1)
        logits = model(input_ids=tokens.unsqueeze(-1), attention_mask=mask, past_key_values=cache,
                       use_cache=True, shared_kv=cache).logits[:, -1]
    return [seq[: _end(seq, eos_ids)] for seq in out]


def _end(seq: list[int], eos_ids: torch.Tensor) -> int:
    """Length of ``seq`` up to and including its first EOS (tokens drawn after it are not the sample's)."""
    eos = set(eos_ids.tolist())
    return next((i + 1 for i, t in enumerate(seq) if t in eos), len(seq))


def sample(model, prompts: list[list[int]], max_new_tokens: int, temperature: float, eos_token_ids: list[int],
           pad_token_id: int, max_rows: int = 256, generator: torch.Generator | None = None) -> list[list[int]]:
    """One completion (token ids, the EOS that ended it included) per prompt (token ids), in order; a prompt
    given k times gets k independent samples, and its prefill is computed once.

    ``max_rows`` bounds the rows decoded at once. Draws come from ``generator`` (None: torch's global
    generator, as ``generate``'s)."""
    eos = torch.tensor(sorted(set(eos_token_ids)), dtype=torch.long)
    where: dict[tuple[int, ...], list[int]] = {}  # distinct prompt -> the rows that ask for it
    for r, p in enumerate(prompts):
        where.setdefault(tuple(p), []).append(r)
    out: list[list[int]] = [[] for _ in prompts]
    chunk: list[tuple[int, ...]] = []
    with lora.merged(model), shared_kv.decoding(model):  # merged LoRA weights; each prompt's keys held once
        for i, key in enumerate(where):
            chunk.append(key)
            rows = sum(len(where[k]) for k in chunk)
            if rows >= max_rows or i == len(where) - 1:
                done = _sample_chunk(model, [list(k) for k in chunk], [len(where[k]) for k in chunk],
                                     max_new_tokens, temperature, eos, pad_token_id, generator)
                for r, seq in zip((r for k in chunk for r in where[k]), done):
                    out[r] = seq
                chunk = []
    return out
