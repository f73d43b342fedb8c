"""``model.lora`` through training, resume, evaluation and two processes (tiny random-init Qwen2, debug=smoke).

- one step changes the adapter's weights and nothing else;
- a LoRA run logs the metric keys of the full run of the same config, and run.json records the adapter;
- a run resumed from its step-1 checkpoint (adapter and optimizer state) equals the uninterrupted run at step 2;
- ``python -m bot_repro.experiment evaluate heldout`` loads a LoRA checkpoint (the run's base model plus the adapter);
- a starting adapter is trained on from its own weights, and run.json names it with its hash;
- ``trainer.fused_lora`` trains the same run as peft's forward, step after step, with transformers' default
  (fused) optimizer, and measures the same KL from the start;
- ``resources=cpu_x2`` trains a LoRA run in 2 processes (slow).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest
import torch
from safetensors.torch import load_file

from bot_repro.models import lora
from bot_repro.run_folder import read_run_json, write_run_json
from tests.conftest import REPO, compose, save_adapter
from tests.integration.helpers import SMALL, run_inprocess

LORA = ["model.lora.enabled=true", "model.lora.r=4"]
RUN = ["trainer.max_steps=2", "trainer.save_total_limit=null"]
WEIGHTS = lora.WEIGHTS_FILE


def _records(run_dir) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def lora_run(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("lora") / "run"
    run_inprocess([*SMALL, *LORA, *RUN], run_dir)
    return run_dir


def test_one_step_changes_only_the_adapters_weights(tmp_path):
    from bot_repro.config import validate
    from bot_repro.trainer.build import build_trainer

    cfg = validate(compose([*SMALL, *LORA, "trainer.max_steps=1", "trainer.eval.every=0"]))
    trainer, _, _ = build_trainer(cfg, tmp_path, time.time())
    before = {name: p.detach().clone() for name, p in trainer.model.named_parameters()}
    trainer.train()
    after = dict(trainer.model.named_parameters())
    changed = {name for name, p in before.items() if not torch.equal(p, after[name])}
    adapter = {name for name in before if ".lora_" in name}
    assert changed and changed <= adapter, sorted(changed - adapter)
    # lora_B starts at zero, so the first step's gradient reaches B alone (A's is B^T-weighted)
    assert all(".lora_B." in name for name in changed), sorted(changed)


def test_lora_and_full_runs_log_the_same_keys_and_run_json_records_the_adapter(lora_run, tmp_path):
    full = tmp_path / "full"
    run_inprocess([*SMALL, *RUN], full)
    lora_recs, full_recs = _records(lora_run), _records(full)
    assert [r["step"] for r in lora_recs] == [r["step"] for r in full_recs] == [0, 1, 2]
    for a, b in zip(lora_recs, full_recs):
        assert set(a) == set(b), set(a) ^ set(b)
    info = json.loads((lora_run / "run.json").read_text())["lora"]
    assert (info["r"], info["alpha"], info["target_modules"], info["adapter"]) == (4, lora.DEFAULT_ALPHA,
                                                                                   lora.ALL_LINEAR, None)  # fmt: skip
    assert info["wrapped_modules"] == ["down_proj", "gate_proj", "k_proj", "o_proj", "q_proj", "up_proj", "v_proj"]
    assert info["wrapped_count"] == 14 and 0 < info["trainable_params"] < info["total_params"] / 10, info
    assert "lora" not in json.loads((full / "run.json").read_text())
    assert (lora_run / "checkpoints" / "checkpoint-1" / WEIGHTS).is_file()  # adapter-only checkpoints
    assert not (lora_run / "checkpoints" / "checkpoint-1" / "model.safetensors").exists()


def test_a_resumed_lora_run_equals_the_uninterrupted_one(lora_run, tmp_path):
    resumed = tmp_path / "resumed"
    shutil.copytree(lora_run, resumed)
    shutil.rmtree(resumed / "checkpoints" / "checkpoint-2")  # as if killed after step 1's checkpoint,
    info = read_run_json(resumed)
    write_run_json(resumed, {**info, "status": "running"})  # which leaves run.json saying running
    run_inprocess([*SMALL, *LORA, *RUN, "resume=true"], resumed)
    assert json.loads((resumed / "run.json").read_text())["resumed_from"].endswith("checkpoint-1")
    a, b = (load_file(d / "checkpoints" / "checkpoint-2" / WEIGHTS) for d in (lora_run, resumed))
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    step1 = load_file(lora_run / "checkpoints" / "checkpoint-1" / WEIGHTS)
    assert any(not torch.equal(a[k], step1[k]) for k in a)  # step 2 trained: the equality is not trivial
    opt_a, opt_b = (torch.load(d / "checkpoints" / "checkpoint-2" / "optimizer.pt", weights_only=False)["state"]
                    for d in (lora_run, resumed))  # fmt: skip
    assert opt_a.keys() == opt_b.keys() and opt_a  # Adam's moments of the adapter's parameters
    for k in opt_a:
        assert all(torch.equal(opt_a[k][s], opt_b[k][s]) for s in ("exp_avg", "exp_avg_sq")), k
    # the policy's distance and KL are from the run's start, not from the checkpoint it resumed from
    keep = ("loss", "grad_norm", "reward_mean", "adv_mean", "policy/weight_delta", "policy/kl_start")
    step2 = [{k: r[k] for k in keep} for d in (lora_run, resumed) for r in _records(d) if r["step"] == 2]
    assert len(step2) == 2 and step2[0] == step2[1], step2
    assert step2[0]["policy/kl_start"] > 0 and step2[0]["policy/weight_delta"] > 0


def test_the_fused_forward_trains_the_same_run_as_peft(lora_run, tmp_path):
    # a merge kept across a fused optimizer's step ran every loss at the starting weights and read a KL of 0
    fused = tmp_path / "fused"
    run_inprocess([*SMALL, *LORA, *RUN, "trainer.fused_lora=true"], fused)
    keep = ("loss", "grad_norm", "policy/weight_delta", "policy/kl_start")
    for plain, merged in zip(_records(lora_run), _records(fused), strict=True):
        for key in keep:
            if key in plain:
                assert merged[key] == pytest.approx(plain[key], rel=1e-3, abs=1e-7), (plain["step"], key)
    assert _records(fused)[-1]["policy/kl_start"] > 1e-9  # a KL, not float rounding (about 1e-12)


def test_offline_evaluation_loads_a_lora_checkpoint(lora_run, tmp_path):
    from bot_repro.experiment.offline_eval import evaluate_checkpoint

    out = evaluate_checkpoint(lora_run, step=2, out_dir=tmp_path / "eval")
    in_training = {k.removeprefix("eval/") for k in _records(lora_run)[-1] if k.startswith("eval/")}
    assert out["step"] == 2 and set(out["metrics"]) == in_training, out


@pytest.fixture(scope="module")
def adapter_dir(tmp_path_factory):
    """A starting adapter for the smoke run's tiny Qwen2 (hidden 64), lora_B nonzero, with its hash record."""
    from transformers import AutoModelForCausalLM

    from bot_repro.models.tiny import tiny_config

    base = AutoModelForCausalLM.from_config(tiny_config("qwen2"))
    return save_adapter(base, tmp_path_factory.mktemp("start") / "adapter", r=2, alpha=4)


def test_a_starting_adapter_is_trained_on_and_recorded(adapter_dir, tmp_path):
    run_dir = tmp_path / "run"
    run_inprocess([*SMALL, f"model.lora.adapter={adapter_dir}", "trainer.max_steps=1", "trainer.eval.every=0"], run_dir)
    info = json.loads((run_dir / "run.json").read_text())["lora"]
    assert info["adapter"] == {"spec": str(adapter_dir), "path": str(adapter_dir), "hash": lora.adapter_hash(adapter_dir)}
    assert (info["r"], info["wrapped_modules"]) == (2, ["q_proj", "v_proj"])
    start, trained = load_file(adapter_dir / WEIGHTS), load_file(run_dir / "checkpoints" / "checkpoint-1" / WEIGHTS)
    assert start.keys() == trained.keys()
    b = next(k for k in start if ".lora_B." in k)
    step = (trained[b] - start[b]).abs().max().item()
    assert 0 < step < 1e-3 < start[b].abs().max().item(), step  # one Adam step (lr 1e-4) away from the adapter


@pytest.mark.slow
def test_two_processes_train_a_lora_run(tmp_path):
    run_dir = tmp_path / "x2"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "OMP_NUM_THREADS": "1"}
    cmd = [sys.executable, "-m", "bot_repro.train", *SMALL, *LORA, "resources=cpu_x2", "trainer.max_steps=1",
           "trainer.eval.every=0", f"hydra.run.dir={run_dir}"]  # fmt: skip
    r = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-4000:]
    assert "launching 2 training processes" in r.stdout and r.stdout.count("(completed, 1 steps)") == 1, r.stdout
    info = json.loads((run_dir / "run.json").read_text())
    assert info["status"] == "completed" and info["lora"]["r"] == 4, info
    assert [rec["step"] for rec in _records(run_dir)] == [1]
    assert (run_dir / "checkpoints" / "checkpoint-1" / WEIGHTS).is_file()
