"""Role orchestration over an in-process backend: step strategies, screenshot turns, code prompts, metrics."""

from __future__ import annotations

import re

import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.judges.backends.base import PermanentError
from bot_repro.judges.types import CodeJudgeInput, ScreenshotInput, StepJudgeInput
from tests.judge_server import scripted_client, text_of

STEPS = [f"compute part {i}" for i in range(1, 7)]


def _step_no(messages) -> int:
    return int(re.search(r"Step (\d+) of \d+ \(the step to judge", text_of(messages)).group(1))


def bad_at(*bad: int):
    """A judge that says -1 on the given 1-indexed steps and +1 elsewhere."""
    return lambda m: "VERDICT: -1" if _step_no(m) in bad else "VERDICT: +1"


def test_independent_judges_every_step():
    with scripted_client(bad_at(3)) as client:
        labels = client.step_judge([StepJudgeInput("p", STEPS)], strategy="independent")
        assert len(client.backend.calls) == 6
    assert labels == [[1, 1, -1, 1, 1, 1]]


def test_error_propagation_zeroes_and_skips_after_first_error():
    with scripted_client(bad_at(3, 5)) as client:
        labels = client.step_judge([StepJudgeInput("p", STEPS)], strategy="error_propagation")
        judged = sorted(_step_no(m) for m in client.backend.calls)
    assert labels == [[1, 1, -1, 0, 0, 0]]
    assert judged == [1, 2, 3]  # steps after the first -1 are never sent (lookahead 1)


def test_error_propagation_with_lookahead_keeps_labels():
    with scripted_client(bad_at(3), step_lookahead=3) as client:
        labels = client.step_judge([StepJudgeInput("p", STEPS)], strategy="error_propagation")
        n_calls = len(client.backend.calls)
    assert labels == [[1, 1, -1, 0, 0, 0]]
    assert 3 <= n_calls <= 5  # at most lookahead-1 calls beyond the error were started


def test_error_propagation_cancels_calls_in_flight_after_an_error():
    """Step 1 answers -1 at once while steps 2-4 are still out: those calls are cancelled, not awaited."""
    with scripted_client(bad_at(1), delay=lambda m: 0.0 if _step_no(m) == 1 else 30.0, step_lookahead=4) as client:
        labels = client.step_judge([StepJudgeInput("p", STEPS)], strategy="error_propagation")
        started = sorted(_step_no(m) for m in client.backend.calls)
        answered = [_step_no(m) for m in client.backend.completed]
        metrics = client.pop_metrics()
    assert labels == [[-1, 0, 0, 0, 0, 0]]
    assert started == [1, 2, 3, 4] and answered == [1]  # steps 5-6 were never sent
    assert metrics["judge/failures"] == 0.0


def test_error_propagation_without_errors_judges_all():
    with scripted_client(bad_at()) as client:
        assert client.step_judge([StepJudgeInput("p", STEPS[:4])]) == [[1, 1, 1, 1]]  # the default strategy


def test_context_aware_shows_earlier_verdicts_in_order():
    with scripted_client(bad_at(2)) as client:
        labels = client.step_judge([StepJudgeInput("p", STEPS[:4], reference_answer="42")], strategy="context_aware")
        prompts = [text_of(m) for m in client.backend.calls]
    assert labels == [[1, -1, 1, 1]]
    assert [_step_no(m) for m in client.backend.calls] == [1, 2, 3, 4]  # sequential
    last = prompts[3]
    assert "Step 1: compute part 1\nYour verdict: +1" in last
    assert "Step 2: compute part 2\nYour verdict: -1" in last
    assert "Step 3: compute part 3\nYour verdict: +1" in last
    assert "Reference answer: 42" in last
    assert "Your verdict" not in prompts[0]


def test_an_unparseable_step_reply_leaves_the_solution_without_labels():
    """An unreadable reply is no verdict (docs/method.md §5): the solution is excluded, not scored 0."""
    def judge(m):
        return "hmm, hard to say" if _step_no(m) == 2 else "VERDICT: +1"

    with scripted_client(judge) as client:
        labels = client.step_judge([StepJudgeInput("p", STEPS[:4])], strategy="error_propagation")
        metrics = client.pop_metrics()
    assert labels == [None]
    assert (metrics["judge/calls"], metrics["judge/unparseable"], metrics["judge/failures"]) == (2.0, 1.0, 0.0)


@pytest.mark.parametrize("strategy", ["independent", "context_aware", "error_propagation"])
def test_a_failed_step_call_leaves_the_solution_without_labels(strategy):
    """No reply is not a verdict: the solution gets None (excluded by the reward), not a 0 that would train."""
    def judge(m):
        if "part 2" in text_of(m).split("(the step to judge")[-1]:
            raise PermanentError("scripted refusal")
        return "VERDICT: +1"

    with scripted_client(judge) as client:
        labels = client.step_judge([StepJudgeInput("p", STEPS[:3]), StepJudgeInput("q", ["fine"])], strategy=strategy)
        metrics = client.pop_metrics()
    assert labels == [None, [1]]
    assert (metrics["judge/failures"], metrics["judge/unparseable"]) == (1.0, 0.0)


def test_no_steps_no_calls():
    with scripted_client(bad_at()) as client:
        assert client.step_judge([StepJudgeInput("p", [])], strategy="context_aware") == [[]]
        assert client.backend.calls == []


def test_bad_strategy_and_mode_fail_early():
    with scripted_client(bad_at()) as client:
        with pytest.raises(ConfigError, match="independent, context_aware, error_propagation"):
            client.step_judge([StepJudgeInput("p", STEPS)], strategy="greedy")
        with pytest.raises(ConfigError, match="global, one_turn, two_turn"):
            client.screenshot_judge([ScreenshotInput("p", b"png")], mode="three_turn")


PNG = b"\x89PNG-screenshot"
CODE = "const A = () => <div/>;\nexport default A;\n"


def test_two_turn_score_is_fixed_by_turn_one():
    replies = iter(["SCORE: 6\nJUSTIFICATION: ok", "SCORE: 10\nLINE_ANALYSIS:\n1: export default A; | DESC: d | IMPACT: -2"])
    with scripted_client(lambda m: next(replies)) as client:
        verdict = client.screenshot_judge([ScreenshotInput("make a card", PNG, CODE)], mode="two_turn")[0]
        first, second = client.backend.calls
    assert (verdict.ok, verdict.score) == (True, 0.6)
    assert [(x.line, x.impact) for x in verdict.lines] == [(1, -2)]
    # turn 2 continues the same conversation: turn 1, the judge's answer, then the numbered code
    assert [m["role"] for m in second] == ["user", "assistant", "user"]
    assert second[:1] == first and second[1]["content"][0]["text"].startswith("SCORE: 6")
    assert "0: const A = () => <div/>;\n1: export default A;" in text_of(second[2:])
    assert "0: const A" not in text_of(first)  # turn 1 sees only prompt and screenshot


def test_two_turn_unparseable_first_turn_skips_second():
    with scripted_client(lambda m: "Looks great!") as client:
        verdict = client.screenshot_judge([ScreenshotInput("p", PNG, CODE)], mode="two_turn")[0]
        assert len(client.backend.calls) == 1
    assert (verdict.ok, verdict.score, verdict.failed) == (False, 0.0, True)
    assert verdict.error == "unparseable judge reply: 'Looks great!'"


def test_screenshot_modes_show_code_only_with_lines():
    reply = "SCORE: 7\nJUSTIFICATION: x\nLINE_ANALYSIS:\n0: c | DESC: d | IMPACT: -1"
    with scripted_client(lambda m: reply) as client:
        glob, one = (client.screenshot_judge([ScreenshotInput("p", PNG, CODE)], mode=mode)[0]
                     for mode in ("global", "one_turn"))
        texts = [text_of(m) for m in client.backend.calls]
        images = [[p["png"] for p in m[0]["content"] if p["type"] == "image"] for m in client.backend.calls]
    assert (glob.score, glob.lines) == (0.7, [])
    assert [(x.line, x.impact) for x in one.lines] == [(0, -1)]
    assert "0: const A" not in texts[0] and "0: const A" in texts[1]
    assert images == [[PNG], [PNG]]


def test_no_screenshot_is_a_failure_without_a_call():
    with scripted_client(lambda m: "SCORE: 9") as client:
        verdict = client.screenshot_judge([ScreenshotInput("p", None, CODE)], mode="one_turn")[0]
        assert client.backend.calls == []
    assert (verdict.ok, verdict.score, verdict.error) == (False, 0.0, "no screenshot")


def test_code_judge_prompt_and_line_bounds():
    reply = "SCORE: 4\nJUSTIFICATION: x\nLINE_ANALYSIS:\n1: export | DESC: d | IMPACT: -3\n2: beyond | DESC: d | IMPACT: -1"
    with scripted_client(lambda m: reply) as client:
        with_lines, score_only = (client.code_judge([CodeJudgeInput("make a card", CODE)], with_lines=w)[0]
                                  for w in (True, False))
        texts = [text_of(m) for m in client.backend.calls]
    assert [(x.line, x.impact) for x in with_lines.lines] == [(1, -3)]  # line 2 is outside the 2 shown lines
    assert (score_only.score, score_only.lines) == (0.4, [])
    assert "make a card" in texts[0] and "0: const A = () => <div/>;\n1: export default A;" in texts[0]
    assert "LINE_ANALYSIS" in texts[0] and "LINE_ANALYSIS" not in texts[1]


def test_metrics_pop_and_reset():
    with scripted_client(lambda m: "SCORE: 5") as client:
        client.code_judge([CodeJudgeInput("p", "a"), CodeJudgeInput("p", "b"), CodeJudgeInput("p", "a")])
        first = client.pop_metrics()
        second = client.pop_metrics()
    # two distinct requests sent; the repeated item shares the call in flight (counted as a cache hit)
    assert first["judge/calls"] == 3.0 and first["judge/cache_hits"] == 1.0
    assert first["judge/tokens_in"] == 20.0 and first["judge/tokens_out"] == 4.0  # ScriptedBackend: 10 / 2 per call
    assert first["judge/failures"] == 0.0 and first["judge/latency_s_mean"] >= 0.0
    assert all(v == 0.0 for v in second.values())
    assert set(first) >= {"judge/calls", "judge/cache_hits", "judge/failures", "judge/tokens_in",
                          "judge/tokens_out", "judge/latency_s_mean"}
