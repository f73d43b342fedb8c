"""``bot_repro.models.sampling`` (``trainer.sampler: shared_prefix``, issue #51): the distribution it draws
from, its decoding against transformers' own, and the settings it refuses.

References: the softmax of hand-picked logits (frequencies over many draws), and transformers'
``generate`` in greedy mode on tiny random models of the real architectures (at a temperature so low that
a draw is the argmax, the sampler must decode the same tokens: cache, positions, padding, EOS and
dropping ended rows all on the path).
"""

from __future__ import annotations

import math

import pytest
import torch
from transformers import AutoModelForCausalLM

from bot_repro.config_schema import ConfigError
from bot_repro.models import packed, sampling, shared_kv
from bot_repro.models.tiny import build_tiny


def _draw(logits: torch.Tensor, temperature: float, gen: torch.Generator) -> torch.Tensor:
    return sampling._draw(sampling._from_logits(logits), *logits.shape, temperature, gen)


def test_draw_follows_the_softmax_at_temperature():
    logits = torch.log(torch.tensor([[1.0, 2.0, 3.0, 0.0]])).repeat(20_000, 1)  # p = 1/6, 2/6, 3/6, 0
    gen = torch.Generator().manual_seed(0)
    counts = torch.bincount(_draw(logits, 1.0, gen), minlength=4).double()
    expected = torch.tensor([1 / 6, 2 / 6, 3 / 6, 0.0]) * 20_000
    assert counts[3] == 0  # probability 0 is never drawn
    for c, e in zip(counts[:3].tolist(), expected[:3].tolist()):
        sd = math.sqrt(e * (1 - e / 20_000))
        assert abs(c - e) < 5 * sd, (c, e)
    # T = 0.5 squares the odds: p proportional to 1, 4, 9
    counts = torch.bincount(_draw(logits, 0.5, gen), minlength=4).double()
    for c, e in zip(counts[:3].tolist(), [20_000 * k / 14 for k in (1, 4, 9)]):
        assert abs(c - e) < 5 * math.sqrt(e), (c, e)


def test_draw_across_blocks_and_slices_of_the_two_level_lookup():
    """Mass on entries 3, 300 and 9999 of 10,000 (blocks of ``BLOCK`` = 256 in slices of ``SLICE`` = 4096, the
    last of each partial; the middle slice -inf only): each is drawn as often as its probability says, and
    nothing else ever is. Then entry 4999 at logit 80, in the middle slice, whose max is not the others': it
    takes all but e^-80 of the mass, so every draw is 4999."""
    assert (sampling.BLOCK, sampling.SLICE) == (256, 4096)
    logits = torch.full((15_000, 10_000), -float("inf"))
    logits[:, [3, 300, 9999]] = torch.log(torch.tensor([0.2, 0.5, 0.3]))
    counts = torch.bincount(_draw(logits, 1.0, torch.Generator().manual_seed(1)), minlength=10_000)
    assert set(counts.nonzero().flatten().tolist()) == {3, 300, 9999}
    for i, p in ((3, 0.2), (300, 0.5), (9999, 0.3)):
        assert abs(counts[i] - 15_000 * p) < 5 * math.sqrt(15_000 * p * (1 - p)), (i, counts[i])
    logits[:, 4999] = 80.0
    assert torch.equal(_draw(logits, 1.0, torch.Generator().manual_seed(2)), torch.full((15_000,), 4999))


def test_draw_from_the_head_slice_by_slice_is_the_softmax_of_hidden_times_weight():
    """``Head``: the logits are hidden @ W^T computed per slice (packed for the rows); the frequencies over many
    draws match softmax(hidden W^T / T) of a 5,000-entry vocabulary (several slices, the last partial)."""
    g = torch.Generator().manual_seed(3)
    hidden, weight = torch.randn(1, 8, generator=g) * 2, torch.randn(5000, 8, generator=g)
    weight[4500] = hidden[0] * (float((hidden @ weight.T).max()) + 1) / hidden.square().sum()  # the top, in slice 2
    p = torch.softmax(hidden @ weight.T / 0.8, -1)[0].double()
    n = 40_000
    head = sampling.Head(weight, n)
    got = sampling._draw(head.at(hidden.repeat(n, 1)), n, 5000, 0.8, g, head.width)
    counts = torch.bincount(got, minlength=5000).double()
    top = p.topk(5).indices
    assert top[0] == 4500 and (top < 4096).any()  # the most probable entries lie in several slices
    assert head.width < 4096
    for i in top.tolist():
        assert abs(counts[i] - n * p[i]) < 5 * math.sqrt(n * p[i] * (1 - p[i])) + 1, (i, counts[i], n * p[i])
    tv = 0.5 * (counts / n - p).abs().sum()
    assert tv < 0.05, tv


@pytest.fixture(scope="module", params=["qwen2", "gemma3", "smollm3"])
def tiny(request, tmp_path_factory):
    path = build_tiny(request.param, tmp_path_factory.mktemp(f"sampling_{request.param}"), vocab_size=300,
                      hidden_size=32, num_layers=2)
    return AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()


def _prompts(vocab: int) -> list[list[int]]:
    g = torch.Generator().manual_seed(1)
    return [torch.randint(3, vocab, (n,), generator=g).tolist() for n in (5, 9, 2, 7)]


def test_greedy_limit_decodes_as_transformers_generate(tiny, monkeypatch):
    """At T = 1e-6 each draw is the argmax: the tokens must be ``generate(do_sample=False)``'s, row by row,
    with left padding, a shared prefill (each prompt twice), an EOS that ends rows at different steps and
    every linear layer packed (``packed.MIN_SIDE`` 1; where this torch has MKL)."""
    monkeypatch.setattr(packed, "MIN_SIDE", 1)
    prompts = [p for p in _prompts(tiny.config.vocab_size) for _ in range(2)]
    new = 12
    ref = []
    with torch.no_grad():
        for p in prompts:  # one row at a time: no padding on the reference side
            out = tiny.generate(torch.tensor([p]), do_sample=False, max_new_tokens=new, min_new_tokens=new,
                                pad_token_id=0, eos_token_id=None)
            ref.append(out[0, len(p):].tolist())
    eos = ref[0][5]  # a token the first row emits at step 6: rows end at different steps
    want = [r[: r.index(eos) + 1] if eos in r else r for r in ref]
    got = sampling.sample(tiny, prompts, new, 1e-6, [eos], pad_token_id=0)
    assert got == want
    assert any(len(w) < new for w in want) and any(len(w) == new for w in want)  # both kinds of row are checked


def test_a_prefix_common_to_every_prompt_is_prefilled_once_per_pad_and_decodes_as_generate(tiny, monkeypatch):
    """Prompts that begin with the same 10 tokens (a system prompt) and go on with 1 to 6 of their own: the
    prefix is prefilled once per distinct left pad, then each prompt's rest (``_prefill_shared``; not for
    Gemma 3, whose sliding-window layers keep a cache per row). At T = 1e-6 the tokens must be
    ``generate(do_sample=False)``'s, row by row."""
    g = torch.Generator().manual_seed(2)
    head = torch.randint(3, 300, (10,), generator=g).tolist()
    prompts = [head + torch.randint(3, 300, (n,), generator=g).tolist() for n in (1, 4, 6, 4) for _ in range(2)]
    assert sampling._common_prefix(prompts) == 10 >= sampling.MIN_SHARED
    calls = []
    monkeypatch.setattr(sampling, "_prefill_shared", lambda *a, _f=sampling._prefill_shared: calls.append(1) or _f(*a))
    new = 10
    with torch.no_grad():
        want = [tiny.generate(torch.tensor([p]), do_sample=False, max_new_tokens=new, min_new_tokens=new,
                              pad_token_id=0, eos_token_id=None)[0, len(p):].tolist() for p in prompts]
    assert sampling.sample(tiny, prompts, new, 1e-6, [-1], pad_token_id=0) == want
    assert len(calls) == (0 if tiny.config.model_type == "gemma3_text" else 1)


@torch.no_grad()
def test_a_shared_prefill_gives_the_logits_of_the_left_padded_forward(tiny):
    """The first step's logits after ``_prefill_shared``, and a decoded token's after it, against the model's
    own forward over the left-padded rows (positions counted from the padded start)."""
    if tiny.config.model_type == "gemma3_text":
        pytest.skip("Gemma 3's sliding-window layers: no shared prefill (the test above checks it is not taken)")
    g = torch.Generator().manual_seed(4)
    head = torch.randint(3, 300, (9,), generator=g).tolist()
    prompts = [head + torch.randint(3, 300, (n,), generator=g).tolist() for n in (3, 1, 5)]
    ids, mask = sampling._left_pad(prompts, 0)
    weight = tiny.get_output_embeddings().weight
    cache = shared_kv.SharedPrefixCache(tiny, 2)
    with shared_kv.decoding(tiny):
        first, cols = sampling._prefill_shared(
            lambda **kw: sampling.Head(weight, 3).at(tiny.base_model(**kw).last_hidden_state[:, -1]),
            prompts, 9, 0, cache)
        want = tiny(input_ids=ids, attention_mask=mask).logits[:, -1]
        torch.testing.assert_close(first(0, 300, None), want, atol=2e-5, rtol=1e-4)
        cache.to_rows(torch.arange(3), cols == 0)
        token = torch.tensor([[7], [8], [9]])
        got = tiny(input_ids=token, attention_mask=torch.cat([cols, cols.new_ones(3, 1)], 1), past_key_values=cache,
                   use_cache=True, shared_kv=cache).logits[:, -1]
    want = tiny(input_ids=torch.cat([ids, token], 1), attention_mask=torch.cat([mask, mask.new_ones(3, 1)], 1)).logits
    torch.testing.assert_close(got, want[:, -1], atol=2e-5, rtol=1e-4)


def test_common_prefix_leaves_each_prompt_a_token():
    assert sampling._common_prefix([[1, 2, 3], [1, 2, 3, 4]]) == 2  # the shorter keeps its last token
    assert sampling._common_prefix([[1, 2, 3], [1, 5, 3]]) == 1
    assert sampling._common_prefix([[1, 2, 3]]) == 0


def test_one_prompt_asked_k_times_gets_k_independent_samples(tiny):
    prompt = _prompts(tiny.config.vocab_size)[0]
    torch.manual_seed(0)
    got = sampling.sample(tiny, [prompt] * 6, 8, 1.0, [-1], pad_token_id=0)
    assert len(got) == 6 and all(len(g) == 8 for g in got)
    assert len({tuple(g) for g in got}) > 1  # a 300-token vocabulary: six equal samples would be a shared draw
    torch.manual_seed(0)
    again = sampling.sample(tiny, [prompt] * 6, 8, 1.0, [-1], pad_token_id=0, max_rows=2)  # in chunks of 2 rows
    assert len(again) == 6  # chunking changes the draw order, not the shapes


def test_refuses_what_it_does_not_draw():
    sampling.check_sampler("shared_prefix", 1.0, {"top_k": 0, "repetition_penalty": 1.0})
    sampling.check_sampler("transformers", 0.9, {"top_k": 50})
    with pytest.raises(ConfigError, match=r"trainer.top_p=0.9, top_k=50 is not drawn by it"):
        sampling.check_sampler("shared_prefix", 0.9, {"top_k": 50})


def test_a_lora_policy_decodes_through_merged_weights_as_peft_generates(tmp_path):
    """A PeftModel with a nonzero adapter: the greedy-limit tokens are those of peft's own (unmerged) generate,
    and the adapter is on again after."""
    from peft import LoraConfig, get_peft_model

    path = build_tiny("qwen2", tmp_path, vocab_size=300, hidden_size=32, num_layers=2)
    torch.manual_seed(0)
    model = get_peft_model(AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32),
                           LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj", "down_proj"]))
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "lora_B" in name:
                p.normal_(0, 0.5)
    model.eval()
    prompts = _prompts(300)
    ref = []
    with torch.no_grad():
        for p in prompts:
            out = model.generate(input_ids=torch.tensor([p]), do_sample=False, max_new_tokens=10, min_new_tokens=10,
                                 pad_token_id=0, eos_token_id=None)
            ref.append(out[0, len(p):].tolist())
        with model.disable_adapter():
            base = [model.generate(input_ids=torch.tensor([p]), do_sample=False, max_new_tokens=10, pad_token_id=0,
                                   eos_token_id=None)[0, len(p):].tolist() for p in prompts]
    assert ref != base  # the adapter changes the greedy tokens: decoding without it would fail here
    assert sampling.sample(model, prompts, 10, 1e-6, [-1], pad_token_id=0) == ref
    from peft.tuners.lora import LoraLayer

    layers = [m for m in model.modules() if isinstance(m, LoraLayer)]
    assert len(layers) == 6 and not any(layer.disable_adapters for layer in layers)
