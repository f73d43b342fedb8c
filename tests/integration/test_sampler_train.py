"""A run with ``trainer.sampler=shared_prefix`` (issue #51): rollouts and held-out samples from
``bot_repro.models.sampling`` on a tiny model, through the whole trainer; and the settings it refuses,
before any folder."""

from __future__ import annotations

import json

import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.trainer.bot_trainer import BoTGRPOTrainer
from tests.integration.helpers import SMALL, run_inprocess


def test_a_run_samples_with_the_shared_prefix_sampler(tmp_path, monkeypatch):
    used = []
    original = BoTGRPOTrainer._generate_single_turn

    def spy(self, prompt_ids, *args, **kwargs):
        out = original(self, prompt_ids, *args, **kwargs)
        used.append((len(prompt_ids), len(set(map(tuple, prompt_ids))), out[0]))
        return out

    monkeypatch.setattr(BoTGRPOTrainer, "_generate_single_turn", spy)
    run_dir = tmp_path / "r"
    run_inprocess([*SMALL, "trainer.sampler=shared_prefix", "trainer.max_steps=2", "trainer.prompts_per_step=2",
                   "trainer.eval.every=2", "trainer.eval.max_prompts=4", "trainer.eval.n_samples=2"], run_dir)
    records = [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in records] == [0, 1, 2] and "eval/success_rate" in records[0]
    rows, distinct, completions = used[0]
    assert distinct == 2 and rows == 2 * distinct  # each group's prompt asked once per rollout, prefilled once
    assert all(0 < len(c) for c in completions)
    saved = [json.loads(x) for x in (run_dir / "eval" / "step_000002" / "samples.jsonl").read_text().splitlines()]
    assert len(saved) == 4 and all(len(row["completions"]) == 2 for row in saved)  # 4 prompts x 2 samples


def test_a_sampling_setting_it_does_not_draw_is_refused_before_any_folder(tmp_path):
    with pytest.raises(ConfigError, match="trainer.top_p=0.9 is not drawn by it"):
        run_inprocess([*SMALL, "trainer.sampler=shared_prefix", "trainer.top_p=0.9"], tmp_path / "r")
    assert not (tmp_path / "r").exists()
