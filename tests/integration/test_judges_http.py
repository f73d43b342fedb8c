"""Judges over real HTTP against the scripted server on 127.0.0.1: faults, retries, bound, cache, wire formats."""

from __future__ import annotations

import hashlib
import json
import logging
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot_repro.judges import build_judge_client
from bot_repro.judges.client import FAILURE_LOG
from bot_repro.judges.fake_server import Action, error, reply
from bot_repro.judges.types import CodeJudgeInput, PairInput, ScreenshotInput, StepJudgeInput
from tests.judge_server import http_cfg, running_server

ITEM = CodeJudgeInput("make a counter", "const C = () => <button>+</button>;\nexport default C;\n")
GOOD = "SCORE: 8\nJUSTIFICATION: works\nLINE_ANALYSIS:\n0: const C | DESC: no state | IMPACT: -2"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def server():
    with running_server() as srv:
        yield srv


def _judge(cfg, run_dir=None):
    return build_judge_client(cfg, run_dir)


def test_well_formed_reply_over_http(server, tmp_path):
    server.push(reply(GOOD))
    with _judge(http_cfg(server, tmp_path)) as judge:
        verdict = judge.code_judge([ITEM])[0]
    assert (verdict.ok, verdict.score, [(x.line, x.impact) for x in verdict.lines]) == (True, 0.8, [(0, -2)])
    sent = server.requests[0]
    assert sent["api"] == "openai" and sent["model"] == "fake-judge"
    assert sent["params"] == {"temperature": 0.0, "max_tokens": 1024}
    assert "0: const C = () => <button>+</button>;\n1: export default C;" in sent["messages"][0]["content"][0]["text"]


# A reply the server holds until the client's retry arrives: the first attempt can only end by its timeout.
HELD = Action("reply", text=GOOD)


@pytest.mark.parametrize(
    "fault",
    [error(500), error(503), error(429, retry_after="0"), Action("garbage"), Action("truncated", text=GOOD), HELD],
    ids=["500", "503", "429", "garbage", "truncated", "timeout"],
)
def test_retry_succeeds_when_the_server_recovers(server, tmp_path, fault):
    server.push(fault, reply(GOOD))
    if fault is HELD:
        server.hang_after, server.resume_when = 0, lambda s: len(s.requests) >= 2
    # 1 s: the timeout case costs one; an instant reply on a loaded machine is far inside it
    with _judge(http_cfg(server, tmp_path, timeout_s=1.0)) as judge:
        verdict = judge.code_judge([ITEM])[0]
        metrics = judge.pop_metrics()
    assert (verdict.ok, verdict.score) == (True, 0.8)
    assert len(server.requests) == 2
    assert (metrics["judge/retries"], metrics["judge/failures"]) == (1.0, 0.0)


def test_retry_after_is_honoured(server, tmp_path):
    server.push(error(429, retry_after="0.4"), reply(GOOD))
    with _judge(http_cfg(server, tmp_path, backoff_base_s=0.001, backoff_max_s=0.001)) as judge:
        start = time.monotonic()
        assert judge.code_judge([ITEM])[0].ok
        waited = time.monotonic() - start
    assert waited >= 0.4  # a lower bound: the client slept at least what the server asked


def test_spent_retries_give_failure_values_and_the_batch_completes(server, tmp_path, caplog):
    run_dir = tmp_path / "run"
    server.push(*[error(500)] * 6)  # max_retries = 2: three attempts for each of the two items
    items = [ITEM, CodeJudgeInput("p", "other code")]
    with caplog.at_level(logging.WARNING, logger="bot_repro.judges"), _judge(http_cfg(server, tmp_path), run_dir) as judge:
        verdicts = judge.code_judge(items)
        metrics = judge.pop_metrics()
        after = judge.code_judge([ITEM])[0]  # the server answers again: nothing was cached for it
    for failed in verdicts:
        assert (failed.ok, failed.score, failed.lines) == (False, 0.0, [])
        assert failed.error.startswith("judge call failed: gave up after 3 attempts: HTTP 500")
    assert len(server.requests) == 7 and after.ok
    assert (metrics["judge/failures"], metrics["judge/retries"], metrics["judge/calls"]) == (2.0, 4.0, 2.0)
    logged = [json.loads(line) for line in (run_dir / FAILURE_LOG).read_text().splitlines()]
    assert [entry["role"] for entry in logged] == ["code_lines", "code_lines"]
    assert "judge call failed" in caplog.text


def test_client_errors_are_not_retried(server, tmp_path):
    server.push(error(400))
    with _judge(http_cfg(server, tmp_path)) as judge:
        verdict = judge.code_judge([ITEM])[0]
    assert (verdict.ok, len(server.requests)) == (False, 1)
    assert "HTTP 400" in verdict.error


def test_concurrency_is_bounded(tmp_path):
    """The first requests are held until 4 are in flight (however slowly a loaded client sends them),
    then every reply takes 0.1 s, so that a client that sent more than 4 at once would show it."""
    with running_server(latency_s=0.1) as srv, _judge(http_cfg(srv, tmp_path, max_concurrency=4)) as judge:
        srv.busy, srv.resume_when = True, lambda s: s.in_flight >= 4
        verdicts = judge.code_judge([CodeJudgeInput("p", f"code {i}") for i in range(16)])
        assert srv.max_in_flight == 4
    assert all(v.ok for v in verdicts)


def test_images_travel_as_png_data_urls(server, tmp_path):
    png_a, png_b = b"\x89PNG\r\n-first", b"\x89PNG\r\n-second"
    with _judge(http_cfg(server, tmp_path, cache=False)) as judge:
        judge.screenshot_judge([ScreenshotInput("p", png_a)], mode="global")
        judge.pairwise_abba([PairInput("p", png_a, png_b)])
    sha = {hashlib.sha256(png_a).hexdigest(): "a", hashlib.sha256(png_b).hexdigest(): "b"}
    orders = ["".join(sha[p["sha256"]] for p in r["messages"][0]["content"] if p["type"] == "image")
              for r in server.requests]
    assert orders[0] == "a"
    assert sorted(orders[1:]) == ["ab", "ab", "ba", "ba"]


def test_api_key_goes_in_the_header_and_nowhere_else(server, tmp_path, monkeypatch, caplog):
    secret = "sk-test-0123456789-never-log-me"
    monkeypatch.setenv("BOT_REPRO_JUDGE_TEST_KEY", secret)
    run_dir = tmp_path / "run"
    server.push(reply(GOOD), error(500), error(500), error(500))
    cfg = http_cfg(server, tmp_path, api_key_env="BOT_REPRO_JUDGE_TEST_KEY")
    with caplog.at_level(logging.DEBUG, logger="bot_repro.judges"), _judge(cfg, run_dir) as judge:
        judge.check_credentials()
        judge.code_judge([ITEM, CodeJudgeInput("p", "failing one")])
        shown = repr(judge) + repr(judge.opts)
    assert server.requests[0]["auth"] == f"Bearer {secret}"
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == FAILURE_LOG for p in files) and any(p.suffix == ".sqlite" for p in files)
    for path in files:
        assert secret.encode() not in path.read_bytes(), path
    assert secret not in caplog.text and secret not in shown


def test_anthropic_wire_format(server, tmp_path, monkeypatch):
    monkeypatch.setenv("BOT_REPRO_ANTHROPIC_TEST_KEY", "anthropic-secret")
    server.push(error(529), reply("SCORE: 6\nJUSTIFICATION: fine"))  # 529 "overloaded" is retried
    cfg = http_cfg(server, tmp_path, backend="anthropic", base_url=server.root_url,
                   api_key_env="BOT_REPRO_ANTHROPIC_TEST_KEY")
    with _judge(cfg) as judge:
        verdict = judge.screenshot_judge([ScreenshotInput("p", b"\x89PNG-shot")], mode="global")[0]
        metrics = judge.pop_metrics()
    assert (verdict.ok, verdict.score) == (True, 0.6)
    sent = server.requests[-1]
    assert sent["api"] == "anthropic" and sent["auth"] == "anthropic-secret"
    assert [p["type"] for p in sent["messages"][0]["content"]] == ["text", "image"]
    assert metrics["judge/tokens_in"] > 0 and metrics["judge/tokens_out"] > 0


def test_bedrock_wire_format(server, tmp_path, monkeypatch):
    pytest.importorskip("botocore")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "example-secret")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    server.push(error(503), reply("VERDICT: -1"), reply("VERDICT: +1"), reply("VERDICT: 0"))
    cfg = http_cfg(server, tmp_path, backend="bedrock", model="anthropic.judge-v1:0", base_url=server.root_url,
                   region="us-east-1", cache=False)
    with _judge(cfg) as judge:
        judge.check_credentials()
        labels = judge.step_judge([StepJudgeInput("p", ["a", "b", "c"])], strategy="context_aware")
    assert labels == [[-1, 1, 0]]  # the 503 was retried
    assert server.requests[0]["api"] == "bedrock" and server.requests[0]["model"] == "anthropic.judge-v1:0"
    assert server.requests[0]["auth"].startswith("AWS4-HMAC-SHA256")


def test_bedrock_images_are_sent_as_bytes(server, tmp_path, monkeypatch):
    pytest.importorskip("botocore")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "example-secret")
    server.push(reply("SCORE: 3"))
    cfg = http_cfg(server, tmp_path, backend="bedrock", model="m", base_url=server.root_url, region="us-east-1")
    with _judge(cfg) as judge:
        verdict = judge.screenshot_judge([ScreenshotInput("p", b"\x89PNG-shot")], mode="global")[0]
    assert verdict.score == 0.3
    assert server.requests[0]["messages"][0]["content"][1]["size"] == len(b"\x89PNG-shot")


def test_loopback_backend_starts_its_own_server(tmp_path):
    cfg = {"backend": "loopback", "cache": False}
    with _judge(cfg) as judge:
        code = judge.code_judge([ITEM])[0]
        steps = judge.step_judge([StepJudgeInput("p", ["a", "b"])], strategy="independent")[0]
        pair = judge.pairwise_abba([PairInput("p", b"x", b"y")])[0]
        url = judge.backend._base_url
    assert code.ok and all(label in (-1, 0, 1) for label in steps) and pair.ok
    assert url.startswith("http://127.0.0.1:")


_CHILD = """
import sys
from bot_repro.judges import build_judge_client
from bot_repro.judges.types import CodeJudgeInput
cfg = dict(backend="openai", model="fake-judge", base_url=sys.argv[1], cache_dir=sys.argv[2], max_retries=0)
with build_judge_client(cfg) as judge:
    print(judge.code_judge([CodeJudgeInput("make a counter", sys.argv[3])])[0].score)
"""


def test_cache_survives_a_process_restart(server, tmp_path):
    server.push(reply("SCORE: 7"))
    child = subprocess.run(
        [sys.executable, "-c", _CHILD, server.base_url, str(tmp_path / "cache"), ITEM.code],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "0.7"
    assert len(server.requests) == 1
    server.push(reply("SCORE: 1"))  # would be the answer if the cache missed
    with _judge(http_cfg(server, tmp_path, max_retries=0)) as judge:
        verdict = judge.code_judge([ITEM])[0]
        metrics = judge.pop_metrics()
    assert verdict.score == 0.7 and metrics["judge/cache_hits"] == 1.0
    assert len(server.requests) == 1


def test_standalone_server_for_smoke_runs(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "bot_repro.judges.fake_server", "--latency", "0.01"],
                            cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/v1")
        cfg = {"backend": "openai", "model": "m", "base_url": url, "cache": False}
        with _judge(cfg) as judge:
            verdict = judge.code_judge([ITEM], with_lines=False)[0]
        assert verdict.ok and 0.0 <= verdict.score <= 1.0
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize(
    "body,ok,score",
    [
        ('{"choices": [{"message": {"content": [{"type": "text", "text": "SCORE: 4"}]}}]}', True, 0.4),
        ('{"choices": [{"message": {"content": null}}], "usage": {"prompt_tokens": "many"}}', False, 0.0),
        ('{"choices": [{"message": {"content": 17}}]}', False, 0.0),
    ],
    ids=["content-parts", "null-content", "number-content"],
)
def test_odd_reply_shapes_never_crash(server, tmp_path, body, ok, score):
    server.push(Action("raw", text=body))
    with _judge(http_cfg(server, tmp_path)) as judge:
        verdict = judge.code_judge([ITEM])[0]
    assert (verdict.ok, verdict.score) == (ok, score)


def test_reply_without_choices_is_retried(server, tmp_path):
    server.push(Action("raw", text='{"choices": []}'), Action("raw", text="[1, 2]"), reply("SCORE: 2"))
    with _judge(http_cfg(server, tmp_path)) as judge:
        assert judge.code_judge([ITEM])[0].score == 0.2
    assert len(server.requests) == 3


def test_an_echoed_key_is_scrubbed_from_errors(server, tmp_path, monkeypatch):
    secret = "sk-echo-0123456789abcdef"
    monkeypatch.setenv("BOT_REPRO_JUDGE_TEST_KEY", secret)
    server.push(error(401, body=f'{{"error": "bad header Authorization: Bearer {secret}"}}'))
    cfg = http_cfg(server, tmp_path, api_key_env="BOT_REPRO_JUDGE_TEST_KEY")
    with _judge(cfg, tmp_path / "run") as judge:
        verdict = judge.code_judge([ITEM])[0]
    assert "HTTP 401" in verdict.error and "Bearer ***" in verdict.error and secret not in verdict.error
    assert secret not in (tmp_path / "run" / FAILURE_LOG).read_text()
