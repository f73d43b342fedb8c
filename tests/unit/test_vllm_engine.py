"""The colocated engine's checks before anything loads (bot_repro/trainer/vllm_engine.py): KV-cache size
against vLLM's context window and the machine, the context against the run's sequences, and the engine
arguments. No vLLM needed: these read only a model folder's config.json."""

from __future__ import annotations

import json

import pytest

from bot_repro.config import ResourcesCfg
from bot_repro.config_schema import ConfigError
from bot_repro.trainer import vllm_engine
from bot_repro.trainer.vllm_engine import GIB, Engine, check_kv_cache, engine_for, kv_bytes_per_token

# SmolLM2-135M-Instruct's shape (its converted config.json)
SMOL = {"num_hidden_layers": 30, "num_attention_heads": 9, "num_key_value_heads": 3, "hidden_size": 576,
        "max_position_embeddings": 8192}


@pytest.fixture
def model_dir(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps(SMOL))
    (tmp_path / "model.safetensors").write_bytes(b"\0" * 1024)
    return tmp_path


def engine(gb: float | None) -> Engine:
    return Engine(device="cpu", dtype="float32", enforce_eager=True,
                  kv_cache_bytes=None if gb is None else int(gb * GIB))


def test_kv_bytes_per_token_by_hand():
    # 2 (K and V) x 30 layers x 3 KV heads x (576 / 9 = 64) head dim x 4 bytes = 46,080
    assert kv_bytes_per_token(SMOL, "float32") == 46_080
    assert kv_bytes_per_token({"text_config": SMOL}, "bfloat16") == 23_040
    assert kv_bytes_per_token({**SMOL, "head_dim": 128}, "float32") == 92_160


def test_cache_below_the_models_context_window_is_refused(model_dir):
    # 8192 x 46,080 B = 0.352 GiB: vLLM would refuse 0.25 GiB at start although one 600-token run fits
    with pytest.raises(ConfigError) as err:
        check_kv_cache(engine(0.25), str(model_dir), 600, 24 * GIB)
    msg = str(err.value)
    assert "resources.vllm_kv_cache_gb=0.25" in msg and "8192" in msg and "0.352 GiB" in msg
    assert "trainer.extra.vllm_max_model_length=600" in msg
    check_kv_cache(engine(0.4), str(model_dir), 600, 24 * GIB)  # one window fits


def test_a_shorter_context_window_makes_a_small_cache_enough(model_dir):
    check_kv_cache(engine(0.05), str(model_dir), 600, 24 * GIB, max_model_len=1024)  # 1024 x 46 kB = 45 MiB
    with pytest.raises(ConfigError, match=r"vllm_kv_cache_gb=0.01 .* 1024 tokens \(trainer.extra.vllm_max_model_length\)"):
        check_kv_cache(engine(0.01), str(model_dir), 600, 24 * GIB, max_model_len=1024)


def test_context_window_shorter_than_the_runs_sequences_is_refused(model_dir):
    with pytest.raises(ConfigError, match=r"vllm_max_model_length=512 is shorter .* \(600 tokens\)"):
        check_kv_cache(engine(1), str(model_dir), 600, 24 * GIB, max_model_len=512)


def test_cache_larger_than_the_machine_is_refused(model_dir):
    with pytest.raises(ConfigError, match=r"vllm_kv_cache_gb=30 does not fit.*24.0 GiB"):
        check_kv_cache(engine(30), str(model_dir), 600, 24 * GIB)


def test_no_size_or_a_hub_id_is_left_to_vllm(tmp_path):
    check_kv_cache(engine(None), str(tmp_path), 10**6, GIB)
    check_kv_cache(engine(0.001), "org/some-hub-model", 10**6, GIB)


def test_engine_arguments_follow_the_preset():
    res = ResourcesCfg(name="cpu_vllm", use_vllm=True, vllm_mode="colocate", vllm_enforce_eager=True,
                       vllm_kv_cache_gb=1.0)
    eng = engine_for(res, "float32")
    assert eng.llm_kwargs() == {"dtype": "float32", "enforce_eager": True, "kv_cache_memory_bytes": GIB}
    assert eng.describe()["weight_sync"] == "reload_weights"
    assert engine_for(ResourcesCfg(name="cpu"), "float32") is None
    server = ResourcesCfg(name="l40s_x2", device="cuda", gpus=2, use_vllm=True, vllm_mode="server")
    assert engine_for(server, "bfloat16") is None  # server mode: TRL's client, no colocated engine


def test_missing_vllm_names_the_install_command(monkeypatch):
    monkeypatch.setattr(vllm_engine.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ConfigError, match="make install-vllm"):
        vllm_engine.check_installed(ResourcesCfg(name="cpu_vllm", use_vllm=True, vllm_mode="colocate"))


def test_without_vllm_a_preset_falls_back_to_transformers_only_when_it_says_so(monkeypatch):
    monkeypatch.setattr(vllm_engine.importlib.util, "find_spec", lambda name: None)  # vLLM not installed
    one_gpu = ResourcesCfg(name="one_gpu", device="cuda", gpus=1, use_vllm=True, vllm_fallback="transformers")
    assert vllm_engine.check_installed(one_gpu).use_vllm is False
    with pytest.raises(ConfigError, match=r"resources=a100_80g generates with vLLM .* pip install -e '.\[gpu\]'"):
        vllm_engine.check_installed(ResourcesCfg(name="a100_80g", device="cuda", gpus=1, use_vllm=True))
    cpu = ResourcesCfg(name="cpu")
    assert vllm_engine.check_installed(cpu) is cpu
