"""The backend contract: send one chat request, get the reply text and token counts, or a typed error.

Backends do not retry, cache or limit concurrency: ``bot_repro.judges.calls`` does that for all of
them. They classify failures: ``TransientError`` (429, 5xx, timeouts, dropped connections,
truncated or garbage bodies: worth retrying, optionally after the server's Retry-After) and
``PermanentError`` (other 4xx, unsupported input: retrying cannot help). Error texts never
contain credentials.
"""

from __future__ import annotations

import email.utils
import os
import time
from dataclasses import dataclass
from typing import Any, Protocol

from bot_repro.config_schema import ConfigError
from bot_repro.registry import Registry


@dataclass
class Reply:
    text: str
    tokens_in: int = 0
    tokens_out: int = 0


class TransientError(Exception):
    """A failure worth retrying; ``retry_after`` is the server's requested wait in seconds, if any;
    ``status`` the HTTP status when there was one (a 429 is an answer: it does not count toward the
    circuit breaker, ``bot_repro.judges.breaker``)."""

    def __init__(self, message: str, retry_after: float | None = None, status: int | None = None):
        super().__init__(message)
        self.retry_after = retry_after
        self.status = status


class PermanentError(Exception):
    """A failure that a retry cannot fix (bad request, auth, unsupported input)."""


class Backend(Protocol):
    name: str

    def check_credentials(self) -> None: ...

    async def start(self) -> None: ...

    async def complete(self, messages: list[dict[str, Any]], params: dict[str, Any]) -> Reply: ...

    async def aclose(self) -> None: ...


# name -> factory(opts: JudgeOptions) -> Backend
JUDGE_BACKENDS: Registry = Registry("judge backend")


def require_env(name: str | None, backend: str) -> None:
    """Raise ``ConfigError`` naming the variable when ``name`` is set but missing or empty."""
    if name and not os.environ.get(name):
        raise ConfigError(
            f"judge backend {backend!r} needs the API key in environment variable {name}, which is not set "
            f"(export {name}=... before training; keys never go into configs)"
        )


def read_env(name: str | None) -> str | None:
    return os.environ.get(name) if name else None


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header: delta-seconds or an HTTP date; None if absent or unreadable."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
