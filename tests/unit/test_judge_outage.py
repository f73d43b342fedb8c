"""A judge that stops answering: the circuit breaker, the step deadline and recovery, against the
loopback fake server in its hang (SIGSTOP-like), 503-storm and slow modes (tiny timeouts)."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.judges.breaker import CircuitBreaker
from bot_repro.judges.client import JudgeClient
from bot_repro.judges.options import parse_options
from bot_repro.judges.types import CodeJudgeInput, StepJudgeInput
from tests.judge_server import http_cfg, running_server

STEPS = [StepJudgeInput(f"problem {i}", [f"solution {i} step {s}" for s in range(3)]) for i in range(4)]
CODE = [CodeJudgeInput(f"make card {i}", f"const A{i} = () => <div/>;") for i in range(8)]
# tiny budgets: an attempt times out after 0.2 s, a call has 3 attempts, the breaker opens after 3
FAST = {"timeout_s": 0.2, "max_retries": 2, "backoff_base_s": 0.01, "backoff_max_s": 0.02, "cache": False,
        "breaker_failures": 3, "breaker_probe_s": 0.3, "step_deadline_s": 2.0}


def client_for(server, tmp_path, **overrides) -> JudgeClient:
    return JudgeClient(parse_options(http_cfg(server, tmp_path, **{**FAST, **overrides})))


def timed(fn):
    start = time.monotonic()
    out = fn()
    return out, time.monotonic() - start


def test_breaker_opens_probes_once_per_interval_and_closes_on_a_reply(caplog):
    now = [0.0]
    breaker = CircuitBreaker(3, 10.0, "http://judge:8000/v1", clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="bot_repro.judges"):
        for _ in range(2):
            breaker.failure()
        assert not breaker.is_open and breaker.allow()
        breaker.failure()
        assert breaker.is_open and not breaker.allow()  # refused at once
        now[0] = 10.0
        assert breaker.allow() and not breaker.allow()  # the interval's one probe, then refused again
        breaker.failure()  # the probe got nothing: still open, the next probe in 10 s
        now[0] = 15.0
        assert not breaker.allow()
        now[0] = 20.0
        assert breaker.allow()
        breaker.success()
        assert not breaker.is_open and breaker.allow()
    changes = [r.getMessage() for r in caplog.records]
    assert len(changes) == 2 and all("http://judge:8000/v1" in m for m in changes)
    assert "OPEN" in changes[0] and "CLOSED" in changes[1]
    assert breaker.pop_was_open() and not breaker.pop_was_open()


def test_a_hung_server_costs_one_timeout_then_calls_fail_at_once(tmp_path):
    """The issue's case: error propagation over 4 solutions x 3 steps against a server that accepts
    and never answers took timeout x attempts x steps in sequence; now one timeout opens the breaker."""
    with running_server() as server, client_for(server, tmp_path) as judge:
        server.hung = True
        labels, first = timed(lambda: judge.step_judge(STEPS, strategy="error_propagation"))
        metrics = judge.pop_metrics()
        again, second = timed(lambda: judge.code_judge(CODE))
        server.hung = False
    assert labels == [None] * 4  # no reply: no labels, not zeros
    assert first < 1.0  # one 0.2 s timeout (4 attempts in flight together), then refusals
    assert second < 0.2 and all(v.failed and not v.ok for v in again)
    assert metrics["judge/breaker_open"] == 1.0 and metrics["judge/failures"] == 4.0
    assert metrics["judge/unparseable"] == 0.0


def test_a_stopped_server_is_found_before_the_attempts_time_out(tmp_path):
    """With timeout_s far beyond the breaker's interval (the shipped 300 s vs 30 s), calls that wait an
    interval with no reply make the client ask GET /models; no answer there either opens the breaker
    and the calls in flight fail at once, instead of after their timeout."""
    with running_server() as server, client_for(server, tmp_path, timeout_s=30.0, step_deadline_s=60.0) as judge:
        server.hung = True
        verdicts, took = timed(lambda: judge.code_judge(CODE))
        metrics = judge.pop_metrics()
        server.hung = False
    assert all(v.failed for v in verdicts) and took < 1.5  # 0.3 s quiet + 0.3 s GET /models, not 30 s
    assert metrics["judge/breaker_open"] == 1.0 and metrics["judge/retries"] == 0.0


def test_a_busy_server_that_answers_get_models_is_left_alone(tmp_path):
    """Replies slower than the breaker's interval, but the server answers GET /models: no trip."""
    with running_server(latency_s=0.8) as server, client_for(server, tmp_path, timeout_s=5.0, step_deadline_s=10.0) as judge:
        verdicts = judge.code_judge(CODE[:2])
        assert not judge.outage() and all(v.ok for v in verdicts)


def test_recovery_after_a_stop_like_hang(tmp_path):
    """SIGSTOP for a while, then SIGCONT: waiting probes every breaker_probe_s and the first reply closes it."""
    with running_server() as server, client_for(server, tmp_path) as judge:
        server.hung = True
        judge.code_judge(CODE[:4])
        assert judge.outage()
        threading.Timer(0.8, lambda: setattr(server, "hung", False)).start()
        recovered, waited = timed(lambda: judge.wait_for_recovery(max_s=5.0))
        verdicts = judge.code_judge(CODE)
        metrics = judge.pop_metrics()
    assert recovered and not judge.outage() and 0.7 < waited < 2.0
    assert all(v.ok and not v.failed for v in verdicts)
    assert metrics["judge/waited_s"] == pytest.approx(waited, abs=0.05)


def test_wait_for_recovery_gives_up_at_its_maximum(tmp_path):
    with running_server() as server, client_for(server, tmp_path) as judge:
        server.hung = True
        judge.code_judge(CODE[:4])
        recovered, waited = timed(lambda: judge.wait_for_recovery(max_s=0.7))
        server.hung = False
    assert not recovered and 0.6 < waited < 1.0


def test_a_503_storm_opens_the_breaker_and_its_end_closes_it(tmp_path):
    with running_server() as server, client_for(server, tmp_path, max_concurrency=1) as judge:
        server.storm_status = 503
        verdicts, took = timed(lambda: judge.code_judge(CODE))
        metrics = judge.pop_metrics()
        sent = len(server.requests)
        server.storm_status = None
        assert judge.wait_for_recovery(max_s=2.0)
        after = judge.code_judge(CODE)
    assert all(v.failed for v in verdicts) and took < 0.5
    # three 503s in a row open the breaker: every later attempt, retries included, fails unsent
    assert sent == 3 and metrics["judge/failures"] == 8.0 and metrics["judge/breaker_open"] == 1.0
    assert all(v.ok for v in after)


def test_a_429_is_an_answer_and_keeps_the_breaker_closed(tmp_path):
    with running_server() as server, client_for(server, tmp_path, max_concurrency=1, max_retries=0) as judge:
        server.storm_status = 429
        judge.code_judge(CODE)
        assert not judge.outage()


def test_a_10x_slower_server_only_costs_time(tmp_path):
    """Slower replies within timeout_s: no breaker, no failure, no exclusion; just a longer step."""
    with running_server(latency_s=0.01) as server, client_for(server, tmp_path, timeout_s=0.5) as judge:
        _, usual = timed(lambda: judge.step_judge(STEPS, strategy="error_propagation"))
        server.latency_s = 0.1
        labels, slow = timed(lambda: judge.step_judge(STEPS, strategy="error_propagation"))
        metrics = judge.pop_metrics()
    assert all(x is not None for x in labels) and slow > usual
    assert (metrics["judge/failures"], metrics["judge/breaker_open"], metrics["judge/deadline_cut"]) == (0, 0, 0)


def test_the_step_deadline_bounds_a_slow_step_and_excludes_what_is_left(tmp_path):
    """Every call answers within its timeout, but context-aware steps in sequence would outlast the
    step's budget: the unanswered solutions come back as failed, the breaker stays closed."""
    long = [StepJudgeInput(f"p{i}", [f"s{i}.{s}" for s in range(20)]) for i in range(2)]
    with running_server(latency_s=0.1) as server, client_for(server, tmp_path, timeout_s=0.5, step_deadline_s=1.0) as judge:
        judge.begin_step()
        labels, took = timed(lambda: judge.step_judge(long, strategy="context_aware"))
        cut, rest = timed(lambda: judge.code_judge(CODE))  # the same step's budget is spent
        metrics = judge.pop_metrics()
    assert labels == [None, None] and 0.9 < took < 1.3
    assert rest < 0.1 and all(v.failed for v in cut)
    assert metrics["judge/deadline_cut"] == 10.0 and metrics["judge/breaker_open"] == 0.0


def test_step_deadline_must_exceed_the_attempt_timeout():
    with pytest.raises(ConfigError, match=r"judge.step_deadline_s=60.*judge.timeout_s=120"):
        parse_options({"backend": "loopback", "timeout_s": 120, "step_deadline_s": 60})
    with pytest.raises(ConfigError, match="judge.on_outage='later'.*wait, stop, skip"):
        parse_options({"backend": "loopback", "on_outage": "later"})
