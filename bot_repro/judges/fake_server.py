"""A scripted judge server on 127.0.0.1 speaking the OpenAI, Anthropic and Bedrock Converse wire formats.

For tests, smoke runs (the ``loopback`` judge backend) and the judge bench; it never reaches
beyond loopback. Each request takes the next scripted ``Action`` if any (a reply, an HTTP error
with optional Retry-After, a delay, a truncated or garbage body), otherwise asks the responder.
The default responder is a deterministic stand-in, not a judge: it recognises the reply format
a prompt asks for (VERDICT, WINNER, LINE_ANALYSIS, SCORE) and answers well-formed values derived
from a hash of the request. Requests are recorded in a backend-neutral form for assertions.
Outage modes, set from any thread: ``hung`` (connections are accepted, nothing is answered until it
is cleared: a server stopped with SIGSTOP), ``busy`` (chat requests wait, ``GET /models`` answers: up
but slow), ``storm_status`` (every request answers that status, e.g. 503) and ``latency_s`` (a slow
server). ``fault``: a broken server (``bot_repro.judges.fake_faults``: a rate-limit storm, a slow drip,
...) answers every request instead, GET /models included. Tests steer them by events, not by the clock:
``hang_after`` makes the server hang itself as the request after that many comes, and
``resume_when(server)`` ends a hang (or busy spell) as soon as it holds, checked at each request and
each answered ``GET /models`` (e.g. once the client's recovery probe arrives: the client has done what
the test is about).

Run standalone: ``python -m bot_repro.judges.fake_server --port 8123 --latency 0.05``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import hashlib
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

HOST = "127.0.0.1"


@dataclass
class Action:
    """One scripted answer. kind: "reply" | "status" (text: optional body) | "garbage" | "truncated" | "raw"."""

    kind: str = "reply"
    text: str = ""
    status: int = 200
    retry_after: str | None = None
    delay_s: float = 0.0


def reply(text: str, delay_s: float = 0.0) -> Action:
    return Action("reply", text=text, delay_s=delay_s)


def error(status: int, retry_after: str | None = None, body: str = "") -> Action:
    return Action("status", text=body, status=status, retry_after=retry_after)


Responder = Callable[[dict[str, Any]], str]


class FakeJudgeServer:
    def __init__(self, responder: Responder | None = None, latency_s: float = 0.0):
        self.responder = responder or default_responder
        self.latency_s = latency_s
        self.script: collections.deque[Action] = collections.deque()
        self.requests: list[dict[str, Any]] = []
        self.in_flight = 0  # requests being answered now; max_in_flight checks the client's bound
        self.max_in_flight = 0
        self.hung = False
        self.busy = False
        self.hang_after: int | None = None  # hang as the request after this many comes (then None)
        self.resume_when: Callable[[FakeJudgeServer], bool] | None = None  # ends hung/busy once true (then None)
        self.models_answered = 0  # GET /models answered: the client's liveness checks
        self.storm_status: int | None = None
        self.fault: Any = None  # a broken server's answers from now on (``bot_repro.judges.fake_faults.Fault``)
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.base_url = ""

    def push(self, *actions: Action) -> None:
        self.script.extend(actions)

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self, port: int = 0) -> str:
        """Serve on 127.0.0.1 (``port=0``: a free port); return the OpenAI-style base URL (``.../v1``)."""
        app = web.Application(client_max_size=64 * 1024**2)
        for api, wire in WIRES.items():
            app.router.add_post(wire.path, self._endpoint(api))
        app.router.add_get("/v1/models", self._models)  # what readiness checks and judge preflight ask
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, HOST, port)
        await site.start()
        bound = site._server.sockets[0].getsockname()[1]  # the port the OS picked
        self.base_url = f"http://{HOST}:{bound}/v1"
        return self.base_url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def start_in_thread(self) -> str:
        """Start on a private event loop in a daemon thread (for sync code and tests)."""
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="fake-judge", daemon=True)
        self._thread.start()
        return asyncio.run_coroutine_threadsafe(self.start(), self._loop).result(timeout=30)

    def stop_thread(self) -> None:
        if self._loop is None:
            return
        asyncio.run_coroutine_threadsafe(self.stop(), self._loop).result(timeout=30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=30)
        self._loop.close()
        self._loop = None

    def __enter__(self) -> FakeJudgeServer:
        self.start_in_thread()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop_thread()

    @property
    def root_url(self) -> str:
        """The server root (Anthropic and Bedrock clients add their own paths)."""
        return self.base_url.removesuffix("/v1")

    # -- handlers ----------------------------------------------------------------------------

    def _resume_if_due(self) -> None:
        """End a hang or busy spell once ``resume_when`` holds (on the server's loop, between requests)."""
        if (self.hung or self.busy) and self.resume_when is not None and self.resume_when(self):
            self.hung = self.busy = False
            self.resume_when = None

    async def _models(self, request: web.Request) -> web.StreamResponse:
        if self.fault is not None and len(self.requests) >= self.fault.after:
            return await self.fault.models(request)
        while self.hung:
            await asyncio.sleep(0.01)
        self.models_answered += 1
        self._resume_if_due()
        return web.json_response({"object": "list", "data": [{"id": "fake-judge", "object": "model"}]})

    async def _handle(self, request: web.Request, neutral: dict[str, Any], shape: Callable[[str, int, int], Any]):
        self.requests.append(neutral)
        if self.fault is not None and len(self.requests) > self.fault.after:
            return await self.fault.chat(request, len(self.requests), lambda text: json.dumps(shape(text, 1, 1)).encode())
        action = self.script.popleft() if self.script else Action("reply", text="", delay_s=self.latency_s)
        if self.storm_status is not None:
            action = error(self.storm_status)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.hang_after is not None and len(self.requests) > self.hang_after:
                self.hung, self.hang_after = True, None  # set here, as the request comes: no race with the client
            self._resume_if_due()
            while self.hung or self.busy:  # the request waits, as on a stopped process, and is answered once it resumes
                await asyncio.sleep(0.01)
            if action.delay_s:
                await asyncio.sleep(action.delay_s)
        finally:
            self.in_flight -= 1
        if action.kind == "status":
            headers = {"Retry-After": action.retry_after} if action.retry_after is not None else {}
            body = action.text or json.dumps({"error": {"message": "scripted error"}})
            return web.Response(text=body, status=action.status, headers=headers, content_type="application/json")
        if action.kind == "garbage":
            return web.Response(text=action.text or "<html>upstream proxy error", content_type="text/html")
        if action.kind == "raw":  # a 200 whose JSON body is given verbatim (malformed shapes)
            return web.Response(text=action.text, content_type="application/json")
        text = action.text if action.text else self.responder(neutral)
        prompt_chars = sum(len(p.get("text", "")) for m in neutral["messages"] for p in m["content"])
        body = json.dumps(shape(text, max(1, prompt_chars // 4), max(1, len(text) // 4))).encode()
        if action.kind == "truncated":
            return await _truncated(request, body)
        return web.Response(body=body, content_type="application/json")

    def _endpoint(self, api: str) -> Callable[[web.Request], Any]:
        """The handler of one provider's endpoint: its request in the neutral form, its reply shape."""
        wire = WIRES[api]

        async def handle(request: web.Request) -> web.StreamResponse:
            data = await request.json()
            messages = [_neutral(m.get("role", ""), m.get("content"), wire.part) for m in data.get("messages", [])]
            neutral = {"api": api, "model": wire.model(request, data), "messages": messages,
                       "auth": request.headers.get(wire.auth_header, ""), "params": wire.params(data)}
            return await self._handle(request, neutral, lambda t, i, o: wire.reply(data, t, i, o))

        return handle


async def _truncated(request: web.Request, body: bytes) -> web.StreamResponse:
    """Announce the full length, send half the body, drop the connection."""
    resp = web.StreamResponse(headers={"Content-Type": "application/json"})
    resp.content_length = len(body)
    await resp.prepare(request)
    await resp.write(body[: len(body) // 2])
    request.transport.close()
    return resp


def _params(data: dict[str, Any]) -> dict[str, Any]:
    params = {k: data.get(k) for k in ("temperature", "max_tokens")}
    if "structured_outputs" in data:  # vLLM's field (judge.structured_outputs): recorded, not obeyed
        params["structured_outputs"] = data["structured_outputs"]
    return params


def _image(raw: bytes) -> dict[str, Any]:
    return {"type": "image", "sha256": hashlib.sha256(raw).hexdigest(), "size": len(raw)}


def _openai_part(part: dict[str, Any]) -> dict[str, Any]:
    if part.get("type") == "image_url":
        url = part["image_url"]["url"]
        return _image(base64.b64decode(url.split(",", 1)[1]))
    return {"type": "text", "text": part.get("text", "")}


def _anthropic_part(part: dict[str, Any]) -> dict[str, Any]:
    if part.get("type") == "image":
        return _image(base64.b64decode(part["source"]["data"]))
    return {"type": "text", "text": part.get("text", "")}


def _bedrock_part(part: dict[str, Any]) -> dict[str, Any]:
    if "image" in part:  # botocore sends blob members base64-encoded in JSON
        return _image(base64.b64decode(part["image"]["source"]["bytes"]))
    return {"type": "text", "text": part.get("text", "")}


def _neutral(role: str, content: Any, convert: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    if isinstance(content, str):
        return {"role": role, "content": [{"type": "text", "text": content}]}
    return {"role": role, "content": [convert(p) for p in content or []]}


@dataclass(frozen=True)
class _Wire:
    """What differs between the providers' chat endpoints (the fake serves all three the same way)."""

    path: str
    part: Callable[[dict[str, Any]], dict[str, Any]]  # one content part -> the neutral form
    auth_header: str
    model: Callable[[web.Request, dict[str, Any]], Any]
    params: Callable[[dict[str, Any]], dict[str, Any]]
    reply: Callable[[dict[str, Any], str, int, int], Any]  # (request body, text, tokens in, tokens out)


WIRES: dict[str, _Wire] = {
    "openai": _Wire(
        "/v1/chat/completions", _openai_part, "Authorization", lambda r, d: d.get("model"), _params,
        lambda d, t, i, o: {
            "id": "fake", "object": "chat.completion", "model": d.get("model"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": t}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": i, "completion_tokens": o, "total_tokens": i + o},
        },
    ),
    "anthropic": _Wire(
        "/v1/messages", _anthropic_part, "x-api-key", lambda r, d: d.get("model"), _params,
        lambda d, t, i, o: {
            "id": "fake", "type": "message", "role": "assistant", "content": [{"type": "text", "text": t}],
            "stop_reason": "end_turn", "usage": {"input_tokens": i, "output_tokens": o},
        },
    ),
    "bedrock": _Wire(
        "/model/{model_id}/converse", _bedrock_part, "Authorization", lambda r, d: r.match_info["model_id"],
        lambda d: d.get("inferenceConfig", {}),
        lambda d, t, i, o: {
            "output": {"message": {"role": "assistant", "content": [{"text": t}]}}, "stopReason": "end_turn",
            "usage": {"inputTokens": i, "outputTokens": o, "totalTokens": i + o}, "metrics": {"latencyMs": 1},
        },
    ),
}


# -- the default stand-in responder ------------------------------------------------------------------


def last_user_text(request: dict[str, Any]) -> str:
    for message in reversed(request["messages"]):
        if message["role"] == "user":
            return "\n".join(p.get("text", "") for p in message["content"] if p["type"] == "text")
    return ""


def _digest(request: dict[str, Any]) -> int:
    blob = json.dumps(request["messages"], sort_keys=True).encode()
    return int.from_bytes(hashlib.sha256(blob).digest()[:8], "big")


def default_responder(request: dict[str, Any]) -> str:
    prompt = last_user_text(request)
    h = _digest(request)
    # the format a template asks for comes last; code or problems quoted earlier may name other fields
    wanted = max(("VERDICT", "WINNER", "LINE_ANALYSIS", "SCORE"), key=prompt.rfind)
    if wanted == "VERDICT":
        return "VERDICT: " + ("+1", "+1", "+1", "+1", "+1", "+1", "+1", "0", "0", "-1")[h % 10]
    if wanted == "WINNER":
        return "WINNER: " + "AB"[h % 2]
    score = f"SCORE: {h % 11}\nJUSTIFICATION: deterministic stand-in verdict (loopback judge)"
    if wanted == "LINE_ANALYSIS":
        numbered = [int(m) for m in re.findall(r"^(\d+): ", prompt, re.MULTILINE)]
        if numbered and h % 3 == 0:
            line = numbered[h % len(numbered)]
            return f"{score}\nLINE_ANALYSIS:\n{line}: (code) | DESC: stand-in finding | IMPACT: -{1 + h % 3}"
        return f"{score}\nLINE_ANALYSIS:\nNONE"
    return score


def main() -> None:
    parser = argparse.ArgumentParser(description="Scripted judge server on 127.0.0.1 (stand-in replies)")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each reply")
    args = parser.parse_args()

    async def serve() -> None:
        server = FakeJudgeServer(latency_s=args.latency)
        print(await server.start(args.port), flush=True)
        await asyncio.Event().wait()

    asyncio.run(serve())


if __name__ == "__main__":
    main()
