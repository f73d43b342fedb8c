"""judge preflight's reachability probe (a self-hosted base_url must answer before any model loads),
the structured-outputs option, and the lifecycle of ``bot_repro.judges.serve`` with a stand-in process."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.judges import build_judge_client, parse_options, parsers, preflight
from bot_repro.judges.client import self_hosted
from bot_repro.judges.serve import JudgeServer, ServerError, served
from bot_repro.judges.types import CodeJudgeInput, StepJudgeInput
from tests.judge_server import http_cfg, running_server


def _closed_port() -> int:
    with socket.socket() as s:  # bound then closed: nothing listens there
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _opts(base_url: str, **kw):
    return parse_options({"backend": "openai", "model": "m", "base_url": base_url, **kw})


def test_a_closed_port_is_one_config_error_naming_base_url():
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    start = time.monotonic()
    with pytest.raises(ConfigError, match=re.escape(f"judge.base_url={url!r} does not answer")):
        preflight(_opts(url))
    assert time.monotonic() - start < 5


def test_a_server_that_answers_passes(tmp_path):
    with running_server() as srv:
        preflight(parse_options(http_cfg(srv, tmp_path)))
        preflight(_opts(srv.root_url + "/nothing-here"))  # any HTTP status is an answer (here 404)


def test_probe_rule_auto_always_never():
    assert self_hosted("http://127.0.0.1:8000/v1") and self_hosted("http://localhost:8000/v1")
    assert self_hosted("http://10.1.2.3:8000/v1") and self_hosted("http://[::1]:8000/v1")
    assert not self_hosted("https://8.8.8.8/v1")
    dead = f"http://127.0.0.1:{_closed_port()}/v1"
    preflight(_opts(dead, preflight_probe="never"))
    preflight(_opts("https://8.8.8.8/v1", api_key_env=None))  # hosted: not probed under auto
    preflight(parse_options({"backend": "anthropic", "model": "m", "base_url": dead}))  # openai only
    with pytest.raises(ConfigError, match="preflight_probe"):
        _opts(dead, preflight_probe="sometimes")


def test_structured_outputs_option():
    assert _opts("http://x").structured_outputs is False
    with pytest.raises(ConfigError, match="structured_outputs"):
        parse_options({"backend": "anthropic", "model": "m", "structured_outputs": True})
    with pytest.raises(ConfigError, match="true or false"):
        _opts("http://x", structured_outputs="yes")


WELL_FORMED = {
    "code_score": ["SCORE: 7\nJUSTIFICATION: fine", "NON_REACT_CODE"],
    "code_lines": ["SCORE: 10\nJUSTIFICATION: ok\nLINE_ANALYSIS:\nNONE",
                   "SCORE: 3\nJUSTIFICATION: x\nLINE_ANALYSIS:\n1: const a = 1; | DESC: unused | IMPACT: -2\n"],
    "screenshot_global": ["SCORE: 0\nJUSTIFICATION: blank"],
    "screenshot_one_turn": ["SCORE: 5\nJUSTIFICATION: meh\nLINE_ANALYSIS:\nNONE"],
    "screenshot_two_turn_score": ["SCORE: 9\nJUSTIFICATION: good"],
    "screenshot_two_turn_lines": ["LINE_ANALYSIS:\n0: x | DESC: y | IMPACT: -3\n"],
    "pairwise": ["WINNER: B"],
    "step_independent": ["VERDICT: +1", "VERDICT: 0", "VERDICT: -1"],
    "step_context_aware": ["VERDICT: -1"],
}


def test_every_role_has_a_reply_pattern_that_the_parsers_accept():
    assert set(parsers.REPLY_PATTERNS) == set(WELL_FORMED)
    for role, replies in WELL_FORMED.items():
        for reply in replies:
            assert re.fullmatch(parsers.REPLY_PATTERNS[role], reply), (role, reply)
            if role.startswith("step"):
                assert parsers.parse_verdict(reply) is not None
            elif role == "pairwise":
                assert parsers.parse_winner(reply) == "b"
            elif role == "screenshot_two_turn_lines":
                assert parsers.parse_lines(reply, 5)
            else:
                assert parsers.parse_code_reply(reply, 5).ok
    assert not re.fullmatch(parsers.REPLY_PATTERNS["step_independent"], "VERDICT: 2")


def test_structured_outputs_travel_in_the_request_and_the_cache_key(tmp_path):
    with running_server() as srv:
        item = StepJudgeInput("1+1?", ["1+1=2"], "2")
        with build_judge_client(http_cfg(srv, tmp_path, structured_outputs=True)) as judge:
            judge.step_judge([item])
            judge.code_judge([CodeJudgeInput("p", "code")], with_lines=False)
        with build_judge_client(http_cfg(srv, tmp_path)) as judge:
            judge.step_judge([item])  # unconstrained: another cache entry, so sent again
    sent = [r["params"].get("structured_outputs") for r in srv.requests]
    assert sent == [{"regex": parsers.REPLY_PATTERNS["step_independent"]},
                    {"regex": parsers.REPLY_PATTERNS["code_score"]}, None]


class _StandIn(JudgeServer):
    """The scripted fake server in place of vLLM: the same readiness check, process group and stop."""

    def __init__(self, tmp_path, script: str | None = None):
        super().__init__(model_dir=tmp_path, log_path=tmp_path / "server.log")
        self.script = script

    def command(self) -> list[str]:
        if self.script is not None:
            return [sys.executable, "-c", self.script]
        return [sys.executable, "-m", "bot_repro.judges.fake_server", "--port", str(self.port)]


def test_serve_waits_until_ready_then_stops_the_group(tmp_path):
    server = _StandIn(tmp_path)
    assert server.start(timeout_s=60) == server.url
    pid = server.proc.pid
    assert server.ready()
    preflight(_opts(server.url))
    server.stop()
    assert not server.ready()
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)
    server.start(timeout_s=60)  # restartable on the same port
    assert server.ready()
    server.stop()


def test_serve_reports_a_server_that_dies_with_its_log_tail(tmp_path):
    server = _StandIn(tmp_path, script="print('cannot load the model: no such folder'); raise SystemExit(3)")
    with pytest.raises(ServerError, match=r"exited with code 3(.|\n)*cannot load the model"):
        server.start(timeout_s=30)
    # 5 s, not 1: the log tail names 'loading' only if the child printed it by then, and a loaded
    # machine can take a second to start a Python process
    stuck = _StandIn(tmp_path, script="import time; print('loading', flush=True); time.sleep(60)")
    with pytest.raises(ServerError, match=r"not ready after 5 s(.|\n)*loading"):
        stuck.start(timeout_s=5)
    assert stuck.proc is None  # stopped on the way out


def test_served_context_and_sigterm_stop_the_command(tmp_path, monkeypatch):
    monkeypatch.setattr("bot_repro.judges.serve.JudgeServer", lambda *a, **kw: _StandIn(tmp_path))
    with served() as server:
        assert server.ready()
    assert not server.ready()
    code = (
        "import sys, bot_repro.judges.serve as s\n"
        "from tests.unit.test_judge_preflight import _StandIn\n"
        "from pathlib import Path\n"
        f"s.JudgeServer = lambda *a, **kw: _StandIn(Path({str(tmp_path)!r}))\n"
        "sys.exit(s.main(['--port', '0']))\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("override:"):
            break
    url = lines[-2].split()[-1]
    assert lines[-1].strip().endswith("judge.model=smollm2-135m-instruct") and url in lines[-1]
    proc.send_signal(signal.SIGTERM)
    rest = proc.stdout.read()
    assert proc.wait(timeout=30) == 0 and "judge server stopped" in rest
    with pytest.raises(ConfigError, match="does not answer"):
        preflight(_opts(url))
