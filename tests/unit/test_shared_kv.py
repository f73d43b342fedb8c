"""``bot_repro.models.shared_kv``: a decode cache holding each prompt's keys and values once (#51).

Reference: the model's own forward over each row's whole sequence (left-padded prompt + the tokens decoded
so far, SDPA, no cache): every decoded position's logits must match, through prompts of unequal length,
groups of unequal size, rows leaving (a whole group among them), and GQA, on tiny random models of the
real architectures (Gemma 3's sliding-window layers keep their own cache beside the shared ones).
"""

from __future__ import annotations

import pytest
import torch
from transformers import AutoModelForCausalLM

from bot_repro.models import shared_kv
from bot_repro.models.tiny import build_tiny


@pytest.fixture(scope="module", params=["qwen2", "gemma3", "smollm3", "phi3"])
def tiny(request, tmp_path_factory):
    path = build_tiny(request.param, tmp_path_factory.mktemp(f"shared_kv_{request.param}"), vocab_size=300,
                      hidden_size=32, num_layers=2)
    return AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()


def test_groups_lay_rows_out_on_slots_and_keep_preserves_order():
    g = shared_kv.Groups()
    g.set(torch.tensor([0, 0, 0, 1, 2, 2]))
    assert g.width == 3 and g.prompts.tolist() == [0, 1, 2]
    assert g.slot.tolist() == [0, 1, 2, 3, 6, 7]  # group 1 has one row: slots 4 and 5 stay empty
    kept = g.keep(torch.tensor([1, 4, 5]))  # group 1 ends; group 0 keeps its second row
    assert kept.tolist() == [0, 2] and g.prompts.tolist() == [0, 2] and g.width == 2
    assert g.prompt.tolist() == [0, 2, 2] and g.slot.tolist() == [0, 2, 3] and not g.full
    g.keep(torch.tensor([1, 2]))  # group 2's two rows: every slot a row, the grid a reshape of the rows
    assert g.full and g.slot.tolist() == [0, 1]
    x = torch.arange(2 * 3 * 4 * 5.0).view(2, 3, 4, 5)
    assert torch.equal(shared_kv._rows(shared_kv._grid(x, g), g, 4), x)


def _left_pad(prompts, pad=0):
    width = max(map(len, prompts))
    ids = torch.full((len(prompts), width), pad)
    mask = torch.zeros_like(ids)
    for i, p in enumerate(prompts):
        ids[i, width - len(p):], mask[i, width - len(p):] = torch.tensor(p), 1
    return ids, mask


@torch.no_grad()
def test_decoding_matches_the_models_forward_over_whole_rows(tiny):
    g = torch.Generator().manual_seed(0)
    prompts = [torch.randint(3, 300, (n,), generator=g).tolist() for n in (6, 2, 9)]
    counts = [3, 1, 2]
    ids, mask = _left_pad(prompts)
    cache = shared_kv.SharedPrefixCache(tiny, capacity=8)
    with shared_kv.decoding(tiny):
        tiny(input_ids=ids, attention_mask=mask, past_key_values=cache, use_cache=True, shared_kv=cache)
        prompt_of = torch.arange(3).repeat_interleave(torch.tensor(counts))
        cache.to_rows(prompt_of, mask == 0)
        shared = [layer for layer in cache.layers if isinstance(layer, shared_kv._Shared)]
        assert shared and all(layer.pk.shape[0] == 3 for layer in shared)  # each prompt's keys held once
        rows, seqs, mask = prompt_of, [[] for _ in prompt_of], mask[prompt_of]
        alive = torch.arange(len(rows))
        for step in range(6):
            if step == 3:  # rows 1 (group 0) and 3 (group 1, which ends) leave
                keep = torch.tensor([0, 2, 4, 5])
                cache.keep(keep)
                alive, mask = alive[keep], mask[keep]
                assert all(layer.pk.shape[0] == 2 for layer in shared)
            tokens = torch.randint(3, 300, (len(alive),), generator=g)
            for r, t in zip(alive.tolist(), tokens.tolist()):
                seqs[r].append(t)
            mask = torch.cat([mask, mask.new_ones(len(alive), 1)], dim=1)
            got = tiny(input_ids=tokens[:, None], attention_mask=mask, past_key_values=cache, use_cache=True,
                       shared_kv=cache).logits[:, -1]
            full_ids = torch.cat([ids[prompt_of[alive]], torch.tensor([seqs[r] for r in alive.tolist()])], dim=1)
            want = tiny(input_ids=full_ids, attention_mask=mask).logits[:, -1]
            torch.testing.assert_close(got, want, atol=2e-5, rtol=1e-4)
    assert tiny.config._attn_implementation == "sdpa"  # given back


def test_decoding_gives_the_implementation_back_after_an_error(tiny):
    with pytest.raises(RuntimeError), shared_kv.decoding(tiny):
        assert tiny.config._attn_implementation == shared_kv.NAME
        raise RuntimeError("boom")
    assert tiny.config._attn_implementation == "sdpa"
