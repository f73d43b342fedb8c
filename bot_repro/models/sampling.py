"""Sampling completions from a transformers causal LM on CPU, each distinct prompt prefilled once (issue #51).

``sample`` is what a CPU run generates its rollouts and held-out samples with (``trainer.sampler``): the
same distribution as transformers' ``generate(do_sample=True, temperature=T)`` with top-p 1, top-k 0
(every token, its softmax probability at temperature T), drawn faster where a small model spends its
time on this hardware (measured in ``results/bench/real_rl.json``):

- a group's K rows share their prompt: it is prefilled once and its KV cache indexed out to the K rows
  (``generate`` prefills every row);
- a draw is one inverse-CDF lookup in float64 (``torch.multinomial``, which ``generate`` calls, draws an
  exponential variate per vocabulary entry: a fifth of a 135M model's decode step at 49k tokens);
- rows that have ended (EOS) leave the batch once an eighth of it has, instead of decoding pads;
- the KV cache is written in place (``DynamicCache`` concatenates: a copy of it per token and layer).
- a LoRA policy decodes through its merged weights (``lora.merged``: one matmul per layer, not three).

Positions and masks are those of TRL's loss forward on the same rows (left-padded prompts, positions
counted from the padded start), so the sampled tokens' logprobs are the ones the loss recomputes.
"""

from __future__ import annotations

from typing import Any

import torch
from transformers import DynamicCache
from transformers.cache_utils import DynamicLayer

from bot_repro.config_schema import ConfigError
from bot_repro.models import lora

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


class _Preallocated(DynamicLayer):
    """A ``DynamicLayer`` whose keys and values live in buffers of ``capacity`` positions, written in place:
    ``DynamicLayer`` concatenates, copying the whole cache at every decoded token (a fifth of a step here).
    Attention reads views of the filled part."""

    def __init__(self, capacity: int):
        super().__init__()
        self.capacity, self.length = capacity, 0

    def update(self, key_states, value_states, *args, **kwargs):
        if not self.is_initialized:
            self.dtype, self.device = key_states.dtype, key_states.device
            shape = (key_states.shape[0], key_states.shape[1], self.capacity)
            self.k_buf = key_states.new_empty(*shape, key_states.shape[-1])
            self.v_buf = value_states.new_empty(*shape, value_states.shape[-1])
            self.is_initialized = True
        end = self.length + key_states.shape[-2]
        self.k_buf[:, :, self.length : end] = key_states
        self.v_buf[:, :, self.length : end] = value_states
        self.length = end
        self.keys, self.values = self.k_buf[:, :, :end], self.v_buf[:, :, :end]
        return self.keys, self.values

    def get_seq_length(self) -> int:
        return self.length

    def batch_select_indices(self, indices: torch.Tensor) -> None:
        if self.length:
            self.k_buf, self.v_buf = self.k_buf[indices], self.v_buf[indices]
            self.keys, self.values = self.k_buf[:, :, : self.length], self.v_buf[:, :, : self.length]


def _cache(model, capacity: int) -> DynamicCache:
    """The model's ``DynamicCache`` with its full-attention layers preallocated (sliding-window ones as they are)."""
    cache = DynamicCache(config=model.config)
    cache.layers = [_Preallocated(capacity) if type(layer) is DynamicLayer else layer for layer in cache.layers]
    return cache


BLOCK = 256  # vocabulary entries per block of the two-level lookup


def _draw(logits: torch.Tensor, temperature: float, generator: torch.Generator | None) -> torch.Tensor:
    """One token per row of ``logits`` [R, V] from softmax(logits / T): the first index whose float64
    cumulative probability reaches a uniform draw, found in two levels (the block of ``BLOCK`` entries, then
    the entry in it), so the float64 running sum covers V / BLOCK block totals and one block, not V. [R]"""
    p = torch.softmax(logits.float() / temperature if temperature != 1.0 else logits.float(), -1)
    rows, vocab = p.shape
    pad = -vocab % BLOCK
    blocks = torch.nn.functional.pad(p, (0, pad)).view(rows, -1, BLOCK)  # [R, V / BLOCK, BLOCK]
    totals = blocks.sum(-1, dtype=torch.float64).cumsum(-1)  # [R, V / BLOCK]
    u = torch.rand(rows, 1, dtype=torch.float64, generator=generator) * totals[:, -1:]
    block = torch.searchsorted(totals, u, right=True).clamp_(max=totals.shape[1] - 1)  # [R, 1]: first total > u
    before = torch.where(block > 0, totals.gather(1, (block - 1).clamp(min=0)), torch.zeros_like(u))
    within = blocks.gather(1, block.unsqueeze(-1).expand(rows, 1, BLOCK)).squeeze(1).double().cumsum(-1)
    entry = torch.searchsorted(within, u - before, right=True).clamp_(max=BLOCK - 1)
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
    cache = _cache(model, ids.shape[1] + max_new_tokens)
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
        if int(ended.sum()) * 8 >= len(alive):  # drop the ended rows (copies the cache once)
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
    with lora.merged(model):  # a LoRA policy decodes through merged weights
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
