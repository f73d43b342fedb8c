"""HTTP judge backends on aiohttp: OpenAI-compatible chat completions and the Anthropic Messages API.

OpenAI-compatible covers vLLM, SGLang and OpenAI itself; images travel as base64 PNG data URLs.
The loopback backend is the OpenAI client pointed at ``bot_repro.judges.fake_server`` started on
127.0.0.1 by the client itself (smoke runs and tests, no network).
"""

from __future__ import annotations

import base64
import json
from typing import Any

import aiohttp

from bot_repro.judges.backends.base import (
    JUDGE_BACKENDS,
    PermanentError,
    Reply,
    TransientError,
    parse_retry_after,
    read_env,
    require_env,
)
from bot_repro.judges.options import JudgeOptions

_RETRY_STATUS = {408, 409, 425, 429}  # plus every 5xx (Anthropic's 529 "overloaded" included)


class _HttpBackend:
    name = "http"

    def __init__(self, opts: JudgeOptions):
        self.opts = opts
        self._session: aiohttp.ClientSession | None = None

    def check_credentials(self) -> None:
        require_env(self.opts.api_key_env, self.opts.backend)

    async def start(self) -> None:
        # created inside the client's event loop; one connection per call in flight
        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=self.opts.max_concurrency),
            timeout=aiohttp.ClientTimeout(total=self.opts.timeout_s),
        )

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _post(self, url: str, headers: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
        assert self._session is not None, "backend used before start()"
        try:
            async with self._session.post(url, json=body, headers=headers) as resp:
                raw = await resp.read()
                if resp.status == 429 or resp.status >= 500 or resp.status in _RETRY_STATUS:
                    raise TransientError(
                        f"HTTP {resp.status} from {url}: {self._snippet(raw)}",
                        retry_after=parse_retry_after(resp.headers.get("Retry-After")),
                        status=resp.status,
                    )
                if resp.status >= 400:
                    raise PermanentError(f"HTTP {resp.status} from {url}: {self._snippet(raw)}")
        except (aiohttp.ClientPayloadError, aiohttp.ClientConnectionError, aiohttp.ServerTimeoutError) as exc:
            raise TransientError(f"{type(exc).__name__} talking to {url}: {exc}") from exc
        except TimeoutError as exc:
            raise TransientError(f"timeout after {self.opts.timeout_s}s talking to {url}") from exc
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise TransientError(f"unreadable JSON body from {url}: {self._snippet(raw)}") from exc
        if not isinstance(data, dict):
            raise TransientError(f"unexpected JSON body from {url}: {self._snippet(raw)}")
        return data

    def _snippet(self, raw: bytes, limit: int = 200) -> str:
        """The start of a body for error messages; a proxy that echoes our headers must not leak the key."""
        text = raw[:limit].decode("utf-8", errors="replace").replace("\n", " ")
        key = read_env(self.opts.api_key_env)
        return text.replace(key, "***") if key else text


def _b64(png: bytes) -> str:
    return base64.b64encode(png).decode("ascii")


def _usage(data: dict[str, Any], key_in: str, key_out: str) -> tuple[int, int]:
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    return _count(usage.get(key_in)), _count(usage.get(key_out))


def _count(value: Any) -> int:
    """A token count from a server; anything that is not a non-negative number counts as 0."""
    return int(value) if isinstance(value, int | float) and value >= 0 else 0


@JUDGE_BACKENDS.register("openai")
class OpenAIBackend(_HttpBackend):
    """POST {base_url}/chat/completions with Bearer auth when ``api_key_env`` is set; with
    ``judge.structured_outputs`` the body carries vLLM's ``structured_outputs: {regex: ...}``."""

    name = "openai"

    def _url(self) -> str:
        assert self.opts.base_url
        return self.opts.base_url.rstrip("/") + "/chat/completions"

    async def complete(self, messages: list[dict[str, Any]], params: dict[str, Any]) -> Reply:
        headers = {}
        key = read_env(self.opts.api_key_env)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        body = {
            "model": self.opts.model,
            "messages": [openai_message(m) for m in messages],
            "temperature": params["temperature"],
            "max_tokens": params["max_tokens"],
        }
        if "regex" in params:  # judge.structured_outputs: vLLM constrains decoding to the reply format
            body["structured_outputs"] = {"regex": params["regex"]}
        data = await self._post(self._url(), headers, body)
        try:
            content = data["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            raise TransientError("chat completion without choices[0].message.content") from exc
        if isinstance(content, list):  # some servers answer with content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        return Reply(content if isinstance(content, str) else "", *_usage(data, "prompt_tokens", "completion_tokens"))


def openai_message(message: dict[str, Any]) -> dict[str, Any]:
    parts = message["content"]
    if all(p["type"] == "text" for p in parts):  # plain string content: text-only servers accept it
        return {"role": message["role"], "content": "\n\n".join(p["text"] for p in parts)}
    content = []
    for p in parts:
        if p["type"] == "text":
            content.append({"type": "text", "text": p["text"]})
        else:
            content.append({"type": "image_url", "image_url": {"url": f"data:image/png;base64,{_b64(p['png'])}"}})
    return {"role": message["role"], "content": content}


@JUDGE_BACKENDS.register("anthropic")
class AnthropicBackend(_HttpBackend):
    """POST {base_url}/v1/messages (default base https://api.anthropic.com) with the x-api-key header."""

    name = "anthropic"
    API_VERSION = "2023-06-01"

    async def complete(self, messages: list[dict[str, Any]], params: dict[str, Any]) -> Reply:
        headers = {"anthropic-version": self.API_VERSION}
        key = read_env(self.opts.api_key_env)
        if key:
            headers["x-api-key"] = key
        body = {
            "model": self.opts.model,
            "max_tokens": params["max_tokens"],
            "temperature": params["temperature"],
            "messages": [anthropic_message(m) for m in messages],
        }
        base = (self.opts.base_url or "https://api.anthropic.com").rstrip("/")
        data = await self._post(f"{base}/v1/messages", headers, body)
        blocks = data.get("content")
        if not isinstance(blocks, list):
            raise TransientError("Messages API reply without content blocks")
        text = "".join(str(b.get("text", "")) for b in blocks if isinstance(b, dict) and b.get("type") == "text")
        return Reply(text, *_usage(data, "input_tokens", "output_tokens"))


def anthropic_message(message: dict[str, Any]) -> dict[str, Any]:
    content = []
    for p in message["content"]:
        if p["type"] == "text":
            content.append({"type": "text", "text": p["text"]})
        else:
            content.append({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": _b64(p["png"])}})
    return {"role": message["role"], "content": content}


@JUDGE_BACKENDS.register("loopback")
class LoopbackBackend(OpenAIBackend):
    """Starts the scripted fake judge on 127.0.0.1 (free port) in the client's loop and talks to it."""

    name = "loopback"

    def __init__(self, opts: JudgeOptions):
        super().__init__(opts)
        from bot_repro.judges.fake_server import FakeJudgeServer

        self.server = FakeJudgeServer(latency_s=opts.loopback_latency_s)
        self._base_url = ""

    def _url(self) -> str:
        return self._base_url + "/chat/completions"

    async def start(self) -> None:
        self._base_url = await self.server.start()
        await super().start()

    async def aclose(self) -> None:
        await super().aclose()
        await self.server.stop()
