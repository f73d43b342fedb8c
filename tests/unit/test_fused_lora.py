"""``trainer.fused_lora`` (issue #51): a LoRA layer's training forward through W + s B A.

The reference is peft's own forward on the same model (the base matmul plus lora_B(lora_A(x)) * s, its
gradients by autograd), not the formula under test: outputs and every adapter gradient must agree to float32
rounding on tiny random models of the real architectures, through a loss forward that reads the gradient of
the shared prompt (``trainer.shared_prefix``); after an optimizer step the merged weight is made again;
peft's forward runs where the merge does not apply.
"""

from __future__ import annotations

import pytest
import torch
from peft import LoraConfig, get_peft_model
from peft.tuners.lora import Linear
from transformers import AutoModelForCausalLM

from bot_repro.models import fused_lora
from bot_repro.models.tiny import build_tiny


def _hand_layer():
    """One peft LoRA linear with known weights: W [3, 2], A [1, 2], B [3, 1], s = 2."""
    torch.manual_seed(0)
    model = get_peft_model(torch.nn.Sequential(torch.nn.Linear(2, 3, bias=True)),
                           LoraConfig(r=1, lora_alpha=2, target_modules=["0"], init_lora_weights=False))
    layer = model.base_model.model[0]
    with torch.no_grad():
        layer.base_layer.weight.copy_(torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))
        layer.base_layer.bias.copy_(torch.tensor([0.5, 0.0, -0.5]))
        layer.lora_A["default"].weight.copy_(torch.tensor([[1.0, 2.0]]))
        layer.lora_B["default"].weight.copy_(torch.tensor([[1.0], [0.0], [-1.0]]))
    return model, layer


def test_merged_forward_and_gradients_by_hand():
    """x = [1, 1]: x A^T = 3, so y = x W^T + b + s (3) B^T = [1.5, 1, 1.5] + [6, 0, -6]. With dy = [1, 1, 1]:
    dB = s dy^T (x A^T) = 2 * 3 = [6, 6, 6]; dA = s (dy B) x = 2 * 0 * [1, 1] = [0, 0]; dx = dy W' with
    W' = W + s B A = [[3, 4], [0, 1], [-1, -3]]: [2, 2]."""
    model, layer = _hand_layer()
    assert fused_lora.install(model) == 1 and fused_lora.install(model) == 0  # idempotent
    x = torch.tensor([[1.0, 1.0]], requires_grad=True)
    y = model(x)
    assert torch.equal(y.detach(), torch.tensor([[7.5, 1.0, -4.5]]))
    assert torch.equal(layer._fused_merged[1], torch.tensor([[3.0, 4.0], [0.0, 1.0], [-1.0, -3.0]]))
    y.sum().backward()
    assert torch.equal(layer.lora_B["default"].weight.grad, torch.tensor([[6.0], [6.0], [6.0]]))
    assert torch.equal(layer.lora_A["default"].weight.grad, torch.tensor([[0.0, 0.0]]))
    assert torch.equal(x.grad, torch.tensor([[2.0, 2.0]]))
    assert layer.base_layer.weight.grad is None  # frozen: no weight gradient


@pytest.fixture(scope="module", params=["qwen2", "gemma3", "smollm3", "phi3"])
def tiny(request, tmp_path_factory):
    return build_tiny(request.param, tmp_path_factory.mktemp(f"fl_{request.param}"), vocab_size=300,
                      hidden_size=32, num_layers=2)


def _pair(path):
    """Two copies of one LoRA model (random nonzero adapters), the second fused."""
    models = []
    for _ in range(2):
        torch.manual_seed(1)
        base = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
        models.append(get_peft_model(base, LoraConfig(r=4, lora_alpha=8, target_modules="all-linear",
                                                      init_lora_weights=False)).train())
    assert fused_lora.install(models[1]) == sum(type(m) is Linear for m in models[1].modules()) > 0
    return models


def _step(model, ids):
    model.zero_grad()
    logits = model(input_ids=ids).logits
    (logits.log_softmax(-1)[..., 5].sum() + logits.square().mean()).backward()
    return logits.detach(), {n: p.grad.clone() for n, p in model.named_parameters() if p.requires_grad}


@pytest.mark.parametrize("optimizer", [{}, {"fused": True}])  # fused: transformers' default, bumps no _version
def test_outputs_and_adapter_gradients_match_peft_across_an_optimizer_step(tiny, optimizer):
    peft_model, fused = _pair(tiny)
    ids = torch.randint(3, 300, (3, 11), generator=torch.Generator().manual_seed(0))
    opts = [torch.optim.AdamW([p for p in m.parameters() if p.requires_grad], lr=1e-2, **optimizer)
            for m in (peft_model, fused)]
    for step in range(3):  # steps 1 and 2 read a merge made after the optimizer moved A and B
        ref, got = _step(peft_model, ids), _step(fused, ids)
        torch.testing.assert_close(got[0], ref[0], rtol=0, atol=2e-5)
        assert got[1].keys() == ref[1].keys()
        for name in ref[1]:  # float32 rounding, relative to the gradient's own size (entries near 0 differ more)
            gap = float((got[1][name] - ref[1][name]).norm() / ref[1][name].norm())
            assert gap < 3e-5, f"{name} at step {step}: relative gap {gap:.2e}"  # 1.3e-5 seen on an AMD EPYC
        for opt in opts:
            opt.step()


def test_peft_forward_where_the_merge_does_not_apply(tiny):
    peft_model, fused = _pair(tiny)
    ids = torch.randint(3, 300, (2, 7), generator=torch.Generator().manual_seed(1))
    layers = [m for m in fused.modules() if type(m) is Linear]
    with torch.no_grad():  # no merge held yet, and none made for a pass without gradients
        torch.testing.assert_close(fused(input_ids=ids).logits, peft_model(input_ids=ids).logits, rtol=0, atol=2e-5)
    assert not any(hasattr(m, "_fused_merged") for m in layers)
    with fused.disable_adapter(), peft_model.disable_adapter(), torch.no_grad():  # adapters off: the base model
        torch.testing.assert_close(fused(input_ids=ids).logits, peft_model(input_ids=ids).logits, rtol=0, atol=2e-5)
    fused.double()  # float64: W + s B A is float32-only here, peft's forward runs
    peft_model.double()
    torch.testing.assert_close(fused(input_ids=ids).logits, peft_model(input_ids=ids).logits, rtol=0, atol=1e-9)
    assert not any(hasattr(m, "_fused_merged") for m in layers)
