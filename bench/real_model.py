"""Real-model benchmark -> ``results/bench/real_model.json`` (SmolLM2-135M-Instruct, CPU).

- ``generation_tokens_per_s``: sampled new tokens per second, HF ``generate`` on a batch of the
  arith task's chat prompts (``GEN_BATCH`` x ``GEN_TOKENS``, no early stop: every row makes all its tokens);
- ``step_s_ours`` / ``step_s_trl`` and ``trainer_step_ratio_vs_trl`` (goal <= 1.05): median
  optimizer-step time of our trainer with ``grpo`` over vanilla TRL ``GRPOTrainer``, same model,
  data, seed and settings, the reward being the arith reward's global score in both. The trainers
  alternate in rounds so a load spike from other processes hits both. Prompts (task params, worked
  examples included), rollouts, micro-batches, new tokens and learning rate are ``experiment=real_small``'s
  (its composed config: the sizes come from ``conf/sizing/``), so a step here is a step of ``make real-demo``.
- ``step_costs`` (#44 item 3): our trainer's real_small step in two configurations with the same rollouts
  per step, micro-batches and new tokens: ``today`` (real_small's 4 worked examples, full weights
  trained) and ``adapter`` (no worked examples, the shipped starting adapter ``ADAPTER`` trained, the
  model frozen); per step the seconds of generation (``_generate``), logprob recompute (the no-grad
  ``_get_per_token_logps_and_entropies`` calls of the generation round: old or reference logprobs,
  none when TRL needs neither), forward/backward (``training_step`` less the generation round),
  optimizer (``optimizer.step``, between the trainer's pre- and post-optimizer callbacks) and the rest;
  ``step_cost_ratio`` is today's median step over the adapter's (goal >= 3).
The JSON starts with ``bench.header``'s header (machine, load, other processes' CPU, ``loaded``): on a
shared machine the absolute times are upper bounds.

Usage: ``python -m bench.real_model [out.json] [--step-costs-only]`` from the repository root (converts the
GGUF on first use); ``--step-costs-only`` measures ``step_costs`` alone (``step_costs_only``).
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch
from omegaconf import OmegaConf

from bench.header import bench_run, write

STEPS, ROUNDS = 2, 1  # timed steps per round (bench.core.WARMUP more run first, untimed): 8 steps in all
GEN_BATCH, GEN_TOKENS = 8, 64

def _real_small():
    from bot_repro.config import validate
    from bot_repro.experiment.sweep import compose_experiment, without_hydra

    return validate(without_hydra(compose_experiment("real_small")))


def _model_dir() -> Path:
    from bot_repro.cache import cache_root
    from bot_repro.models.gguf import converted_dir, gguf_path

    m = OmegaConf.load(Path("conf/model/smollm2_135m.yaml"))
    return converted_dir(gguf_path(m.hub_id, m.gguf_file), m.dtype, cache_root())


def generation(model_dir: Path, rows) -> dict:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model_dir, padding_side="left")
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).eval()
    texts = [tok.apply_chat_template(r["prompt"], tokenize=False, add_generation_prompt=True) for r in rows[:GEN_BATCH]]
    enc = tok(texts, return_tensors="pt", padding=True)
    kw = dict(do_sample=True, temperature=1.0, max_new_tokens=GEN_TOKENS, min_new_tokens=GEN_TOKENS,
              pad_token_id=tok.pad_token_id)
    with torch.no_grad():
        model.generate(**enc, do_sample=True, max_new_tokens=4, pad_token_id=tok.pad_token_id)  # warm-up
        t = time.perf_counter()
        out = model.generate(**enc, **kw)
        dt = time.perf_counter() - t
    new = (out.shape[1] - enc["input_ids"].shape[1]) * out.shape[0]
    return {"generation_tokens_per_s": new / dt, "generation_s": dt,
            "generation_setup": f"{GEN_BATCH} prompts x {GEN_TOKENS} new tokens, sampled, prompt {enc['input_ids'].shape[1]} tokens"}


def grpo_args(cfg, tmp: Path):
    """name -> the GRPOConfig of every timed trainer here: real_small's sizes, CPU as bot_repro.trainer.build sets it."""
    from trl import GRPOConfig

    from bench import core

    t = cfg.trainer
    per_device, accumulation = cfg.batch

    def args(name):
        return GRPOConfig(
            output_dir=str(tmp / name), seed=0, max_steps=STEPS + core.WARMUP, per_device_train_batch_size=per_device,
            gradient_accumulation_steps=accumulation, num_generations=t.num_generations,
            max_completion_length=t.max_completion_length, learning_rate=t.learning_rate, logging_steps=1,
            use_cpu=True, bf16=False, activation_checkpointing=False,
            report_to=[], loss_type="grpo", save_strategy="no", disable_tqdm=True,
        )  # fmt: skip

    return args


def trainer_ratio(model_dir: Path, task, source, cfg) -> dict:
    from datasets import Dataset
    from transformers import AutoTokenizer

    from bench import core

    tmp = Path(tempfile.mkdtemp())
    train, _ = task.datasets()
    ds = Dataset.from_list(train)
    tok = AutoTokenizer.from_pretrained(model_dir)

    def vanilla_reward(prompts, completions, completion_ids, **kw):
        texts = [tok.decode(ids, skip_special_tokens=True) for ids in completion_ids]
        return [r.global_score for r in source.score(texts, [{"answer": a} for a in kw["answer"]])]

    t = cfg.trainer
    per_device, accumulation = cfg.batch
    ours_t, trl_t = core.ours_and_trl_step_times(model_dir, grpo_args(cfg, tmp), ds, tok, vanilla_reward, source,
                                                cfg.reward.window, ROUNDS)
    return {
        "step_s_ours": statistics.median(ours_t),
        "step_s_trl": statistics.median(trl_t),
        "trainer_step_ratio_vs_trl": statistics.median(ours_t) / statistics.median(trl_t),
        "trainer_setup": f"SmolLM2-135M-Instruct fp32, task=arith as in experiment=real_small "
                         f"({cfg.task.params['shots']} worked examples), {t.prompts_per_step} prompts x {t.num_generations} "
                         f"rollouts, {per_device} per backward pass x {accumulation}, {t.max_completion_length} new tokens, "
                         f"grpo, CPU",
        "trainer_steps_timed": {"ours": len(ours_t), "trl": len(trl_t)},
    }


ADAPTER = "smollm2_135m-arith-two_step"
PHASES = ("generation_s", "logprob_recompute_s", "fwd_bwd_s", "optimizer_s", "other_s")


def _phase_steps(trainer) -> list[dict]:
    """Per-step phase seconds of ``trainer.train()`` (the first ``core.WARMUP`` steps dropped)."""
    import functools

    from transformers import TrainerCallback

    from bench import core

    acc: dict[str, float] = {}

    def wrap(name: str, phase: str, only=lambda: True) -> None:
        fn = getattr(trainer, name)

        @functools.wraps(fn)
        def timed(*a, **kw):
            t = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                if only():
                    acc[phase] = acc.get(phase, 0.0) + time.perf_counter() - t

        setattr(trainer, name, timed)

    wrap("_generate", "generation")
    wrap("_generate_and_score_completions", "round")
    wrap("training_step", "training_step")
    wrap("_get_per_token_logps_and_entropies", "recompute", only=lambda: not torch.is_grad_enabled())
    rows: list[dict] = []

    class Clock(TrainerCallback):
        def on_step_begin(self, args, state, control, **kw):
            acc.clear()
            self.t = time.perf_counter()

        def on_pre_optimizer_step(self, args, state, control, **kw):
            self.o = time.perf_counter()

        def on_optimizer_step(self, args, state, control, **kw):
            acc["optimizer"] = time.perf_counter() - self.o

        def on_step_end(self, args, state, control, **kw):
            step = time.perf_counter() - self.t
            row = {"step_s": step, "generation_s": acc.get("generation", 0.0),
                   "logprob_recompute_s": acc.get("recompute", 0.0),
                   "fwd_bwd_s": acc.get("training_step", 0.0) - acc.get("round", 0.0),
                   "optimizer_s": acc.get("optimizer", 0.0)}
            row["other_s"] = step - sum(row[k] for k in PHASES[:-1])
            rows.append(row)
            print(f"[bench.real_model] step {state.global_step}: " + ", ".join(f"{k}={v:.2f}" for k, v in row.items()),
                  flush=True)

    trainer.add_callback(Clock())
    trainer.train()
    return rows[core.WARMUP:]


def step_costs(model_dir: Path, cfg, args) -> dict:
    """Our trainer's step in real_small's configuration and in the adapter's (module docstring)."""
    from datasets import Dataset
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from bot_repro.models.lora import SHIPPED, resolve_adapter
    from bot_repro.rewards import REWARD_SOURCES
    from bot_repro.tasks.arith import make_arith_task
    from bot_repro.trainer.bot_trainer import BoTGRPOTrainer
    from bot_repro.trainer.token_reward import TokenRewardFunction

    tok = AutoTokenizer.from_pretrained(model_dir)
    source = REWARD_SOURCES["arith"](cfg.reward, {})
    out: dict = {}
    for name, shots in (("today", cfg.task.params["shots"]), ("adapter", 0)):
        task = make_arith_task({**cfg.task.params, "n_train": 64, "n_test": 8, "shots": shots}, {"family": "qwen2"})
        model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
        if name == "adapter":
            model = PeftModel.from_pretrained(model, resolve_adapter(SHIPPED + ADAPTER), is_trainable=True)
        trainer = BoTGRPOTrainer(
            model=model, args=args(name), train_dataset=Dataset.from_list(task.datasets()[0]), processing_class=tok,
            token_reward=TokenRewardFunction(source, tok, window=cfg.reward.window), advantage="grpo",
            advantage_options={"std": "unbiased", "eps": 1e-4, "seq_reward": "global", "w_g": 1.0, "w_s": 1.0},
        )  # fmt: skip
        rows = _phase_steps(trainer)
        trained = sum(p.numel() for p in model.parameters() if p.requires_grad)
        lengths = [float(h["completions/mean_length"]) for h in trainer.state.log_history if "completions/mean_length" in h]
        out[name] = {"shots": shots, "trained_params": trained, "steps": rows,
                     "completion_tokens_mean": statistics.mean(lengths[-len(rows):]),
                     "median": {k: statistics.median(r[k] for r in rows) for k in ("step_s", *PHASES)}}
    out["adapter"]["adapter"] = ADAPTER
    ratio = out["today"]["median"]["step_s"] / out["adapter"]["median"]["step_s"]
    return {"step_costs": out, "step_cost_ratio": ratio, "step_cost_goal": ">= 3 (today / adapter)"}


def step_costs_only(out: Path) -> dict:
    """``--step-costs-only``: measure ``step_costs`` alone, under its own header inside it; the file's other
    keys and its top-level header stay those of the last full run (they describe that run)."""
    kept = json.loads(out.read_text()) if out.exists() else {}
    with bench_run("real_model.step_costs") as part:
        torch.set_num_threads(2)
        cfg = _real_small()
        measured = step_costs(_model_dir(), cfg, grpo_args(cfg, Path(tempfile.mkdtemp())))
    measured["step_costs"]["header"] = part.as_dict()
    data = {**kept, **measured}
    out.write_text(json.dumps(data, indent=2, default=str) + "\n")
    return data


def main() -> None:
    from bot_repro.rewards import REWARD_SOURCES
    from bot_repro.tasks.arith import make_arith_task

    paths = [a for a in sys.argv[1:] if not a.startswith("--")]
    out = Path(paths[0]) if paths else Path("results/bench/real_model.json")
    if "--step-costs-only" in sys.argv:
        print(json.dumps(step_costs_only(out), indent=2))
        return
    with bench_run("real_model") as header:
        load_before = os.getloadavg()
        torch.set_num_threads(2)
        model_dir = _model_dir()
        cfg = _real_small()
        params = {**cfg.task.params, "n_train": 64, "n_test": 8}
        task = make_arith_task(params, {"family": "qwen2"})
        source = REWARD_SOURCES["arith"](cfg.reward, {})  # real_small's reward section (arith_default)
        result = generation(model_dir, task.datasets()[0])
        result.update(trainer_ratio(model_dir, task, source, cfg))
        result.update(step_costs(model_dir, cfg, grpo_args(cfg, Path(tempfile.mkdtemp()))))
        result["machine"] = {
            "platform": platform.platform(), "processor": platform.processor() or platform.machine(),
            "cpu_count": os.cpu_count(), "torch": torch.__version__, "torch_threads": 2,
            "load_average_before": load_before, "load_average_after": os.getloadavg(),
            "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
    print(json.dumps(write(out, header, result), indent=2))


if __name__ == "__main__":
    main()
