"""resources.vllm_fallback=transformers when the colocated engine cannot load the model: the trainer
is built again without vLLM, says why, and records it; without the setting the error names it."""

from __future__ import annotations

import logging

import pytest

from bot_repro.config import validate
from bot_repro.trainer import build
from bot_repro.trainer.vllm_engine import VllmEngineError
from tests.conftest import compose


def _fail_with_an_engine(monkeypatch):
    """An engine that 'exists' (vLLM need not be installed) and a trainer that cannot start with it."""
    real = build.BoTGRPOTrainer

    def trainer(*args, engine=None, **kwargs):
        if engine is not None:
            raise VllmEngineError("vLLM could not load the model")
        return real(*args, engine=engine, **kwargs)

    monkeypatch.setattr(build, "check_installed", lambda res: res)
    monkeypatch.setattr(build, "engine_for", lambda res, dtype: object())
    monkeypatch.setattr(build, "check_kv_cache", lambda *a, **k: None)
    monkeypatch.setattr(build, "BoTGRPOTrainer", trainer)


def test_a_failed_engine_falls_back_to_transformers_and_says_so(tmp_path, monkeypatch, caplog):
    _fail_with_an_engine(monkeypatch)
    cfg = validate(compose(["debug=smoke", "task=mini", "+resources.vllm_fallback=transformers"]))
    with caplog.at_level(logging.WARNING, logger=build.log.name):
        trainer, _, _ = build.build_trainer(cfg, tmp_path, 0.0, step_lines=False)
    assert trainer.generation_fallback == "vLLM could not load the model"
    assert "generating with transformers instead" in caplog.text


def test_without_the_fallback_the_engine_error_names_the_setting(tmp_path, monkeypatch):
    _fail_with_an_engine(monkeypatch)
    cfg = validate(compose(["debug=smoke", "task=mini"]))
    with pytest.raises(VllmEngineError, match="resources.vllm_fallback=transformers"):
        build.build_trainer(cfg, tmp_path, 0.0, step_lines=False)
