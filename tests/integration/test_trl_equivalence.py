"""With GRPO at TRL-equivalent settings our trainer reproduces vanilla TRL step for step."""

from __future__ import annotations

import pytest
import torch
from datasets import Dataset
from transformers import AutoModelForCausalLM, AutoTokenizer, TrainerCallback
from trl import GRPOConfig, GRPOTrainer

from bot_repro.tasks.mini.task import MiniTask
from bot_repro.trainer.bot_trainer import BoTGRPOTrainer
from bot_repro.trainer.token_reward import TokenRewardFunction
from tests.integration.helpers import VarianceReward


class Logs(TrainerCallback):
    def __init__(self):
        self.logs = []

    def on_log(self, args, state, control, logs=None, **kw):
        if logs and "loss" in logs:
            self.logs.append(dict(logs))


def _args(tmp_path, name):
    return GRPOConfig(
        output_dir=str(tmp_path / name), seed=0, max_steps=2, per_device_train_batch_size=8, num_generations=4,
        max_completion_length=16, learning_rate=1e-3, logging_steps=1, use_cpu=True, report_to=[],
        loss_type="grpo", beta=0.0, scale_rewards="group", save_strategy="no", disable_tqdm=True,
    )  # fmt: skip


def test_grpo_first_steps_equal_vanilla_trl(tiny_qwen2, tmp_path):
    train, _ = MiniTask({"n_train": 32, "n_test": 4, "warm_start": False}, {}).datasets()
    ds = Dataset.from_list(train)
    tok = AutoTokenizer.from_pretrained(tiny_qwen2)
    source = VarianceReward()

    def vanilla_reward(prompts, completions, completion_ids, **kw):
        texts = [tok.decode(ids, skip_special_tokens=True) for ids in completion_ids]
        return [r.global_score for r in source.score(texts, [])]

    a_logs, b_logs = Logs(), Logs()
    vanilla = GRPOTrainer(
        model=AutoModelForCausalLM.from_pretrained(tiny_qwen2), args=_args(tmp_path, "a"), train_dataset=ds,
        processing_class=tok, reward_funcs=[vanilla_reward], callbacks=[a_logs],
    )  # fmt: skip
    vanilla.train()
    ours = BoTGRPOTrainer(
        model=AutoModelForCausalLM.from_pretrained(tiny_qwen2), args=_args(tmp_path, "b"), train_dataset=ds,
        processing_class=AutoTokenizer.from_pretrained(tiny_qwen2), callbacks=[b_logs],
        token_reward=TokenRewardFunction(source, tok, window=0), advantage="grpo",
        # TRL: unbiased std, eps 1e-4, sequence reward = the reward function's output
        advantage_options={"std": "unbiased", "eps": 1e-4, "seq_reward": "global", "w_g": 1.0, "w_s": 0.0},
    )  # fmt: skip
    ours.train()
    assert len(a_logs.logs) == len(b_logs.logs) == 2
    for a, b in zip(a_logs.logs, b_logs.logs):
        assert b["loss"] == pytest.approx(a["loss"], abs=1e-5)
        assert b["grad_norm"] == pytest.approx(a["grad_norm"], rel=1e-4, abs=1e-6)
        assert b["completions/mean_length"] == a["completions/mean_length"]
    assert a_logs.logs[0]["grad_norm"] > 0  # a real update happened, so the comparison means something
    # Parameters: Adam divides by sqrt(v), so it turns float rounding in a zero gradient into full
    # steps. The key-projection bias has an exactly zero gradient (softmax ignores a constant added
    # to all of a query's logits), so it is compared only in aggregate; every other tensor closely.
    start = AutoModelForCausalLM.from_pretrained(tiny_qwen2)
    all_a, all_b = [], []
    for (na, p0), (_, pa), (nb, pb) in zip(
        start.named_parameters(), vanilla.model.named_parameters(), ours.model.named_parameters()
    ):
        assert na == nb
        da, db = (pa - p0).detach().flatten(), (pb - p0).detach().flatten()
        all_a.append(da)
        all_b.append(db)
        if "k_proj.bias" in na:
            continue
        assert da.norm() > 0, na
        assert (da - db).norm() <= 2e-2 * da.norm(), na
    da, db = torch.cat(all_a), torch.cat(all_b)
    assert (da - db).norm() <= 1e-2 * da.norm()
