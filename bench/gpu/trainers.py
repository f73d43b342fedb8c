"""The two trainers the GPU check compares: ours (``algorithm=bot_grpo`` composed from ``conf/`` and built
by ``bot_repro.trainer.build.build_trainer``, as ``bot_repro.train`` does) and vanilla TRL
``GRPOTrainer`` built from our trainer's ``GRPOConfig``, data set and reward source (``Recipe``)."""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.gpu.model import free_cuda
from bench.gpu.plan import REPO, Plan


def overrides(plan: Plan, length: int, steps: int, model_dir: Path, run_name: str) -> list[str]:
    return [
        "model=qwen2_5_3b", f"model.hub_id='{model_dir}'", f"model.dtype={plan.dtype}",
        "algorithm=bot_grpo", "task=mini", "task.params.warm_start=false", "task.params.n_train=256",
        "task.params.n_test=8", f"resources={plan.resources}", "resources.use_vllm=false",
        "resources.gradient_checkpointing=true", f"trainer.max_completion_length={length}",
        f"trainer.max_steps={plan.warmup + steps}", f"trainer.prompts_per_step={plan.prompts}",
        f"trainer.num_generations={plan.rollouts}", f"trainer.per_device_train_batch_size={plan.micro_batch}",
        f"trainer.gradient_accumulation_steps={plan.prompts * plan.rollouts // plan.micro_batch}",
        "trainer.eval.every=0", "+trainer.extra.save_strategy=no", "logger.wandb_mode=disabled",
        "logger.progress_bar=false", f"seed={plan.seed}", f"experiment_name={run_name}", *plan.overrides,
    ]  # fmt: skip


def compose(overrides_: list[str]):
    """conf/train.yaml composed with overrides, as the command line (and tests/conftest.py) does."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    with initialize_config_dir(config_dir=str(REPO / "conf"), version_base="1.3"):
        return hydra_compose(config_name="train", overrides=overrides_)


def build_ours(cfg, run_dir: Path):
    """Our trainer exactly as ``bot_repro.train.run`` builds it (without the run record)."""
    from bot_repro.config import validate
    from bot_repro.trainer.build import build_trainer

    return build_trainer(validate(cfg), run_dir, time.time())[0]


@dataclass
class Recipe:
    """What vanilla TRL takes from our trainer so both run the same configuration."""

    args: Any  # GRPOConfig (a shallow copy; output_dir changed)
    dataset: Any
    source: Any  # reward source
    model_path: str
    dtype: Any
    attn: str | None
    advantage_options: dict


def recipe_of(ours, model_path: Path) -> Recipe:
    return Recipe(
        args=copy.copy(ours.args), dataset=ours.train_dataset, source=ours.token_reward.source,
        model_path=str(model_path), dtype=ours.model.dtype, attn=ours.model.config._attn_implementation,
        advantage_options=dict(ours.advantage_options),
    )  # fmt: skip


def vanilla_reward(source, tok):
    """A plain TRL reward function over our reward source: decode, score, return the global score G."""

    def reward(prompts, completions, completion_ids, **kw):
        n = len(completion_ids)
        columns = {k: v for k, v in kw.items() if isinstance(v, list) and len(v) == n}
        rows = [{k: v[i] for k, v in columns.items()} for i in range(n)]
        texts = [tok.decode(ids, skip_special_tokens=True) for ids in completion_ids]
        return [float(r.global_score) for r in source.score(texts, rows)]

    reward.__name__ = "global_reward"
    return reward


def build_vanilla(recipe: Recipe, run_dir: Path):
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOTrainer

    args = copy.copy(recipe.args)
    args.output_dir = str(run_dir)
    tok = AutoTokenizer.from_pretrained(recipe.model_path)
    model = AutoModelForCausalLM.from_pretrained(
        recipe.model_path, dtype=recipe.dtype, **({"attn_implementation": recipe.attn} if recipe.attn else {})
    )
    return GRPOTrainer(
        model=model, args=args, train_dataset=recipe.dataset, processing_class=tok,
        reward_funcs=[vanilla_reward(recipe.source, tok)],
    )  # fmt: skip


def free(trainer) -> None:
    trainer.accelerator.free_memory()
    trainer.model = trainer.model_wrapped = trainer.optimizer = trainer.lr_scheduler = None
    free_cuda()
