"""Schemas of the composed training config and the door through which every caller reads it.

``validate`` (a TRL training run -> ``RunConfig``) and ``validate_stack`` (the reward stack alone ->
``StackConfig``, for verl's reward workers) check every section: Hydra
already rejects command-line overrides of keys that do not exist; these reject misspelt keys inside
YAML files, values of the wrong type or out of range (naming the key, the value and what is allowed),
unknown names and batch sizes that do not divide, all before any folder, model or data set. Task
``params`` are checked by the task's own factory (called once here); reward-source and judge
``params`` by their own plugins.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import time
from dataclasses import dataclass, field
from typing import Any

from omegaconf import DictConfig, OmegaConf, open_dict

from bot_repro.algorithms import ADVANTAGES
from bot_repro.algorithms.advantages import validate_options
from bot_repro.config_schema import (
    NON_NEGATIVE,
    POSITIVE,
    PROBABILITY,
    ConfigError,
    Rule,
    build_options,
    check_value,
    checked,
    one_of,
)
from bot_repro.judges.options import JudgeOptions, parse_options
from bot_repro.models import lora
from bot_repro.models.lora import LoraCfg
from bot_repro.models.prompt_format import FORMATS as PROMPT_FORMATS
from bot_repro.models.sampling import check_sampler
from bot_repro.plugins import load_plugins
from bot_repro.rewards import REWARD_SOURCES, RewardCfg  # RewardCfg: the reward section's schema, re-exported
from bot_repro.run_folder import config_path
from bot_repro.tasks import TASKS


# Hydra writes the composed config of a run's first attempt to .hydra/; a resumed attempt gets a
# folder of its own, so the original is never overwritten (conf/train.yaml: hydra.output_subdir).
# Hydra resolves output_subdir anew on each read, so the stamp is fixed once per process: the folder
# Hydra writes and the one a refused attempt removes (train.main) are the same even when a second
# passes between the two reads.
# (a named function, not a cached lambda: submitit pickles the resolver with the launcher's config)
@functools.cache
def _attempt_stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


@functools.cache
def _config_subdir(resume: bool, output_dir: str | None = None) -> str:
    """A resumed attempt's folder, unless the run folder has no first attempt's config yet (a job that a
    continued sweep starts afresh): decided once per run folder, before Hydra writes into it."""
    first = output_dir is not None and not config_path(output_dir).is_file()
    return f".hydra/resume-{_attempt_stamp()}" if resume and not first else ".hydra"


OmegaConf.register_new_resolver("bot_repro_config_subdir", _config_subdir, replace=True)

TOP_LEVEL = {
    "model", "algorithm", "task", "reward", "trainer", "logger", "judge", "cluster", "resources",
    "seed", "resume", "resume_allow_changes", "experiment_name", "smoke", "sweep", "report",
}  # fmt: skip
# top-level scalars (their defaults live in conf/train.yaml) and what they accept
TOP_LEVEL_TYPES: dict[str, tuple[Any, Rule | None]] = {
    "seed": (int, NON_NEGATIVE), "resume": (bool, None), "resume_allow_changes": (bool, None),
    "smoke": (bool, None), "experiment_name": (str, None),
}  # fmt: skip
IN_0_1 = Rule("in (0, 1]", lambda v: 0 < v <= 1)


@dataclass
class ModelCfg:
    name: str
    family: str  # qwen2 | smollm3 | phi3 | gemma3: picks prompts/templates of tasks
    id: str | None = None  # what debug=smoke names its tiny stand-in after (tiny_<id>)
    hub_id: str | None = None  # None: a tiny model built in-process
    gguf_file: str | None = None  # a .gguf file in hub_id (a local folder or pkg:<package>): bot_repro/models/gguf.py
    cpu_sized: bool = False  # small enough to train on resources=cpu without asking for it explicitly
    tiny: dict[str, Any] | None = None  # build_tiny kwargs (hidden_size, num_layers, vocab_size)
    dtype: str = checked("float32", one_of("float32", "float16", "bfloat16"))
    chat_template_kwargs: dict[str, Any] = field(default_factory=dict)
    # how chat messages become prompt text (bot_repro/models/prompt_format.py); auto: chat when the tokenizer
    # has a template, else plain. Resolved and checked before any work (bot_repro/models/preflight.py)
    prompt_format: str = checked("auto", one_of(*PROMPT_FORMATS))
    trust_remote_code: bool = False
    attn_implementation: str | None = None
    revision: str | None = None
    # LoRA instead of full fine-tuning (off by default); resolved at validation: bot_repro/models/lora.py
    lora: LoraCfg = field(default_factory=LoraCfg)


@dataclass
class DynamicSampling:
    """DAPO: drop groups with no learning signal and regenerate, at most ``max_rounds`` extra rounds
    (bot_repro/trainer/dynamic_sampling.py)."""

    enabled: bool = False
    max_rounds: int = checked(3, POSITIVE)


@dataclass
class AlgorithmCfg:
    name: str
    options: dict[str, Any] = field(default_factory=dict)  # advantage-estimator switches (docs/method.md §2)
    trl: dict[str, Any] = field(default_factory=dict)  # GRPOConfig fields: loss side (clip, ratio level, ...)
    dynamic_sampling: DynamicSampling = field(default_factory=DynamicSampling)


@dataclass
class TaskCfg:
    name: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class EvalCfg:
    every: int = checked(10, NON_NEGATIVE)  # evaluate every N optimizer steps (and before training and at the end); 0: never
    n_samples: int = checked(8, POSITIVE)  # rollouts per held-out prompt
    max_prompts: int | None = checked(None, POSITIVE)  # cap on held-out prompts per evaluation (None: all)
    temperature: float = checked(1.0, POSITIVE)
    max_new_tokens: int | None = checked(None, POSITIVE)  # None: trainer.max_completion_length
    batch_size: int = checked(64, POSITIVE)  # sequences per generate() call


@dataclass
class MonitorCfg:
    """Warning thresholds of the reward-hacking monitors (``trainer.monitors.<name>``,
    ``bot_repro.trainer.monitors``): a share above its threshold, or a length ratio above
    ``length_ratio_high`` or below ``length_ratio_low``, logs one WARNING line.
    A share threshold of 1 (and ``length_ratio_low`` = 0) never warns."""

    local_up_global_not: float = checked(0.5, PROBABILITY)
    true_steps_wrong_answer: float = checked(0.5, PROBABILITY)
    format_only: float = checked(0.5, PROBABILITY)
    repeat_frac: float = checked(0.5, PROBABILITY)
    length_ratio_high: float = checked(2.0, Rule(">= 1", lambda v: v >= 1))
    length_ratio_low: float = checked(0.5, PROBABILITY)


@dataclass
class DriftCfg:
    """How far the policy moved from its start, logged each step as ``policy/*`` (``trainer.drift.<name>``,
    ``bot_repro.trainer.drift``: the measures, their cost)."""

    enabled: bool = True  # false: no copy of the starting weights, no policy/ keys
    kl_every: int = checked(1, NON_NEGATIVE)  # the KL from the start on steps divisible by N; 0: never
    # the share of each process's rollouts a KL step scores (rounded up): its cost, a forward of those rows
    kl_share: float = checked(0.25, IN_0_1)


@dataclass
class TrainerCfg:
    num_generations: int = checked(8, Rule(">= 2 (group-relative advantages need at least 2 rollouts per prompt)",
                                           lambda v: v >= 2))  # K rollouts per prompt (paper: 8)
    prompts_per_step: int = checked(8, POSITIVE)  # prompts per optimizer step (paper: 8 -> 64 generations)
    max_steps: int = checked(200, POSITIVE)
    learning_rate: float = checked(1e-6, POSITIVE)
    lr_scheduler_type: str = "constant"  # one of transformers' SchedulerType (checked in validate)
    warmup_steps: int = checked(0, NON_NEGATIVE)
    weight_decay: float = checked(0.0, NON_NEGATIVE)
    max_grad_norm: float = checked(1.0, NON_NEGATIVE)
    max_completion_length: int = checked(2048, POSITIVE)
    temperature: float = checked(1.0, POSITIVE)
    top_p: float = checked(1.0, IN_0_1)
    per_device_train_batch_size: int | None = checked(None, POSITIVE)  # None: the whole step's rollouts at once
    # None: the rollouts per step / (per_device_train_batch_size x processes); 1 when that is None too
    gradient_accumulation_steps: int | None = checked(None, POSITIVE)
    num_iterations: int = checked(1, POSITIVE)
    # each distinct prompt of a micro-batch through the model once in the loss (trainer/shared_prefix.py); exact,
    # used where it applies (one process, no activation checkpointing), TRL's per-row forward elsewhere
    shared_prefix: bool = True
    # a float32 LoRA layer's training forward through W + s B A, held per layer (models/fused_lora.py): one
    # matmul instead of three; costs a copy of every adapted weight
    fused_lora: bool = False
    # rollouts and held-out samples without vLLM: transformers' generate, or bot_repro.models.sampling
    sampler: str = checked("transformers", one_of("transformers", "shared_prefix"))
    beta: float = checked(0.0, NON_NEGATIVE)  # KL coefficient (paper default 0)
    save_steps: int = checked(25, POSITIVE)
    save_total_limit: int | None = checked(2, POSITIVE)
    rollouts_per_step: int = checked(8, NON_NEGATIVE)  # rollouts saved per step for inspection
    extra: dict[str, Any] = field(default_factory=dict)  # any other GRPOConfig field
    eval: EvalCfg = field(default_factory=EvalCfg)
    monitors: MonitorCfg = field(default_factory=MonitorCfg)  # reward-hacking warning thresholds (+trainer.monitors.x=)
    # a run that excluded more than this share of its rollouts (no score: judge outages, unreadable replies,
    # stalled checkers; docs/method.md §3) ends "degraded", not "completed", with exit code 4 (1: never)
    max_excluded_share: float = checked(0.2, PROBABILITY)
    drift: DriftCfg = field(default_factory=DriftCfg)  # the policy's distance from its start (+trainer.drift.x=)


@dataclass
class LoggerCfg:
    wandb_mode: str = checked("offline", one_of("offline", "online", "disabled"))  # metrics.jsonl is always written
    wandb_project: str = "bot_repro"
    wandb_entity: str | None = None
    progress_bar: bool = True


@dataclass
class ResourcesCfg:
    name: str
    device: str = checked("cpu", one_of("cpu", "cuda"))
    gpus: int = checked(0, NON_NEGATIVE)
    cpus: int = checked(2, POSITIVE)
    mem_gb: int = checked(16, POSITIVE)
    bf16: bool = False
    gradient_checkpointing: bool = False
    use_vllm: bool = False
    vllm_mode: str = checked("colocate", one_of("colocate", "server"))
    vllm_gpu_memory_utilization: float = checked(0.3, IN_0_1)
    vllm_enforce_eager: bool = False  # the colocated engine skips compilation (CPU: 76-100 s at every start)
    vllm_kv_cache_gb: float | None = checked(None, POSITIVE)  # the colocated engine's KV cache (None: vLLM sizes it)
    # a model the colocated vLLM cannot load: "error" (one clear error) or "transformers" (generate with TRL's
    # transformers path instead, logged and recorded in run.json)
    vllm_fallback: str = checked("error", one_of("error", "transformers"))
    timeout_min: int = checked(60, POSITIVE)
    setup: list[str] = field(default_factory=list)  # shell lines run before a Slurm job
    torch_threads: int | None = checked(None, POSITIVE)  # intra-op CPU threads per run (None: torch's default); 1 for parallel sweeps
    processes: int | None = checked(None, POSITIVE)  # training processes on the node (None: one per GPU, less a vLLM server's; 1 on CPU)


@dataclass(frozen=True)
class StackConfig:
    """What scores a rollout: the task, its reward stack, the model (family, tokenizer), the judge and
    the seed. ``validate_stack`` returns it (verl's reward workers need no more); ``build_task`` reads it."""

    model: ModelCfg
    task: TaskCfg
    reward: RewardCfg
    judge: JudgeOptions | None
    seed: int


@dataclass(frozen=True)
class RunConfig(StackConfig):
    """A whole TRL training run, checked: what ``validate`` returns and the run builder reads.

    ``batch``: (per_device_train_batch_size, gradient_accumulation_steps) for ``training_processes``;
    ``composed``: the resolved config as a plain dict, mirrored to wandb."""

    algorithm: AlgorithmCfg
    trainer: TrainerCfg
    logger: LoggerCfg
    resources: ResourcesCfg
    batch: tuple[int, int]
    composed: dict[str, Any]

    def advantage_options(self) -> dict[str, Any]:
        """Estimator options: the algorithm's switches plus the reward's weights w_g, w_s."""
        return {**self.algorithm.options, "w_g": float(self.reward.w_g), "w_s": float(self.reward.w_s)}


def _saved_smoke_blocks(cfg: DictConfig) -> DictConfig:
    """A config saved before smoke mode moved to conf/debug/ carries ``smoke`` blocks in its task and
    reward sections; they are merged (a smoke run's) or dropped here, so such a run validates with the
    values it trained with (offline evaluation of archived runs). Configs composed today have none."""
    if not any(cfg.get(key) is not None and "smoke" in cfg[key] for key in ("task", "reward")):
        return cfg
    cfg = cfg.copy()
    with open_dict(cfg):
        task_block, reward_block = cfg.task.pop("smoke", None), cfg.reward.pop("smoke", None)
        if cfg.get("smoke") and task_block:
            cfg.task.params = OmegaConf.merge(cfg.task.get("params") or {}, task_block)
        if cfg.get("smoke") and reward_block:
            cfg.reward = OmegaConf.merge(cfg.reward, reward_block)
    return cfg


def _section(cfg: DictConfig, key: str) -> dict[str, Any]:
    node = cfg.get(key)
    if node is None:
        return {}
    return OmegaConf.to_container(node, resolve=True)  # type: ignore[return-value]


def validate_stack(cfg: DictConfig) -> StackConfig:
    """Check the reward-stack part of a composed config; return it typed.

    Checks names, keys, types and ranges of model, task, reward, judge and seed, and builds the task
    once so that its own ``params`` are checked too (cheap: rows are not read). Needs neither TRL
    nor Hydra's app (verl's reward workers call it). Raises ConfigError naming the problem.
    """
    return _check_stack(_saved_smoke_blocks(cfg))


def _check_stack(cfg: DictConfig) -> StackConfig:
    load_plugins()
    unknown = sorted(set(cfg.keys()) - TOP_LEVEL)
    if unknown:
        raise ConfigError(f"unknown top-level key(s) {unknown}; allowed: {', '.join(sorted(TOP_LEVEL))}")
    for key, (hint, rule) in TOP_LEVEL_TYPES.items():
        if key in cfg:
            check_value(cfg.get(key), hint, key, rule)
    model = build_options(ModelCfg, _section(cfg, "model"), "model")
    model = dataclasses.replace(model, lora=lora.resolve(model.lora))  # a starting adapter's own settings
    task = build_options(TaskCfg, _section(cfg, "task"), "task")
    reward = build_options(RewardCfg, _section(cfg, "reward"), "reward")
    REWARD_SOURCES[reward.source]
    TASKS[task.name](dict(task.params), dataclasses.asdict(model))
    return StackConfig(model=model, task=task, reward=reward, judge=parse_options(_section(cfg, "judge")),
                       seed=int(cfg.get("seed", 0)))


def validate(cfg: DictConfig) -> RunConfig:
    """Check the composed config of a training run; return everything the run builder reads, typed.

    The one door from a composed config to a run: every section is checked (names, keys, types,
    ranges, batch sizes) before any folder, model or warm start. Raises ConfigError naming the bad key, its value and what is allowed.
    """
    cfg = _saved_smoke_blocks(cfg)
    stack = _check_stack(cfg)
    algo = build_options(AlgorithmCfg, _section(cfg, "algorithm"), "algorithm")
    tr = build_options(TrainerCfg, _section(cfg, "trainer"), "trainer")
    res = build_options(ResourcesCfg, _section(cfg, "resources"), "resources")
    ADVANTAGES[algo.name]
    twice = sorted(set(algo.options) & {"w_g", "w_s"})
    if twice:
        key = twice[0]
        raise ConfigError(
            f"{key} is set twice: algorithm.options.{key}={algo.options[key]!r} and reward.{key}="
            f"{getattr(stack.reward, key)!r}; the reward stack is its one home: set reward.{key} and drop "
            f"algorithm.options.{key}"
        )
    _check_trl_fields({**algo.trl, **tr.extra}, tr.lr_scheduler_type)
    check_sampler(tr.sampler, tr.top_p, {**algo.trl, **tr.extra})
    run = RunConfig(
        **{f.name: getattr(stack, f.name) for f in dataclasses.fields(StackConfig)},
        algorithm=algo, trainer=tr, logger=build_options(LoggerCfg, _section(cfg, "logger"), "logger"),
        resources=res, batch=check_batch(tr, world_size=training_processes(res)),
        composed=OmegaConf.to_container(cfg, resolve=True),  # type: ignore[arg-type]
    )
    validate_options(algo.name, run.advantage_options())
    return run


def training_processes(res: ResourcesCfg) -> int:
    """Processes that train: the launcher's WORLD_SIZE when set, else ``resources.processes``, else one
    per GPU (less the vLLM server's GPU in ``vllm_mode=server``), else 1 on CPU. The one world-size
    source of a run (``bot_repro.train`` starts this many through torchrun when it is above 1)."""
    if os.environ.get("WORLD_SIZE"):
        return int(os.environ["WORLD_SIZE"])
    if res.processes is not None:  # >= 1: checked at validation (ResourcesCfg)
        return res.processes
    if res.device != "cuda":
        return 1
    return max(1, res.gpus - (1 if res.use_vllm and res.vllm_mode == "server" else 0))


def check_batch(tr: TrainerCfg, world_size: int = 1) -> tuple[int, int]:
    """Return (per_device_train_batch_size, gradient_accumulation_steps) or raise with a valid setting.

    Either may be None (derived from the other; both None: the whole step at once); TRL generates one
    step's rollouts at once and backpropagates them per_device_train_batch_size at a time."""
    rollouts = tr.prompts_per_step * tr.num_generations
    per_device, accum = tr.per_device_train_batch_size, tr.gradient_accumulation_steps
    if per_device is None:
        accum = accum or 1
        per_device = rollouts // (world_size * accum)
    elif accum is None:
        accum = rollouts // (world_size * per_device)
    micro = per_device * world_size * accum
    if per_device < 1 or accum < 1 or micro != rollouts:
        shown_accum = tr.gradient_accumulation_steps if tr.gradient_accumulation_steps is not None else "derived"
        valid = rollouts // (world_size * (tr.gradient_accumulation_steps or 1)) or 1
        raise ConfigError(
            f"batch sizes do not divide: trainer.prompts_per_step ({tr.prompts_per_step}) x "
            f"trainer.num_generations ({tr.num_generations}) = {rollouts} rollouts per step must equal "
            f"per_device_train_batch_size ({tr.per_device_train_batch_size}) x processes ({world_size}) x "
            f"trainer.gradient_accumulation_steps ({shown_accum}) = {micro}; e.g. set "
            f"trainer.per_device_train_batch_size={valid} with gradient_accumulation_steps="
            f"{rollouts // (valid * world_size) if rollouts % (valid * world_size) == 0 else 1}"
        )
    return per_device, accum


def _check_trl_fields(fields: dict[str, Any], lr_scheduler_type: str) -> None:
    """GRPOConfig field names in algorithm.trl / trainer.extra, and the scheduler name (TRL only: the
    imports stay here so that ``validate_stack`` runs without TRL)."""
    from transformers import SchedulerType
    from trl import GRPOConfig

    allowed = {f.name for f in dataclasses.fields(GRPOConfig)}
    bad = sorted(set(fields) - allowed)
    if bad:
        raise ConfigError(
            f"unknown GRPOConfig field(s) {bad} in algorithm.trl / trainer.extra; see trl.GRPOConfig "
            f"(TRL 1.16) for the {len(allowed)} valid fields"
        )
    check_value(lr_scheduler_type, str, "trainer.lr_scheduler_type", one_of(*(s.value for s in SchedulerType)))


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
