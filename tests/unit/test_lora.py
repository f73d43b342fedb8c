"""``model.lora`` at the config door and before any model loads (bot_repro/models/lora.py), and the merged
weights the CPU vLLM sync streams (``merged_named_params``), on tiny random-init models."""

from __future__ import annotations

import json
import shutil

import pytest
import torch

from bot_repro.config import validate
from bot_repro.config_schema import ConfigError
from bot_repro.models import lora
from bot_repro.models.tiny import tiny_config
from tests.conftest import compose, save_adapter

SMOKE = ["debug=smoke", "task.params.warm_start=false"]


@pytest.fixture(scope="module")
def adapter_dir(tiny_qwen2, tmp_path_factory):
    """A LoRA adapter (r 4, q_proj and v_proj) for tiny_qwen2 with its hash record (``save_adapter``)."""
    from transformers import AutoModelForCausalLM

    return save_adapter(AutoModelForCausalLM.from_pretrained(tiny_qwen2), tmp_path_factory.mktemp("adapter") / "a",
                        r=4, alpha=8)


def _lora(*overrides: str) -> lora.LoraCfg:
    return validate(compose([*SMOKE, *overrides])).model.lora


def test_off_by_default_and_defaults_when_on():
    assert _lora() == lora.LoraCfg()
    on = _lora("model.lora.enabled=true")
    assert (on.r, on.alpha, on.dropout, on.target_modules) == (lora.DEFAULT_R, lora.DEFAULT_ALPHA,
                                                               lora.DEFAULT_DROPOUT, lora.ALL_LINEAR)  # fmt: skip


@pytest.mark.parametrize("override, message", [
    ("model.lora.r=0", "model.lora.r=0 is not allowed: expected an integer > 0"),
    ("model.lora.r=-2", "model.lora.r=-2 is not allowed: expected an integer > 0"),
    ("model.lora.alpha=0", "model.lora.alpha=0 is not allowed"),
    ("model.lora.dropout=1.0", "model.lora.dropout=1.0 is not allowed: expected a number in [0, 1)"),
    ("model.lora.target_modules=q_proj", "expected all-linear or a non-empty list of module names"),
    ("model.lora.adapter=shipped:nope", "no shipped adapter 'nope'; shipped:"),
    ("model.lora.adapter=/nonexistent/adapter", "lacks adapter_config.json, adapter_model.safetensors"),
])  # fmt: skip
def test_bad_values_are_refused_at_the_door(override, message):
    with pytest.raises(ConfigError) as err:
        _lora("model.lora.enabled=true", override)
    assert message in str(err.value)


def test_unknown_target_module_is_refused_before_any_model_loads(tmp_path, monkeypatch):
    from bot_repro.trainer import build
    from tests.integration.helpers import run_inprocess

    def loaded(*args, **kwargs):
        raise AssertionError("a model was loaded before the target modules were checked")

    monkeypatch.setattr(build, "resolve_model_path", loaded)
    monkeypatch.setattr(build, "load_model", loaded)
    with pytest.raises(ConfigError) as err:
        run_inprocess([*SMOKE, "model.lora.enabled=true", "model.lora.target_modules=[q_proj,qkv_proj]"],
                      tmp_path / "run")  # fmt: skip
    text = str(err.value)
    assert "model.lora.target_modules=['q_proj', 'qkv_proj'] is not allowed" in text and "no module 'qkv_proj'" in text
    for name in ("down_proj", "gate_proj", "k_proj", "o_proj", "q_proj", "up_proj", "v_proj", "embed_tokens"):
        assert name in text.split("can wrap:")[1], text
    assert not (tmp_path / "run").exists()


def test_a_starting_adapter_turns_lora_on_with_its_own_settings(adapter_dir):
    cfg = _lora(f"model.lora.adapter={adapter_dir}")
    assert (cfg.enabled, cfg.r, cfg.alpha, sorted(cfg.target_modules)) == (True, 4, 8.0, ["q_proj", "v_proj"])
    assert _lora(f"model.lora.adapter={adapter_dir}", "model.lora.r=4").r == 4  # the same value is no conflict
    with pytest.raises(ConfigError, match=r"model.lora.r=8 conflicts with the starting adapter's 4 .*leave model.lora.r"):
        _lora(f"model.lora.adapter={adapter_dir}", "model.lora.r=8")


def test_shipped_names_the_packages_adapter_folder(adapter_dir, tmp_path, monkeypatch):
    shutil.copytree(adapter_dir, tmp_path / "arith_format")
    monkeypatch.setattr(lora, "ADAPTERS_DIR", tmp_path)
    assert lora.resolve_adapter("shipped:arith_format") == tmp_path / "arith_format"
    with pytest.raises(ConfigError, match="no shipped adapter 'other'; shipped: arith_format"):
        lora.resolve_adapter("shipped:other")


def test_a_changed_adapter_fails_its_hash_naming_both_and_the_restore(adapter_dir, tmp_path):
    bad = tmp_path / "bad"
    shutil.copytree(adapter_dir, bad)
    (bad / lora.RECORD_FILE).write_text(json.dumps({"hash": "0" * 64}))
    with pytest.raises(ConfigError) as err:
        lora.resolve_adapter(str(bad))
    text = str(err.value)
    assert str(bad / lora.WEIGHTS_FILE) in text and "0" * 64 in text and lora.adapter_hash(bad) in text
    assert lora.RESTORE in text
    (bad / lora.RECORD_FILE).unlink()  # no record: nothing to compare with
    assert lora.resolve_adapter(str(bad)) == bad


def test_a_broken_adapter_file_is_a_config_error_before_any_folder(adapter_dir, tmp_path):
    """One byte changed in the safetensors header of an adapter without an adapter.json record (no hash to
    compare): a ConfigError naming the file and what is wrong, not safetensors' own error, and no run folder;
    an adapter_config.json that is not JSON likewise (issue #53)."""
    from tests.integration.helpers import run_inprocess

    bad = tmp_path / "bad"
    shutil.copytree(adapter_dir, bad)
    (bad / lora.RECORD_FILE).unlink()
    data = bytearray((bad / lora.WEIGHTS_FILE).read_bytes())
    data[8] ^= 0x01  # the header's opening brace, after its 8-byte length
    (bad / lora.WEIGHTS_FILE).write_bytes(bytes(data))
    with pytest.raises(ConfigError) as err:
        run_inprocess([*SMOKE, f"model.lora.adapter={bad}"], tmp_path / "run")
    assert f"{bad / lora.WEIGHTS_FILE} is not a readable safetensors file (Error while deserializing header" in str(err.value)
    assert not (tmp_path / "run").exists()
    (bad / lora.CONFIG_FILE).write_text('{"peft_type": "LORA",')
    with pytest.raises(ConfigError, match=f"{bad / lora.CONFIG_FILE} is not valid JSON"):
        _lora(f"model.lora.adapter={bad}")


def test_an_adapter_for_another_model_is_refused_on_the_meta_device(adapter_dir):
    cfg = lora.resolve(lora.LoraCfg(adapter=str(adapter_dir)))
    fits = lora.meta_module_shapes(tiny_config("qwen2"))
    lora.check_modules(cfg, fits, "tiny_qwen2")
    wider = lora.meta_module_shapes(tiny_config("qwen2", hidden_size=128, num_layers=4))
    with pytest.raises(ConfigError, match=r"does not fit model mini_qwen2: .*q_proj.lora_A.weight has shape \[4, 64\]"):
        lora.check_modules(cfg, wider, "mini_qwen2")
    shallower = lora.meta_module_shapes(tiny_config("qwen2", num_layers=1))
    with pytest.raises(ConfigError, match="for a module 'model.layers.1.self_attn.q_proj' the model does not have"):
        lora.check_modules(cfg, shallower, "one layer")
    other = lora.meta_module_shapes(tiny_config("phi3"))  # no q_proj / v_proj: a fused qkv_proj
    with pytest.raises(ConfigError, match=r"'s\) is not allowed: model tiny_phi3 has no module .*can wrap: .*qkv_proj"):
        lora.check_modules(cfg, other, "tiny_phi3")


def test_merged_weights_are_peft_merge_and_leave_the_base_untouched(adapter_dir, tiny_qwen2):
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    model = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(tiny_qwen2), str(adapter_dir))
    before = {k: v.clone() for k, v in model.state_dict().items()}
    merged = dict(lora.merged_named_params(model))
    assert all(torch.equal(v, model.state_dict()[k]) for k, v in before.items())  # nothing written
    reference = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(tiny_qwen2), str(adapter_dir))
    expected = dict(reference.merge_and_unload().named_parameters())
    assert sorted(merged) == sorted(expected)  # vLLM's names: no base_model.model., base_layer or lora_A/B
    for name, value in expected.items():
        torch.testing.assert_close(merged[name], value, rtol=0, atol=1e-6, msg=name)
    q = "model.layers.0.self_attn.q_proj.weight"
    assert not torch.equal(merged[q], before[f"base_model.model.{q.replace('.weight', '.base_layer.weight')}"])


def test_merged_runs_as_the_adapter_and_gives_the_base_weights_back(adapter_dir, tiny_qwen2):
    """``lora.merged`` (sampling, #51): inside, the adapters are off and the deltas are in the weights, so the
    outputs are the adapter's to float rounding; after, even after an error inside, each base weight is its
    own tensor again, bit for bit, and the adapter is on."""
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    model = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(tiny_qwen2), str(adapter_dir)).eval()
    ids = torch.randint(3, model.config.vocab_size, (2, 7), generator=torch.Generator().manual_seed(0))
    base = {k: (v, v.clone()) for k, v in model.state_dict().items() if "base_layer" in k}
    with torch.no_grad():
        want = model(input_ids=ids).logits
        with model.disable_adapter():
            plain = model(input_ids=ids).logits
        with lora.merged(model):
            got = model(input_ids=ids).logits
            q = "base_model.model.model.layers.0.self_attn.q_proj.base_layer.weight"
            assert not torch.equal(model.state_dict()[q], base[q][1])  # the delta is in the weight
        with pytest.raises(RuntimeError, match="inside"), lora.merged(model):
            raise RuntimeError("inside")
        after = model(input_ids=ids).logits
    torch.testing.assert_close(got, want, rtol=0, atol=1e-5)
    assert (want - plain).abs().max() > 1e-3  # the adapter changes the outputs: the check above has teeth
    assert torch.equal(after, want)
    for k, (tensor, values) in base.items():
        now = model.state_dict()[k]
        assert now.data_ptr() == tensor.data_ptr() and torch.equal(now, values), k


def test_merged_leaves_other_models_as_they_are(adapter_dir, tiny_qwen2):
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    plain = AutoModelForCausalLM.from_pretrained(tiny_qwen2)
    dora = get_peft_model(AutoModelForCausalLM.from_pretrained(tiny_qwen2),
                          LoraConfig(r=2, target_modules=["q_proj"], use_dora=True))
    for model in (plain, dora):
        before = {k: v.data_ptr() for k, v in model.state_dict().items()}
        with lora.merged(model):
            assert {k: v.data_ptr() for k, v in model.state_dict().items()} == before
    assert lora._mergeable(dora) == []
