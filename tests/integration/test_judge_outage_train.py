"""Training against a judge that fails or hangs (the fake server in this process, short timeouts):
no rollout whose judge call failed reaches the loss, and ``judge.on_outage`` wait / stop / skip.

The server hangs itself as step 2's first request comes (``hang_after``), and a hang that is meant
to end ends when the client's first recovery probe arrives (the breaker opened, the step waits):
events, never a timer racing the client. ``judge.outage_max_wait_s`` is the one clock that fails a
test whose hang never ends."""

from __future__ import annotations

import json

import pytest
import torch

from bot_repro.judges.fake_server import FakeJudgeServer, error
from bot_repro.judges.types import CodeJudgeInput
from bot_repro.rewards.base import JUDGE_OUTAGE, REWARD_SOURCES
from bot_repro.trainer.bot_trainer import BoTGRPOTrainer
from bot_repro.trainer.outage import JudgeOutageStop
from tests.conftest import REPO
from tests.integration.helpers import SMALL, VarianceReward, run_inprocess
from tests.judge_server import probes


class JudgedReward(VarianceReward):
    """``VarianceReward`` plus one code-judge call per completion; a call with no reply excludes it."""

    def __init__(self, judge):
        self.judge = judge

    def score(self, completions, rows):
        out = super().score(completions, rows)
        for res, v in zip(out, self.judge.code_judge([CodeJudgeInput("p", t) for t in completions], with_lines=False)):
            res.excluded = JUDGE_OUTAGE if v.failed else None
        return out


if "test_judged" not in REWARD_SOURCES:
    REWARD_SOURCES.register("test_judged")(lambda cfg, ctx: JudgedReward(ctx["judge"]))

BATCH = 8  # rollouts per step: 4 prompts x 2 generations


@pytest.fixture
def server():
    with FakeJudgeServer() as s:
        yield s


# Timeouts short enough for a fast test, long enough that an instant reply or GET /models on a loaded
# machine never times out (a hang opens the breaker in about 1 s: 0.5 s quiet, then 0.5 s with no GET
# /models). The step deadline counts from the step's start, generation included, which a loaded
# machine can stretch past seconds: a short one would cut the judge calls before they are sent.
MAX_WAIT_S = 120


def overrides(server, policy: str, steps: int = 2) -> list[str]:
    judge = {"backend": "openai", "base_url": server.base_url, "model": "fake-judge", "timeout_s": 1.0,
             "max_retries": 1, "backoff_base_s": 0.01, "breaker_failures": 2, "breaker_probe_s": 0.5,
             "step_deadline_s": 120, "on_outage": policy, "outage_max_wait_s": MAX_WAIT_S}
    return [*SMALL, "reward=mini_penalty", "reward.source=test_judged", "algorithm=grpo",
            f"trainer.max_steps={steps}", "trainer.prompts_per_step=4", "trainer.eval.every=0",
            *(f"++judge.{k}={v}" for k, v in judge.items())]


def records(run_dir):
    return [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()]


def test_no_rollout_whose_judge_call_failed_reaches_the_loss(server, tmp_path, monkeypatch):
    server.push(error(400), error(400))  # two calls refused at once (an answer: the breaker stays closed)
    excluded, trained = set(), []
    score_round, compute_loss = BoTGRPOTrainer._score_round, BoTGRPOTrainer.compute_loss

    def spy_round(self, inputs):
        out, scored, stats = score_round(self, inputs)
        for i, res in enumerate(scored.results):
            if res.excluded:
                excluded.add(tuple(out["completion_ids"][i, : len(scored.local_rewards[i])].tolist()))
        return out, scored, stats

    def spy_loss(self, model, inputs, *args, **kwargs):
        for ids, mask in zip(inputs["completion_ids"], inputs["completion_mask"]):
            if mask.sum() > 0:  # this row's tokens enter the loss
                trained.append(tuple(ids[: int(mask.sum())].tolist()))
        return compute_loss(self, model, inputs, *args, **kwargs)

    monkeypatch.setattr(BoTGRPOTrainer, "_score_round", spy_round)
    monkeypatch.setattr(BoTGRPOTrainer, "compute_loss", spy_loss)
    run_dir = tmp_path / "r"
    run_inprocess(overrides(server, "wait", steps=1), run_dir)
    assert len(excluded) == 2 and trained  # two failed, some groups still trained
    assert not excluded & set(trained)
    rec = records(run_dir)[-1]
    assert rec["excluded/judge_outage"] == 2.0 and 1.0 <= rec["excluded/groups"] <= 2.0
    assert rec["judge/failures"] == 2.0 and rec["judge/breaker_open"] == 0.0 and rec["judge/step_skipped"] == 0.0


def test_skip_makes_no_update_while_the_judge_is_down(server, tmp_path):
    server.hang_after = BATCH  # step 1 trains; the judge hangs for good from step 2 on
    run_dir = tmp_path / "r"
    run_inprocess(overrides(server, "skip"), run_dir)
    server.hung = False
    from safetensors.torch import load_file

    w1, w2 = (load_file(str(run_dir / "checkpoints" / f"checkpoint-{s}" / "model.safetensors")) for s in (1, 2))
    assert all(torch.equal(w1[k], w2[k]) for k in w1)  # step 2 skipped: not even AdamW's moments moved it
    first, second = records(run_dir)
    assert (first["judge/step_skipped"], second["judge/step_skipped"]) == (0.0, 1.0)
    assert (second["judge/breaker_open"], second["excluded/groups"]) == (1.0, 4.0)


def test_wait_rides_out_a_hang_and_the_run_completes(server, tmp_path):
    # step 2's calls hang (SIGSTOP) until the step, its breaker open, sends its first probe (SIGCONT)
    server.hang_after = BATCH
    server.resume_when = lambda s: probes(s) >= 1
    run_dir = tmp_path / "r"
    run_inprocess(overrides(server, "wait"), run_dir)  # a hang that never ended stops it at MAX_WAIT_S
    rec = records(run_dir)
    assert json.loads((run_dir / "run.json").read_text())["status"] == "completed"
    assert not server.hung and probes(server) >= 1
    assert rec[1]["excluded/rollouts"] == 0.0  # judged again: all scored
    # one step's counters, not the mean of its two scoring passes: the wait, the failed first pass's calls
    assert rec[1]["judge/waited_s"] > 0.0 and rec[1]["judge/failures"] == BATCH
    assert rec[1]["judge/calls"] == 2 * BATCH and rec[1]["judge/breaker_open"] == 1.0
    # the hang ended at the first probe (0.5 s after the breaker opened): a wait that ran on toward its
    # maximum is a bug; half of it is a bound generous enough for a loaded machine
    assert rec[1]["judge/waited_s"] < MAX_WAIT_S / 2, rec[1]["judge/waited_s"]


def test_stop_checkpoints_and_records_the_outage(server, tmp_path):
    server.hang_after = BATCH  # the judge hangs for good from step 2 on
    run_dir = tmp_path / "r"
    with pytest.raises(JudgeOutageStop, match=f"{server.base_url} is not answering.*judge.on_outage=stop"):
        run_inprocess(overrides(server, "stop"), run_dir)
    info = json.loads((run_dir / "run.json").read_text())
    assert (info["status"], info["stopped_for"]) == ("failed", "judge_outage")
    assert "checkpoint-1" in info["error"] and (run_dir / "checkpoints" / "checkpoint-1" / "trainer_state.json").is_file()
    server.hung = False
    run_inprocess([*overrides(server, "stop"), "resume=true"], run_dir)  # the judge is back: resume completes
    assert [r["step"] for r in records(run_dir)] == [1, 2]
    assert json.loads((run_dir / "run.json").read_text())["status"] == "completed"


def test_the_command_line_exits_3_and_prints_the_resume_command(tmp_path):
    """``python -m bot_repro.train`` with a run that stops for an outage (the stop raised in its place)."""
    import subprocess
    import sys

    stop = ("import runpy, bot_repro.config as c\n"
            "from bot_repro.trainer.outage import JudgeOutageStop\n"
            "def stopped(cfg):\n"
            "    raise JudgeOutageStop('judge outage: http://127.0.0.1:9/v1 is not answering')\n"
            "c.validate = stopped\n"
            "runpy.run_module('bot_repro.train', run_name='__main__')\n")
    run_dir = tmp_path / "r"
    args = ["task=mini", "trainer.max_steps=3", f"hydra.run.dir={run_dir}"]
    proc = subprocess.run([sys.executable, "-c", stop, *args], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 3, proc.stderr[-2000:]
    assert "http://127.0.0.1:9/v1 is not answering" in proc.stderr
    assert f"python -m bot_repro.train task=mini trainer.max_steps=3 hydra.run.dir={run_dir} resume=true" in proc.stderr
