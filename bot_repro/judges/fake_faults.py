"""Broken judge servers for ``bot_repro.judges.fake_server`` (``server.fault``), as users meet them
(docs/method.md §5 "Judge outages"): a rate-limit storm (429 with a long Retry-After), a slow drip (headers,
then a byte every few seconds, GET /models too), a server that answers only every n-th call, replies that
are valid JSON without a verdict or with ``content: null``, a connection reset mid-body and a truncated
body. Each fault answers the chat endpoints (OpenAI, Anthropic, Bedrock) and GET /models; what waits,
waits until the fault is released or the client goes away, so a test's cleanup never hangs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable, Iterator

from aiohttp import web

from bot_repro.judges.fake_server import FakeJudgeServer, _truncated


class Fault:
    """How a broken server answers once it has served ``after`` chat requests as a healthy one: ``chat`` for
    the n-th chat request (1-based; ``body(text)`` is a well-formed reply body carrying ``text``), ``models``
    for GET /models (by default, as a healthy server). What waits, waits until ``release()`` (a test's
    cleanup) or the client goes away; ``served`` is set at the first request answered the broken way."""

    after = 0

    def __init__(self) -> None:
        self.released = threading.Event()
        self.served = threading.Event()

    def release(self) -> None:
        self.released.set()

    async def _hold(self, request: web.Request) -> None:
        """Wait until released or the client has gone away."""
        while not self.released.is_set() and request.transport is not None and not request.transport.is_closing():
            await asyncio.sleep(0.01)

    async def chat(self, request: web.Request, n: int, body: Callable[[str], bytes]) -> web.StreamResponse:
        raise NotImplementedError

    async def models(self, request: web.Request) -> web.StreamResponse:
        return web.json_response({"object": "list", "data": [{"id": "fake-judge", "object": "model"}]})


class RateLimitStorm(Fault):
    """Every chat request answers 429 with ``Retry-After`` (GET /models is fine: the server is up)."""

    def __init__(self, retry_after: str = "3600", after: int = 0):
        super().__init__()
        self.retry_after, self.after = retry_after, after

    async def chat(self, request, n, body):
        self.served.set()
        return web.Response(status=429, headers={"Retry-After": self.retry_after}, content_type="application/json",
                            text=json.dumps({"error": {"message": "rate limited", "type": "rate_limit_exceeded"}}))


class SlowDrip(Fault):
    """Headers at once, then one byte of the body every ``every_s`` seconds, on every endpoint."""

    def __init__(self, every_s: float = 10.0):
        super().__init__()
        self.every_s = every_s

    async def _drip(self, request: web.Request, data: bytes) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Type": "application/json"})
        resp.content_length = len(data)
        await resp.prepare(request)
        self.served.set()
        for i in range(len(data)):
            if self.released.is_set() or request.transport is None or request.transport.is_closing():
                break
            await resp.write(data[i : i + 1])
            await asyncio.sleep(self.every_s)
        return resp

    async def chat(self, request, n, body):
        return await self._drip(request, body("SCORE: 5\nJUSTIFICATION: slow"))

    async def models(self, request):
        return await self._drip(request, json.dumps({"object": "list", "data": [{"id": "fake-judge"}]}).encode())


class EveryNth(Fault):
    """Answers the ``n``-th, 2n-th, ... chat request (``text``: a well-formed verdict by default); the others
    are accepted and never answered. GET /models answers: the server is alive."""

    def __init__(self, n: int = 10, text: str = "SCORE: 5\nJUSTIFICATION: ok\nVERDICT: +1"):
        super().__init__()
        self.n, self.text = n, text

    async def chat(self, request, n, body):
        if n % self.n == 0:
            return web.Response(body=body(self.text), content_type="application/json")
        self.served.set()
        await self._hold(request)
        return web.Response(status=503, text="released")


class Replies(Fault):
    """Every chat request gets a 200 with this JSON body, given verbatim (valid JSON without a verdict,
    ``content: null``, ...)."""

    def __init__(self, raw: str, after: int = 0):
        super().__init__()
        self.raw, self.after = raw, after

    async def chat(self, request, n, body):
        self.served.set()
        return web.Response(text=self.raw, content_type="application/json")


class ResetAfter(Fault):
    """A 200 whose body stops after ``n_bytes`` and whose connection is reset (``truncate=True``: closed
    cleanly after half the announced length instead, a truncated body)."""

    def __init__(self, n_bytes: int = 100, truncate: bool = False):
        super().__init__()
        self.n_bytes, self.truncate = n_bytes, truncate

    async def chat(self, request, n, body):
        self.served.set()
        data = body("SCORE: 5\nJUSTIFICATION: " + "x" * 400)
        if self.truncate:
            return await _truncated(request, data)
        resp = web.StreamResponse(headers={"Content-Type": "application/json"})
        resp.content_length = len(data)
        await resp.prepare(request)
        await resp.write(data[: self.n_bytes])
        request.transport.abort()  # a reset, not a close
        return resp


@contextlib.contextmanager
def serve_fault(fault: Fault) -> Iterator[FakeJudgeServer]:
    """A fake server on 127.0.0.1 that answers as ``fault`` (``server.fault = None``: a healthy one again);
    on exit the fault releases what waits and the server stops."""
    server = FakeJudgeServer()
    server.fault = fault
    server.start_in_thread()
    try:
        yield server
    finally:
        fault.release()
        server.stop_thread()
