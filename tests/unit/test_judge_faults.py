"""Judges against the broken servers users meet (#53; docs/method.md §5 "Judge outages"): a rate-limit storm
with Retry-After 3600, a slow drip, a server that answers every 10th call, valid JSON without a verdict,
``content: null``, a reset after 100 bytes and a truncated body.

Two ways of testing, said in each test's docstring:
- *shipped defaults, virtual clock*: the client runs with the options of ``conf/judge/vllm_local_server.yaml``
  (timeout 300 s, 5 retries, breaker after 8, deadline 600 s, Retry-After capped at 60 s) on an event loop
  whose clock jumps to its next timer instead of waiting (``VirtualClockLoop``), against an in-process
  backend that answers as the broken server would; minutes of judge time take milliseconds, and the times
  asserted are the loop's, exact. The backend has no GET /models, so the hang probe plays no part (as
  against a server that answers it).
- *real HTTP*: the fake server in its fault mode (``bot_repro.judges.fake_faults``) and the real client, at
  the shipped defaults where nothing waits long (the faults answer at once), else at short timeouts.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import pytest
import yaml

from bot_repro.config_schema import ConfigError
from bot_repro.judges.backends.base import Reply, TransientError
from bot_repro.judges.breaker import CircuitBreaker
from bot_repro.judges.client import JudgeClient, check_reachable, no_answer
from bot_repro.judges.fake_faults import EveryNth, RateLimitStorm, Replies, ResetAfter, SlowDrip, serve_fault
from bot_repro.judges.options import parse_options
from bot_repro.judges.types import CodeJudgeInput, StepJudgeInput
from tests.conftest import REPO
from tests.judge_server import http_cfg

SHIPPED = yaml.safe_load((REPO / "conf" / "judge" / "vllm_local_server.yaml").read_text())
DEADLINE_S = parse_options({**SHIPPED, "backend": "loopback"}).step_deadline_s  # JudgeOptions' default
CODE = [CodeJudgeInput(f"make card {i}", f"const A{i} = () => <div/>;") for i in range(8)]
STEPS = [StepJudgeInput(f"problem {i}", [f"solution {i} step {s}" for s in range(3)]) for i in range(4)]
NO_VERDICT = '{"choices": [{"message": {"role": "assistant", "content": "I would rather not say."}}]}'
NULL_CONTENT = '{"choices": [{"message": {"role": "assistant", "content": null}, "finish_reason": "length"}]}'


class VirtualClockLoop(asyncio.SelectorEventLoop):
    """An event loop whose ``time()`` moves only when it would wait for a timer: it jumps to the timer at once.
    Cross-thread calls (the sync client's) still wake it; only timer waits are skipped."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0
        select = self._selector.select

        def jump(timeout=None):
            events = select(None if timeout is None else 0)
            if not events and timeout:
                self.now += timeout
            return events

        self._selector.select = jump

    def time(self) -> float:
        return self.now


class BrokenBackend:
    """In-process backend: ``answer(n)`` for the n-th request (1-based) returns the reply text, raises, or
    returns None to hang until the attempt is given up. ``times`` are the loop times of the requests."""

    name = "broken"

    def __init__(self, answer):
        self.answer, self.times = answer, []

    def check_credentials(self) -> None:
        pass

    async def start(self) -> None:
        pass

    async def aclose(self) -> None:
        pass

    async def complete(self, messages, params) -> Reply:
        self.times.append(asyncio.get_running_loop().time())
        text = self.answer(len(self.times))
        if text is None:
            await asyncio.Event().wait()  # accepted, never answered: the attempt's timeout or the deadline ends it
        return Reply(text, 10, 2)


def shipped_client(answer, **overrides) -> JudgeClient:
    """A client with the shipped vllm_local_server options (no cache, no server URL) on a virtual clock."""
    cfg = {**SHIPPED, "backend": "loopback", "base_url": None, "cache": False, **overrides}
    return JudgeClient(parse_options(cfg), backend=BrokenBackend(answer), loop=VirtualClockLoop())


def clock(judge: JudgeClient) -> float:
    return judge._loop.time()


def pass_time(judge: JudgeClient, seconds: float) -> None:
    """Let ``seconds`` of the judge's (virtual) time pass with no judge call: a slow generation."""
    judge._run(asyncio.sleep(seconds))


def rate_limited(n: int) -> str:
    raise TransientError("HTTP 429 from judge: rate limited", retry_after=3600.0, status=429)


# -- a rate-limit storm -----------------------------------------------------------------------------


def test_a_429_storm_with_retry_after_3600_is_an_outage_within_the_step_deadline():
    """Shipped defaults, virtual clock. Every request answers 429 with Retry-After: 3600. Each retry waits the
    capped 60 s times a factor in [1, 1.5] (the calls do not come back together), and once every answer for
    judge.rate_limit_max_s (120 s) was a 429 the breaker opens: the step's calls fail, within its deadline."""
    with shipped_client(rate_limited) as judge:
        judge.begin_step()
        verdicts = judge.code_judge(CODE)
        took, metrics = clock(judge), judge.pop_metrics()
        times = judge.backend.times
    assert all(v.failed for v in verdicts) and judge.outage()
    assert 120.0 <= took <= 3 * 60 * 1.5 < DEADLINE_S
    assert metrics["judge/breaker_open"] == 1.0 and metrics["judge/failures"] == 8.0
    assert metrics["judge/rate_limited"] == len(times) and metrics["judge/deadline_cut"] == 0.0
    second = sorted(times[8:16])  # the eight calls' first retries: spread over [60, 90] s, not in step
    assert 60.0 <= second[0] and second[-1] <= 90.0 and len(set(second)) == 8


def test_a_probe_answered_429_leaves_the_breaker_open_and_a_reply_closes_it():
    now = [0.0]
    breaker = CircuitBreaker(8, 30.0, "http://judge/v1", clock=lambda: now[0], rate_limit_s=120.0)
    for t in (0.0, 60.0, 119.0):
        now[0] = t
        breaker.rate_limited()
        assert not breaker.is_open
    breaker.failure()  # silence between 429s: still no verdict since the first 429
    now[0] = 120.0
    breaker.rate_limited()
    assert breaker.is_open
    now[0] = 150.0
    assert breaker.allow()  # the probe ...
    breaker.rate_limited()  # ... answered 429: no verdict, still open
    assert breaker.is_open and not breaker.allow()
    now[0] = 180.0
    assert breaker.allow()
    breaker.success()
    assert not breaker.is_open
    now[0] = 400.0
    breaker.rate_limited()  # a new storm counts from its own first 429
    assert not breaker.is_open


def test_a_429_storm_over_http_opens_the_breaker(tmp_path):
    """Real HTTP, short timeouts: the fake server's storm (429, Retry-After: 3600, read from the header and
    capped at 0.05 s) opens the breaker after judge.rate_limit_max_s=0.3 s of nothing but 429s."""
    cfg = {"max_retries": 50, "retry_after_max_s": 0.05, "rate_limit_max_s": 0.3, "cache": False,
           "step_deadline_s": 10.0}
    with serve_fault(RateLimitStorm("3600")) as server, JudgeClient(parse_options(http_cfg(server, tmp_path, **cfg))) as judge:
        judge.begin_step()
        verdicts = judge.code_judge(CODE[:4])
        metrics = judge.pop_metrics()
    assert all(v.failed for v in verdicts) and judge.outage()
    assert metrics["judge/breaker_open"] == 1.0 and metrics["judge/rate_limited"] >= 4


# -- a server that answers slowly, or rarely ----------------------------------------------------------


def test_a_server_answering_every_10th_call_opens_the_breaker_at_the_deadline():
    """Shipped defaults, virtual clock. Error propagation keeps 4 calls in flight; all but every 10th request
    hang. The first wave times out at 300 s (4 failures); the deadline cuts the second at 600 s, and the cut
    attempts count as failures too: 8 in a row open the breaker, so the step is an outage, not a silent loss."""
    with shipped_client(lambda n: "VERDICT: +1" if n % 10 == 0 else None) as judge:
        judge.begin_step()
        labels = judge.step_judge(STEPS, strategy="error_propagation")
        took, metrics = clock(judge), judge.pop_metrics()
    assert labels == [None] * 4 and judge.outage()
    assert took == pytest.approx(DEADLINE_S)
    assert metrics["judge/deadline_cut"] == 4.0 and metrics["judge/breaker_open"] == 1.0


def test_a_healthy_judge_behind_a_slow_generation_is_never_cut():
    """Shipped defaults, virtual clock. The deadline counts the judge's own work: an hour of generation before
    the step's first judge call and between its batch calls (DAPO's refills) costs none of it. A judge slower
    than the budget is still cut, in the call that spends it."""
    with shipped_client(lambda n: "SCORE: 7\nJUSTIFICATION: fine") as judge:
        judge.begin_step()
        pass_time(judge, 3600.0)
        first = judge.code_judge(CODE)
        pass_time(judge, 3600.0)
        second = judge.code_judge(CODE)
        assert judge.pop_metrics()["judge/deadline_cut"] == 0.0
        assert all(v.ok and not v.failed for v in first + second)
    slow = {"timeout_s": 400.0, "step_deadline_s": 500.0}
    with shipped_client(lambda n: None if n > 8 else "SCORE: 7\nJUSTIFICATION: fine", **slow) as judge:
        judge.begin_step()
        judge.code_judge(CODE)
        pass_time(judge, 3600.0)
        cut = judge.code_judge([CodeJudgeInput("another", "x")])
        assert clock(judge) == pytest.approx(3600.0 + 500.0) and cut[0].failed
        assert judge.pop_metrics()["judge/deadline_cut"] == 1.0


def test_a_slow_drip_is_no_answer_to_the_hang_probe():
    """Real HTTP, short timeouts: headers at once, then a byte every 0.2 s. GET /models used to count as
    alive at the headers; a whole reply within the probe's timeout is needed now. Healthy: an answer."""
    with serve_fault(SlowDrip(every_s=0.2)) as server:
        why = no_answer(server.base_url, timeout_s=0.5)
        server.fault = None
        assert no_answer(server.base_url, timeout_s=5.0) is None
    assert why is not None and "no whole reply within 0.5s" in why


def test_a_slow_drip_opens_the_breaker_and_fails_preflight(tmp_path):
    """Real HTTP, short timeouts (breaker_probe_s 0.3 s, timeout_s 30 s): calls that hear nothing for 0.3 s
    make the client ask GET /models, whose body drips too: the breaker opens and the calls fail at once."""
    with serve_fault(SlowDrip(every_s=0.2)) as server:
        cfg = http_cfg(server, tmp_path, timeout_s=30.0, breaker_probe_s=0.3, step_deadline_s=60.0, cache=False)
        with JudgeClient(parse_options(cfg)) as judge:
            judge.begin_step()
            verdicts = judge.code_judge(CODE)
            metrics = judge.pop_metrics()
        with pytest.raises(ConfigError, match="does not answer.*no whole reply"):
            check_reachable(parse_options({**cfg, "preflight_probe": "always"}), timeout_s=0.5)
    assert all(v.failed for v in verdicts) and metrics["judge/breaker_open"] == 1.0
    assert metrics["judge/retries"] == 0.0  # found by the probe, not by 30 s timeouts


def test_every_10th_call_over_http_is_a_fault_the_fake_server_serves(tmp_path):
    """Real HTTP, short timeouts: the fake server's every-10th fault answers request 10 and holds the others."""
    with serve_fault(EveryNth(10)) as server:
        cfg = http_cfg(server, tmp_path, timeout_s=0.3, max_retries=12, backoff_base_s=0.01, backoff_max_s=0.02,
                       breaker_failures=50, step_deadline_s=10.0, cache=False)
        with JudgeClient(parse_options(cfg)) as judge:
            verdict = judge.code_judge(CODE[:1])[0]
    assert verdict.ok and verdict.score == 0.5 and len(server.requests) == 10


@pytest.mark.parametrize("fault", [lambda: ResetAfter(100), lambda: ResetAfter(truncate=True)],
                         ids=["reset-after-100-bytes", "truncated-body"])
def test_a_body_cut_short_opens_the_breaker_at_the_shipped_defaults(tmp_path, fault):
    """Real HTTP at the shipped defaults: eight calls whose bodies are cut short all fail at once (a broken
    body is no answer), and eight failed attempts in a row open the breaker, so no retry is sent."""
    with serve_fault(fault()) as server:
        cfg = {**SHIPPED, "base_url": server.base_url, "model": "fake-judge", "cache": False}
        with JudgeClient(parse_options(cfg)) as judge:
            judge.begin_step()
            verdicts = judge.code_judge(CODE)
            metrics = judge.pop_metrics()
    assert all(v.failed for v in verdicts) and metrics["judge/breaker_open"] == 1.0
    assert len(server.requests) == 8 and metrics["judge/failures"] == 8.0


# -- replies that are not verdicts ----------------------------------------------------------------------


@pytest.mark.parametrize("raw", [NO_VERDICT, NULL_CONTENT], ids=["json-without-verdict", "content-null"])
def test_unparseable_replies_are_failed_verdicts_never_cached_with_one_warning(tmp_path, caplog, raw):
    """Real HTTP at the shipped defaults (the server answers at once). Eight replies without a verdict: eight
    failed verdicts (excluded, not scored 0), one WARNING naming the judge, the share and an example, and
    nothing cached: once the server is fixed, the same requests get real verdicts."""
    with serve_fault(Replies(raw)) as server:
        cfg = {**SHIPPED, "base_url": server.base_url, "model": "fake-judge", "cache_dir": str(tmp_path / "cache")}
        with JudgeClient(parse_options(cfg)) as judge, caplog.at_level(logging.WARNING, logger="bot_repro.judges"):
            judge.begin_step()
            verdicts = judge.code_judge(CODE)
            labels = judge.step_judge(STEPS[:2], strategy="error_propagation")
            judge.check_replies()
            judge.check_replies()  # once per step
            metrics = judge.pop_metrics()
            cached = len(judge.cache)
            server.fault = None  # the server is fixed
            after = judge.code_judge(CODE)
    assert all(v.failed and not v.ok and v.error.startswith("unparseable judge reply") for v in verdicts)
    assert labels == [None, None] and cached == 0
    assert metrics["judge/unparseable"] == 10.0 and metrics["judge/failures"] == 0.0
    warnings = [r.getMessage() for r in caplog.records if "could not be read" in r.getMessage()]
    assert len(warnings) == 1 and server.base_url in warnings[0] and "10 of 10 replies (100%)" in warnings[0]
    assert "Example: ''" in warnings[0] if raw == NULL_CONTENT else "I would rather not say." in warnings[0]
    assert all(v.ok and not v.failed for v in after)


def test_an_unparseable_reply_cached_before_is_asked_again(tmp_path):
    """A cache written before unparseable replies stopped being cached: its unreadable entry is not replayed."""
    with serve_fault(Replies(NO_VERDICT)) as server:
        server.fault = None
        cfg = http_cfg(server, tmp_path, max_retries=0)
        with JudgeClient(parse_options(cfg)) as judge:
            first = judge.code_judge(CODE[:1])[0]
            db = sqlite3.connect(str(judge.opts.cache_path()), isolation_level=None)
            db.execute("UPDATE replies SET reply = 'I would rather not say.'")  # as an older version stored it
            db.close()
            again = judge.code_judge(CODE[:1])[0]
            metrics = judge.pop_metrics()
    assert first.ok and again.ok and again.score == first.score
    assert len(server.requests) == 2 and metrics["judge/cache_hits"] == 0.0


def test_the_new_options_are_checked():
    with pytest.raises(ConfigError, match=r"judge.unparseable_warn_share=1.5 must be a share in \[0, 1\]"):
        parse_options({"backend": "loopback", "unparseable_warn_share": 1.5})
    with pytest.raises(ConfigError, match="judge.rate_limit_max_s=0 must be a positive number"):
        parse_options({"backend": "loopback", "rate_limit_max_s": 0})


def test_a_degraded_run_is_named_by_its_share_of_excluded_rollouts():
    from bot_repro.config import TrainerCfg
    from bot_repro.config_schema import build_options
    from bot_repro.trainer.outage import excluded_note

    steps = [{"excluded/rollouts": 0.0, "excluded/out_of": 8.0}, {"excluded/rollouts": 2.0, "excluded/out_of": 8.0}]
    assert excluded_note(steps, 0.2) is None  # 2 of 16: 12.5%
    note = excluded_note([*steps, {"excluded/rollouts": 8.0, "excluded/out_of": 8.0}], 0.2)
    assert note.startswith("10 of 24 rollouts (42%) had no score") and "trainer.max_excluded_share=0.2" in note
    assert excluded_note([{"step": 1}], 0.2) is None  # a run without the counts (before #53) says nothing
    with pytest.raises(ConfigError, match=r"trainer.max_excluded_share.*1.5"):
        build_options(TrainerCfg, {"max_excluded_share": 1.5}, "trainer")


class HealthyJudge:
    """What ``OutageGuard`` asks of a judge whose breaker stays closed; the probe after a wait answers."""

    where = "http://judge/v1"

    def __init__(self):
        self.begun, self.waits = 0, []

    def outage(self) -> bool:
        return False

    def check_replies(self) -> None:
        pass

    def wait_for_recovery(self, max_s: float) -> bool:
        self.waits.append(max_s)
        return True

    def begin_step(self) -> None:
        self.begun += 1


@pytest.mark.parametrize("policy", ["wait", "stop", "skip"])
def test_a_step_with_nothing_scored_is_an_outage_step_with_the_breaker_closed(policy):
    """No group kept a scored rollout (unparseable replies, deadline cuts, ...) while the breaker stayed closed:
    ``judge.on_outage`` applies all the same. wait: one probe, then the same rollouts judged again; stop: a
    checkpoint and JudgeOutageStop; skip: no update."""
    from bot_repro.trainer.outage import JudgeOutageStop, OutageGuard

    judge = HealthyJudge()
    guard = OutageGuard(judge, policy, 1800.0, any_rank=lambda flag: flag, checkpoint=lambda: "checkpoint-1")
    judged = lambda scored: scored == "scored"  # noqa: E731
    if policy == "stop":
        with pytest.raises(JudgeOutageStop, match=r"no group of this step kept a rollout scored by http://judge/v1.*"
                                                  r"judge.on_outage=stop; saved checkpoint-1"):
            guard.settle("nothing scored", lambda: "scored", judged)
        return
    out = guard.settle("nothing scored", lambda: "scored", judged)
    if policy == "wait":
        assert (out, guard.skip, len(judge.waits), judge.begun) == ("scored", False, 1, 1)
        assert 1790.0 < judge.waits[0] <= 1800.0  # the whole wait is left: nothing was waited before
    else:
        assert (out, guard.skip, judge.waits) == ("nothing scored", True, [])
