"""The private TRL / transformers / vLLM names our modules depend on (each listed in its module docstring).

Each check fails when an upgrade renames or reshapes one, so the upgrade is reviewed instead of
silently changing training: the pins in pyproject.toml say which release these were read from.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
import transformers
import trl
from transformers import Trainer
from trl import GRPOTrainer

from bot_repro.trainer import bot_trainer

PYPROJECT = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()


def _pinned(name: str) -> str:
    match = re.search(rf'"{name}==([^"]+)"', PYPROJECT)
    assert match, f"{name} is not pinned exactly in pyproject.toml"
    return match.group(1)


def test_installed_versions_are_the_pinned_ones():
    assert trl.__version__ == _pinned("trl")
    assert transformers.__version__ == _pinned("transformers")
    peft = pytest.importorskip("peft")
    assert peft.__version__ == _pinned("peft")


def test_generate_and_score_completions_signature_and_outputs():
    fn = GRPOTrainer._generate_and_score_completions
    assert list(inspect.signature(fn).parameters) == ["self", "inputs"]
    src = inspect.getsource(fn)
    for key in ('"completion_ids"', '"completion_mask"', '"advantages"'):
        assert key in src, f"TRL's _generate_and_score_completions no longer returns {key}"


def test_metrics_store_shape():
    src = inspect.getsource(GRPOTrainer.__init__)
    assert 'self._metrics = {"train": defaultdict(list), "eval": defaultdict(list)}' in src


def test_reward_functions_get_log_metric():
    src = inspect.getsource(GRPOTrainer._calculate_rewards)
    assert 'reward_kwargs["log_metric"] = self._log_metric' in src


def test_load_warning_hook():
    fn = Trainer._issue_warnings_after_load
    assert list(inspect.signature(fn).parameters) == ["self", "load_result"]
    assert "There were missing keys in the checkpoint model loaded" in inspect.getsource(fn)


def test_outage_checkpoint_and_skip_hooks():
    """A judge outage stop saves with ``_save_checkpoint``; a skipped step drops gradients in
    ``on_pre_optimizer_step``, which must fire after clipping and before ``optimizer.step()``."""
    assert list(inspect.signature(Trainer._save_checkpoint).parameters) == ["self", "model", "trial"]
    src = inspect.getsource(Trainer._run_epoch)
    pre, step = src.index("on_pre_optimizer_step"), src.index("self.optimizer.step()")
    assert src.index("_clip_grad_norm") < pre < step


def test_loss_logprobs_and_micro_batch_hooks():
    """``shared_prefix``: our ``_get_per_token_logps_and_entropies`` takes TRL's arguments and returns its
    triple; our ``_prepare_inputs`` is TRL's train branch less the shuffle (the names it reads below)."""
    params = list(inspect.signature(GRPOTrainer._get_per_token_logps_and_entropies).parameters)
    assert params[:8] == ["self", "model", "input_ids", "attention_mask", "logits_to_keep", "batch_size",
                          "compute_entropy", "compute_aux_loss"]
    assert "return logps, entropies, aux_loss" in inspect.getsource(GRPOTrainer._get_per_token_logps_and_entropies)
    src = inspect.getsource(GRPOTrainer._prepare_inputs)
    for line in ("generate_every = self.args.steps_per_generation * self.num_iterations",
                 "if self._step % generate_every == 0 or self._buffered_inputs is None:",
                 "generation_batch = shuffle_sequence_dict(generation_batch)",
                 "generation_batches = split_tensor_dict(generation_batch, self.args.steps_per_generation)",
                 "inputs = self._buffered_inputs[self._step % self.args.steps_per_generation]"):
        assert line in src, line
    from trl.trainer.utils import shuffle_sequence_dict

    assert "permutation = torch.randperm(batch_size)" in inspect.getsource(shuffle_sequence_dict)
    fused = inspect.getsource(trl.trainer.utils.add_fused_lm_head)
    assert 'kwargs["use_cache"] = False' in fused and "shift_labels" in fused


def test_loss_computes_its_logprobs_through_the_one_method():
    """The KL from the starting policy (``bot_repro.trainer.drift``) keeps the logprobs of the loss's one
    ``_get_per_token_logps_and_entropies`` call and calls that method again with the start's weights."""
    assert list(inspect.signature(GRPOTrainer._compute_loss).parameters) == ["self", "model", "inputs"]
    loss_src = inspect.getsource(GRPOTrainer._compute_loss)
    assert loss_src.count("self._get_per_token_logps_and_entropies(") == 1
    assert "per_token_logps, entropies, aux_loss = self._get_per_token_logps_and_entropies(" in loss_src
    params = list(inspect.signature(GRPOTrainer._get_per_token_logps_and_entropies).parameters)
    assert params[:5] == ["self", "model", "input_ids", "attention_mask", "logits_to_keep"]
    src = inspect.getsource(GRPOTrainer._get_per_token_logps_and_entropies)
    assert "outputs = model(**model_inputs" in src and "return logps, entropies, aux_loss" in src


def test_docstring_lists_every_guarded_name():
    doc = bot_trainer.__doc__
    for name in ("_generate_and_score_completions", "_metrics", "_calculate_rewards", "_issue_warnings_after_load",
                 "_save_checkpoint", "on_pre_optimizer_step", "_get_per_token_logps_and_entropies", "_prepare_inputs",
                 "_buffered_inputs", "split_tensor_dict", "_compute_loss"):
        assert name in doc, name


# ---- names outside bot_trainer.py (#24 item 8): each module's docstring lists its own ----------------


def _trl_metric_keys() -> set[str]:
    """Keys GRPOTrainer writes into ``self._metrics[mode][...]`` or transformers' Trainer into ``logs[...]``."""
    trl_src = inspect.getsource(GRPOTrainer)
    hf_src = inspect.getsource(Trainer)
    keys = set(re.findall(r'_metrics\[mode\]\["([^"]+)"\]', trl_src))
    keys |= set(re.findall(r'logs\["([^"]+)"\]', hf_src))
    return keys


def test_renamed_log_keys_are_still_logged():
    from bot_repro.run_folder.schema import RENAME

    logged = _trl_metric_keys()
    missing = sorted(k for k in RENAME if k not in logged)
    assert not missing, f"TRL/transformers no longer log {missing}: run_folder.schema.RENAME reads them"


def test_vllm_sampling_keys_are_still_logged():
    from bot_repro.run_folder.schema import PASSTHROUGH_PREFIXES, VLLM_SAMPLING_KEYS

    missing = sorted(k for k in VLLM_SAMPLING_KEYS if k not in _trl_metric_keys())
    assert not missing, f"TRL no longer logs {missing}: run_folder.schema.VLLM_SAMPLING_KEYS names them"
    assert all(k.startswith(PASSTHROUGH_PREFIXES) for k in VLLM_SAMPLING_KEYS)  # they reach metrics.jsonl


def test_reward_kwargs_added_by_trl_are_the_listed_ones():
    from bot_repro.trainer.token_reward import _TRL_KWARGS

    src = inspect.getsource(GRPOTrainer._calculate_rewards)
    added = set(re.findall(r'(?<!\w)reward_kwargs\["([^"]+)"\]\s*=', src))
    assert added == set(_TRL_KWARGS), f"TRL now adds reward kwargs {sorted(added)}; token_reward lists {sorted(_TRL_KWARGS)}"


def test_basic_sweeper_split_arguments_expands_as_the_sweep_expects():
    from hydra._internal.core_plugins.basic_sweeper import BasicSweeper
    from hydra.core.override_parser.overrides_parser import OverridesParser

    assert list(inspect.signature(BasicSweeper.split_arguments).parameters) == ["overrides", "max_batch_size"]
    parsed = OverridesParser.create().parse_overrides(["seed=0,1", "algorithm=grpo,bot_grpo", "trainer.max_steps=2"])
    batches = BasicSweeper.split_arguments(parsed, None)
    assert len(batches) == 1 and len(batches[0]) == 4
    assert ["seed=0", "algorithm=grpo", "trainer.max_steps=2"] in batches[0]


def test_module_docstrings_list_their_private_names():
    from bot_repro.experiment import sweep
    from bot_repro.run_folder import schema
    from bot_repro.trainer import token_reward

    assert "BasicSweeper.split_arguments" in sweep.__doc__
    assert "_calculate_rewards" in token_reward.__doc__
    assert "RENAME" in schema.__doc__ and "_metrics" in schema.__doc__


# ---- the colocated vLLM engine's names (bot_repro/trainer/vllm_engine.py's docstring lists them) -------------


def _vllm_generation():
    pytest.importorskip("vllm", reason="vLLM is not installed (make install-vllm); its private names are not checked")
    from trl.generation import vllm_generation

    return vllm_generation


def test_vllm_engine_docstring_lists_its_private_names():
    from bot_repro.trainer import vllm_engine

    doc = " ".join(vllm_engine.__doc__.split())
    for name in ("trl.generation.vllm_generation.LLM", "_iter_named_params", ".model", ".llm", ".sync_weights",
                 "reload_weights", ".get_model()", "process_weights_after_loading"):  # fmt: skip
        assert name in doc, name


def test_trl_builds_the_engine_through_its_module_global_llm():
    vg = _vllm_generation()
    src = inspect.getsource(vg.VLLMGeneration._init_vllm)
    assert "self.llm = LLM(" in src, "TRL no longer builds the colocated engine as self.llm = LLM(...)"
    # engine_arguments adds these; TRL passing one itself would be a duplicate keyword (TypeError)
    call = src[src.index("self.llm = LLM(") :]
    call = call[: call.index("\n            )")]
    passed = set(re.findall(r"^\s+(\w+)=", call, re.M))
    assert "model" in passed and "logprobs_mode" in passed, sorted(passed)
    added = {"dtype", "enforce_eager", "kv_cache_memory_bytes"} & passed
    assert not added, f"TRL now passes {sorted(added)} to LLM(...), as vllm_engine.engine_arguments does"
    from vllm import LLM

    assert vg.LLM is LLM


def test_trl_sync_weights_and_param_stream():
    vg = _vllm_generation()
    for name in ("sync_weights", "_iter_named_params"):
        assert list(inspect.signature(getattr(vg.VLLMGeneration, name)).parameters) == ["self"], name
    src = inspect.getsource(vg.VLLMGeneration.sync_weights)
    # the colocate path vllm_engine replaces on CPU, and the cache reset it repeats
    assert "self.llm.llm_engine.model_executor.driver_worker.model_runner.model.load_weights" in src
    assert "self.llm.reset_prefix_cache()" in src
    # a LoRA policy's CPU sync reads the trainer's (peft) model from the generation object
    assert "self.model = model" in inspect.getsource(vg.VLLMGeneration.__init__)
    # the trainer calls the instance's sync_weights, so adapt_sync's per-instance method is what runs
    assert "self.vllm_generation.sync_weights()" in inspect.getsource(GRPOTrainer)


def test_vllm_reload_weights_and_tied_head():
    _vllm_generation()
    from vllm.model_executor.layers.vocab_parallel_embedding import UnquantizedEmbeddingMethod
    from vllm.v1.worker.cpu_model_runner import CPUModelRunner

    params = inspect.signature(CPUModelRunner.reload_weights).parameters
    assert {"weights_iterator", "is_checkpoint_format"} <= set(params)
    assert params["is_checkpoint_format"].default is True
    assert list(inspect.signature(CPUModelRunner.get_model).parameters) == ["self"]
    # repack_shared_weights finds a tied head by Parameter identity and rebuilds it with this method
    assert "layer.weight = embed_tokens.weight" in inspect.getsource(UnquantizedEmbeddingMethod.tie_weights)
    assert "dispatch_cpu_unquantized_gemm" in inspect.getsource(UnquantizedEmbeddingMethod.process_weights_after_loading)
