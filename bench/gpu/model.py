"""The model the GPU check trains: a random-init Qwen2 of the plan's architecture and a byte-level BPE
tokenizer trained on the spot (nothing downloaded), saved to a folder both trainers load; and
``free_cuda``, which returns freed GPU memory between runs."""

from __future__ import annotations

import gc
import random
import string
import time
from pathlib import Path
from typing import Any

import torch

from bench.gpu.plan import QWEN25_3B, Plan


def synthetic_corpus(n_words: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    alphabet = string.ascii_letters + string.digits
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(2, 12))) for _ in range(n_words)]
    return [" ".join(words[i : i + 100]) for i in range(0, len(words), 100)]


def build_model_dir(plan: Plan, out: Path, corpus: list[str], device: str) -> dict[str, Any]:
    """Save a random-init Qwen2 model of ``plan.arch`` and a locally trained tokenizer to ``out``."""
    from transformers import Qwen2Config, Qwen2ForCausalLM

    from bot_repro.models.tiny import build_tokenizer

    t0 = time.perf_counter()
    tok = build_tokenizer(corpus + synthetic_corpus(plan.corpus_words, plan.seed), plan.tokenizer_vocab)
    t_tok = time.perf_counter() - t0
    config = Qwen2Config(
        **plan.arch, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id, bos_token_id=None
    )
    torch.manual_seed(plan.seed)
    with torch.device(device):
        model = Qwen2ForCausalLM(config).to(getattr(torch, plan.dtype))
    model.generation_config.eos_token_id = tok.eos_token_id
    model.generation_config.pad_token_id = tok.pad_token_id
    n_params = sum(p.numel() for p in model.parameters())  # tied embedding counted once
    model.save_pretrained(out)
    tok.save_pretrained(out)
    del model
    free_cuda()
    return {
        "architecture": "Qwen2ForCausalLM (Qwen2.5-3B config values)"
        if plan.arch is QWEN25_3B
        else "Qwen2ForCausalLM (tiny)",
        "config": plan.arch,
        "n_params": n_params,
        "dtype": plan.dtype,
        "weights": f"random init (seed {plan.seed})",
        "tokenizer": f"byte-level BPE trained here on the mini task corpus + {plan.corpus_words} synthetic words",
        "tokenizer_vocab": len(tok),
        "build_s": time.perf_counter() - t0,
        "tokenizer_train_s": t_tok,
    }


def free_cuda() -> None:
    gc.collect()
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
