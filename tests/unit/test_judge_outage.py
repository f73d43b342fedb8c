"""A judge that stops answering: the circuit breaker, the step deadline and recovery, against the
loopback fake server in its hang (SIGSTOP-like), busy, 503-storm and slow modes (tiny timeouts).

No test races a timer against the client: a hang ends on an event the server sees (the client's
recovery probe, its ``GET /models``), claims are counts (requests sent, retries, probes), and the
elapsed times left are a lower bound the code guarantees or a generous upper bound on a machine
under load, each saying why it is there."""

from __future__ import annotations

import logging
import time

import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.judges.breaker import CircuitBreaker
from bot_repro.judges.client import JudgeClient
from bot_repro.judges.fake_server import last_user_text
from bot_repro.judges.options import parse_options
from bot_repro.judges.types import CodeJudgeInput, StepJudgeInput
from tests.judge_server import http_cfg, probes, running_server

STEPS = [StepJudgeInput(f"problem {i}", [f"solution {i} step {s}" for s in range(3)]) for i in range(4)]
CODE = [CodeJudgeInput(f"make card {i}", f"const A{i} = () => <div/>;") for i in range(8)]
# tiny budgets: an attempt times out after 0.2 s, a call has 3 attempts, the breaker opens after 3; the
# step deadline is no test's subject but one's, so it is long (a loaded machine never reaches it)
FAST = {"timeout_s": 0.2, "max_retries": 2, "backoff_base_s": 0.01, "backoff_max_s": 0.02, "cache": False,
        "breaker_failures": 3, "breaker_probe_s": 0.3, "step_deadline_s": 60.0}


def client_for(server, tmp_path, **overrides) -> JudgeClient:
    return JudgeClient(parse_options(http_cfg(server, tmp_path, **{**FAST, **overrides})))


def sent(server, marker: str) -> int:
    """Requests the server got whose prompt holds ``marker``: read once it has stopped, since it records
    a request when its body has arrived, which can be after the client's call has returned."""
    return sum(marker in last_user_text(r) for r in server.requests)


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
    and never answers took timeout x attempts x steps in sequence; now one timeout opens the breaker.
    Counted, not timed: without the breaker the 4 solutions' first steps send 4 x 3 attempts, each
    waiting its timeout; with it, the 4 first attempts time out together and at most the retries of
    the 2 failures before the 3rd go out. The probe interval is long, so no probe goes out here."""
    with running_server() as server, client_for(server, tmp_path, breaker_probe_s=60.0) as judge:
        server.hung = True
        labels = judge.step_judge(STEPS, strategy="error_propagation")
        metrics = judge.pop_metrics()
        again = judge.code_judge(CODE)
        server.hung = False
    assert labels == [None] * 4  # no reply: no labels, not zeros
    assert 0 < sent(server, "solution ") <= 4 + FAST["breaker_failures"] - 1, sent(server, "solution ")
    assert sent(server, "make card") == 0 and all(v.failed and not v.ok for v in again)  # refused unsent
    assert metrics["judge/breaker_open"] == 1.0 and metrics["judge/failures"] == 4.0
    assert metrics["judge/unparseable"] == 0.0


def test_a_stopped_server_is_found_before_the_attempts_time_out(tmp_path):
    """With timeout_s far beyond the breaker's interval (the shipped 300 s vs 30 s), calls that wait an
    interval with no reply make the client ask GET /models; no answer there either opens the breaker
    and the calls in flight fail at once, instead of after their timeout."""
    with running_server() as server, client_for(server, tmp_path, timeout_s=30.0) as judge:
        server.hung = True
        verdicts, took = timed(lambda: judge.code_judge(CODE))
        metrics = judge.pop_metrics()
        server.hung = False
    # no retry: no attempt timed out, the breaker opened first and failed them all
    assert all(v.failed for v in verdicts) and metrics["judge/retries"] == 0.0
    assert metrics["judge/breaker_open"] == 1.0
    # the same, timed: 0.3 s quiet + 0.3 s GET /models; the bound is half of timeout_s, generous under load
    assert took < 15.0, f"the calls took {took:.1f}s: the breaker did not open before their 30 s timeout"


def test_a_busy_server_that_answers_get_models_is_left_alone(tmp_path):
    """Replies slower than the breaker's interval, but the server answers GET /models: no trip. The
    replies are held until the client has asked GET /models and had its answer (an event, not a
    latency); the interval is 1 s so that the answer has time to come on a loaded machine."""
    opts = {"timeout_s": 30.0, "breaker_probe_s": 1.0}
    with running_server() as server, client_for(server, tmp_path, **opts) as judge:
        server.busy = True
        server.resume_when = lambda s: s.models_answered >= 1
        verdicts = judge.code_judge(CODE[:2])
        assert server.models_answered >= 1, "the client never asked GET /models while its calls waited"
        assert not judge.outage() and all(v.ok for v in verdicts)


def test_recovery_after_a_stop_like_hang(tmp_path):
    """SIGSTOP, then SIGCONT as the second probe arrives: waiting probes every breaker_probe_s, a probe
    that gets no answer leaves the breaker open, and the first reply closes it. The 60 s maximum is
    only the bound that fails the test if no probe ever ends the hang; the 1 s timeout leaves the replies
    after it room on a loaded machine."""
    with running_server() as server, client_for(server, tmp_path, timeout_s=1.0) as judge:
        server.hung = True
        judge.code_judge(CODE[:4])
        assert judge.outage()
        server.resume_when = lambda s: probes(s) >= 2
        recovered, waited = timed(lambda: judge.wait_for_recovery(max_s=60.0))
        assert recovered, f"no recovery within 60 s: {probes(server)} probe(s) came, the hang ends at the 2nd"
        verdicts = judge.code_judge(CODE)
        metrics = judge.pop_metrics()
    assert not judge.outage() and probes(server) >= 2
    assert all(v.ok and not v.failed for v in verdicts)
    assert 0.0 < metrics["judge/waited_s"] <= waited  # the wait it reports lies within the call


def test_wait_for_recovery_gives_up_at_its_maximum(tmp_path):
    with running_server() as server, client_for(server, tmp_path) as judge:
        server.hung = True
        judge.code_judge(CODE[:4])
        assert judge.outage()
        recovered, waited = timed(lambda: judge.wait_for_recovery(max_s=0.7))
        server.hung = False
    # not before its maximum (the code guarantees it); the upper bound is generous for a loaded machine:
    # it fails a wait that ignores its maximum, not a slow one
    assert not recovered and 0.7 <= waited < 0.7 + 10.0, waited


def test_a_503_storm_opens_the_breaker_and_its_end_closes_it(tmp_path):
    # a 1 s probe interval: the retries (10-20 ms of backoff) come long before a probe may go out; a 2 s
    # timeout: an instant reply on a loaded machine never times out
    opts = {"max_concurrency": 1, "breaker_probe_s": 1.0, "timeout_s": 2.0}
    with running_server() as server, client_for(server, tmp_path, **opts) as judge:
        server.storm_status = 503
        verdicts = judge.code_judge(CODE)
        metrics = judge.pop_metrics()
        storm = len(server.requests)  # each was answered (a 503), so each is recorded by now
        server.storm_status = None
        assert judge.wait_for_recovery(max_s=60.0), "the breaker did not close within 60 s of the storm's end"
        after = judge.code_judge(CODE)
    assert all(v.failed for v in verdicts)
    # three 503s in a row open the breaker: every later attempt, retries included, fails unsent
    assert storm == 3 and metrics["judge/failures"] == 8.0 and metrics["judge/breaker_open"] == 1.0
    assert all(v.ok for v in after)


def test_a_429_is_an_answer_and_keeps_the_breaker_closed(tmp_path):
    # long timeouts: an instant 429 must not time out on a loaded machine (a timeout counts toward opening)
    opts = {"max_concurrency": 1, "max_retries": 0, "timeout_s": 10.0}
    with running_server() as server, client_for(server, tmp_path, **opts) as judge:
        server.storm_status = 429
        judge.code_judge(CODE)
        assert not judge.outage()


def test_a_10x_slower_server_only_costs_time(tmp_path):
    """Slower replies within timeout_s: no breaker, no failure, no exclusion; just a longer step. The
    timeouts and the breaker's interval are far above 0.1 s, so that a loaded machine does not trip
    them; that the step takes longer is a speed claim (bench), here only its lower bound is checked."""
    opts = {"timeout_s": 10.0, "breaker_probe_s": 5.0}
    with running_server(latency_s=0.01) as server, client_for(server, tmp_path, **opts) as judge:
        judge.step_judge(STEPS, strategy="error_propagation")
        server.latency_s = 0.1
        labels, slow = timed(lambda: judge.step_judge(STEPS, strategy="error_propagation"))
        metrics = judge.pop_metrics()
    assert all(x is not None for x in labels) and slow >= 0.1  # every reply waited the latency
    assert (metrics["judge/failures"], metrics["judge/breaker_open"], metrics["judge/deadline_cut"]) == (0, 0, 0)


def test_the_step_deadline_bounds_a_slow_step_and_excludes_what_is_left(tmp_path):
    """Every call answers within its timeout, but context-aware steps in sequence would outlast the
    step's budget: the unanswered solutions come back as failed, the breaker stays closed. Each
    solution's 20 steps take at least 20 x 0.1 s > the 1.5 s deadline on any machine; the timeout
    and the breaker's interval (1 s) leave a 0.1 s reply room on a loaded one."""
    long = [StepJudgeInput(f"p{i}", [f"s{i}.{s}" for s in range(20)]) for i in range(2)]
    opts = {"timeout_s": 1.0, "breaker_probe_s": 1.0, "step_deadline_s": 1.5}
    with running_server(latency_s=0.1) as server, client_for(server, tmp_path, **opts) as judge:
        start = time.monotonic()
        judge.begin_step()
        labels = judge.step_judge(long, strategy="context_aware")
        took = time.monotonic() - start
        cut = judge.code_judge(CODE)  # the same step's budget is spent
        metrics = judge.pop_metrics()
    assert labels == [None, None] and len(server.requests) < 2 * 20  # cut: the later steps never went out
    # not cut before the deadline (the code guarantees it); the upper bound is generous for a loaded
    # machine: it fails a step that outlives its deadline by far, not a slow one
    assert 1.5 <= took < 1.5 + 10.0, took
    assert sent(server, "make card") == 0 and all(v.failed for v in cut)  # nothing sent once the budget is spent
    assert metrics["judge/deadline_cut"] == 10.0 and metrics["judge/breaker_open"] == 0.0


def test_step_deadline_must_exceed_the_attempt_timeout():
    with pytest.raises(ConfigError, match=r"judge.step_deadline_s=60.*judge.timeout_s=120"):
        parse_options({"backend": "loopback", "timeout_s": 120, "step_deadline_s": 60})
    with pytest.raises(ConfigError, match="judge.on_outage='later'.*wait, stop, skip"):
        parse_options({"backend": "loopback", "on_outage": "later"})
