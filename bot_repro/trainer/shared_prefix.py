"""Per-token logprobs with each distinct prompt computed once (``trainer.shared_prefix``, issue #51).

The K rollouts of a group share their prompt, and TRL's loss forward runs the whole prompt + completion
row for each of them, then scores every position through the LM head (on a device without Triton its
fused head scores prompt positions too). Here a micro-batch's distinct prompts (all but their last
token) go through the backbone once, with a KV cache; the cache is indexed out to the rows that share
each prompt; then one forward over [last prompt token, completion] per row, and the LM head over the
completion tokens only (TRL's fused head where the model scales or caps its logits). The arithmetic is
the same per row (positions, masks and padding are TRL's), so logprobs agree with TRL's to float
rounding; gradients reach the shared prompt's keys and values summed over the rows that read them
(the backward of the index), which is what the K separate passes give.

FLOPs per group of K rows with prompt P and completion C (tokens, backbone): K (P + C) -> P + K C;
LM head positions: K (P + C - 1) -> K C. Columns past a chunk's longest completion (TRL pads completions
to the generation batch's longest) are not computed: their logprobs are 0, masked as every pad is. Where
it does not apply (``applies``: several processes, where DDP allows one forward per backward; activation
checkpointing, which drops the cache; multimodal inputs; a one-token prompt) the trainer takes TRL's path.
"""

from __future__ import annotations

import torch

from bot_repro.models.sampling import causal_lm, plain_head


def distinct_rows(prompt_ids: torch.Tensor, prompt_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(first, inverse): the index of each distinct (ids, mask) row's first occurrence, in order of first
    occurrence, and for every row the position of its distinct row in ``first``. [B, P] -> [U], [B]."""
    key = torch.where(prompt_mask.bool(), prompt_ids, torch.full_like(prompt_ids, -1))
    seen: dict[tuple[int, ...], int] = {}
    first: list[int] = []
    inverse = []
    for i, row in enumerate(key.tolist()):
        j = seen.setdefault(tuple(row), len(first))
        if j == len(first):
            first.append(i)
        inverse.append(j)
    return torch.tensor(first, dtype=torch.long), torch.tensor(inverse, dtype=torch.long)


def applies(processes: int, activation_checkpointing: bool) -> bool:
    """Whether a run can take the shared path at all (per call, ``logprobs`` also needs a prompt of >= 2 tokens)."""
    return processes == 1 and not activation_checkpointing


def _score(head: torch.nn.Module, hidden: torch.Tensor, targets: torch.Tensor, temperature: float,
           entropy: str) -> tuple[torch.Tensor, torch.Tensor | None]:
    """log softmax(head(hidden) / T)[target] per row of ``hidden`` [n, H], and the entropy of that
    distribution (``entropy``: "grad", "value" or "none"). The logits stay in memory for the backward
    (n x vocab floats): no recompute, where TRL's tiled head recomputes them (its fold is slow in torch ops)."""
    logits = head(hidden)
    logp = (logits if temperature == 1.0 else logits / temperature).log_softmax(-1)
    picked = logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    if entropy == "none":
        return picked, None
    if entropy == "grad" and torch.is_grad_enabled():
        return picked, -(logp.exp() * logp).sum(-1)
    with torch.no_grad():  # a value: one n x vocab buffer, written in place
        return picked, -logp.exp().mul_(logp).sum(-1)


def logprobs(model, input_ids: torch.Tensor, attention_mask: torch.Tensor, logits_to_keep: int, temperature: float,
             entropy: str = "value") -> tuple[torch.Tensor, torch.Tensor | None]:
    """Logprobs (and entropies) of the last ``logits_to_keep`` tokens of each row at sampling ``temperature``,
    0 where masked, as TRL's ``_get_per_token_logps_and_entropies`` returns them: ``input_ids`` [B, P + C] are
    left-padded prompts followed by right-padded completions (C = ``logits_to_keep``, P >= 2); out [B, C]
    each. ``entropy``: "grad" (a loss reads it, e.g. an entropy bonus), "value" (for logging) or "none".
    ``model`` is the trainer's own (not wrapped for data parallelism: one forward per backward is all DDP allows)."""
    width = input_ids.shape[1] - logits_to_keep  # prompt columns, left-padded to the micro-batch's longest
    scored = attention_mask[:, width:].any(0).nonzero()
    used = int(scored.max()) + 1 if len(scored) else 1
    if used < logits_to_keep:  # completions are padded to the generation batch's longest: score this chunk's only
        logps, ent = logprobs(model, input_ids[:, : width + used], attention_mask[:, : width + used], used,
                              temperature, entropy)
        pad = (0, logits_to_keep - used)
        return torch.nn.functional.pad(logps, pad), (None if ent is None else torch.nn.functional.pad(ent, pad))
    lm = causal_lm(model)
    first, inverse = distinct_rows(input_ids[:, : width - 1], attention_mask[:, : width - 1])
    first, inverse = first.to(input_ids.device), inverse.to(input_ids.device)
    prefix = lm.base_model(input_ids=input_ids[first, : width - 1], attention_mask=attention_mask[first, : width - 1],
                           use_cache=True)
    cache = prefix.past_key_values
    cache.batch_select_indices(inverse)  # each row reads its prompt's keys and values (gradients add up)
    labels = input_ids[:, width:].masked_fill(attention_mask[:, width:] == 0, -100)
    rows = dict(input_ids=input_ids[:, width - 1 : -1], attention_mask=attention_mask[:, :-1], past_key_values=cache)
    if not plain_head(lm):  # TRL's head applies the model's logit scale / softcap (and the temperature)
        out = model(**rows, shift_labels=labels, fused_lm_head=True)
        return out.log_probs, (out.entropy if entropy != "none" else None)
    hidden = lm.base_model(**rows).last_hidden_state  # [B, C, H]: position t predicts completion token t
    valid = labels != -100
    picked, ent = _score(lm.get_output_embeddings(), hidden[valid], labels[valid], temperature, entropy)
    logps = hidden.new_zeros(labels.shape).masked_scatter(valid, picked)
    return logps, (None if ent is None else hidden.new_zeros(labels.shape).masked_scatter(valid, ent))
