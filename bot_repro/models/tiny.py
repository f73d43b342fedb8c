"""Tiny random-init models of the paper's three families and Gemma 3, with a locally trained tokenizer.

No hub access is needed: the architecture classes are the real ones (Qwen2, SmolLM3, Phi3, Gemma3), the
sizes are shrunk so a CPU trains them in seconds, and the tokenizer is a byte-level BPE trained
with ``tokenizers`` on a small corpus. Everything is saved to a directory so TRL loads it by path,
exactly as it loads a hub checkpoint. The gemma3 stand-in is like Gemma 3 270M, a base model: its
tokenizer has no chat template (so ``model.prompt_format=auto`` takes the plain format) and puts
``<bos>`` before every text.
"""

from __future__ import annotations

import types
from pathlib import Path

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
from transformers import (
    Gemma3ForCausalLM,
    Gemma3TextConfig,
    Phi3Config,
    Phi3ForCausalLM,
    PreTrainedTokenizerFast,
    Qwen2Config,
    Qwen2ForCausalLM,
    SmolLM3Config,
    SmolLM3ForCausalLM,
)

from bot_repro.cache import build_once

FAMILIES = ("qwen2", "smollm3", "phi3", "gemma3")
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
BASE_FAMILIES = {"gemma3": ["<pad>", "<eos>", "<bos>"]}  # no chat template; Gemma's pad, eos, bos
# ChatML, as Qwen2.5 uses; the tiny families share it (their real templates are loaded from the hub).
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)

_DEFAULT_CORPUS = [
    "The quick brown fox jumps over the lazy dog. 0123456789 + - * / = ( ) [ ] { } < > </ /> ;:,.!?",
    "def f(x):\n    return x + 1\n\nconst App = () => <div className=\"p-4\">Hello</div>;\n",
    "<step 1> 3 + 4 = 7 </step 1> <final> 7 </final> <a><b></b></a> <p>text</p>",
]


def tiny_tokens(family: str) -> tuple[str, str, str | None]:
    """(eos, pad, chat template or None) of ``family``'s tiny tokenizer, without building it."""
    if family in BASE_FAMILIES:
        pad, eos, _ = BASE_FAMILIES[family]
        return eos, pad, None
    return SPECIAL_TOKENS[2], SPECIAL_TOKENS[0], CHAT_TEMPLATE


def build_tokenizer(corpus: list[str] | None, vocab_size: int, family: str = "qwen2") -> PreTrainedTokenizerFast:
    """Train a byte-level BPE (the scheme Qwen2, SmolLM3 and Phi-4 use) on ``corpus``."""
    specials = BASE_FAMILIES.get(family, SPECIAL_TOKENS)
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(list(corpus or []) + _DEFAULT_CORPUS, trainer=trainer)
    eos, pad, template = tiny_tokens(family)
    bos = None
    if family in BASE_FAMILIES:  # a base tokenizer opens every text with <bos>, as Gemma's does
        bos = specials[2]
        tok.post_processor = processors.TemplateProcessing(single=f"{bos} $A", special_tokens=[(bos, tok.token_to_id(bos))])
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        eos_token=eos,
        pad_token=pad,
        bos_token=bos,
        clean_up_tokenization_spaces=False,
    )
    fast.chat_template = template
    return fast


def _config(family: str, vocab: int, tok: PreTrainedTokenizerFast, hidden: int, layers: int):
    common = dict(
        vocab_size=vocab,
        hidden_size=hidden,
        intermediate_size=hidden * 2,
        num_hidden_layers=layers,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=2048,
        eos_token_id=tok.eos_token_id,
        pad_token_id=tok.pad_token_id,
        bos_token_id=tok.bos_token_id,
        tie_word_embeddings=True,
    )
    if family == "qwen2":
        return Qwen2Config(**common), Qwen2ForCausalLM
    if family == "smollm3":
        return SmolLM3Config(**common), SmolLM3ForCausalLM
    if family == "phi3":
        return Phi3Config(**common), Phi3ForCausalLM
    if family == "gemma3":  # Gemma 3 270M's shape, shrunk: sliding-window layers, one full-attention layer
        heads = common["num_attention_heads"]
        layer_types = ["sliding_attention"] * (layers - 1) + ["full_attention"]
        return Gemma3TextConfig(**common, head_dim=hidden // heads, sliding_window=32, layer_types=layer_types,
                                query_pre_attn_scalar=hidden // heads), Gemma3ForCausalLM
    raise ValueError(f"unknown tiny model family {family!r}; valid: {', '.join(FAMILIES)}")


def tiny_config(family: str, vocab_size: int = 1024, hidden_size: int = 64, num_layers: int = 2):
    """The architecture config of a tiny ``family`` model, without training its tokenizer (token ids unset):
    its module names and shapes, for checks before anything is built (``bot_repro.models.lora``)."""
    if family not in FAMILIES:
        raise ValueError(f"unknown tiny model family {family!r}; valid: {', '.join(FAMILIES)}")
    no_ids = types.SimpleNamespace(eos_token_id=None, pad_token_id=None, bos_token_id=None)
    return _config(family, vocab_size, no_ids, hidden_size, num_layers)[0]


def build_tiny(
    family: str,
    out_dir: str | Path,
    corpus: list[str] | None = None,
    vocab_size: int = 1024,
    seed: int = 0,
    hidden_size: int = 64,
    num_layers: int = 2,
) -> Path:
    """Save a random-init tiny ``family`` model and its tokenizer to ``out_dir``; return the path.

    Deterministic for (family, corpus, vocab_size, seed, sizes). Built once (``bot_repro.cache``):
    ``out_dir`` is reused when its completion marker records the same arguments, and rebuilt when
    the marker is missing (a killed build) or records other arguments.
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown tiny model family {family!r}; valid: {', '.join(FAMILIES)}")
    args = dict(family=family, corpus=corpus, vocab_size=vocab_size, seed=seed, hidden=hidden_size, layers=num_layers)

    def build(folder: Path) -> None:
        tok = build_tokenizer(corpus, vocab_size, family)
        config, cls = _config(family, len(tok), tok, hidden_size, num_layers)
        torch.manual_seed(seed)
        model = cls(config)
        model.generation_config.eos_token_id = tok.eos_token_id
        model.generation_config.pad_token_id = tok.pad_token_id
        model.save_pretrained(folder)
        tok.save_pretrained(folder)

    return build_once(out_dir, build, meta=args)
