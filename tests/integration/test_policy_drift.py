"""How far the policy moved from its start (``policy/*``, bot_repro/trainer/drift.py) on a tiny model, two
steps each (debug=smoke): at learning rate 0 both measures stay exactly 0 and ``trainer.drift.kl_every``
spaces the KL; with a learning rate both start at 0 and grow (every algorithm's run in test_train.py and
the LoRA run in test_lora.py check the same, a resumed LoRA run its equality with the uninterrupted one);
an experiment whose ``report.plot.metrics`` lists them draws them. The real model: tests/realmodel."""

from __future__ import annotations

import json

import pytest

from bot_repro import report_folder
from bot_repro.experiment import cli
from tests.integration.helpers import SMALL, mini_experiment, run_inprocess

VARIANCE = [*SMALL, "reward=mini_penalty", "reward.source=test_variance", "trainer.max_steps=2"]
KEYS = ("policy/weight_delta", "policy/kl_start", "policy/kl_start_k1")
REPORT = """\
report:
  shows: the policy's distance from its start
  plot:
    kind: metric_panels
    metrics: [policy/weight_delta, policy/kl_start]
    hue: algorithm.name
"""


def _records(run_dir) -> dict[int, dict]:
    return {r["step"]: r for r in map(json.loads, (run_dir / "metrics.jsonl").read_text().splitlines())}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("drift") / "runs"
    run_inprocess([*VARIANCE, "algorithm=grpo"], root / "moving")
    # learning rate 0 (the schema asks for > 0: GRPOConfig's own field), the KL every second step
    run_inprocess([*VARIANCE, "algorithm=bot_grpo", "+trainer.extra.learning_rate=0.0", "+trainer.drift.kl_every=2"],
                  root / "still")
    return root


def test_with_a_learning_rate_both_measures_start_at_0_and_grow(runs):
    rec = _records(runs / "moving")
    assert rec[0]["policy/weight_delta"] == 0.0 and "policy/kl_start" not in rec[0]  # no rollouts at step 0
    assert rec[1]["policy/kl_start"] == rec[1]["policy/kl_start_k1"] == 0.0  # step 1's rollouts: the start's
    assert 0 < rec[1]["policy/weight_delta"] < rec[2]["policy/weight_delta"] < 0.1
    assert 0 < rec[2]["policy/kl_start"] < 1  # k3 >= 0; k1, the unbiased but noisy one, may have either sign
    assert rec[2]["policy/kl_seconds"] > 0 and rec[2]["policy/delta_seconds"] > 0


def test_at_learning_rate_0_nothing_moves_and_kl_every_spaces_the_kl(runs):
    rec = _records(runs / "still")
    assert rec[2]["learning_rate"] == 0.0
    assert [rec[s]["policy/weight_delta"] for s in (0, 1, 2)] == [0.0, 0.0, 0.0]
    assert "policy/kl_start" not in rec[1] and rec[2]["policy/kl_start"] == rec[2]["policy/kl_start_k1"] == 0.0


def test_an_experiment_draws_them(runs, tmp_path):
    common = mini_experiment(tmp_path, "drift_probe", REPORT)
    out = tmp_path / "report"
    assert cli.main(["report", "drift_probe", "debug=smoke", *common, "--runs", str(runs), "--out", str(out)]) == 0
    summaries = {s["metric"]: s for s in report_folder.read_summary(out)["summaries"]}
    assert sorted(summaries) == ["policy/kl_start", "policy/weight_delta"]
    final = {g["label"]: g["final"]["mean"] for g in summaries["policy/weight_delta"]["groups"]}
    assert final["bot_grpo"] == 0.0 and final["grpo"] > 0, final
    assert (out / "drift_probe.png").stat().st_size > 10_000
