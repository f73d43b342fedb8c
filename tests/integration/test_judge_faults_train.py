"""Training against broken judge servers (#53; docs/method.md §3, §5): a step in which nothing was scored
changes no weight and no optimizer state, each ``judge.on_outage`` mode against a rate-limit storm ends
with its documented exit code and run.json, and ``wait`` rides out a storm that ends.

The judge is the fake server of this process in a fault mode (``bot_repro.judges.fake_faults``) that
starts after step 1's eight requests (counted, not timed), at short timeouts: the storm's bound
(judge.rate_limit_max_s) is 0.3 s and Retry-After is capped at 0.05 s. The end-to-end runs are the
command line itself (``python -m bot_repro.train`` in a subprocess, this module imported first for its
reward source), so the exit codes are the real ones.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import torch
from aiohttp import web
from safetensors.torch import load_file

from bot_repro.judges.client import PING
from bot_repro.judges.fake_faults import RateLimitStorm, Replies, serve_fault
from bot_repro.judges.types import CodeJudgeInput
from bot_repro.rewards.base import JUDGE_OUTAGE, REWARD_SOURCES, WORKER_STALLED
from tests.conftest import REPO
from tests.integration.helpers import SMALL, VarianceReward, run_inprocess

BATCH = 8  # rollouts per step: 4 prompts x 2 generations
NO_VERDICT = '{"choices": [{"message": {"role": "assistant", "content": "I would rather not say."}}]}'


class JudgedReward(VarianceReward):
    """``VarianceReward`` plus one code-judge call per completion; a failed verdict excludes it."""

    def __init__(self, judge):
        self.judge = judge

    def score(self, completions, rows):
        out = super().score(completions, rows)
        for res, v in zip(out, self.judge.code_judge([CodeJudgeInput("p", t) for t in completions], with_lines=False)):
            res.excluded = JUDGE_OUTAGE if v.failed else None
        return out


class StallsAfter(VarianceReward):
    """``VarianceReward`` whose checker "stalls" on every rollout after the first ``n`` scored (no judge)."""

    def __init__(self, n: int):
        self.n, self.seen = n, 0

    def score(self, completions, rows):
        out = super().score(completions, rows)
        for res in out:
            self.seen += 1
            res.excluded = WORKER_STALLED if self.seen > self.n else None
        return out


if "test_judge_faults" not in REWARD_SOURCES:
    REWARD_SOURCES.register("test_judge_faults")(lambda cfg, ctx: JudgedReward(ctx["judge"]))
    REWARD_SOURCES.register("test_stalls_after_step_1")(lambda cfg, ctx: StallsAfter(BATCH))


class StormUntilProbed(RateLimitStorm):
    """A 429 storm that ends when the open breaker's probe comes: the server is back from then on."""

    async def chat(self, request, n, body):
        if PING[0]["content"][0]["text"] in json.dumps(await request.json()):
            self.after = 10**9  # healthy for every later request (``FakeJudgeServer.fault``)
            return web.Response(body=body("OK"), content_type="application/json")
        return await super().chat(request, n, body)


def judge_overrides(server, policy: str) -> list[str]:
    judge = {"backend": "openai", "base_url": server.base_url, "model": "fake-judge", "timeout_s": 2,
             "max_retries": 5, "backoff_base_s": 0.01, "retry_after_max_s": 0.05, "rate_limit_max_s": 0.3,
             "breaker_probe_s": 0.2, "step_deadline_s": 10, "outage_max_wait_s": 1, "cache": False,
             "on_outage": policy}
    return [f"++judge.{k}={v}" for k, v in judge.items()]


def base_overrides(source: str) -> list[str]:
    return [*SMALL, "reward=mini_penalty", f"reward.source={source}", "algorithm=grpo", "trainer.max_steps=2",
            "trainer.prompts_per_step=4", "trainer.eval.every=0"]


def records(run_dir):
    return [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()]


def run_info(run_dir) -> dict:
    return json.loads((run_dir / "run.json").read_text())


def same(a, b) -> bool:
    """``a`` and ``b`` (nested dicts, lists, tensors, numbers) are equal, tensors bit for bit."""
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return isinstance(b, list | tuple) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def assert_step_2_made_no_update(run_dir) -> None:
    """checkpoint-2's weights and optimizer state (AdamW's moments and step counts) are checkpoint-1's, bit for bit."""
    ckpt = [run_dir / "checkpoints" / f"checkpoint-{s}" for s in (1, 2)]
    w1, w2 = (load_file(str(c / "model.safetensors")) for c in ckpt)
    o1, o2 = (torch.load(c / "optimizer.pt", weights_only=False) for c in ckpt)
    assert w1.keys() == w2.keys() and all(torch.equal(w1[k], w2[k]) for k in w1)
    assert o1["state"] and same(o1["state"], o2["state"]) and same(o1["param_groups"], o2["param_groups"])


@pytest.mark.parametrize("case", ["checkers_stalled_no_judge", "unparseable_replies_skip"])
def test_a_step_with_nothing_scored_leaves_every_weight_and_optimizer_tensor_bit_identical(tmp_path, case):
    """Step 1 trains; every rollout of step 2 has no score: its checkers stalled (no judge: no outage policy,
    the general rule alone), or the judge answered valid JSON without a verdict (``on_outage=skip``). The
    optimizer step would still move the weights (AdamW's momentum replaying step 1's gradient); it must not
    happen: checkpoint-2's weights and optimizer state (moments and step counts) equal checkpoint-1's bit
    for bit. Half the run's rollouts excluded (> trainer.max_excluded_share 0.2): run.json says degraded."""
    run_dir = tmp_path / "r"
    if case == "checkers_stalled_no_judge":
        run_inprocess([*base_overrides("test_stalls_after_step_1"), "judge=none"], run_dir)
    else:
        with serve_fault(Replies(NO_VERDICT, after=BATCH)) as server:
            run_inprocess([*base_overrides("test_judge_faults"), *judge_overrides(server, "skip")], run_dir)
    assert_step_2_made_no_update(run_dir)
    first, second = records(run_dir)
    assert (first["excluded/rollouts"], second["excluded/rollouts"], second["excluded/out_of"]) == (0.0, BATCH, BATCH)
    assert second["excluded/groups"] == 4.0
    if case == "unparseable_replies_skip":
        assert (second["judge/unparseable"], second["judge/failures"], second["judge/step_skipped"]) == (BATCH, 0.0, 1.0)
    info = run_info(run_dir)
    assert info["status"] == "degraded" and "8 of 16 rollouts (50%)" in info["error"]


def train_cli(server, policy: str, run_dir) -> subprocess.CompletedProcess:
    """``python -m bot_repro.train`` against ``server`` (this module imported first: its reward source)."""
    main = ("import runpy, tests.integration.test_judge_faults_train\n"
            "runpy.run_module('bot_repro.train', run_name='__main__')\n")
    args = [*base_overrides("test_judge_faults"), *judge_overrides(server, policy), f"hydra.run.dir={run_dir}"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", main, *args], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=600)


@pytest.mark.parametrize("policy", ["stop", "skip", "wait"])
def test_each_outage_policy_against_a_rate_limit_storm(tmp_path, policy):
    """From step 2 every call answers 429 with Retry-After: 3600. The storm is named an outage (the breaker
    opens after judge.rate_limit_max_s of nothing but 429s) and the command line ends as documented:
    ``stop``: exit 3, run.json failed (stopped_for judge_outage), checkpoint-1 and the resume command, which
    completes the run once the judge answers; ``skip``: step 2 makes no update (weights and optimizer state
    bit-identical), 8 of 16 rollouts excluded: exit 4, run.json degraded; ``wait``: it probes up to judge.outage_max_wait_s (1 s), then stops: exit 3."""
    run_dir = tmp_path / "r"
    storm = RateLimitStorm("3600", after=BATCH)
    with serve_fault(storm) as server:
        proc = train_cli(server, policy, run_dir)
        info = run_info(run_dir)
        assert storm.served.is_set()
        if policy == "stop":
            server.fault = None  # the judge answers again: the printed resume command completes the run
            run_inprocess([*base_overrides("test_judge_faults"), *judge_overrides(server, policy), "resume=true"],
                          run_dir)
    out = proc.stderr[-3000:]
    if policy == "skip":
        assert proc.returncode == 4, out
        second = records(run_dir)[1]
        assert (second["judge/step_skipped"], second["judge/breaker_open"], second["excluded/rollouts"]) == (1, 1, 8)
        assert second["judge/rate_limited"] >= BATCH
        assert info["status"] == "degraded" and "8 of 16 rollouts (50%)" in info["error"]
        assert "DEGRADED" in proc.stderr
        assert_step_2_made_no_update(run_dir)
        return
    assert proc.returncode == 3, out
    assert (info["status"], info["stopped_for"]) == ("failed", "judge_outage")
    assert "rate limited" not in info["error"] and f"{server.base_url} is not answering" in info["error"]
    assert "checkpoint-1" in info["error"] and f"hydra.run.dir={run_dir} resume=true" in proc.stderr
    if policy == "wait":
        assert "did not come back within judge.outage_max_wait_s=1s" in info["error"]
    else:
        assert [r["step"] for r in records(run_dir)] == [1, 2] and run_info(run_dir)["status"] == "completed"


def test_wait_rides_out_a_rate_limit_storm_and_judges_the_step_again(tmp_path):
    """``on_outage=wait`` against a 429 storm that ends when the open breaker's probe comes (an event, not a
    timer): step 2 waits, judges the same rollouts again, trains on them, and the run completes."""
    run_dir = tmp_path / "r"
    storm = StormUntilProbed("3600", after=BATCH)
    with serve_fault(storm) as server:
        run_inprocess([*base_overrides("test_judge_faults"), *judge_overrides(server, "wait")], run_dir)
    second = records(run_dir)[1]
    assert storm.served.is_set() and run_info(run_dir)["status"] == "completed"
    assert (second["judge/breaker_open"], second["judge/failures"], second["excluded/rollouts"]) == (1.0, BATCH, 0.0)
    assert second["judge/waited_s"] > 0 and second["judge/calls"] == 2 * BATCH and second["judge/rate_limited"] >= BATCH
