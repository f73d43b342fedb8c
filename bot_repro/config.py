"""Schemas of the composed training config and its validation.

Hydra already rejects command-line overrides of keys that do not exist; this module also
rejects misspelt keys inside YAML files and impossible settings (unknown names, batch sizes that
do not divide), all before any model or data set is loaded. Task, reward-source and judge
``params`` are validated by their own plugins.
"""

from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass, field
from typing import Any

from omegaconf import DictConfig, OmegaConf, open_dict

from bot_repro.algorithms import ADVANTAGES
from bot_repro.algorithms.registry import validate_options
from bot_repro.config_errors import ConfigError, build_options
from bot_repro.judges.options import parse_options
from bot_repro.plugins import load_plugins
from bot_repro.rewards import REWARD_SOURCES
from bot_repro.tasks import TASKS

# Hydra writes the composed config of a run's first attempt to .hydra/; a resumed attempt gets a
# folder of its own, so the original is never overwritten (conf/train.yaml: hydra.output_subdir).
OmegaConf.register_new_resolver(
    "bot_repro_config_subdir",
    lambda resume: f".hydra/resume-{time.strftime('%Y%m%d-%H%M%S')}" if resume else ".hydra",
    replace=True,
)

TOP_LEVEL = {
    "model", "algorithm", "task", "reward", "trainer", "logger", "judge", "cluster", "resources",
    "seed", "resume", "resume_allow_changes", "experiment_name", "smoke", "sweep", "plot", "study",
}  # fmt: skip


@dataclass
class ModelCfg:
    name: str
    family: str  # qwen2 | smollm3 | phi3: picks prompts/templates of tasks
    id: str | None = None  # what debug=smoke names its tiny stand-in after (tiny_<id>)
    hub_id: str | None = None  # None: a tiny model built in-process
    gguf_file: str | None = None  # a .gguf file in hub_id (a local folder or pkg:<package>): bot_repro/models/gguf.py
    cpu_sized: bool = False  # small enough to train on resources=cpu without asking for it explicitly
    tiny: dict[str, Any] | None = None  # build_tiny kwargs (hidden_size, num_layers, vocab_size)
    dtype: str = "float32"
    chat_template_kwargs: dict[str, Any] = field(default_factory=dict)
    trust_remote_code: bool = False
    attn_implementation: str | None = None
    revision: str | None = None


@dataclass
class AlgorithmCfg:
    name: str
    options: dict[str, Any] = field(default_factory=dict)  # advantage-estimator switches (SPEC §2)
    trl: dict[str, Any] = field(default_factory=dict)  # GRPOConfig fields: loss side (clip, ratio level, ...)
    dynamic_sampling: dict[str, Any] = field(default_factory=lambda: {"enabled": False, "max_rounds": 3})


@dataclass
class TaskCfg:
    name: str
    params: dict[str, Any] = field(default_factory=dict)
    smoke: dict[str, Any] = field(default_factory=dict)  # params merged in by debug=smoke


@dataclass
class RewardCfg:
    source: str
    w_g: float = 1.0
    w_s: float = 1.0
    window: int = 3
    params: dict[str, Any] = field(default_factory=dict)
    smoke: dict[str, Any] = field(default_factory=dict)  # reward keys merged in by debug=smoke


def apply_smoke(cfg: DictConfig) -> DictConfig:
    """With ``smoke=true`` (set by debug=smoke) merge each task's and reward's own ``smoke`` block.

    A task knows how to shrink itself (a shipped toy data set, no warm start); a reward knows how
    to run offline (a rule-based step source instead of a judge). ``debug/smoke.yaml`` cannot say
    that for every task, so the task and reward configs do.
    """
    if not cfg.get("smoke"):
        return cfg
    cfg = cfg.copy()
    with open_dict(cfg):
        if cfg.task.get("smoke"):
            cfg.task.params = OmegaConf.merge(cfg.task.get("params") or {}, cfg.task.smoke)
        if cfg.reward.get("smoke"):
            merged = OmegaConf.merge(cfg.reward, cfg.reward.smoke)
            cfg.reward = merged
    return cfg


@dataclass
class EvalCfg:
    every: int = 10  # evaluate every N optimizer steps (and before training and at the end); 0: never
    n_samples: int = 8  # rollouts per held-out prompt
    max_prompts: int | None = None  # cap on held-out prompts per evaluation (None: all)
    temperature: float = 1.0
    max_new_tokens: int | None = None  # None: trainer.max_completion_length
    batch_size: int = 64  # sequences per generate() call


@dataclass
class TrainerCfg:
    num_generations: int = 8  # K rollouts per prompt (paper: 8)
    prompts_per_step: int = 8  # prompts per optimizer step (paper: 8 -> 64 generations)
    max_steps: int = 200
    learning_rate: float = 1e-6
    lr_scheduler_type: str = "constant"
    warmup_steps: int = 0
    weight_decay: float = 0.0
    max_grad_norm: float = 1.0
    max_completion_length: int = 2048
    temperature: float = 1.0
    top_p: float = 1.0
    per_device_train_batch_size: int | None = None  # None: the whole step's rollouts in one micro-batch
    gradient_accumulation_steps: int = 1
    num_iterations: int = 1
    beta: float = 0.0  # KL coefficient (paper default 0)
    save_steps: int = 25
    save_total_limit: int | None = 2
    rollouts_per_step: int = 8  # rollouts saved per step for inspection
    extra: dict[str, Any] = field(default_factory=dict)  # any other GRPOConfig field
    eval: dict[str, Any] = field(default_factory=dict)  # EvalCfg


@dataclass
class LoggerCfg:
    wandb_mode: str = "offline"  # offline | online | disabled; metrics.jsonl is always written
    wandb_project: str = "bot_repro"
    wandb_entity: str | None = None
    progress_bar: bool = True


@dataclass
class ResourcesCfg:
    name: str
    device: str = "cpu"  # cpu | cuda
    gpus: int = 0
    cpus: int = 2
    mem_gb: int = 16
    bf16: bool = False
    gradient_checkpointing: bool = False
    use_vllm: bool = False
    vllm_mode: str = "colocate"  # colocate | server
    vllm_gpu_memory_utilization: float = 0.3
    timeout_min: int = 60
    setup: list[str] = field(default_factory=list)  # shell lines run before a Slurm job
    torch_threads: int | None = None  # intra-op CPU threads per run (None: torch's default); 1 for parallel sweeps


def _section(cfg: DictConfig, key: str) -> dict[str, Any]:
    node = cfg.get(key)
    if node is None:
        return {}
    return OmegaConf.to_container(node, resolve=True)  # type: ignore[return-value]


def validate(cfg: DictConfig) -> dict[str, Any]:
    """Check the composed config; return everything the run builder reads, typed.

    Sections: model, algorithm, task, reward, trainer, eval, logger, resources (dataclasses above),
    judge (``JudgeOptions`` or None), seed, batch ((per_device_train_batch_size,
    gradient_accumulation_steps) for ``training_processes``), composed (the resolved config as a
    plain dict, mirrored to wandb). Raises ConfigError naming the problem.
    """
    load_plugins()
    unknown = sorted(set(cfg.keys()) - TOP_LEVEL)
    if unknown:
        raise ConfigError(f"unknown top-level key(s) {unknown}; allowed: {', '.join(sorted(TOP_LEVEL))}")
    out: dict[str, Any] = {
        "model": build_options(ModelCfg, _section(cfg, "model"), "model"),
        "algorithm": build_options(AlgorithmCfg, _section(cfg, "algorithm"), "algorithm"),
        "task": build_options(TaskCfg, _section(cfg, "task"), "task"),
        "reward": build_options(RewardCfg, _section(cfg, "reward"), "reward"),
        "trainer": build_options(TrainerCfg, _section(cfg, "trainer"), "trainer"),
        "logger": build_options(LoggerCfg, _section(cfg, "logger"), "logger"),
        "resources": build_options(ResourcesCfg, _section(cfg, "resources"), "resources"),
    }
    out["eval"] = build_options(EvalCfg, out["trainer"].eval, "trainer.eval")
    algo, tr = out["algorithm"], out["trainer"]
    ADVANTAGES[algo.name]
    TASKS[out["task"].name]
    REWARD_SOURCES[out["reward"].source]
    validate_options(algo.name, advantage_options(out))
    build_options(DynamicSamplingSchema, algo.dynamic_sampling, "algorithm.dynamic_sampling")
    _check_trl_fields({**algo.trl, **tr.extra})
    if out["logger"].wandb_mode not in ("offline", "online", "disabled"):
        raise ConfigError(f"logger.wandb_mode={out['logger'].wandb_mode!r}; allowed: offline, online, disabled")
    if tr.num_generations < 2:
        raise ConfigError(
            f"trainer.num_generations={tr.num_generations}: group-relative advantages need at least 2 "
            "rollouts per prompt"
        )
    out["judge"] = parse_options(_section(cfg, "judge"))
    out["seed"] = int(cfg.get("seed", 0))
    out["batch"] = check_batch(tr, world_size=training_processes(out["resources"]))
    out["composed"] = OmegaConf.to_container(cfg, resolve=True)
    return out


def training_processes(res: ResourcesCfg) -> int:
    """Processes that train: the launcher's WORLD_SIZE when set, else one per GPU (less the vLLM
    server's GPU in ``vllm_mode=server``), else 1 on CPU. The one world-size source of a run."""
    if os.environ.get("WORLD_SIZE"):
        return int(os.environ["WORLD_SIZE"])
    if res.device != "cuda":
        return 1
    return max(1, res.gpus - (1 if res.use_vllm and res.vllm_mode == "server" else 0))


@dataclass
class DynamicSamplingSchema:
    enabled: bool = False
    max_rounds: int = 3


def advantage_options(sections: dict[str, Any]) -> dict[str, Any]:
    """Estimator options: the algorithm's switches plus the reward's weights w_g, w_s."""
    opts = dict(sections["algorithm"].options)
    opts.setdefault("w_g", float(sections["reward"].w_g))
    opts.setdefault("w_s", float(sections["reward"].w_s))
    return opts


def check_batch(tr: TrainerCfg, world_size: int = 1) -> tuple[int, int]:
    """Return (per_device_train_batch_size, steps_per_generation) or raise with a valid setting."""
    rollouts = tr.prompts_per_step * tr.num_generations
    per_device = tr.per_device_train_batch_size or rollouts // (world_size * tr.gradient_accumulation_steps)
    micro = per_device * world_size * tr.gradient_accumulation_steps
    if per_device < 1 or micro != rollouts:
        valid = rollouts // (world_size * tr.gradient_accumulation_steps) or 1
        raise ConfigError(
            f"batch sizes do not divide: trainer.prompts_per_step ({tr.prompts_per_step}) x "
            f"trainer.num_generations ({tr.num_generations}) = {rollouts} rollouts per step must equal "
            f"per_device_train_batch_size ({tr.per_device_train_batch_size}) x processes ({world_size}) x "
            f"trainer.gradient_accumulation_steps ({tr.gradient_accumulation_steps}) = {micro}; e.g. set "
            f"trainer.per_device_train_batch_size={valid} with gradient_accumulation_steps="
            f"{rollouts // (valid * world_size) if rollouts % (valid * world_size) == 0 else 1}"
        )
    return per_device, tr.gradient_accumulation_steps


def _check_trl_fields(fields: dict[str, Any]) -> None:
    from trl import GRPOConfig

    allowed = {f.name for f in dataclasses.fields(GRPOConfig)}
    bad = sorted(set(fields) - allowed)
    if bad:
        raise ConfigError(
            f"unknown GRPOConfig field(s) {bad} in algorithm.trl / trainer.extra; see trl.GRPOConfig "
            f"(TRL 1.16) for the {len(allowed)} valid fields"
        )


def check_device(resources: str, device: str, hub_id: str | None, resources_explicit: bool,
                 here: bool = True) -> None:
    """Refuse a hub-size model on the CPU preset unless ``resources=cpu`` was asked for, and (when
    the run executes ``here``, not on a cluster node) a CUDA preset on a machine without a GPU;
    both before any folder, download or model load."""
    if device == "cpu" and hub_id and not resources_explicit:
        raise ConfigError(
            f"this run trains {hub_id} but resources=cpu: pick a GPU preset (resources=a100_80g or "
            "l40s_x2; make ... RESOURCES=a100_80g for figures), run the CPU smoke test (debug=smoke), "
            "or pass resources=cpu explicitly to insist"
        )
    if device == "cuda" and here:
        import torch

        if not torch.cuda.is_available():
            raise ConfigError(
                f"resources={resources} asks for CUDA but torch sees no GPU on this machine "
                f"(torch {torch.__version__}); use resources=cpu with debug=smoke, or run where a GPU is"
            )
