"""Linear layers through MKL's packed-weight sgemm while sampling on CPU (#51).

A decode step multiplies the same weights by the same number of rows, token after token. ``F.linear`` has
MKL repack each weight into its blocked layout on every call; ``linears(model, rows)`` packs each float32
``nn.Linear`` once for products of ``rows`` rows (``torch.ops.mkl._mkl_reorder_linear_weight``, the packing
inductor's CPU freezing uses) and runs it through ``torch.ops.mkl._mkl_linear``: the same sgemm on the same
numbers, faster per call (``bench.real_rl`` measures it). A product of any other row count (a prefill, the
rows left after some ended) is ``F.linear`` itself. Without gradients only; a torch without MKL runs as is.
"""

from __future__ import annotations

from contextlib import contextmanager

import torch


def available() -> bool:
    """Whether this torch has MKL's packed sgemm ops (x86 builds with MKL)."""
    return torch.backends.mkl.is_available() and hasattr(torch.ops.mkl, "_mkl_linear")


MIN_SIDE = 64  # features in and out a weight needs for packing to pay
MAX_BYTES = 2 << 30  # a model whose linear weights take more is not packed: the packed copy would double them


class Weight:
    """``weight`` [N, K] (float32, CPU) packed for products with ``rows`` rows; ``weight`` itself otherwise."""

    def __init__(self, weight: torch.Tensor, rows: int):
        self.weight, self.rows = weight.detach(), rows
        self.packed = torch.ops.mkl._mkl_reorder_linear_weight(self.weight, rows) if self.applies(weight) else None

    @staticmethod
    def applies(weight: torch.Tensor) -> bool:
        """float32 on CPU, and both sides at least ``MIN_SIDE`` (a LoRA factor's product is too small to pay)."""
        return (available() and weight.dtype == torch.float32 and weight.device.type == "cpu" and weight.dim() == 2
                and min(weight.shape) >= MIN_SIDE)

    def __call__(self, x: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
        """x W^T (+ bias), x [..., K] -> [..., N]."""
        if self.packed is None or x.numel() // x.shape[-1] != self.rows or x.dtype != torch.float32:
            return torch.nn.functional.linear(x, self.weight, bias)
        return torch.ops.mkl._mkl_linear(x, self.packed, self.weight, bias, self.rows)


@contextmanager
def linears(model: torch.nn.Module, rows: int):
    """Inside, every float32 CPU ``nn.Linear`` of ``model`` multiplies through its weight as it is on entry,
    packed for ``rows`` rows (enter after any weight swap, e.g. ``lora.merged``); each layer's own forward again
    on exit. No gradients flow through a packed layer: entered with gradients on, it refuses. A model past
    ``MAX_BYTES`` of such weights runs as it is."""
    if torch.is_grad_enabled():
        raise RuntimeError("packed.linears: MKL's packed products have no backward; enter it under torch.no_grad()")
    layers = [m for m in model.modules() if type(m) is torch.nn.Linear and Weight.applies(m.weight)]
    if sum(m.weight.nelement() * m.weight.element_size() for m in layers) > MAX_BYTES:
        layers = []
    try:
        for m in layers:
            packed = Weight(m.weight, rows)
            m.forward = lambda x, packed=packed, bias=m.bias: packed(x, bias)
        yield
    finally:
        for m in layers:
            m.__dict__.pop("forward", None)
