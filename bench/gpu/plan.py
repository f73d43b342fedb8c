"""What the GPU check runs: the model architectures (Qwen2.5-3B's config values, a tiny one of the same
class), the ``Plan`` (sizes, steps, budget) of the GPU run and of the CPU dry run, and the repository root."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]

# Qwen/Qwen2.5-3B(-Instruct) config.json
QWEN25_3B = dict(
    hidden_size=2048, num_hidden_layers=36, num_attention_heads=16, num_key_value_heads=2,
    intermediate_size=11008, vocab_size=151_936, max_position_embeddings=32_768, rope_theta=1_000_000.0,
    rms_norm_eps=1e-6, tie_word_embeddings=True, hidden_act="silu", use_sliding_window=False,
)  # fmt: skip
TINY = dict(QWEN25_3B, hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
            vocab_size=2048, max_position_embeddings=2048)  # fmt: skip


@dataclass
class Plan:
    arch: dict[str, Any]
    # BPE vocabulary trained (Qwen2.5: 151,643 + specials; the model's rows beyond it are padding)
    tokenizer_vocab: int
    corpus_words: int  # synthetic words added to the task corpus so BPE reaches tokenizer_vocab
    dtype: str
    resources: str  # conf/resources group
    lengths: tuple[int, ...]
    warmup: int
    steps: int
    micro_batch: int
    adv_T: tuple[int, ...]
    adv_B: int = 64
    prompts: int = 8
    rollouts: int = 8
    budget_s: float = 450.0
    seed: int = 0
    dry_run: bool = False
    overrides: list[str] = field(default_factory=list)


GPU_PLAN = Plan(
    arch=QWEN25_3B, tokenizer_vocab=151_646, corpus_words=100_000, dtype="bfloat16", resources="a100_80g",
    lengths=(256, 1024), warmup=1, steps=2, micro_batch=16, adv_T=(2048, 4096, 8192, 16384, 32768),
)  # fmt: skip
DRY_PLAN = Plan(
    arch=TINY, tokenizer_vocab=1024, corpus_words=2000, dtype="float32", resources="cpu",
    lengths=(8, 16), warmup=1, steps=1, micro_batch=32, adv_T=(64, 256), budget_s=600.0, dry_run=True,
    overrides=["resources.torch_threads=1"],  # shared CPUs: one intra-op thread wastes least under load
)  # fmt: skip
