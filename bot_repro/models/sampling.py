"""Sampling completions from a transformers causal LM on CPU, each distinct prompt prefilled once (issue #51).

``sample`` is what a CPU run generates its rollouts and held-out samples with (``trainer.sampler``): the
same distribution as transformers' ``generate(do_sample=True, temperature=T)`` with top-p 1, top-k 0
(every token, its softmax probability at temperature T), drawn faster where a small model spends its
time on this hardware (measured in ``results/bench/real_rl.json``):

- a group's K rows share their prompt: it is prefilled once and its KV cache indexed out to the K rows
  (``generate`` prefills every row);
- a draw is one inverse-CDF lookup in float64 (``torch.multinomial``, which ``generate`` calls, draws an
  exponential variate per vocabulary entry: a fifth of a 135M model's decode step at 49k tokens);
- rows that have ended (EOS) leave the batch once a quarter of it has, instead of decoding pads.

Positions and masks are those of TRL's loss forward on the same rows (left-padded prompts, positions
counted from the padded start), so the sampled tokens' logprobs are the ones the loss recomputes.
"""

from __future__ import annotations

import torch
from transformers import DynamicCache


def _draw(logits: torch.Tensor, temperature: float, generator: torch.Generator | None) -> torch.Tensor:
    """One token per row of ``logits`` [R, V] from softmax(logits / T): the first index whose float64
    cumulative probability reaches a uniform draw. [R]"""
    cdf = torch.softmax(logits.float() / temperature, -1).double().cumsum(-1)
    u = torch.rand(cdf.shape[0], 1, dtype=torch.float64, generator=generator) * cdf[:, -1:]
    return torch.searchsorted(cdf, u).squeeze(-1).clamp_(max=cdf.shape[1] - 1)


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
    cache = DynamicCache(config=model.config)
    logits = model(input_ids=ids, attention_mask=mask, past_key_values=cache, use_cache=True, logits_to_keep=1).logits
    rows = torch.arange(len(prompts)).repeat_interleave(torch.tensor(counts))  # row r samples prompt rows[r]
    cache.batch_select_indices(rows)
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
        if int(ended.sum()) * 4 >= len(alive):  # drop the ended rows (copies the cache once)
            keep = (~ended).nonzero().squeeze(-1)
            cache.batch_select_indices(keep)
            alive, tokens, mask, ended = alive[keep], tokens[keep], mask[keep], ended[keep]
        # a row that has ended decodes on until it is dropped; what it draws is cut below and read by no other row
        mask = torch.cat([mask, mask.new_ones(len(alive), 1)], dim=1)
        logits = model(input_ids=tokens.unsqueeze(-1), attention_mask=mask, past_key_values=cache,
                       use_cache=True).logits[:, -1]
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
    for i, key in enumerate(where):
        chunk.append(key)
        rows = sum(len(where[k]) for k in chunk)
        if rows >= max_rows or i == len(where) - 1:
            done = _sample_chunk(model, [list(k) for k in chunk], [len(where[k]) for k in chunk], max_new_tokens,
                                 temperature, eos, pad_token_id, generator)
            for r, seq in zip((r for k in chunk for r in where[k]), done):
                out[r] = seq
            chunk = []
    return out
