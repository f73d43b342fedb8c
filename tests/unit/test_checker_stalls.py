"""A stopped math-verify worker (SIGSTOP) costs a batch at most one deadline and a pool rebuild,
gives no answer a made-up verdict, and leaves the next batch and close() unharmed; a check given up
as stalled is excluded by the AIME and React rewards (issue #43). The React pool's own stall tests
need Node: tests/integration/test_react_stalls.py."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

from bot_repro.rewards.base import RewardCfg
from bot_repro.tasks import stalls
from bot_repro.tasks.aime.answer import AnswerChecker, CheckResult
from bot_repro.tasks.aime.reward import make_aime_reward
from bot_repro.tasks.react.checker import CheckOutcome
from bot_repro.tasks.react.reward import ReactReward
from tests.pool_checks import stopping_check

TIMEOUT_S = 2.0
# A rebuild spawns workers that import math-verify: a few seconds on a quiet core, more on a shared
# machine; the bound allows for that generously (the measured values: results/bench/stalls.json).
REBUILD_MARGIN_S = 30.0


def pool_pids(checker: AnswerChecker) -> list[int]:
    return [proc.pid for proc in checker._processes()]


def stop(pid: int) -> None:
    """SIGSTOP ``pid`` and wait until it has stopped (the signal is handled when it is next scheduled)."""
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + 30
    while stalls.state(pid) != "T" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert stalls.state(pid) == "T", f"process {pid} did not stop within 30 s of SIGSTOP"


def test_state_reads_stopped_running_and_gone():
    proc = subprocess.Popen(["sleep", "30"])
    try:
        assert not stalls.any_stopped([proc.pid]) and proc.pid in stalls.group(os.getpgid(proc.pid))
        stop(proc.pid)
        assert stalls.any_stopped([os.getpid(), proc.pid])
    finally:
        proc.kill()
        proc.wait()
    assert stalls.state(proc.pid) is None and not stalls.any_stopped([proc.pid])


def stop_when_busy(marks: Path, pid: int) -> None:
    """SIGSTOP ``pid`` once it has started a slow call (so it is stopped mid-call, not idle)."""
    deadline = time.monotonic() + 60
    while not (marks / str(pid)).exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(pid, signal.SIGSTOP)


def test_a_worker_stopped_mid_batch_costs_one_deadline_and_every_answer_gets_its_verdict(tmp_path, monkeypatch):
    monkeypatch.setenv("STALL_TEST_MARKS", str(tmp_path))  # the spawned workers inherit it
    golds = list(range(8))
    preds = [f"slow-v{g}" if g % 2 else f"slow-v{g + 1}" for g in golds]  # odd right, even wrong
    with AnswerChecker(workers=2, timeout_s=TIMEOUT_S, check_fn=stopping_check) as c:
        c.check([1], ["v1"])  # the pool is up
        victim = pool_pids(c)[0]
        threading.Thread(target=stop_when_busy, args=(tmp_path, victim), daemon=True).start()
        start = time.monotonic()
        out = c.check(golds, preds)
        took = time.monotonic() - start
        assert [r.correct for r in out] == [g % 2 == 1 for g in golds], out
        assert not any(r.stalled for r in out) and c.timeouts == 0 and c.stalls >= 1
        assert took < TIMEOUT_S + REBUILD_MARGIN_S, took
        assert stalls.state(victim) in (None, "Z"), "the stopped worker was not killed"
        stalled = c.stalls
        assert all(r.correct for r in c.check([3, 4], ["v3", "v4"]))
        # counted, not timed: a deadline passed on a stopped worker would be one more stall
        assert (c.stalls, c.timeouts) == (stalled, 0), "the next batch waited on a deadline"


def test_a_worker_stopped_between_batches_is_replaced_before_the_next_one():
    with AnswerChecker(workers=1, timeout_s=60.0, check_fn=stopping_check) as c:
        c.check([1], ["v1"])
        (victim,) = pool_pids(c)
        stop(victim)
        start = time.monotonic()
        out = c.check([1, 2], ["v1", "v3"])
        assert [r.correct for r in out] == [True, False] and c.stalls == 0 and c.rebuilds == 1
        assert time.monotonic() - start < 60.0, "the batch waited out a deadline on the stopped worker"


def test_an_answer_whose_worker_stops_at_every_try_is_given_up_as_stalled():
    with AnswerChecker(workers=2, timeout_s=TIMEOUT_S, check_fn=stopping_check) as c:
        start = time.monotonic()
        out = c.check([1, 2, 3], ["v1", "stop", "v4"])
        took = time.monotonic() - start
        assert out[1].stalled and not out[1].correct and "stopped" in out[1].reason
        assert out[0] == CheckResult(True) and out[2].correct is False and not out[2].stalled
        assert c.stalls == stalls.MAX_STALLS and c.timeouts == 0
        assert took < stalls.MAX_STALLS * (TIMEOUT_S + REBUILD_MARGIN_S), took
        assert [r.correct for r in c.check([5], ["v5"])] == [True]


def test_close_does_not_wait_for_a_stopped_idle_worker():
    c = AnswerChecker(workers=2, timeout_s=TIMEOUT_S, check_fn=stopping_check)
    c.check([1], ["v1"])
    victims = pool_pids(c)
    stop(victims[0])
    done = threading.Event()
    threading.Thread(target=lambda: (c.close(), done.set()), daemon=True).start()
    try:
        assert done.wait(30), "close() hung on a stopped worker"
        assert all(stalls.state(pid) in (None, "Z") for pid in victims)
    finally:  # else the pool's manager thread would hold up this process's exit
        for pid in victims:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_stalled_answer_is_excluded_from_the_aime_reward(monkeypatch):
    reward = make_aime_reward(RewardCfg(source="aime", params={"step_source": "none"}), {})
    verdicts = [CheckResult(True), CheckResult(False, "stopped", stalled=True)]
    monkeypatch.setattr(reward.checker, "check", lambda golds, preds: verdicts)
    out = reward.score(["<final> 7 </final>", "<final> 8 </final>"], [{"answer": "7"}, {"answer": "8"}])
    assert [r.excluded for r in out] == [None, "worker_stalled"]
    assert out[0].components["correct"] == 1.0


def test_a_stalled_react_check_is_excluded_from_the_react_reward():
    reward = ReactReward(RewardCfg(source="react", params={"code_judge": False, "code_judge_lines": False}), {})
    outcomes = [CheckOutcome(None, False, "stalled", "check worker stopped"),
                CheckOutcome(None, False, "timeout", "check timed out")]
    out = reward.score_outcomes(outcomes, [{}, {}])
    assert [r.excluded for r in out] == ["worker_stalled", None]
    assert out[1].components["compile_fail"] == -1.0  # a sample's own hang still scores as a failure
