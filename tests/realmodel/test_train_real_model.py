"""task=aime and task=react train 2 steps with SmolLM2-135M-Instruct (model=smollm2_135m), offline.

Real tokenizer, chat template, sampling and stop token (<|im_end|>); a weak model's output must be
scored (with a reason), never crash the parsers or checkers. The AIME run also checks that how far the
policy moved from its start (``policy/*`` in metrics.jsonl) is 0 at the start and grows. Sizes are cut to the minimum (2
prompts x 2 rollouts x 32 tokens) so each run is about 2 minutes on 2 quiet cores; marked slow.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot_repro.tasks.react.render import renderer_missing
from bot_repro.tasks.react.workers import toolchain_missing

REPO = Path(__file__).resolve().parents[2]
SMALL = [
    "model=smollm2_135m", "trainer.num_generations=2", "trainer.prompts_per_step=2", "trainer.max_steps=2",
    "trainer.max_completion_length=32", "trainer.save_steps=1000", "trainer.rollouts_per_step=4",
    "trainer.learning_rate=1e-5", "trainer.eval.every=2", "trainer.eval.n_samples=2",
    "trainer.eval.max_prompts=2", "logger.wandb_mode=disabled", "logger.progress_bar=false",
]  # fmt: skip
MISSING = toolchain_missing() or renderer_missing()


def train(run_dir: Path, overrides: list[str]) -> list[dict]:
    env = dict(os.environ, HF_HUB_OFFLINE="1", WANDB_MODE="disabled")
    cmd = [sys.executable, "-m", "bot_repro.train", *SMALL, *overrides, f"hydra.run.dir={run_dir}"]
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    records = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines() if line.strip()]
    assert [r["step"] for r in records if "loss" in r] == [1, 2], records
    return records


def rollouts(run_dir: Path) -> list[dict]:
    rows = [json.loads(line) for p in sorted((run_dir / "rollouts").rglob("*.jsonl")) for line in p.open()]
    assert rows, "no saved rollouts"
    return rows


@pytest.mark.slow
def test_aime_trains_two_steps_with_the_real_model(smollm2_dir, tmp_path):
    run = tmp_path / "aime"
    # weight decay moves the weights whatever the rewards, so the policy's distance from its start must grow
    records = train(run, ["task=aime", "task.params.source=smoke", "task.params.limit=4", "reward=aime_rule",
                          "trainer.weight_decay=0.1"])
    assert any("eval/pass@1" in r for r in records)
    # how far the policy moved (policy/*, bot_repro/trainer/drift.py): 0 at the start, then growing; the KL is
    # 0 on step 1's rollouts (the start's own) and above 0 on step 2's
    at = {r["step"]: r for r in records}
    assert at[0]["policy/weight_delta"] == 0.0 < at[1]["policy/weight_delta"] < at[2]["policy/weight_delta"]
    assert at[1]["policy/kl_start"] == 0.0 < at[2]["policy/kl_start"] and at[2]["policy/kl_seconds"] > 0
    assert all("reward/format_bonus" in r for r in records if "loss" in r)
    samples = [json.loads(line) for p in sorted((run / "eval").glob("step_*/samples.jsonl")) for line in p.open()]
    assert samples and all(s["format"] in ("perfect", "loose", "malformed") for s in samples)
    assert any(r.get("text") for r in rollouts(run))  # real text came out of the real tokenizer


@pytest.mark.slow
@pytest.mark.skipif(MISSING is not None, reason=f"React toolchain unavailable: {MISSING}")
def test_react_trains_two_steps_with_the_real_model(smollm2_dir, tmp_path):
    run = tmp_path / "react"
    records = train(run, ["task=react", "reward=react_static_only", "task.params.limit_train=4",
                        "task.params.limit_test=2", "task.params.checks.workers=1", "task.params.checks.pages=1"])
    assert any("eval/compile_rate" in r for r in records)
    assert all("reward/compile_fail" in r for r in records if "loss" in r)
    assert rollouts(run)
