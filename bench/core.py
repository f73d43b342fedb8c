"""Core benchmark -> ``results/bench/core.json``.

- the advantage estimators (``bench.algorithms``): ``bot_advantage_ms`` (B = 64, T = 4096, CPU) and
  ``bot_advantage_vs_elementwise_ratio`` (target <= 10);
- ``trainer_step_ratio_vs_trl``: median optimizer-step time of our trainer with ``grpo`` over vanilla
  TRL ``GRPOTrainer``, same tiny model, data, seed and settings (target <= 1.10). The two trainers
  alternate in rounds so a load spike from other processes hits both.

Usage: ``python -m bench.core [out.json]`` from the repository root; the JSON starts with ``bench.header``'s header.
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

from bench.header import bench_run, write

STEPS, WARMUP, ROUNDS = 8, 2, 3


def _step_times(trainer) -> list[float]:
    from transformers import TrainerCallback

    times: list[float] = []

    class Clock(TrainerCallback):
        def on_step_begin(self, args, state, control, **kw):
            self.t = time.perf_counter()

        def on_step_end(self, args, state, control, **kw):
            times.append(time.perf_counter() - self.t)

    trainer.add_callback(Clock())
    trainer.train()
    return times[WARMUP:]


def ours_and_trl_step_times(model_dir, args, ds, tok, vanilla_reward, source, window: int, rounds: int):
    """Per-step seconds of vanilla TRL (``vanilla_reward``) and of our trainer (GRPO advantages from the
    registry, ``source``'s token rewards), each from a fresh model, ``rounds`` times; ``args(name)`` is
    the GRPOConfig both share."""
    from transformers import AutoModelForCausalLM
    from trl import GRPOTrainer

    from bot_repro.trainer.bot_trainer import BoTGRPOTrainer
    from bot_repro.trainer.token_reward import TokenRewardFunction

    ours_t, trl_t = [], []
    for r in range(rounds):
        vanilla = GRPOTrainer(
            model=AutoModelForCausalLM.from_pretrained(model_dir), args=args(f"trl{r}"), train_dataset=ds,
            processing_class=tok, reward_funcs=[vanilla_reward],
        )  # fmt: skip
        trl_t += _step_times(vanilla)
        ours = BoTGRPOTrainer(
            model=AutoModelForCausalLM.from_pretrained(model_dir), args=args(f"ours{r}"), train_dataset=ds,
            processing_class=tok, token_reward=TokenRewardFunction(source, tok, window=window), advantage="grpo",
            advantage_options={"std": "unbiased", "eps": 1e-4, "seq_reward": "global", "w_g": 1.0, "w_s": 1.0},
        )  # fmt: skip
        ours_t += _step_times(ours)
    return ours_t, trl_t


def trainer_ratio() -> dict:
    from datasets import Dataset
    from transformers import AutoTokenizer
    from trl import GRPOConfig

    from bot_repro.models.tiny import build_tiny
    from bot_repro.rewards import RewardCfg
    from bot_repro.tasks.mini.reward import MiniReward
    from bot_repro.tasks.mini.task import MiniTask

    tmp = Path(tempfile.mkdtemp())
    task = MiniTask({"n_train": 256, "n_test": 8, "warm_start": False}, {})
    model_dir = build_tiny("qwen2", tmp / "model", corpus=task.tokenizer_corpus(), hidden_size=128, num_layers=4)
    train, _ = task.datasets()
    ds = Dataset.from_list(train)
    tok = AutoTokenizer.from_pretrained(model_dir)
    reward = RewardCfg(source="mini", window=1, params={"variant": "progress"})  # as conf/reward/mini_progress.yaml
    source = MiniReward(reward, {"seed": 0})

    def vanilla_reward(prompts, completions, completion_ids, **kw):
        texts = [tok.decode(ids, skip_special_tokens=True) for ids in completion_ids]
        return [r.global_score for r in source.score(texts, [{"document": d} for d in kw["document"]])]

    def args(name):
        return GRPOConfig(
            output_dir=str(tmp / name), seed=0, max_steps=STEPS + WARMUP, per_device_train_batch_size=64,
            num_generations=8, max_completion_length=16, learning_rate=1e-4, logging_steps=1, use_cpu=True,
            report_to=[], loss_type="grpo", save_strategy="no", disable_tqdm=True,
        )  # fmt: skip

    ours_t, trl_t = ours_and_trl_step_times(model_dir, args, ds, tok, vanilla_reward, source, reward.window, ROUNDS)
    return {
        "trainer_step_ms_ours": 1000 * statistics.median(ours_t),
        "trainer_step_ms_trl": 1000 * statistics.median(trl_t),
        "trainer_step_ratio_vs_trl": statistics.median(ours_t) / statistics.median(trl_t),
        "trainer_setup": "tiny qwen2 (hidden 128, 4 layers), mini task, 8 prompts x 8 rollouts, 16 new tokens, CPU",
        "trainer_steps_timed": len(ours_t),
    }


def main() -> None:
    from bench import algorithms

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("results/bench/core.json")
    with bench_run("core") as header:
        algo = algorithms.run()
        result = {
            "bot_advantage_ms": algo["bot_advantage_ms"],
            "bot_advantage_vs_elementwise_ratio": algo["bot_advantage_vs_elementwise_ratio"],
            "advantages": algo,
        }
        torch.set_num_threads(2)
        result.update(trainer_ratio())
        result["machine"] = {
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpu_count": __import__("os").cpu_count(),
            "torch": torch.__version__,
            "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
    data = write(out, header, result)
    print(json.dumps({k: v for k, v in data.items() if k != "advantages"}, indent=2))


if __name__ == "__main__":
    main()
