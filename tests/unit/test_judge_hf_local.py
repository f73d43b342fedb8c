"""The local transformers judge with a tiny random model: its garbage output gives the failure values."""

from __future__ import annotations

import pytest

from bot_repro.judges import build_judge_client
from bot_repro.judges.types import CodeJudgeInput, PairInput, ScreenshotInput, StepJudgeInput
from bot_repro.models.tiny import build_tiny


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    model_dir = build_tiny("qwen2", tmp_path_factory.mktemp("tiny_judge"))
    cfg = {"backend": "hf_local", "model": str(model_dir), "device": "cpu", "max_tokens": 12,
           "temperature": 0.0, "cache": False, "max_retries": 0}
    with build_judge_client(cfg) as judge:
        judge.check_credentials()  # nothing to check for local weights
        yield judge


def test_garbage_code_verdicts_are_failed_verdicts(client):
    verdicts = client.code_judge([CodeJudgeInput("make a button", "const A = () => <button/>;")], with_lines=True)
    assert [(v.ok, v.failed, v.score, v.lines, v.non_react) for v in verdicts] == [(False, True, 0.0, [], False)]
    assert verdicts[0].error.startswith("unparseable judge reply: ")
    metrics = client.pop_metrics()
    assert (metrics["judge/calls"], metrics["judge/unparseable"], metrics["judge/failures"]) == (1.0, 1.0, 0.0)
    assert metrics["judge/tokens_in"] > 0 and 0 < metrics["judge/tokens_out"] <= 12


def test_garbage_step_verdicts_leave_the_solution_without_labels(client):
    labels = client.step_judge([StepJudgeInput("1+1?", ["1+1=2", "so 2"])], strategy="context_aware")
    assert labels == [None]  # an unreadable verdict is no verdict: the solution is excluded, not scored 0


def test_images_on_a_text_only_model_fail_cleanly(client):
    verdict = client.screenshot_judge([ScreenshotInput("p", b"\x89PNG-bytes", "x")], mode="global")[0]
    assert (verdict.ok, verdict.score) == (False, 0.0)
    assert "text-only" in verdict.error
    pair = client.pairwise_abba([PairInput("p", b"img-a", b"img-b")])[0]
    assert (pair.win_a, pair.tie, pair.ok, pair.votes) == (0.5, True, False, ["", "", "", ""])
