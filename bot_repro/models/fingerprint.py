"""A saved model's identity: a hash of its weights, independent of file layout and metadata."""

from __future__ import annotations

import hashlib
from pathlib import Path

import torch
from safetensors.torch import load_file


def policy_hash(model_dir) -> str:
    """sha256 (hex, first 16 digits) of a saved model's weights: every tensor of its ``*.safetensors``
    files by name, dtype, shape and bytes."""
    files = sorted(Path(model_dir).glob("*.safetensors"))
    if not files:
        raise FileNotFoundError(f"no *.safetensors weights in {model_dir}")
    h = hashlib.sha256()
    for f in files:
        tensors = load_file(str(f))
        for name in sorted(tensors):
            t = tensors[name].contiguous()
            h.update(f"{name}|{t.dtype}|{tuple(t.shape)}|".encode())
            h.update(t.view(torch.uint8).numpy().tobytes() if t.numel() else b"")
    return h.hexdigest()[:16]
