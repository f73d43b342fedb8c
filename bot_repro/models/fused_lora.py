"""A LoRA layer's training forward through its merged weight, one matmul instead of three (``trainer.fused_lora``, #51).

peft computes ``y = x W^T + s (x A^T) B^T``: the base matmul, two rank-r matmuls that each read a whole
activation, a scale and an add, and in the backward as many again. ``install`` makes each plain LoRA linear
layer compute ``y = x W'^T`` with ``W' = W + s B A``, held per layer and made again only when W, A or B
changed, so a step's micro-batches share one merge. Changed means: another tensor (``data_ptr``, e.g. the
start's swapped in to measure a KL), an in-place write autograd sees (``_version``), or any optimizer step
(a global step hook drops every held merge: a fused optimizer, transformers' default ``adamw_torch_fused``,
writes without bumping ``_version``, and a merge kept across its step computed the loss at stale weights). The
backward (``_Merged``) gives what peft's graph gives, with W frozen:

    dx = dy W',   dB = s dy^T (x A^T),   dA = s (dy B)^T x

(no weight gradient of W' itself: that would be a full out x in matmul). Exact up to float rounding, in
float32 only: in bf16, W + s B A would round away most of a small delta. Elsewhere, and for any layer
state ``install`` does not fold (adapters off or merged, several adapters, dropout, DoRA, a LoRA bias,
mixed-adapter batches), peft's own forward runs. Cost: one float32 copy of every adapted weight.
"""

from __future__ import annotations

import weakref

import torch
import torch.nn.functional as F
from torch.optim.optimizer import register_optimizer_step_post_hook

_INSTALLED: weakref.WeakSet = weakref.WeakSet()  # every layer install() routed through _forward
_HOOK = []  # the global optimizer-step hook, registered once


def drop_merges(*_args) -> None:
    """Forget every held merge: the next forward with gradients merges W + s B A again (after any optimizer step)."""
    for layer in list(_INSTALLED):
        vars(layer).pop("_fused_merged", None)


class _Merged(torch.autograd.Function):
    """y = x W'^T + bias with W' = W + s B A given (no grad), gradients to x, A and B. x [..., in], W' [out, in],
    A [r, in], B [out, r] -> [..., out]."""

    @staticmethod
    def forward(ctx, x, merged, bias, lora_a, lora_b, scaling):
        ctx.save_for_backward(x, merged, lora_a, lora_b)
        ctx.scaling = scaling
        return F.linear(x, merged, bias)

    @staticmethod
    def backward(ctx, dy):
        x, merged, lora_a, lora_b = ctx.saved_tensors
        dx = dy @ merged if ctx.needs_input_grad[0] else None
        x2, dy2 = x.reshape(-1, x.shape[-1]), dy.reshape(-1, dy.shape[-1])
        d_a = ((dy2 @ lora_b).t() @ x2).mul_(ctx.scaling) if ctx.needs_input_grad[3] else None
        d_b = (dy2.t() @ (x2 @ lora_a.t())).mul_(ctx.scaling) if ctx.needs_input_grad[4] else None
        return dx, None, None, d_a, d_b, None


def _foldable(layer, x: torch.Tensor, kwargs: dict):
    """(A, B, scaling) of ``layer``'s one active adapter where its forward can run merged, else None."""
    if layer.disable_adapters or layer.merged or kwargs or len(layer.active_adapters) != 1:
        return None
    name = layer.active_adapters[0]
    if name not in layer.lora_A or name in layer.lora_variant or layer.fan_in_fan_out:
        return None
    lora_a, lora_b = layer.lora_A[name], layer.lora_B[name]
    base = layer.get_base_layer()
    if (not isinstance(layer.lora_dropout[name], torch.nn.Identity) or lora_b.bias is not None
            or not isinstance(base, torch.nn.Linear)):
        return None
    if not (x.dtype == base.weight.dtype == lora_a.weight.dtype == lora_b.weight.dtype == torch.float32):
        return None
    return lora_a.weight, lora_b.weight, float(layer.scaling[name])


def _forward(layer, peft_forward, x: torch.Tensor, *args, **kwargs) -> torch.Tensor:
    fold = None if args else _foldable(layer, x, kwargs)
    if fold is None:
        return peft_forward(x, *args, **kwargs)
    lora_a, lora_b, scaling = fold
    base = layer.get_base_layer()
    key = tuple((t.data_ptr(), t._version) for t in (base.weight, lora_a, lora_b)) + (scaling,)
    held = getattr(layer, "_fused_merged", None)
    if held is None or held[0] != key:
        if not torch.is_grad_enabled():  # e.g. the KL forward at the start's weights: no merge for one pass
            return peft_forward(x, *args, **kwargs)
        with torch.no_grad():
            held = (key, torch.addmm(base.weight, lora_b, lora_a, alpha=scaling))
        layer._fused_merged = held
    return _Merged.apply(x, held[1], base.bias, lora_a, lora_b, scaling)


def install(model) -> int:
    """Route every peft LoRA ``Linear`` of ``model`` through ``_forward``; returns how many. Idempotent."""
    from peft.tuners.lora import Linear

    if not _HOOK:
        _HOOK.append(register_optimizer_step_post_hook(drop_merges))
    count = 0
    for layer in model.modules():
        if type(layer) is Linear and "_fused_peft_forward" not in vars(layer):
            layer._fused_peft_forward = layer.forward
            layer.forward = lambda x, *a, _layer=layer, **kw: _forward(_layer, _layer._fused_peft_forward, x, *a, **kw)
            _INSTALLED.add(layer)
            count += 1
    return count
