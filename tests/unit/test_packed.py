"""``bot_repro.models.packed``: MKL's packed sgemm gives ``F.linear``'s products, falls back to it where the
packing does not apply, and ``linears`` packs a model's layers inside and gives each its forward back."""

from __future__ import annotations

import pytest
import torch
from transformers import AutoModelForCausalLM

from bot_repro.models import packed
from bot_repro.models.tiny import build_tiny

needs_mkl = pytest.mark.skipif(not packed.available(), reason="this torch has no MKL packed sgemm (non-MKL build)")


@needs_mkl
@pytest.mark.parametrize("shape", [(7, 80), (7, 1, 80), (3, 80), (1, 80)])
def test_a_packed_weight_gives_linear_s_products(shape):
    """Packed for 7 rows: 7 rows (2-D or 3-D) take the packed product, 3 and 1 rows ``F.linear``; all equal
    ``F.linear``'s, with and without a bias."""
    g = torch.Generator().manual_seed(0)
    weight, bias, x = torch.randn(96, 80, generator=g), torch.randn(96, generator=g), torch.randn(*shape, generator=g)
    w = packed.Weight(weight, 7)
    assert w.packed is not None
    for b in (None, bias):
        torch.testing.assert_close(w(x, b), torch.nn.functional.linear(x, weight, b))


def test_what_is_not_packed():
    """A LoRA factor (a side under ``MIN_SIDE``), bf16 and a 1-D tensor keep ``F.linear``."""
    assert not packed.Weight.applies(torch.randn(4, 576))
    assert not packed.Weight.applies(torch.randn(576, 576, dtype=torch.bfloat16))
    assert not packed.Weight.applies(torch.randn(576))
    w = packed.Weight(torch.randn(4, 576), 8)
    assert w.packed is None
    x = torch.randn(8, 576)
    assert torch.equal(w(x), x @ w.weight.T)


@needs_mkl
@torch.no_grad()
def test_linears_packs_a_model_inside_and_gives_its_forward_back(tmp_path, monkeypatch):
    """A tiny qwen2 (every layer packed: ``MIN_SIDE`` 1): logits of 5 rows inside equal those outside, each
    ``nn.Linear`` runs a packed forward inside and its own after."""
    monkeypatch.setattr(packed, "MIN_SIDE", 1)
    model = AutoModelForCausalLM.from_pretrained(build_tiny("qwen2", tmp_path, vocab_size=300, hidden_size=32,
                                                            num_layers=2), dtype=torch.float32).eval()
    ids = torch.randint(3, 300, (5, 1))
    want = model(ids).logits
    layers = [m for m in model.modules() if type(m) is torch.nn.Linear]
    with packed.linears(model, 5):
        assert all("forward" in m.__dict__ for m in layers)
        got = model(ids).logits
    assert not any("forward" in m.__dict__ for m in layers)
    torch.testing.assert_close(got, want)
    torch.testing.assert_close(model(ids).logits, want)


@needs_mkl
@torch.no_grad()
def test_a_model_past_the_memory_cap_is_not_packed(tmp_path, monkeypatch):
    """Packing copies every weight: past ``MAX_BYTES`` of them the layers keep their own forward."""
    monkeypatch.setattr(packed, "MIN_SIDE", 1)
    monkeypatch.setattr(packed, "MAX_BYTES", 1000)
    model = AutoModelForCausalLM.from_pretrained(build_tiny("qwen2", tmp_path, vocab_size=300, hidden_size=32,
                                                            num_layers=2), dtype=torch.float32)
    with packed.linears(model, 5):
        assert not any("forward" in m.__dict__ for m in model.modules() if type(m) is torch.nn.Linear)


def test_gradients_on_are_refused():
    """A packed product has no backward: ``linears`` with gradients on is an error, not a silent no-gradient."""
    with pytest.raises(RuntimeError, match="no_grad"):
        with packed.linears(torch.nn.Linear(64, 64), 4):
            pass
