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
from bot_repro.models import sampling
from bot_repro.models.tiny import build_tiny


def test_draw_follows_the_softmax_at_temperature():
    logits = torch.log(torch.tensor([[1.0, 2.0, 3.0, 0.0]])).repeat(20_000, 1)  # p = 1/6, 2/6, 3/6, 0
    gen = torch.Generator().manual_seed(0)
    counts = torch.bincount(sampling._draw(logits, 1.0, gen), minlength=4).double()
    expected = torch.tensor([1 / 6, 2 / 6, 3 / 6, 0.0]) * 20_000
    assert counts[3] == 0  # probability 0 is never drawn
    for c, e in zip(counts[:3].tolist(), expected[:3].tolist()):
        sd = math.sqrt(e * (1 - e / 20_000))
        assert abs(c - e) < 5 * sd, (c, e)
    # T = 0.5 squares the odds: p proportional to 1, 4, 9
    counts = torch.bincount(sampling._draw(logits, 0.5, gen), minlength=4).double()
    for c, e in zip(counts[:3].tolist(), [20_000 * k / 14 for k in (1, 4, 9)]):
        assert abs(c - e) < 5 * math.sqrt(e), (c, e)


def test_draw_across_blocks_of_the_two_level_lookup():
    """Mass on entries 3, 300 and 999 of 1000 (three blocks of ``BLOCK`` = 256, the last one padded): each is
    drawn as often as its probability says, and nothing else ever is."""
    logits = torch.full((30_000, 1000), -float("inf"))
    logits[:, [3, 300, 999]] = torch.log(torch.tensor([0.2, 0.5, 0.3]))
    counts = torch.bincount(sampling._draw(logits, 1.0, torch.Generator().manual_seed(1)), minlength=1000)
    assert set(counts.nonzero().flatten().tolist()) == {3, 300, 999}
    for i, p in ((3, 0.2), (300, 0.5), (999, 0.3)):
        assert abs(counts[i] - 30_000 * p) < 5 * math.sqrt(30_000 * p * (1 - p)), (i, counts[i])


@pytest.fixture(scope="module", params=["qwen2", "gemma3", "smollm3"])
def tiny(request, tmp_path_factory):
    path = build_tiny(request.param, tmp_path_factory.mktemp(f"sampling_{request.param}"), vocab_size=300,
                      hidden_size=32, num_layers=2)
    return AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()


def _prompts(vocab: int) -> list[list[int]]:
    g = torch.Generator().manual_seed(1)
    return [torch.randint(3, vocab, (n,), generator=g).tolist() for n in (5, 9, 2, 7)]


def test_greedy_limit_decodes_as_transformers_generate(tiny):
    """At T = 1e-6 each draw is the argmax: the tokens must be ``generate(do_sample=False)``'s, row by row,
    with left padding, a shared prefill (each prompt twice) and an EOS that ends rows at different steps."""
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
