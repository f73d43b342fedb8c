"""``JudgeClient``: the synchronous face of the judges, used by rewards, tasks and evaluation.

The async machinery runs on a private event loop in a daemon thread, so the sync methods work
from the trainer, from scripts and from Jupyter (whose own loop is left alone). Each batch
method fans its items out concurrently; the bound on calls in flight is global to the client.

A batch never outlives its step's deadline: ``begin_step()`` starts a budget of
``judge.step_deadline_s`` that every batch call until the next ``begin_step`` shares (a call
outside training gets the whole budget); items still unanswered when it passes are cancelled and
come back as failed calls (``failed=True`` verdicts, None step labels), never as failure values.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import sqlite3
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from bot_repro.config_schema import ConfigError
from bot_repro.judges.abba import ABBA_ORDER, abba_result
from bot_repro.judges.backends import JUDGE_BACKENDS, Backend, PermanentError, TransientError
from bot_repro.judges.breaker import BreakerOpen
from bot_repro.judges.cache import JudgeCache
from bot_repro.judges.calls import CallRunner
from bot_repro.judges.metrics import JudgeMetrics
from bot_repro.judges.options import JudgeOptions, parse_options
from bot_repro.judges.prompts import PromptBook, text, user
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
log = logging.getLogger("bot_repro.judges")

PROBE_TIMEOUT_S = 5.0
PING = [user(text("Reply with OK."))]  # the circuit breaker's probe while a step waits
DEADLINE = "judge step deadline passed (judge.step_deadline_s)"


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
    reason = no_answer(opts.base_url, timeout_s)
    if reason is not None:
        raise ConfigError(
            f"judge.base_url={opts.base_url!r} does not answer ({reason}); start the judge server "
            "(python -m bot_repro.judges.serve prints the override) or fix judge.base_url "
            "(judge.preflight_probe=never skips this check)"
        )


def no_answer(base_url: str, timeout_s: float = PROBE_TIMEOUT_S) -> str | None:
    """None when GET {base_url}/models gets any HTTP answer within ``timeout_s``, else what happened
    (a refused connection, a timeout, an unresolvable host). Used at preflight and by the breaker."""
    url = base_url.rstrip("/") + "/models"
    handlers = [urllib.request.ProxyHandler({})] if self_hosted(base_url) else []  # no proxy for our own hosts
    try:
        with urllib.request.build_opener(*handlers).open(url, timeout=timeout_s):
            return None
    except urllib.error.HTTPError:
        return None  # it answered
    except (urllib.error.URLError, OSError) as exc:
        return f"GET {url}: {getattr(exc, 'reason', exc)}"


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
        self._deadline: float | None = None  # this step's (begin_step); None outside training
        liveness = None
        if opts.backend == "openai" and opts.base_url:  # an OpenAI-style server answers GET /models at once
            wait_s = min(PROBE_TIMEOUT_S, opts.breaker_probe_s)
            liveness = lambda: asyncio.to_thread(no_answer, opts.base_url, wait_s)  # noqa: E731
        self.runner = CallRunner(opts, self.backend, self.cache, self.metrics, failure_log, liveness=liveness)
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

    async def _gather(self, coros: list[Coroutine[Any, Any, T]], cut: Callable[[], T]) -> list[T]:
        """The coroutines' results; those unfinished at the step deadline are cancelled and give ``cut()``.
        Past the deadline none is started: a started call can send its request before it is cancelled."""
        if not coros:
            return []
        deadline = self._deadline if self._deadline is not None else time.monotonic() + self.opts.step_deadline_s
        if time.monotonic() >= deadline:
            for c in coros:
                c.close()
            self._cut(len(coros), len(coros))
            return [cut() for _ in coros]
        tasks = [asyncio.ensure_future(c) for c in coros]
        try:
            _, pending = await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic()))
        except asyncio.CancelledError:  # the caller gave up (Ctrl-C in a notebook): so do the calls
            for task in tasks:
                task.cancel()
            raise
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
            self._cut(len(pending), len(tasks))
        return [cut() if task in pending else task.result() for task in tasks]

    def _cut(self, n: int, of: int) -> None:
        self.metrics.add(deadline_cut=n)
        log.warning("judge step deadline (judge.step_deadline_s=%gs) passed with %d of %d items unanswered by %s; "
                    "they are excluded from training, not scored", self.opts.step_deadline_s, n, of, self.where)

    def begin_step(self) -> None:
        """Start one training step's judge budget (``judge.step_deadline_s``, shared by its batch calls)."""
        self._deadline = time.monotonic() + self.opts.step_deadline_s

    @property
    def where(self) -> str:
        """The judge server's URL (the backend's name when it has none), as outage messages name it."""
        return self.runner.breaker.where

    def outage(self) -> bool:
        """The circuit breaker is open: the server is not answering."""
        return self.runner.breaker.is_open

    def wait_for_recovery(self, max_s: float) -> bool:
        """Wait, probing every ``judge.breaker_probe_s``, until the breaker closes (True) or ``max_s``
        seconds have passed (False); the seconds waited go into ``judge/waited_s``."""
        start = time.monotonic()
        try:
            return self._run(self._recover(start + max_s))
        finally:
            self.metrics.add(waited_s=time.monotonic() - start)

    async def _recover(self, until: float) -> bool:
        breaker = self.runner.breaker
        while breaker.is_open:
            now = time.monotonic()
            if now >= until:
                return False
            await asyncio.sleep(min(breaker.seconds_to_probe(), until - now))
            if time.monotonic() >= until:
                return not breaker.is_open
            try:
                await self.runner.attempt(PING, {"temperature": 0.0, "max_tokens": 1},
                                          timeout_s=min(self.opts.timeout_s, max(0.1, until - time.monotonic())))
            except (BreakerOpen, TransientError, PermanentError, TimeoutError):
                continue  # the breaker has counted it
        return True

    def check_credentials(self) -> None:
        """Raise ``ConfigError`` naming the missing environment variable; call before training."""
        self.backend.check_credentials()

    def code_judge(self, items: list[CodeJudgeInput], with_lines: bool = True) -> list[CodeVerdict]:
        cut = lambda: CodeVerdict(score=0.0, ok=False, error=DEADLINE, failed=True)  # noqa: E731
        return self._run(self._gather([self.roles.code(item, with_lines) for item in items], cut))

    def screenshot_judge(self, items: list[ScreenshotInput], mode: str = "global") -> list[ScreenshotVerdict]:
        check_choice(mode, SCREENSHOT_MODES, "screenshot judge mode")
        cut = lambda: ScreenshotVerdict(score=0.0, ok=False, error=DEADLINE, failed=True)  # noqa: E731
        return self._run(self._gather([self.roles.screenshot(item, mode) for item in items], cut))

    def pairwise_abba(self, items: list[PairInput]) -> list[PairResult]:
        return self._run(self._gather([self.roles.pair(item) for item in items], lambda: abba_result([""] * len(ABBA_ORDER))))

    def step_judge(self, items: list[StepJudgeInput], strategy: str = "error_propagation") -> list[list[int] | None]:
        """One label list per item, None for an item whose calls gave no reply (``bot_repro.judges.roles``)."""
        check_choice(strategy, STEP_STRATEGIES, "step judge strategy")
        return self._run(self._gather([self.roles.steps(item, strategy) for item in items], lambda: None))

    def pop_metrics(self) -> dict[str, float]:
        """Counters since the last pop (see ``bot_repro.judges.metrics``), for ``metrics.jsonl``."""
        return {**self.metrics.pop(), "judge/breaker_open": float(self.runner.breaker.pop_was_open())}

    def close(self) -> None:
        if self._closed:
            return
        try:
            if self._thread.is_alive():
                asyncio.run_coroutine_threadsafe(self.runner.aclose(), self._loop).result(timeout=30)
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
