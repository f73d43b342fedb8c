"""Test helpers for the judges: the loopback HTTP server, client configs, and an in-process backend.

The HTTP server is ``bot_repro.judges.fake_server.FakeJudgeServer`` (reusable by smoke runs);
here it is started on 127.0.0.1 with a free port in a background thread; ``probes`` counts the
client's recovery probes it got, the event outage tests end a hang on. ``ScriptedBackend``
skips HTTP for tests of the role logic (strategies, ABBA order), where the wire is irrelevant.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bot_repro.judges.backends.base import Reply
from bot_repro.judges.client import PING, JudgeClient
from bot_repro.judges.fake_server import FakeJudgeServer, Responder, last_user_text
from bot_repro.judges.options import parse_options


@contextmanager
def running_server(responder: Responder | None = None, latency_s: float = 0.0) -> Iterator[FakeJudgeServer]:
    server = FakeJudgeServer(responder=responder, latency_s=latency_s)
    server.start_in_thread()
    try:
        yield server
    finally:
        server.stop_thread()


def probes(server: FakeJudgeServer) -> int:
    """How many requests the server got were the client's recovery probe (``JudgeClient``'s ``PING``),
    sent only while its breaker is open and it waits for the judge: a test releases a hang on it."""
    ping = last_user_text({"messages": PING})
    return sum(last_user_text(r) == ping for r in server.requests)


def http_cfg(server: FakeJudgeServer, tmp_path: Path, **overrides: Any) -> dict[str, Any]:
    """An ``openai`` judge config aimed at ``server``, fast retries, cache in ``tmp_path``."""
    cfg = {
        "backend": "openai",
        "model": "fake-judge",
        "base_url": server.base_url,
        "max_concurrency": 8,
        "timeout_s": 5.0,
        "max_retries": 2,
        "backoff_base_s": 0.01,
        "backoff_max_s": 0.05,
        "cache": True,
        "cache_dir": str(tmp_path / "cache"),
    }
    cfg.update(overrides)
    return cfg


def text_of(messages: list[dict[str, Any]]) -> str:
    return "\n".join(p["text"] for m in messages for p in m["content"] if p["type"] == "text")


class ScriptedBackend:
    """In-process backend: ``responder(messages) -> str``; what the responder raises, the call raises."""

    name = "scripted"

    def __init__(self, responder: Callable[[list[dict[str, Any]]], str],
                 delay: Callable[[list[dict[str, Any]]], float] | None = None):
        self.responder = responder
        self.delay = delay  # seconds before answering, per request (None: answer at once)
        self.calls: list[list[dict[str, Any]]] = []  # requests received
        self.completed: list[list[dict[str, Any]]] = []  # requests answered (not cancelled)

    def check_credentials(self) -> None:
        pass

    async def start(self) -> None:
        pass

    async def aclose(self) -> None:
        pass

    async def complete(self, messages: list[dict[str, Any]], params: dict[str, Any]) -> Reply:
        self.calls.append(messages)
        if self.delay is not None:
            await asyncio.sleep(self.delay(messages))
        self.completed.append(messages)
        return Reply(self.responder(messages), 10, 2)


def scripted_client(
    responder: Callable[[list[dict[str, Any]]], str],
    delay: Callable[[list[dict[str, Any]]], float] | None = None,
    **overrides: Any,
) -> JudgeClient:
    cfg = {"backend": "loopback", "cache": False, "max_retries": 0, **overrides}
    opts = parse_options(cfg)
    return JudgeClient(opts, backend=ScriptedBackend(responder, delay))

