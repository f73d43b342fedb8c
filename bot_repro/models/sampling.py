"""Sampling completions from a transformers causal LM on CPU, each distinct prompt prefilled once (issue #51).

``sample`` is what a CPU run generates its rollouts and held-out samples with (``trainer.sampler``): the
same distribution as transformers' ``generate(do_sample=True, temperature=T)`` with top-p 1, top-k 0
(every token, its softmax probability at temperature T), drawn faster where a small model spends its
time on this hardware (measured in ``results/bench/real_rl.json``):

- a group's K rows share their prompt: it is prefilled once, and its keys and values are held and read once
  per group, not per row (``shared_kv``; ``generate`` prefills every row and reads a copy per row); a prefix
  common to every prompt of a chunk (a system prompt) is prefilled once per left pad (``_prefill_shared``);
- a draw is one two-level inverse-CDF lookup (``torch.multinomial``, which ``generate`` calls, draws an
  exponential variate per vocabulary entry: a fifth of a 135M model's decode step at 49k tokens), fed by the
  LM head slice by slice (``_draw``, ``Head``): the [R, V] logits are never held (at 256 rows, 50 MB a token,
  each pass over them bound by memory), each slice's at most 4 MB and worked in place;
- the decoder's linear layers and the head's slices multiply through weights packed once per chunk for its
  rows (``packed``: MKL's packed sgemm, the same products, not repacked by every call);
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
from bot_repro.models import lora, packed, shared_kv

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
SLICE = 4096  # vocabulary entries per slice of the head, at most
SLICE_FLOATS = 1 << 20  # and a slice's logits for all rows at most this many floats (4 MB: they stay in cache)

# the text-config keys by which a model scales or caps its logits after the head (as TRL's fused head reads
# them, trl.trainer.utils.add_fused_lm_head): a model that sets any of them is not scored as hidden @ W^T
LOGIT_TRANSFORMS = ("final_logit_softcapping", "logit_scale", "output_multiplier", "lm_head_multiplier",
                    "logits_scaling")


def causal_lm(model):
    """The transformers ``PreTrainedModel`` of ``model`` (under PEFT: the wrapped one)."""
    from accelerate.utils import is_peft_model

    return model.get_base_model() if is_peft_model(model) else model


def plain_head(lm) -> bool:
    """Whether ``lm``'s logits are its output embedding's matmul alone (no bias, scale or cap)."""
    text = lm.config.get_text_config()
    head = lm.get_output_embeddings()
    return getattr(head, "bias", None) is None and all(getattr(text, key, None) is None for key in LOGIT_TRANSFORMS)


def slice_width(rows: int) -> int:
    """Vocabulary entries per slice of the head for ``rows`` rows: a multiple of ``BLOCK``, at most ``SLICE``."""
    return max(BLOCK, min(SLICE, SLICE_FLOATS // max(rows, 1) // BLOCK * BLOCK))


def _draw(logits_of, rows: int, vocab: int, temperature: float, generator: torch.Generator | None,
          width: int = SLICE) -> torch.Tensor:
    """One token per row from softmax(logits / T), where ``logits_of(lo, hi, which)`` gives the logits of
    entries [lo, hi) for rows ``which`` (None: every row) [n, hi - lo], a tensor the draw may overwrite, e.g.
    the head's matmul over a slice of the vocabulary: nothing V wide is ever held. The first index whose
    cumulative probability reaches a uniform draw, in two levels: the block of ``BLOCK`` entries, from block
    totals of exp(l - m) per slice of ``width`` entries (m the slice's max) rescaled to the row's overall max
    (a float64 running sum), then the entry in it, from that block's logits computed again for the rows that
    drew it (a float64 running sum, the draw's remainder rescaled to that sum, so it never runs past the
    block's last entry of nonzero probability). [R]"""
    assert width % BLOCK == 0, width
    blocks = -(-vocab // BLOCK)
    totals = torch.empty(rows, blocks)
    maxes = []  # [R, 1] per slice
    for lo in range(0, vocab, width):
        logits = logits_of(lo, min(lo + width, vocab), None).float()
        if temperature != 1.0:
            logits.div_(temperature)
        top = logits.amax(-1, keepdim=True)
        maxes.append(top)
        p = logits.sub_(top.nan_to_num(neginf=0.0)).exp_()  # in place: a slice of -inf only gives p = 0
        if p.shape[1] % BLOCK:
            p = torch.nn.functional.pad(p, (0, -p.shape[1] % BLOCK))
        totals[:, lo // BLOCK : lo // BLOCK + p.shape[1] // BLOCK] = p.view(rows, -1, BLOCK).sum(-1)
    maxes = torch.cat(maxes, 1)  # [R, slices]
    top = maxes.amax(-1, keepdim=True)  # [R, 1]
    scale = torch.exp(maxes - top).repeat_interleave(width // BLOCK, 1)[:, :blocks]
    cum = (totals * scale).double().cumsum(-1)  # [R, V / BLOCK]
    u = torch.rand(rows, 1, dtype=torch.float64, generator=generator) * cum[:, -1:]
    block = torch.searchsorted(cum, u, right=True).clamp_(max=blocks - 1)  # [R, 1]: first total > u
    before = torch.where(block > 0, cum.gather(1, (block - 1).clamp(min=0)), torch.zeros_like(u))
    share = (u - before) / (cum.gather(1, block) - before)  # in [0, 1): where u falls within its block
    entry = torch.empty_like(block)
    flat = block.squeeze(-1)
    for b in flat.unique().tolist():  # the rows that drew block b: its BLOCK logits again
        which = (flat == b).nonzero().squeeze(-1)
        lo, hi = b * BLOCK, min((b + 1) * BLOCK, vocab)
        logits = logits_of(lo, hi, which).float()
        if temperature != 1.0:
            logits.div_(temperature)
        within = logits.sub_(top[which]).exp_().double().cumsum(-1)
        entry[which] = torch.searchsorted(within, share[which] * within[:, -1:], right=True).clamp_(max=hi - lo - 1)
    return (block * BLOCK + entry).squeeze(-1)


class Head:
    """``logits_of`` for ``_draw`` from a plain head (weight [V, H]): its matmul over the slice asked for, each
    ``width``-wide slice packed for products with ``rows`` rows (``packed.Weight``), as ``_draw`` reads them."""

    def __init__(self, weight: torch.Tensor, rows: int):
        self.weight, self.width = weight, slice_width(rows)
        self.slices = {lo: packed.Weight(weight[lo : lo + self.width], rows)
                       for lo in range(0, weight.shape[0], self.width)}

    def at(self, hidden: torch.Tensor):
        """``logits_of`` at ``hidden`` [R, H]."""
        def logits_of(lo: int, hi: int, which: torch.Tensor | None) -> torch.Tensor:
            if which is None and lo in self.slices and hi == min(lo + self.width, self.weight.shape[0]):
                return self.slices[lo](hidden)
            return (hidden if which is None else hidden[which]) @ self.weight[lo:hi].T
        return logits_of


def _from_logits(logits: torch.Tensor):
    """``logits_of`` for ``_draw`` over logits already computed [R, V] (a head that is not plain): a copy."""
    return lambda lo, hi, which: (logits[:, lo:hi].clone() if which is None else logits[which, lo:hi])


MIN_SHARED = 8  # a prefix common to a chunk's prompts is prefilled apart from this many tokens up


def _common_prefix(prompts: list[list[int]]) -> int:
    """How many first tokens every prompt shares, leaving each at least one of its own (0 for one prompt)."""
    if len(prompts) < 2:
        return 0
    limit, first, n = min(len(p) for p in prompts) - 1, prompts[0], 0
    while n < limit and all(p[n] == first[n] for p in prompts):
        n += 1
    return n


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
    lm = causal_lm(model)
    vocab, n_rows = lm.get_output_embeddings().weight.shape[0], sum(counts)
    if plain_head(lm):  # the decoder's last hidden state; the head's matmul happens slice by slice in the draw
        head = Head(lm.get_output_embeddings().weight, n_rows)
        width = head.width

        def step(**kw):
            return head.at(lm.base_model(**kw).last_hidden_state[:, -1])
    else:
        width = slice_width(n_rows)

        def step(**kw):
            return _from_logits(lm(**kw, logits_to_keep=1).logits[:, -1])
    cache = shared_kv.SharedPrefixCache(model, max_new_tokens)
    shared = _common_prefix(prompts) if cache.shareable() else 0
    with packed.linears(lm.base_model, n_rows):  # the decoder's weights packed for a decode step's rows
        if shared >= MIN_SHARED:
            first, mask = _prefill_shared(step, prompts, shared, pad_id, cache)
        else:
            ids, mask = _left_pad(prompts, pad_id)
            first = step(input_ids=ids, attention_mask=mask, past_key_values=cache, use_cache=True, shared_kv=cache)
        rows = torch.arange(len(prompts)).repeat_interleave(torch.tensor(counts))  # row r samples prompt rows[r]
        cache.to_rows(rows, mask == 0)
        logits_of, mask = (lambda lo, hi, which: first(lo, hi, rows if which is None else rows[which])), mask[rows]
        out: list[list[int]] = [[] for _ in rows]
        alive = torch.arange(len(rows))  # the output row of each row still in the batch
        for i in range(max_new_tokens):
            tokens = _draw(logits_of, len(alive), vocab, temperature, generator, width)
            for r, t in zip(alive.tolist(), tokens.tolist()):
                out[r].append(t)
            ended = torch.isin(tokens, eos_ids)
            if i == max_new_tokens - 1 or bool(ended.all()):
                break
            if int(ended.sum()) * 8 >= len(alive):  # drop the ended rows (copies the cache once)
                keep = (~ended).nonzero().squeeze(-1)
                cache.keep(keep)
                alive, tokens, mask, ended = alive[keep], tokens[keep], mask[keep], ended[keep]
            # a row that has ended decodes on until it is dropped; what it draws is cut below, read by no other row
            mask = torch.cat([mask, mask.new_ones(len(alive), 1)], dim=1)
            logits_of = step(input_ids=tokens.unsqueeze(-1), attention_mask=mask, past_key_values=cache,
                             use_cache=True, shared_kv=cache)
    return [seq[: _end(seq, eos_ids)] for seq in out]


def _prefill_shared(step, prompts: list[list[int]], shared: int, pad_id: int, cache):
    """Prefill prompts whose first ``shared`` tokens are the same (a system prompt): those once per distinct
    left pad (positions count from the padded start, so the keys differ by pad), then each prompt's rest.
    The cache's columns are [shared prefix, the rest left-padded], positions those of the left-padded prompt:
    attention reads keys by position and mask, not column order. Returns the first step's ``logits_of`` and
    the mask [G, P] of those columns."""
    width = max(len(p) for p in prompts)
    pads = torch.tensor([width - len(p) for p in prompts])
    distinct, which = pads.unique(return_inverse=True)  # [D], [G]
    prefix = torch.tensor(prompts[0][:shared]).repeat(len(distinct), 1)
    step(input_ids=prefix, attention_mask=torch.ones_like(prefix), position_ids=distinct[:, None] + torch.arange(shared),
         past_key_values=cache, use_cache=True, shared_kv=cache)
    cache.select_prompts(which)
    rest, rest_mask = _left_pad([p[shared:] for p in prompts], pad_id)  # [G, width - shared]
    positions = (pads[:, None] + shared + torch.cumsum(rest_mask, 1) - 1).clamp(min=0)
    mask = torch.cat([rest_mask.new_ones(len(prompts), shared), rest_mask], 1)
    return step(input_ids=rest, attention_mask=mask, position_ids=positions, past_key_values=cache, use_cache=True,
                shared_kv=cache), mask


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
