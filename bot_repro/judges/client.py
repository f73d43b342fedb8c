"""``JudgeClient``: the synchronous face of the judges, used by rewards, tasks and evaluation.

The async machinery runs on a private event loop in a daemon thread, so the sync methods work
from the trainer, from scripts and from Jupyter (whose own loop is left alone). Each batch
method fans its items out concurrently; the bound on calls in flight is global to the client.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import sqlite3
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from bot_repro.config_errors import ConfigError
from bot_repro.judges.backends import JUDGE_BACKENDS, Backend
from bot_repro.judges.cache import JudgeCache
from bot_repro.judges.calls import CallRunner
from bot_repro.judges.metrics import JudgeMetrics
from bot_repro.judges.options import JudgeOptions, parse_options
from bot_repro.judges.prompts import PromptBook
from bot_repro.judges.roles import SCREENSHOT_MODES, STEP_STRATEGIES, Roles, check_choice
from bot_repro.judges.types import (
    CodeJudgeInput,
    CodeVerdict,
    PairInput,
    PairResult,
    ScreenshotInput,
    ScreenshotVerdict,
    StepJudgeInput,
)

T = TypeVar("T")
FAILURE_LOG = "judge_failures.jsonl"


PROBE_TIMEOUT_S = 5.0


def preflight(opts: JudgeOptions) -> None:
    """What a client would refuse at start, checked without starting one (no session, no folder):
    prompt templates load, the backend's credentials are present, and a self-hosted server
    answers (``check_reachable``). Raises ``ConfigError``."""
    PromptBook(opts)
    JUDGE_BACKENDS[opts.backend](opts).check_credentials()
    check_reachable(opts)


def self_hosted(url: str) -> bool:
    """The URL's host is a loopback or private address (a name counts when all its addresses are)."""
    host = urllib.parse.urlsplit(url).hostname
    if not host:
        return False
    try:
        addresses = {ipaddress.ip_address(host)}
    except ValueError:
        try:  # a name: resolved locally (no resolver on an offline machine means "not known to be ours")
            addresses = {ipaddress.ip_address(a[4][0].split("%")[0]) for a in socket.getaddrinfo(host, None)}
        except (OSError, ValueError, UnicodeError):
            return False
    return bool(addresses) and all(a.is_loopback or a.is_private or a.is_link_local for a in addresses)


def check_reachable(opts: JudgeOptions, timeout_s: float = PROBE_TIMEOUT_S) -> None:
    """``ConfigError`` naming judge.base_url when GET {base_url}/models gets no HTTP answer.

    Only for the openai backend, and by default (``judge.preflight_probe=auto``) only for a
    self-hosted base_url: a hosted API is not probed, since that needs the network and a key at
    config time, and its failures are the retries' business. Any HTTP status counts as an answer
    (a server that wants a key says 401): only a refused connection, a timeout or an unresolvable
    host fails. ``always`` probes every base_url, ``never`` none.
    """
    if opts.backend != "openai" or not opts.base_url or opts.preflight_probe == "never":
        return
    if opts.preflight_probe == "auto" and not self_hosted(opts.base_url):
        return
    url = opts.base_url.rstrip("/") + "/models"
    handlers = [urllib.request.ProxyHandler({})] if self_hosted(opts.base_url) else []  # no proxy for our own hosts
    try:
        with urllib.request.build_opener(*handlers).open(url, timeout=timeout_s):
            return
    except urllib.error.HTTPError:
        return  # it answered
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ConfigError(
            f"judge.base_url={opts.base_url!r} does not answer (GET {url}: {reason}); start the judge server "
            "(python -m bot_repro.judges.serve prints the override) or fix judge.base_url "
            "(judge.preflight_probe=never skips this check)"
        ) from exc


class JudgeClient:
    """Judge roles over one backend, with cache, retries and accounting; ``close()`` when done."""

    def __init__(self, opts: JudgeOptions, run_dir: Path | None = None, backend: Backend | None = None):
        self.opts = opts
        self.book = PromptBook(opts)  # template errors surface here, before any call
        self.metrics = JudgeMetrics()
        self.backend = backend if backend is not None else JUDGE_BACKENDS[opts.backend](opts)
        self.cache = _open_cache(opts) if opts.cache else None
        failure_log = None
        if run_dir is not None:
            Path(run_dir).mkdir(parents=True, exist_ok=True)
            failure_log = Path(run_dir) / FAILURE_LOG
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="judge-loop", daemon=True)
        self._thread.start()
        self._closed = False
        self.runner = CallRunner(opts, self.backend, self.cache, self.metrics, failure_log)
        self.roles = Roles(self.runner, self.book, opts, self.metrics)
        try:
            self._run(self.backend.start())
        except BaseException:
            self.close()
            raise

    def __repr__(self) -> str:
        return f"JudgeClient(backend={self.opts.backend!r}, model={self.opts.model!r})"

    def __enter__(self) -> JudgeClient:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        if self._closed:
            coro.close()
            raise RuntimeError("JudgeClient is closed")
        if threading.current_thread() is self._thread:
            coro.close()
            raise RuntimeError("sync JudgeClient methods cannot be called from the judge event loop")
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()  # e.g. KeyboardInterrupt in a notebook: stop the batch's calls too
            raise

    async def _gather(self, coros: list[Coroutine[Any, Any, T]]) -> list[T]:
        return list(await asyncio.gather(*coros))

    def check_credentials(self) -> None:
        """Raise ``ConfigError`` naming the missing environment variable; call before training."""
        self.backend.check_credentials()

    def code_judge(self, items: list[CodeJudgeInput], with_lines: bool = True) -> list[CodeVerdict]:
        return self._run(self._gather([self.roles.code(item, with_lines) for item in items]))

    def screenshot_judge(self, items: list[ScreenshotInput], mode: str = "global") -> list[ScreenshotVerdict]:
        check_choice(mode, SCREENSHOT_MODES, "screenshot judge mode")
        return self._run(self._gather([self.roles.screenshot(item, mode) for item in items]))

    def pairwise_abba(self, items: list[PairInput]) -> list[PairResult]:
        return self._run(self._gather([self.roles.pair(item) for item in items]))

    def step_judge(self, items: list[StepJudgeInput], strategy: str = "error_propagation") -> list[list[int]]:
        check_choice(strategy, STEP_STRATEGIES, "step judge strategy")
        return self._run(self._gather([self.roles.steps(item, strategy) for item in items]))

    def pop_metrics(self) -> dict[str, float]:
        """Counters since the last pop (see ``bot_repro.judges.metrics``), for ``metrics.jsonl``."""
        return self.metrics.pop()

    def close(self) -> None:
        if self._closed:
            return
        try:
            if self._thread.is_alive():
                asyncio.run_coroutine_threadsafe(self.backend.aclose(), self._loop).result(timeout=30)
        finally:
            self._closed = True
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=30)
            self._loop.close()
            if self.cache is not None:
                self.cache.close()


def _open_cache(opts: JudgeOptions) -> JudgeCache:
    path = opts.cache_path()
    try:
        return JudgeCache(path)
    except (OSError, sqlite3.Error) as exc:
        raise ConfigError(f"judge cache {path} cannot be opened ({exc}); set judge.cache_dir or judge.cache=false") from exc


def build_judge_client(judge_cfg: dict | None, run_dir: Path | None = None) -> JudgeClient | None:
    """The client for a ``judge`` config section, or None when the judge is disabled."""
    opts = parse_options(judge_cfg)
    return None if opts is None else JudgeClient(opts, run_dir)
