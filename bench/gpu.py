"""GPU check (issue #16) -> ``results/bench/gpu.json``: the real training path on one GPU.

Builds the Qwen2.5-3B architecture with random weights from its published config values (hidden
2048, 36 layers, 16 heads, 2 KV heads, intermediate 11008, vocab 151,936, bf16, tied embeddings)
and a byte-level BPE tokenizer trained here (``bot_repro.models.tiny.build_tokenizer``) on the
mini task's corpus plus synthetic words, so no download is needed. Then, for each completion
length (256 and 1024), it times training steps of

- ours: ``algorithm=bot_grpo`` composed from ``conf/`` with Hydra overrides and built by
  ``bot_repro.trainer.build.build_trainer``, the function ``bot_repro.train.run`` calls;
- vanilla TRL ``GRPOTrainer``: the same ``GRPOConfig`` object (so the same seed, batch shape,
  loss and settings), the same data set and the same reward source, with TRL's own
  sequence-level advantages and a plain reward function (decode, score, return G), as in
  ``bench/core.py`` and ``tests/integration/test_trl_equivalence.py``.

8 prompts x 8 rollouts per step, generation with transformers' ``generate`` (vLLM cannot travel to
the lent machine), gradient checkpointing on, micro-batches of 16 (4 accumulation steps, one
generation per optimizer step). A random policy almost never samples EOS, so every completion runs
to the full length and both trainers see the same token counts.

Per step it reports (median over the timed steps, after the warm-up steps): ``generation_s``
(``_generate``), ``scoring_s`` (``_calculate_rewards``: our token reward mapping included),
``advantage_s`` (ours: ``compute_advantages``; TRL's group normalisation is inline, so it falls into
``prep_other_s``), ``fwd_bwd_s`` (``training_step`` minus generation-and-scoring, i.e. every
micro-batch's forward and backward), ``optimizer_other_s`` (the rest of the step: clip, optimizer,
logging), peak GPU memory, tokens/s, and the MFU of the training pass. TRL logs no phase times of its
own (its ``profiling_context`` reports to wandb/mlflow only), so the phases are timed by wrapping
these methods on the trainer instance, with ``torch.cuda.synchronize()`` on both sides of each.

It also times our advantage computation (``compute_advantages("bot_grpo", ...)`` with the options
the trainer used) at B = 64, T = 2048..32768 on the GPU against one elementwise add of the same
[B, T] size (the memory floor).

``--dry-run`` runs the same code on CPU with a tiny model of the same architecture class, 2 steps
per trainer and short completions (``tests/integration/test_bench_gpu.py``).

Usage, from the repository root: ``python -m bench.gpu [--out results/bench/gpu.json]`` (GPU) or
``python -m bench.gpu --dry-run --out /tmp/gpu.json``. bench/README.md has the device command.
"""

from __future__ import annotations

import argparse
import copy
import functools
import gc
import json
import os
import platform
import random
import statistics
import string
import subprocess
import sys
import tempfile
import time
import traceback
from collections import defaultdict
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import torch

REPO = Path(__file__).resolve().parents[1]

# Qwen/Qwen2.5-3B(-Instruct) config.json
QWEN25_3B = dict(
    hidden_size=2048, num_hidden_layers=36, num_attention_heads=16, num_key_value_heads=2,
    intermediate_size=11008, vocab_size=151_936, max_position_embeddings=32_768, rope_theta=1_000_000.0,
    rms_norm_eps=1e-6, tie_word_embeddings=True, hidden_act="silu", use_sliding_window=False,
)  # fmt: skip
TINY = dict(QWEN25_3B, hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
            vocab_size=2048, max_position_embeddings=2048)  # fmt: skip

# Dense bf16 tensor-core peaks (vendor datasheets, no sparsity), TFLOP/s; matched on the device name.
PEAK_BF16_TFLOPS = [
    ("H200 NVL", 835.0), ("H200", 989.4), ("H100 NVL", 835.0), ("H100 PCIe", 756.0), ("H100", 989.4),
    ("A100", 312.0), ("L40S", 362.0),
]  # fmt: skip


@dataclass
class Plan:
    arch: dict[str, Any]
    # BPE vocabulary trained (Qwen2.5: 151,643 + specials; the model's rows beyond it are padding)
    tokenizer_vocab: int
    corpus_words: int  # synthetic words added to the task corpus so BPE reaches tokenizer_vocab
    dtype: str
    resources: str  # conf/resources group
    lengths: tuple[int, ...]
    warmup: int
    steps: int
    micro_batch: int
    adv_T: tuple[int, ...]
    adv_B: int = 64
    prompts: int = 8
    rollouts: int = 8
    budget_s: float = 450.0
    seed: int = 0
    dry_run: bool = False
    overrides: list[str] = field(default_factory=list)


GPU_PLAN = Plan(
    arch=QWEN25_3B, tokenizer_vocab=151_646, corpus_words=100_000, dtype="bfloat16", resources="a100_80g",
    lengths=(256, 1024), warmup=1, steps=2, micro_batch=16, adv_T=(2048, 4096, 8192, 16384, 32768),
)  # fmt: skip
DRY_PLAN = Plan(
    arch=TINY, tokenizer_vocab=1024, corpus_words=2000, dtype="float32", resources="cpu",
    lengths=(8, 16), warmup=1, steps=1, micro_batch=32, adv_T=(64, 256), budget_s=600.0, dry_run=True,
    overrides=["resources.torch_threads=1"],  # shared CPUs: one intra-op thread wastes least under load
)  # fmt: skip


# ---- model ---------------------------------------------------------------------------------------
def synthetic_corpus(n_words: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    alphabet = string.ascii_letters + string.digits
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(2, 12))) for _ in range(n_words)]
    return [" ".join(words[i : i + 100]) for i in range(0, len(words), 100)]


def build_model_dir(plan: Plan, out: Path, corpus: list[str], device: str) -> dict[str, Any]:
    """Save a random-init Qwen2 model of ``plan.arch`` and a locally trained tokenizer to ``out``."""
    from transformers import Qwen2Config, Qwen2ForCausalLM

    from bot_repro.models.tiny import build_tokenizer

    t0 = time.perf_counter()
    tok = build_tokenizer(corpus + synthetic_corpus(plan.corpus_words, plan.seed), plan.tokenizer_vocab)
    t_tok = time.perf_counter() - t0
    config = Qwen2Config(
        **plan.arch, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id, bos_token_id=None
    )
    torch.manual_seed(plan.seed)
    with torch.device(device):
        model = Qwen2ForCausalLM(config).to(getattr(torch, plan.dtype))
    model.generation_config.eos_token_id = tok.eos_token_id
    model.generation_config.pad_token_id = tok.pad_token_id
    n_params = sum(p.numel() for p in model.parameters())  # tied embedding counted once
    model.save_pretrained(out)
    tok.save_pretrained(out)
    del model
    _free_cuda()
    return {
        "architecture": "Qwen2ForCausalLM (Qwen2.5-3B config values)"
        if plan.arch is QWEN25_3B
        else "Qwen2ForCausalLM (tiny)",
        "config": plan.arch,
        "n_params": n_params,
        "dtype": plan.dtype,
        "weights": f"random init (seed {plan.seed})",
        "tokenizer": f"byte-level BPE trained here on the mini task corpus + {plan.corpus_words} synthetic words",
        "tokenizer_vocab": len(tok),
        "build_s": time.perf_counter() - t0,
        "tokenizer_train_s": t_tok,
    }


# ---- the two trainers ----------------------------------------------------------------------------
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


def _free_cuda() -> None:
    gc.collect()
    if torch.cuda.is_available():
        torch.cuda.empty_cache()


def free(trainer) -> None:
    trainer.accelerator.free_memory()
    trainer.model = trainer.model_wrapped = trainer.optimizer = trainer.lr_scheduler = None
    _free_cuda()


# ---- timing ------------------------------------------------------------------------------------------
class PhaseTimer:
    """Wraps methods (on one instance or a module) so each call adds its wall time to a phase."""

    def __init__(self, cuda: bool):
        self.cuda = cuda
        self.acc: dict[str, float] = defaultdict(float)
        self.tokens: dict[str, int] = {}
        self._restore: list[tuple[Any, str, Any]] = []

    def sync(self) -> None:
        if self.cuda:
            torch.cuda.synchronize()

    def wrap(self, obj, attr: str, phase: str, on_result=None) -> None:
        fn = getattr(obj, attr)

        @functools.wraps(fn)
        def timed(*a, **kw):
            self.sync()
            t = time.perf_counter()
            try:
                out = fn(*a, **kw)
            finally:
                self.sync()
                self.acc[phase] += time.perf_counter() - t
            if on_result is not None:
                on_result(out)
            return out

        self._restore.append((obj, attr, obj.__dict__.get(attr)))
        setattr(obj, attr, timed)

    def unwrap(self) -> None:
        for obj, attr, old in reversed(self._restore):
            if old is None:
                delattr(obj, attr)
            else:
                setattr(obj, attr, old)
        self._restore.clear()

    def count_tokens(self, out: dict) -> None:
        prompt, completion = out["prompt_mask"], out["completion_mask"]
        self.tokens = {
            "prompt_tokens": int(prompt.sum()),
            "completion_tokens": int(completion.sum()),
            "padded_tokens": int(prompt.numel() + completion.numel()),
            "rows": int(completion.shape[0]),
        }


def peak_flops() -> tuple[float | None, str]:
    if not torch.cuda.is_available():
        return None, "no GPU: MFU not computed"
    name = torch.cuda.get_device_name()
    for key, tflops in PEAK_BF16_TFLOPS:
        if key in name:
            return tflops * 1e12, f"{name}: dense bf16 peak {tflops} TFLOP/s (datasheet '{key}', no sparsity)"
    return (
        None,
        f"{name}: not in the peak table ({', '.join(k for k, _ in PEAK_BF16_TFLOPS)}); MFU not computed",
    )


def time_trainer(trainer, kind: str, n_params: int, warmup: int) -> dict[str, Any]:
    """Train ``trainer`` (max_steps = warmup + timed) and return per-step phase times and their medians."""
    from transformers import TrainerCallback
    from transformers.trainer_callback import PrinterCallback

    import bot_repro.trainer.advantage_step as advantage_step_module

    cuda = trainer.args.device.type == "cuda"
    timer = PhaseTimer(cuda)
    timer.wrap(trainer, "_generate", "generation")
    timer.wrap(trainer, "_calculate_rewards", "scoring")
    timer.wrap(trainer, "_generate_and_score_completions", "generate_and_score", on_result=timer.count_tokens)
    timer.wrap(trainer, "training_step", "training_step")
    if kind == "ours":
        timer.wrap(advantage_step_module, "compute_advantages", "advantage")
    peak, _ = peak_flops()
    steps: list[dict[str, Any]] = []

    class Clock(TrainerCallback):
        def on_step_begin(self, args, state, control, **kw):
            timer.acc.clear()
            timer.tokens = {}
            if cuda:
                torch.cuda.reset_peak_memory_stats()
            timer.sync()
            self.t = time.perf_counter()

        def on_step_end(self, args, state, control, **kw):
            timer.sync()
            step_s = time.perf_counter() - self.t
            a = dict(timer.acc)
            gen, score, adv = a.get("generation", 0.0), a.get("scoring", 0.0), a.get("advantage", 0.0)
            gs, ts = a.get("generate_and_score", 0.0), a.get("training_step", 0.0)
            fwd_bwd = ts - gs
            tokens = timer.tokens.get("prompt_tokens", 0) + timer.tokens.get("completion_tokens", 0)
            row = {
                "step": state.global_step,
                "step_s": step_s,
                "generation_s": gen,
                "scoring_s": score,
                "advantage_s": adv if kind == "ours" else None,
                "prep_other_s": gs - gen - score - adv,
                "fwd_bwd_s": fwd_bwd,
                "optimizer_other_s": step_s - ts,
                **timer.tokens,
                "tokens_per_s": tokens / step_s,
                "train_tokens_per_s": tokens / fwd_bwd if fwd_bwd > 0 else None,
                "gen_tokens_per_s": timer.tokens.get("completion_tokens", 0) / gen if gen > 0 else None,
                "mfu_train": 6 * n_params * tokens / fwd_bwd / peak if peak and fwd_bwd > 0 else None,
                "peak_mem_gb": torch.cuda.max_memory_allocated() / 2**30 if cuda else None,
                "peak_reserved_gb": torch.cuda.max_memory_reserved() / 2**30 if cuda else None,
            }
            steps.append(row)
            print(f"[bench.gpu] {kind} step {state.global_step}: " + ", ".join(
                f"{k}={v:.3g}" for k, v in row.items() if isinstance(v, float)), flush=True)  # fmt: skip

    # TRL's per-step log dicts (both trainers): our own line is enough
    trainer.remove_callback(PrinterCallback)
    trainer.add_callback(Clock())
    t0 = time.perf_counter()
    try:
        trainer.train()
    finally:
        timer.unwrap()
    timed = steps[warmup:]
    keys = [k for k, v in (timed[0] if timed else {}).items() if isinstance(v, int | float) and k != "step"]
    median = {k: statistics.median(r[k] for r in timed) for k in keys if all(r[k] is not None for r in timed)}
    return {
        "train_wall_s": time.perf_counter() - t0,
        "warmup_steps": warmup,
        "steps": steps,
        "median": median,
    }


def _loop_ms(fn, sync, calls: int, rounds: int, warmup: int) -> float:
    """Median over ``rounds`` of the mean ms per call of ``calls`` back-to-back calls (synced at the ends)."""
    for _ in range(warmup):
        fn()
    per_round = []
    for _ in range(rounds):
        sync()
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        per_round.append((time.perf_counter() - t) * 1e3 / calls)
    return statistics.median(per_round)


def time_advantages(options: dict, B: int, Ts: tuple[int, ...], group: int, device: str, dry: bool) -> dict:
    """Our advantage computation (the trainer's entry and options) vs one elementwise add, [B, T] float32."""
    from bot_repro.algorithms.registry import compute_advantages

    cuda = device == "cuda"

    def sync():
        if cuda:
            torch.cuda.synchronize()

    calls, rounds, warm = (3, 2, 1) if dry else (20, 5, 3)
    rows = []
    for T in Ts:
        gen = torch.Generator().manual_seed(0)
        g = torch.randn(B, generator=gen)
        lengths = torch.randint(1, T + 1, (B,), generator=gen)
        mask = (torch.arange(T)[None] < lengths[:, None]).float()  # the trainer passes a float mask
        local = torch.randn(B, T, generator=gen) * 0.1 * mask
        other = torch.randn(B, T, generator=gen)
        g, mask, local, other = (t.to(device) for t in (g, mask, local, other))

        adv = functools.partial(compute_advantages, "bot_grpo", g, local, mask, group, **options)
        add = functools.partial(torch.add, local, other)

        adv_ms = _loop_ms(adv, sync, calls, rounds, warm)
        add_ms = _loop_ms(add, sync, calls, rounds, warm)
        row = {"T": T, "bot_grpo_ms": adv_ms, "elementwise_add_ms": add_ms, "ratio": adv_ms / add_ms,
               "add_bytes": 3 * B * T * 4, "add_GBps": 3 * B * T * 4 / (add_ms * 1e-3) / 1e9}  # fmt: skip
        rows.append(row)
        print(
            f"[bench.gpu] advantage T={T}: {adv_ms:.4f} ms vs add {add_ms:.4f} ms ({row['ratio']:.2f}x)",
            flush=True,
        )
    out = {"B": B, "group_size": group, "dtype": "float32", "device": device, "options": options,
           "calls_per_round": calls, "rounds": rounds, "rows": rows}  # fmt: skip
    if cuda:
        out["kernels_at_max_T"] = _kernel_profile(adv)
    return out


def _kernel_profile(fn, calls: int = 5) -> dict:
    """CUDA kernels per call and their summed device time (is the estimator launch- or memory-bound?)."""
    try:
        from torch.autograd import DeviceType
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(calls):
                fn()
            torch.cuda.synchronize()
        kernels = [e for e in prof.events() if e.device_type == DeviceType.CUDA]
        device_us = sum(e.time_range.elapsed_us() for e in kernels)
        return {"kernels_per_call": len(kernels) / calls, "device_ms_per_call": device_us / 1e3 / calls}
    except Exception as exc:  # the profiler is a diagnostic; never lose the run over it
        return {"error": f"{type(exc).__name__}: {exc}"}


# ---- provenance ---------------------------------------------------------------------------------------
def _run(cmd: list[str]) -> str | None:
    try:
        return (
            subprocess.run(cmd, capture_output=True, text=True, timeout=20, cwd=REPO).stdout.strip() or None
        )
    except (OSError, subprocess.SubprocessError):
        return None


def machine() -> dict[str, Any]:
    info: dict[str, Any] = {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    if torch.cuda.is_available():
        p = torch.cuda.get_device_properties(0)
        info.update(gpu=p.name, gpu_memory_gb=p.total_memory / 2**30, multiprocessors=p.multi_processor_count,
                    capability=f"{p.major}.{p.minor}", cuda=torch.version.cuda,
                    nvidia_smi=_run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                                     "--format=csv,noheader"]))  # fmt: skip
    else:
        info["gpu"] = None
    return info


def versions() -> dict[str, Any]:
    from importlib.metadata import PackageNotFoundError, version

    out: dict[str, Any] = {}
    for name in (
        "torch",
        "transformers",
        "trl",
        "accelerate",
        "tokenizers",
        "datasets",
        "hydra-core",
        "omegaconf",
    ):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    out["git_commit"] = _run(["git", "rev-parse", "HEAD"])
    status = _run(["git", "status", "--porcelain", "--untracked-files=no"])
    out["git_dirty"] = None if out["git_commit"] is None else bool(status)
    return out


def _ratios(ours: dict, trl: dict) -> dict[str, float]:
    keys = ("step_s", "generation_s", "scoring_s", "fwd_bwd_s", "optimizer_other_s", "peak_mem_gb")
    out = {k: ours[k] / trl[k] for k in keys if ours.get(k) and trl.get(k)}
    if "step_s" in ours and "generation_s" in ours and "step_s" in trl and "generation_s" in trl:
        a, b = ours["step_s"] - ours["generation_s"], trl["step_s"] - trl["generation_s"]
        if b > 0:
            out["step_minus_generation_s"] = a / b
    return out


def timed_steps_that_fit(plan: Plan, done: list[tuple[int, dict]], length: int, remaining: float) -> int:
    """Timed steps per trainer at ``length`` so that both trainers end within ``remaining`` seconds.

    ``done``: (length, our run) of the lengths already run. A step is costed as the last one's
    median step time scaled by length (generation, linear in length, dominates), plus that run's
    build time; fewer steps are taken before a length is given up (0), so a pair stays a pair.
    """
    if not done:
        return plan.steps
    l0, run0 = done[-1]
    per_step = run0["median"].get("step_s", 0.0) * length / l0
    for n in range(plan.steps, 0, -1):
        if 2 * (run0.get("build_s", 0.0) + (plan.warmup + n) * per_step) <= remaining:
            return n
    return 0


# ---- main ----------------------------------------------------------------------------------------------
def parse(argv: list[str] | None) -> tuple[Plan, argparse.Namespace]:
    ap = argparse.ArgumentParser(prog="python -m bench.gpu", description=__doc__.split("\n\n")[0])
    ap.add_argument("--dry-run", action="store_true", help="tiny model, CPU, 2 steps per trainer (the test)")
    ap.add_argument(
        "--out",
        type=Path,
        default=None,
        help="JSON path (default: results/bench/gpu.json; with --dry-run: <work dir>/gpu.json)",
    )
    ap.add_argument("--work-dir", type=Path, default=None, help="model and run folders (default: a temp dir)")
    ap.add_argument("--lengths", type=int, nargs="+", help="completion lengths (default 256 1024)")
    ap.add_argument("--steps", type=int, help="timed steps per trainer and length (default 2)")
    ap.add_argument("--warmup", type=int, help="untimed first steps (default 1)")
    ap.add_argument(
        "--micro-batch", type=int, help="per-device micro-batch (default 16: 4 accumulation steps)"
    )
    ap.add_argument("--adv-T", type=int, nargs="+", help="advantage timing lengths (default 2048..32768)")
    ap.add_argument("--budget-s", type=float, help="skip runs that would end after this (default 450)")
    ap.add_argument("--override", action="append", default=[], help="extra Hydra override (repeatable)")
    ns = ap.parse_args(argv)
    plan = DRY_PLAN if ns.dry_run else GPU_PLAN
    given = {
        "lengths": tuple(ns.lengths) if ns.lengths else None, "steps": ns.steps, "warmup": ns.warmup,
        "micro_batch": ns.micro_batch, "adv_T": tuple(ns.adv_T) if ns.adv_T else None, "budget_s": ns.budget_s,
    }  # fmt: skip
    plan = replace(
        plan, **{k: v for k, v in given.items() if v is not None}, overrides=plan.overrides + ns.override
    )
    return plan, ns


def main(argv: list[str] | None = None) -> dict[str, Any]:
    threads = torch.get_num_threads()  # build_trainer may set them (resources.torch_threads)
    try:
        return _main(argv)
    finally:
        torch.set_num_threads(threads)


def _main(argv: list[str] | None) -> dict[str, Any]:
    for key, val in (("HF_HUB_OFFLINE", "1"), ("HF_DATASETS_OFFLINE", "1"), ("WANDB_MODE", "disabled"),
                     ("TOKENIZERS_PARALLELISM", "false")):  # fmt: skip
        os.environ.setdefault(key, val)
    plan, ns = parse(argv)
    start = time.perf_counter()
    device = "cpu" if plan.dry_run else "cuda"
    if device == "cuda" and not torch.cuda.is_available():
        sys.exit("bench.gpu: no CUDA device (use --dry-run for the CPU check)")
    work = ns.work_dir or Path(tempfile.mkdtemp(prefix="bench_gpu_"))
    work.mkdir(parents=True, exist_ok=True)
    if ns.out is None:  # CPU numbers never land where the GPU results live
        ns.out = work / "gpu.json" if plan.dry_run else REPO / "results" / "bench" / "gpu.json"
    peak, peak_note = peak_flops()
    result: dict[str, Any] = {
        "command": " ".join(
            [Path(sys.executable).name, "-m", "bench.gpu", *(argv if argv is not None else sys.argv[1:])]
        ),
        "dry_run": plan.dry_run,
        "machine": machine(),
        "versions": versions(),
        "plan": {k: v for k, v in asdict(plan).items() if k != "arch"},
        "setup": {
            "ours": "algorithm=bot_grpo via Hydra compose + bot_repro.trainer.build.build_trainer",
            "trl": "trl.GRPOTrainer, the same GRPOConfig, data set and reward source (global score G)",
            "generation": "transformers generate (no vLLM), sampling at temperature 1",
            "task": "mini (prompts only: the random policy's completions run to full length)",
            "gradient_checkpointing": not plan.dry_run,
            "gradient_accumulation_steps": plan.prompts * plan.rollouts // plan.micro_batch,
        },
        "mfu_assumption": (
            f"MFU = 6 * n_params * (prompt + completion tokens, padding excluded) / fwd_bwd_s / peak; "
            f"peak: {peak_note}. 6N counts forward + backward matmuls only: no attention-score FLOPs, "
            "no gradient-checkpointing recompute (the hardware does ~8N per token with it on)."
        ),
        "peak_flops": peak,
        "goals": {"step_ratio_ours_over_trl_max": 1.05, "advantage_vs_elementwise_max_at_T32768": 5.0},
        "runs": {},
        "skipped": [],
        "errors": [],
    }

    def write() -> None:
        result["elapsed_s"] = time.perf_counter() - start
        ns.out.parent.mkdir(parents=True, exist_ok=True)
        ns.out.write_text(json.dumps(result, indent=2, default=str) + "\n")

    from bot_repro.tasks.mini.task import MiniTask

    corpus = MiniTask({"n_train": 256, "n_test": 8, "warm_start": False}, {}).tokenizer_corpus()
    model_dir = work / "model"
    result["model"] = build_model_dir(plan, model_dir, corpus, device)
    n_params = result["model"]["n_params"]
    print(
        f"[bench.gpu] model built: {n_params / 1e9:.3f}B params in {result['model']['build_s']:.1f}s",
        flush=True,
    )
    write()

    done: list[tuple[int, dict]] = []
    for length in plan.lengths:
        steps = timed_steps_that_fit(plan, done, length, plan.budget_s - (time.perf_counter() - start))
        if steps == 0:
            result["skipped"].append(
                f"L={length}: one timed step per trainer would end after the {plan.budget_s:.0f}s budget"
            )
            print(f"[bench.gpu] skipped {result['skipped'][-1]}", flush=True)
            continue
        runs: dict[str, Any] = {"timed_steps": steps}
        result["runs"][str(length)] = runs
        recipe = None
        for kind in ("ours", "trl"):
            elapsed = time.perf_counter() - start
            if kind == "trl" and recipe is None:
                result["skipped"].append(f"trl L={length}: ours failed")
                continue
            if kind == "trl" and elapsed + runs["ours"]["wall_s"] > plan.budget_s:
                result["skipped"].append(
                    f"trl L={length}: {elapsed:.0f}s + ~{runs['ours']['wall_s']:.0f}s > budget"
                )
                print(f"[bench.gpu] skipped {result['skipped'][-1]}", flush=True)
                continue
            t0 = time.perf_counter()
            run_dir = work / "runs" / f"{kind}_{length}"
            trainer = None
            try:
                if kind == "ours":
                    trainer = build_ours(
                        compose(overrides(plan, length, steps, model_dir, f"bench_{length}")), run_dir
                    )
                    recipe = recipe_of(trainer, model_dir)
                else:
                    trainer = build_vanilla(recipe, run_dir)
                build_s = time.perf_counter() - t0
                runs[kind] = time_trainer(trainer, kind, n_params, plan.warmup)
                runs[kind]["build_s"] = build_s
            except Exception as exc:  # a failed run (an OOM, say) must not cost the others
                runs[kind] = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
                result["errors"].append(f"{kind} L={length}: {type(exc).__name__}: {exc}")
                print(f"[bench.gpu] FAILED {result['errors'][-1]}\n{runs[kind]['traceback']}", flush=True)
                if kind == "ours":
                    recipe = None
            if trainer is not None:
                free(trainer)
            del trainer
            _free_cuda()
            if torch.cuda.is_available():
                runs[kind]["gpu_allocated_after_free_gb"] = torch.cuda.memory_allocated() / 2**30
            runs[kind]["wall_s"] = time.perf_counter() - t0
            write()
        ok = {k for k in ("ours", "trl") if k in runs and "error" not in runs[k]}
        if "ours" in ok:
            done.append((length, runs["ours"]))
        if ok == {"ours", "trl"}:
            runs["ratio_ours_over_trl"] = _ratios(runs["ours"]["median"], runs["trl"]["median"])
            print(f"[bench.gpu] L={length} ours/trl: {runs['ratio_ours_over_trl']}", flush=True)
        if "advantage" not in result and recipe is not None:
            try:
                result["advantage"] = time_advantages(
                    recipe.advantage_options, plan.adv_B, plan.adv_T, plan.rollouts, device, plan.dry_run
                )
            except Exception as exc:
                result["advantage"] = {
                    "error": f"{type(exc).__name__}: {exc}",
                    "traceback": traceback.format_exc(),
                }
                result["errors"].append(f"advantage: {type(exc).__name__}: {exc}")
                print(
                    f"[bench.gpu] FAILED {result['errors'][-1]}\n{result['advantage']['traceback']}",
                    flush=True,
                )
            write()
    result["summary"] = {
        "step_ratio_ours_over_trl": {
            L: r.get("ratio_ours_over_trl", {}).get("step_s") for L, r in result["runs"].items()
        },
        "mfu_train_ours": {
            L: r.get("ours", {}).get("median", {}).get("mfu_train") for L, r in result["runs"].items()
        },
        "mfu_train_trl": {
            L: r.get("trl", {}).get("median", {}).get("mfu_train") for L, r in result["runs"].items()
        },
        "peak_mem_gb_ours": {
            L: r.get("ours", {}).get("median", {}).get("peak_mem_gb") for L, r in result["runs"].items()
        },
        "advantage_ratio_at_max_T": (result.get("advantage") or {}).get("rows", [{}])[-1].get("ratio"),
    }
    write()
    print(json.dumps(result["summary"], indent=2), flush=True)
    print(f"[bench.gpu] wrote {ns.out} in {result['elapsed_s']:.0f}s", flush=True)
    return result


if __name__ == "__main__":
    sys.exit(1 if main()["errors"] else 0)
