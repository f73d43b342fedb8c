"""Assemble a training run from validated config sections: judge, task, reward, model, trainer.

Order matters: everything that can fail on bad input (config, credentials, data rows) runs
before the model is loaded, so mistakes cost seconds, not a model download.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import os
from pathlib import Path
from typing import Any

import torch
from datasets import Dataset
from transformers import AutoModelForCausalLM, AutoTokenizer
from trl import GRPOConfig

from bot_repro.cache import cache_root
from bot_repro.config import RunConfig
from bot_repro.judges import JudgeClient
from bot_repro.models import lora, prompt_format
from bot_repro.models.gguf import GgufUnavailableError, converted_dir, gguf_path
from bot_repro.models.tiny import build_tiny
from bot_repro.run_folder.schema import CHECKPOINTS, EVAL, METRICS, ROLLOUTS
from bot_repro.tasks.base import Task, build_task
from bot_repro.trainer import console
from bot_repro.trainer.bot_trainer import BoTGRPOTrainer
from bot_repro.trainer.callbacks import HeldOutEval, MetricsJsonl, SharedPrefixSampler
from bot_repro.trainer.token_reward import TokenRewardFunction
from bot_repro.trainer.vllm_engine import (
    EngineSampler,
    VllmEngineError,
    check_installed,
    check_kv_cache,
    engine_for,
    longest_prompt_tokens,
)

log = logging.getLogger(__name__)


def resolve_model_path(cfg: RunConfig, task: Task, seed: int, progress=None) -> str:
    """The hub id of a real model, the folder converted from its ``gguf_file``, or the path of the
    (cached) tiny model after the task's warm start (``progress(step, total)``: see ``Task.warm_start``)."""
    model = cfg.model
    if model.hub_id and model.gguf_file:
        try:
            return str(converted_dir(gguf_path(model.hub_id, model.gguf_file), model.dtype, cache_root()))
        except GgufUnavailableError as exc:
            raise ModelUnavailableError(str(exc)) from None
    if model.hub_id:
        return model.hub_id
    corpus = task.tokenizer_corpus()
    tiny_kwargs = dict(model.tiny or {})
    digest = hashlib.sha256(json.dumps([corpus, sorted(tiny_kwargs.items())], default=str).encode()).hexdigest()
    key = f"{model.family}-{digest[:12]}"
    path = build_tiny(model.family, cache_root() / "tiny" / key, corpus=corpus, **tiny_kwargs)
    return str(task.warm_start(path, cache_root() / "warm", seed, progress))


def _total_memory() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


class ModelUnavailableError(RuntimeError):
    """The model's weights or tokenizer could not be loaded from the hub or a local folder."""


def _hub_reachable() -> bool:
    """One request, no retries: huggingface_hub retries a dead connection for about 100 s."""
    from huggingface_hub import constants
    from huggingface_hub.utils import get_session

    try:
        get_session().head(constants.ENDPOINT, timeout=5)
        return True
    except Exception:  # DNS, refused, timeout: any failure means the hub cannot be used now
        return False


def _use_hub_cache_or_fail(path: str) -> None:
    """Before loading a hub id: with no hub access, read the local cache (if it has the model) or
    fail at once with what to do, instead of minutes of retries and a long traceback."""
    from huggingface_hub import constants, try_to_load_from_cache

    if Path(path).is_dir() or constants.HF_HUB_OFFLINE or _hub_reachable():
        return
    if isinstance(try_to_load_from_cache(path, "config.json"), str):
        log.warning("the Hugging Face hub is unreachable: loading %s from the local cache (HF_HUB_OFFLINE)", path)
        os.environ["HF_HUB_OFFLINE"] = "1"
        constants.HF_HUB_OFFLINE = True
        return
    raise ModelUnavailableError(
        f"cannot reach the Hugging Face hub ({constants.ENDPOINT}) to download model.hub_id={path!r}, and it is "
        "not in the local cache. Point model.hub_id at a local folder with the weights and tokenizer "
        f"(`huggingface-cli download {path} --local-dir <dir>` on a machine with access), or use a tiny "
        "model (debug=smoke)"
    )


def load_model(m, path: str):
    """(tokenizer, model) from a hub id or a local folder; an unreachable hub is one clear error."""
    _use_hub_cache_or_fail(path)
    try:
        tok = AutoTokenizer.from_pretrained(path, trust_remote_code=m.trust_remote_code, revision=m.revision)
    except OSError as exc:  # huggingface_hub's connection, 404 and gated-repo errors are all OSErrors
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        offline = " (HF_HUB_OFFLINE=1 is set, so only the local cache is read)" if os.environ.get(
            "HF_HUB_OFFLINE") == "1" else ""
        raise ModelUnavailableError(
            f"could not load model.hub_id={path!r}{offline}: {first[:300]}. Point model.hub_id at a local "
            "folder holding the weights and tokenizer (e.g. one made by `huggingface-cli download "
            f"{path} --local-dir <dir>`), or set HF_HUB_OFFLINE=1 to use the Hugging Face cache only"
        ) from None
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    prompt_format.apply(tok, m.prompt_format, m.name)  # plain: the tokenizer renders the plain format
    model = AutoModelForCausalLM.from_pretrained(
        path,
        dtype=getattr(torch, m.dtype),
        trust_remote_code=m.trust_remote_code,
        revision=m.revision,
        **({"attn_implementation": m.attn_implementation} if m.attn_implementation else {}),
    )
    return tok, model


# trainer/ and resources/ fields that GRPOConfig takes under the same name and meaning
TRAINER_TO_TRL = (
    "max_steps", "learning_rate", "lr_scheduler_type", "warmup_steps", "weight_decay", "max_grad_norm",
    "num_generations", "max_completion_length", "temperature", "top_p", "num_iterations", "beta",
    "save_steps", "save_total_limit",
)  # fmt: skip
RESOURCES_TO_TRL = ("use_vllm", "vllm_mode", "vllm_gpu_memory_utilization")


def grpo_args(cfg: RunConfig, run_dir: Path) -> GRPOConfig:
    tr, res, log = cfg.trainer, cfg.resources, cfg.logger
    per_device, grad_acc = cfg.batch
    cpu = res.device == "cpu"
    kwargs: dict[str, Any] = {name: getattr(tr, name) for name in TRAINER_TO_TRL}
    kwargs.update({name: getattr(res, name) for name in RESOURCES_TO_TRL})
    kwargs.update(
        output_dir=str(run_dir / CHECKPOINTS),
        seed=cfg.seed,
        per_device_train_batch_size=per_device,
        gradient_accumulation_steps=grad_acc,
        logging_steps=1,
        save_strategy="steps",
        report_to=[] if log.wandb_mode == "disabled" else ["wandb"],
        disable_tqdm=not log.progress_bar,
        use_cpu=cpu,
        bf16=res.bf16 and not cpu,
        activation_checkpointing=res.gradient_checkpointing and not cpu,  # transformers 5 name
        chat_template_kwargs=dict(cfg.model.chat_template_kwargs) or None,
        eval_strategy="no",
        dataloader_num_workers=0,
        # with use_vllm: TRL recomputes the trainer's logprobs of every vLLM completion, logs the gap
        # (sampling/... in metrics.jsonl) and corrects the loss by the vLLM-to-trainer ratio; TRL's default,
        # stated so no preset loses it silently (trainer.extra may still turn it off). Mode and bounds stay
        # TRL's: sequence_mask, a sequence whose ratio exceeds 3.0 gets zero weight.
        vllm_importance_sampling_correction=True,
    )
    kwargs.update(cfg.algorithm.trl)
    kwargs.update(tr.extra)
    return GRPOConfig(**kwargs)


def build_trainer(cfg: RunConfig, run_dir: Path, start_time: float, step_lines: bool = True):
    """Return (trainer, metrics_callback, judge) from ``bot_repro.config.validate``'s result.

    Everything checkable (credentials, data rows) is checked before the weights load. ``step_lines``:
    the run prints a line per step (``bot_repro.trainer.console``); a sweep's job prints none.
    """
    if cfg.resources.torch_threads:
        torch.set_num_threads(cfg.resources.torch_threads)
    judge = JudgeClient(cfg.judge, run_dir) if cfg.judge is not None else None
    try:
        return _build(cfg, run_dir, start_time, judge, step_lines)
    except BaseException:
        if judge is not None:  # the caller never sees it: close its HTTP session here
            judge.close()
        raise


def _build(cfg: RunConfig, run_dir: Path, start_time: float, judge, step_lines: bool):
    seed = cfg.seed
    cfg = dataclasses.replace(cfg, resources=check_installed(cfg.resources))
    if judge is not None:
        judge.check_credentials()
    task, source = build_task(cfg, judge=judge, run_dir=run_dir, seed=seed)
    train_rows, test_rows = task.datasets()
    logger = cfg.logger  # not `log`: the module's logger warns of a vLLM fallback below
    os.environ.setdefault("WANDB_MODE", logger.wandb_mode)
    os.environ.setdefault("WANDB_PROJECT", logger.wandb_project)
    os.environ.setdefault("WANDB_DIR", str(run_dir))
    if logger.wandb_entity:
        os.environ.setdefault("WANDB_ENTITY", logger.wandb_entity)
    args = grpo_args(cfg, run_dir)

    path = resolve_model_path(cfg, task, seed)
    tok, model = load_model(cfg.model, path)
    m = cfg.model
    peft_config = None
    if m.lora.enabled:  # checked on the model's files before (train.check_model); a hub model is checked here
        lora.check_modules(m.lora, lora.module_shapes(model), m.name)
        if m.lora.adapter:
            model = lora.load_adapter(model, m.lora)
        else:
            peft_config = lora.peft_config(m.lora)  # TRL wraps the model (after seeding: the adapter's init)
    engine = engine_for(cfg.resources, m.dtype)
    if engine is not None:  # before the engine starts: a KV cache that cannot work is a config error
        tokens = longest_prompt_tokens(train_rows + test_rows, tok, dict(m.chat_template_kwargs))
        check_kv_cache(engine, path, tokens + cfg.trainer.max_completion_length, _total_memory(),
                       args.vllm_max_model_length)
    make = functools.partial(
        BoTGRPOTrainer,
        model=model,
        train_dataset=Dataset.from_list(train_rows),
        processing_class=tok,
        token_reward=TokenRewardFunction(source, tok, cfg.reward.window, judge=judge),
        advantage=cfg.algorithm.name,
        advantage_options=cfg.advantage_options(),
        dynamic_sampling=cfg.algorithm.dynamic_sampling,
        rollout_dir=run_dir / ROLLOUTS,
        rollouts_per_step=cfg.trainer.rollouts_per_step,
        peft_config=peft_config,
        shared_prefix=cfg.trainer.shared_prefix,
        fused_lora=cfg.trainer.fused_lora,
        sampler=cfg.trainer.sampler,
        drift=cfg.trainer.drift,
    )
    try:
        trainer = make(args=args, engine=engine)
    except VllmEngineError as exc:
        if cfg.resources.vllm_fallback != "transformers":
            raise VllmEngineError(f"{exc}. To generate with transformers instead when vLLM cannot load a model, "
                                  "set resources.vllm_fallback=transformers") from exc.__cause__
        log.warning("%s: generating with transformers instead (resources.vllm_fallback=transformers)", exc)
        no_vllm = dataclasses.replace(cfg, resources=dataclasses.replace(cfg.resources, use_vllm=False))
        trainer = make(args=grpo_args(no_vllm, run_dir), engine=None)
        trainer.generation_fallback = str(exc)
    metrics = MetricsJsonl(run_dir / METRICS, trainer, start_time, cfg.composed, trainer.drift)
    trainer.add_callback(metrics)
    ev = cfg.trainer.eval
    if ev.every > 0 and test_rows:
        max_new = ev.max_new_tokens or cfg.trainer.max_completion_length
        sampler = (EngineSampler(trainer.vllm_generation, tok) if trainer.engine is not None
                   else SharedPrefixSampler(tok, trainer.eos_token_ids, ev.batch_size)
                   if cfg.trainer.sampler == "shared_prefix" else None)
        trainer.add_callback(HeldOutEval(task, test_rows, tok, ev, max_new, dict(m.chat_template_kwargs),
                                         run_dir / EVAL, metrics, sampler=sampler))
    console.install(trainer, metrics, step_lines, bar=cfg.logger.progress_bar)
    return trainer, metrics, judge
