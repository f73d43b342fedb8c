"""``trainer.shared_prefix`` (issue #51): each distinct prompt of a micro-batch once in the loss forward.

The reference is TRL's own ``_get_per_token_logps_and_entropies`` on the same rows (each row's whole
prompt + completion through the model, its fused head over every position), not a second copy of the
formula: logprobs, entropies and the gradient of a loss built on them must agree to float32 rounding, on
tiny random models of the real architectures, with left-padded prompts of several lengths, right-padded
completions and LoRA.
"""

from __future__ import annotations

import contextlib
import types

import pytest
import torch
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM
from trl import GRPOTrainer
from trl.trainer.utils import add_fused_lm_head

from bot_repro.models import sampling
from bot_repro.models.tiny import build_tiny
from bot_repro.trainer import shared_prefix

K, C = 4, 7  # rollouts per group, completion columns


def test_distinct_rows_by_hand():
    ids = torch.tensor([[0, 5, 6], [0, 5, 6], [7, 8, 9], [0, 5, 6], [1, 5, 6]])
    mask = torch.tensor([[0, 1, 1], [0, 1, 1], [1, 1, 1], [0, 1, 1], [0, 1, 1]])  # row 4: a pad id under the mask
    first, inverse = shared_prefix.distinct_rows(ids, mask)
    assert first.tolist() == [0, 2] and inverse.tolist() == [0, 0, 1, 0, 0]
    mask[4, 0] = 1  # the same ids, but its first token is real: another prompt
    first, inverse = shared_prefix.distinct_rows(ids, mask)
    assert first.tolist() == [0, 2, 4] and inverse.tolist() == [0, 0, 1, 0, 2]


def _batch(vocab: int, pad: int, seed: int = 0):
    """3 groups of K rows: prompts of 5, 9 and 2 tokens left-padded to 9, completions of 1..C tokens
    right-padded to C; each group's rows share their prompt."""
    g = torch.Generator().manual_seed(seed)
    rows, masks = [], []
    for plen in (5, 9, 2):
        prompt = torch.randint(3, vocab, (plen,), generator=g)
        for k in range(K):
            clen = 1 + (k * 3 + plen) % C
            comp = torch.randint(3, vocab, (clen,), generator=g)
            row = torch.full((9 + C,), pad)
            row[9 - plen : 9] = prompt
            row[9 : 9 + clen] = comp
            m = torch.zeros(9 + C, dtype=torch.long)
            m[9 - plen : 9 + clen] = 1
            rows.append(row)
            masks.append(m)
    return torch.stack(rows), torch.stack(masks)


def _trl(model, ids, mask, keep=C):
    """TRL 1.16's ``_get_per_token_logps_and_entropies`` itself, under its profiling wrapper (it reads
    nothing from the trainer but ``accelerator.autocast``)."""
    host = types.SimpleNamespace(accelerator=types.SimpleNamespace(autocast=contextlib.nullcontext))
    fn = GRPOTrainer._get_per_token_logps_and_entropies.__wrapped__
    logps, ent, _ = fn(host, model, ids, mask, keep, compute_entropy=True)
    return logps, ent


@pytest.fixture(scope="module", params=["qwen2", "gemma3", "smollm3"])
def tiny(request, tmp_path_factory):
    path = build_tiny(request.param, tmp_path_factory.mktemp(f"sp_{request.param}"), vocab_size=300,
                      hidden_size=32, num_layers=2)
    return path


T = 0.7  # the sampling temperature both heads divide the logits by


def _model(path, lora: bool, softcap: float | None = None):
    torch.manual_seed(1)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
    model.config.get_text_config().final_logit_softcapping = softcap  # read by TRL's head when it is added
    add_fused_lm_head(model, temperature=T, outputs=("log_probs", "entropy"))  # as GRPOTrainer does, before PEFT
    if lora:
        model = get_peft_model(model, LoraConfig(r=4, lora_alpha=8, target_modules="all-linear", init_lora_weights=False))
    return model.train()


@pytest.mark.parametrize(("lora", "softcap"), [(False, None), (True, None), (False, 3.0)],
                         ids=["full", "lora", "softcapped"])
def test_logprobs_entropies_and_gradients_match_trl(tiny, lora, softcap):
    """"softcapped": a model whose logits are capped (Gemma 2's ``final_logit_softcapping``) is scored
    through TRL's fused head, which applies the cap, after the shared prompt."""
    model = _model(tiny, lora, softcap)
    assert sampling.plain_head(shared_prefix.causal_lm(model)) is (softcap is None)
    ids, mask = _batch(model.config.vocab_size, pad=0)
    comp_mask = mask[:, -C:].float()
    weights = torch.linspace(-1, 1, ids.shape[0] * C).view(-1, C)  # a loss that reads every token

    def grads(fn):
        model.zero_grad()
        logps, ent = fn()
        ((logps * weights * comp_mask).sum() + 0.1 * (ent * comp_mask).sum()).backward()
        return logps.detach(), ent.detach(), {n: p.grad.clone() for n, p in model.named_parameters() if p.requires_grad}

    ref = grads(lambda: _trl(model, ids, mask))
    got = grads(lambda: shared_prefix.logprobs(model, ids, mask, C, T, "grad"))
    assert got[0].shape == ref[0].shape == (3 * K, C)
    assert torch.equal(got[0][comp_mask == 0], torch.zeros_like(got[0][comp_mask == 0]))  # 0 where masked, as TRL
    torch.testing.assert_close(got[0], ref[0], rtol=0, atol=2e-5)
    torch.testing.assert_close(got[1] * comp_mask, ref[1] * comp_mask, rtol=0, atol=2e-5)
    assert got[2].keys() == ref[2].keys() and got[2]
    for name in ref[2]:
        scale = ref[2][name].abs().max().clamp(min=1e-6)
        torch.testing.assert_close(got[2][name] / scale, ref[2][name] / scale, rtol=0, atol=1e-4, msg=name)


def test_rows_without_a_shared_prompt_give_the_same_numbers(tiny):
    """Every row its own prompt (nothing to share): still TRL's logprobs."""
    model = _model(tiny, lora=False)
    ids, mask = _batch(model.config.vocab_size, pad=0, seed=3)
    ids, mask = ids[::K], mask[::K]  # one row per group
    with torch.no_grad():
        got = shared_prefix.logprobs(model, ids, mask, C, T, "none")
        ref = _trl(model, ids, mask)
    assert got[1] is None
    torch.testing.assert_close(got[0], ref[0], rtol=0, atol=2e-5)


def test_columns_past_the_longest_completion_are_not_computed(tiny):
    """A chunk padded past its longest completion (TRL pads to the generation batch's longest): the extra
    columns are 0, the others exactly those of the unpadded chunk, and both are TRL's on the padded one."""
    model = _model(tiny, lora=True)
    ids, mask = _batch(model.config.vocab_size, pad=0, seed=4)
    extra = 5
    wide_ids = torch.cat([ids, ids.new_zeros(ids.shape[0], extra)], 1)
    wide_mask = torch.cat([mask, mask.new_zeros(mask.shape[0], extra)], 1)
    with torch.no_grad():
        narrow = shared_prefix.logprobs(model, ids, mask, C, T, "value")
        wide = shared_prefix.logprobs(model, wide_ids, wide_mask, C + extra, T, "value")
        ref = _trl(model, wide_ids, wide_mask, C + extra)
    assert wide[0].shape == (ids.shape[0], C + extra)
    assert torch.equal(wide[0][:, :C], narrow[0]) and torch.equal(wide[1][:, :C], narrow[1])
    assert not wide[0][:, C:].any() and not wide[1][:, C:].any()
    comp_mask = wide_mask[:, -(C + extra):].float()
    torch.testing.assert_close(wide[0], ref[0] * comp_mask, rtol=0, atol=2e-5)
    torch.testing.assert_close(wide[1] * comp_mask, ref[1] * comp_mask, rtol=0, atol=2e-5)


def test_applies_only_to_one_process_without_activation_checkpointing():
    assert shared_prefix.applies(1, False)
    assert not shared_prefix.applies(2, False) and not shared_prefix.applies(1, True)
