"""End-to-end training on CPU: every algorithm and every tiny model family for a few steps."""

from __future__ import annotations

import json
import math

import pytest
import torch

from bot_repro.algorithms import ADVANTAGES
from tests.integration.helpers import SMALL, run_inprocess

VARIANCE = [*SMALL, "reward=mini_penalty", "reward.source=test_variance"]


def _lines(run_dir):
    return [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()]


def _weights(path):
    from safetensors.torch import load_file

    return load_file(str(path / "model.safetensors"))


@pytest.mark.parametrize("algorithm", sorted(ADVANTAGES))
def test_every_algorithm_trains_and_moves_the_policy(algorithm, tmp_path):
    run_dir = tmp_path / "run"
    run_inprocess([*VARIANCE, f"algorithm={algorithm}", "trainer.max_steps=2"], run_dir)
    lines = _lines(run_dir)
    assert [x["step"] for x in lines] == [0, 1, 2]
    for rec in lines[1:]:
        assert math.isfinite(rec["grad_norm"]) and rec["grad_norm"] > 0, rec
        for key in ("reward_mean", "adv_mean", "loss", "completion_len_mean", "generated_tokens", "step_seconds"):
            assert key in rec, key
    assert "eval/success_rate" in lines[-1] and "eval/success_rate" in lines[0]
    # how far the policy moved from its start (trainer/drift.py): 0 before training, then growing; the KL is 0
    # on step 1's rollouts (sampled by the start) and above 0 on step 2's
    assert lines[0]["policy/weight_delta"] == 0.0 < lines[1]["policy/weight_delta"] < lines[2]["policy/weight_delta"]
    assert lines[1]["policy/kl_start"] == 0.0 < lines[2]["policy/kl_start"]
    info = json.loads((run_dir / "run.json").read_text())
    assert info["status"] == "completed" and info["seed"] == 0 and "torch" in info["packages"]
    # the policy changed: the step-2 checkpoint differs from the step-1 checkpoint
    w1 = _weights(run_dir / "checkpoints" / "checkpoint-1")
    w2 = _weights(run_dir / "checkpoints" / "checkpoint-2")
    assert any(not torch.equal(w1[k], w2[k]) for k in w1)
    rollouts = (run_dir / "rollouts" / "step_000001.jsonl").read_text().splitlines()
    row = json.loads(rollouts[0])
    assert len(row["tokens"]) == len(row["local_rewards"]) == len(row["advantages"])


@pytest.mark.parametrize("model", ["tiny_smollm3", "tiny_phi3"])
def test_every_tiny_family_trains(model, tmp_path):
    run_inprocess([*VARIANCE, f"model={model}", "algorithm=bot_grpo", "trainer.max_steps=1"], tmp_path / "r")
    rec = _lines(tmp_path / "r")[-1]
    assert rec["step"] == 1 and rec["grad_norm"] > 0


def test_nan_reward_names_the_sample(tmp_path):
    from bot_repro.trainer.token_reward import NonFiniteRewardError

    with pytest.raises(NonFiniteRewardError, match="sample 1"):
        run_inprocess([*SMALL, "reward.source=test_nan", "trainer.max_steps=1"], tmp_path / "r")
    assert json.loads((tmp_path / "r" / "run.json").read_text())["status"] == "failed"


def test_dapo_dynamic_sampling_drops_and_refills(tmp_path):
    # mini penalty reward with DAPO's sequence reward token_mean: groups differ unless all rollouts tie
    run_dir = tmp_path / "r"
    run_inprocess(
        [*SMALL, "algorithm=dapo", "reward=mini_penalty", "trainer.max_steps=2", "algorithm.dynamic_sampling.max_rounds=2"],
        run_dir,
    )
    rec = _lines(run_dir)[-1]
    assert {"dapo/dropped_groups", "dapo/extra_rounds", "dapo/unfilled_groups"} <= set(rec)
    assert rec["dapo/extra_rounds"] <= 2
