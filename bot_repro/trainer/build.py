"""Assemble a training run from validated config sections: judge, task, reward, model, trainer.

Order matters: everything that can fail on bad input (config, credentials, data rows) runs
before the model is loaded, so mistakes cost seconds, not a model download.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import torch
from datasets import Dataset
from omegaconf import DictConfig, OmegaConf
from transformers import AutoModelForCausalLM, AutoTokenizer
from trl import GRPOConfig

from bot_repro.config import advantage_options, check_batch
from bot_repro.config_errors import ConfigError
from bot_repro.models.tiny import build_tiny
from bot_repro.rewards import REWARD_SOURCES
from bot_repro.tasks import TASKS
from bot_repro.trainer.bot_trainer import BoTGRPOTrainer, DynamicSampling
from bot_repro.trainer.callbacks import HeldOutEval, MetricsJsonl
from bot_repro.trainer.token_reward import TokenRewardFunction


def cache_dir() -> Path:
    return Path(os.environ.get("BOT_REPRO_CACHE", Path.home() / ".cache" / "bot_repro"))


def check_rows(rows: list[dict], split: str) -> None:
    for i, row in enumerate(rows):
        prompt = row.get("prompt")
        ok = isinstance(prompt, list) and prompt and all(isinstance(m, dict) and "content" in m for m in prompt)
        if not ok:
            raise ConfigError(
                f"{split} row {i} (id {row.get('id', '?')!r}) has no valid 'prompt': expected a non-empty list "
                f"of chat messages {{'role', 'content'}}, got {str(prompt)[:80]!r}"
            )


def build_judge(cfg: DictConfig, run_dir: Path):
    node = cfg.get("judge")
    if node is None:
        return None
    from bot_repro.judges import build_judge_client

    client = build_judge_client(OmegaConf.to_container(node, resolve=True), run_dir)
    if client is not None:
        client.check_credentials()
    return client


def resolve_model_path(sec: dict[str, Any], task, seed: int) -> str:
    model = sec["model"]
    if model.hub_id:
        return model.hub_id
    corpus = task.tokenizer_corpus() if hasattr(task, "tokenizer_corpus") else None
    tiny_kwargs = dict(model.tiny or {})
    digest = hashlib.sha256(json.dumps([corpus, sorted(tiny_kwargs.items())], default=str).encode()).hexdigest()
    key = f"{model.family}-{digest[:12]}"
    path = build_tiny(model.family, cache_dir() / "tiny" / key, corpus=corpus, **tiny_kwargs)
    if hasattr(task, "warm_start"):
        path = task.warm_start(path, cache_dir() / "warm", seed)
    return str(path)


# trainer/ and resources/ fields that GRPOConfig takes under the same name and meaning
TRAINER_TO_TRL = (
    "max_steps", "learning_rate", "lr_scheduler_type", "warmup_steps", "weight_decay", "max_grad_norm",
    "num_generations", "max_completion_length", "temperature", "top_p", "num_iterations", "beta",
    "save_steps", "save_total_limit",
)  # fmt: skip
RESOURCES_TO_TRL = ("use_vllm", "vllm_mode", "vllm_gpu_memory_utilization")


def grpo_args(sec: dict[str, Any], run_dir: Path, seed: int) -> GRPOConfig:
    tr, res, log = sec["trainer"], sec["resources"], sec["logger"]
    per_device, grad_acc = check_batch(tr, world_size=int(os.environ.get("WORLD_SIZE", 1)))
    cpu = res.device == "cpu"
    kwargs: dict[str, Any] = {name: getattr(tr, name) for name in TRAINER_TO_TRL}
    kwargs.update({name: getattr(res, name) for name in RESOURCES_TO_TRL})
    kwargs.update(
        output_dir=str(run_dir / "checkpoints"),
        seed=seed,
        per_device_train_batch_size=per_device,
        gradient_accumulation_steps=grad_acc,
        logging_steps=1,
        save_strategy="steps",
        report_to=[] if log.wandb_mode == "disabled" else ["wandb"],
        disable_tqdm=not log.progress_bar,
        use_cpu=cpu,
        bf16=res.bf16 and not cpu,
        gradient_checkpointing=res.gradient_checkpointing and not cpu,
        chat_template_kwargs=dict(sec["model"].chat_template_kwargs) or None,
        eval_strategy="no",
        dataloader_num_workers=0,
    )
    kwargs.update(sec["algorithm"].trl)
    kwargs.update(tr.extra)
    return GRPOConfig(**kwargs)


def build_trainer(cfg: DictConfig, sec: dict[str, Any], run_dir: Path, start_time: float):
    """Return (trainer, metrics_callback, judge). Everything checkable is checked before loading weights."""
    seed = int(cfg.seed)
    if sec["resources"].torch_threads:
        torch.set_num_threads(sec["resources"].torch_threads)
    judge = build_judge(cfg, run_dir)
    model_dict = OmegaConf.to_container(cfg.model, resolve=True)
    task = TASKS[sec["task"].name](dict(sec["task"].params), model_dict)
    train_rows, test_rows = task.datasets()
    check_rows(train_rows, "train")
    check_rows(test_rows, "test")
    reward_dict = OmegaConf.to_container(cfg.reward, resolve=True)
    reward_dict.pop("smoke", None)
    source = REWARD_SOURCES[sec["reward"].source](reward_dict, {"judge": judge, "run_dir": run_dir, "seed": seed})
    os.environ.setdefault("WANDB_MODE", sec["logger"].wandb_mode)
    os.environ.setdefault("WANDB_PROJECT", sec["logger"].wandb_project)
    os.environ.setdefault("WANDB_DIR", str(run_dir))
    if sec["logger"].wandb_entity:
        os.environ.setdefault("WANDB_ENTITY", sec["logger"].wandb_entity)
    args = grpo_args(sec, run_dir, seed)

    model_path = resolve_model_path(sec, task, seed)
    m = sec["model"]
    tok = AutoTokenizer.from_pretrained(model_path, trust_remote_code=m.trust_remote_code, revision=m.revision)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    dtype = getattr(torch, m.dtype)
    model = AutoModelForCausalLM.from_pretrained(
        model_path,
        dtype=dtype,
        trust_remote_code=m.trust_remote_code,
        revision=m.revision,
        **({"attn_implementation": m.attn_implementation} if m.attn_implementation else {}),
    )
    ref: dict[str, Any] = {}
    metrics = MetricsJsonl(run_dir / "metrics.jsonl", ref, start_time, OmegaConf.to_container(cfg, resolve=True))
    token_reward = TokenRewardFunction(source, tok, sec["reward"].window, judge=judge)
    ds = sec["algorithm"].dynamic_sampling
    trainer = BoTGRPOTrainer(
        model=model,
        args=args,
        train_dataset=Dataset.from_list(train_rows),
        processing_class=tok,
        token_reward=token_reward,
        advantage=sec["algorithm"].name,
        advantage_options=advantage_options(sec),
        dynamic_sampling=DynamicSampling(**ds),
        rollout_dir=run_dir / "rollouts",
        rollouts_per_step=sec["trainer"].rollouts_per_step,
        callbacks=[metrics],
    )
    ref["trainer"] = trainer
    ev = sec["eval"]
    if ev.every > 0 and test_rows:
        trainer.add_callback(
            HeldOutEval(
                task,
                test_rows,
                tok,
                ev,
                ev.max_new_tokens or sec["trainer"].max_completion_length,
                dict(m.chat_template_kwargs),
                run_dir / "eval",
                metrics,
                ref,
            )
        )
    return trainer, metrics, judge
