"""``JudgeClient``: the synchronous face of the judges, used by rewards, tasks and evaluation.

The async machinery runs on a private event loop in a daemon thread, so the sync methods work
from the trainer, from scripts and from Jupyter (whose own loop is left alone). Each batch
method fans its items out concurrently; the bound on calls in flight is global to the client.

A batch never outlives its step's deadline: ``begin_step()`` starts a budget of
``judge.step_deadline_s`` seconds of judge work that the batch calls until the next ``begin_step``
use up with their own wall time only (the generation before them and the checks between them do not
count; a call outside training gets the whole budget); items still unanswered when it is spent are
cancelled and come back as failed calls (``failed=True`` verdicts, None step labels), never as
failure values, and the attempts it cut count toward the circuit breaker. ``check_replies()`` logs
one WARNING per step when more than ``judge.unparseable_warn_share`` of its replies could not be read.
"""

from __future__ import annotations

import asyncio
import http.client
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
EXAMPLE_CHARS = 200  # of an unparseable reply, in its warning


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
    """None when GET {base_url}/models gets a whole HTTP answer (any status, its body to the end) within
    ``timeout_s``, else what happened (a refused connection, a timeout, an unresolvable host, a body that
    drips in too slowly: headers alone are no answer). Used at preflight and by the breaker."""
    url = base_url.rstrip("/") + "/models"
    handlers = [urllib.request.ProxyHandler({})] if self_hosted(base_url) else []  # no proxy for our own hosts
    until = time.monotonic() + timeout_s
    try:
        try:
            with urllib.request.build_opener(*handlers).open(url, timeout=timeout_s) as resp:
                complete = _read_by(resp, until)
        except urllib.error.HTTPError as exc:  # a status is an answer once its body has arrived
            complete = exc.fp is None or _read_by(exc, until)
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        return f"GET {url}: {getattr(exc, 'reason', exc)}"
    return None if complete else f"GET {url}: no whole reply within {timeout_s:g}s (headers, then a slow body)"


def _read_by(resp, until: float) -> bool:
    """Read ``resp``'s body to its end; False when ``until`` (a monotonic time) passes first."""
    while time.monotonic() < until:
        if not resp.read1(65536):
            return True
    return False


class JudgeClient:
    """Judge roles over one backend, with cache, retries and accounting; ``close()`` when done."""

    def __init__(self, opts: JudgeOptions, run_dir: Path | None = None, backend: Backend | None = None,
                 loop: asyncio.AbstractEventLoop | None = None):
        """``loop``: the event loop the calls run on (a new one by default; tests pass one with a virtual clock)."""
        self.opts = opts
        self.book = PromptBook(opts)  # template errors surface here, before any call
        self.metrics = JudgeMetrics()
        self.backend = backend if backend is not None else JUDGE_BACKENDS[opts.backend](opts)
        self.cache = _open_cache(opts) if opts.cache else None
        failure_log = None
        if run_dir is not None:
            Path(run_dir).mkdir(parents=True, exist_ok=True)
            failure_log = Path(run_dir) / FAILURE_LOG
        self._loop = loop or asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="judge-loop", daemon=True)
        self._thread.start()
        self._closed = False
        self._budget: float | None = None  # seconds of judge work left to this step (begin_step); None outside
        self._warned = False  # this step's warning about unparseable replies is out
        liveness = None
        if opts.backend == "openai" and opts.base_url:  # an OpenAI-style server answers GET /models at once
            wait_s = min(PROBE_TIMEOUT_S, opts.breaker_probe_s)
            liveness = lambda: asyncio.to_thread(no_answer, opts.base_url, wait_s)  # noqa: E731
        self.runner = CallRunner(opts, self.backend, self.cache, self.metrics, failure_log, liveness=liveness,
                                 clock=self._loop.time)
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
        """The coroutines' results; those unfinished when the step's budget is spent are cancelled and give
        ``cut()``, and the attempts they had at the server count toward the breaker."""
        budget = self._budget if self._budget is not None else self.opts.step_deadline_s
        if coros and budget <= 0:  # the step's budget is spent: nothing goes out
            for coro in coros:
                coro.close()
            self.metrics.add(deadline_cut=len(coros))
            log.warning("judge step deadline (judge.step_deadline_s=%gs of judge work) already passed: %d items "
                        "not sent to %s, excluded from training", self.opts.step_deadline_s, len(coros), self.where)
            return [cut() for _ in coros]
        tasks = [asyncio.ensure_future(c) for c in coros]
        if not tasks:
            return []
        start = self._loop.time()
        try:
            _, pending = await asyncio.wait(tasks, timeout=max(0.0, budget))
        except asyncio.CancelledError:  # the caller gave up (Ctrl-C in a notebook): so do the calls
            for task in tasks:
                task.cancel()
            raise
        finally:
            if self._budget is not None:
                self._budget = max(0.0, self._budget - (self._loop.time() - start))
        if pending:
            attempts = self.runner.count_cut()
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            self.metrics.add(deadline_cut=len(pending))
            log.warning("judge step deadline (judge.step_deadline_s=%gs of judge work) passed with %d of %d items "
                        "unanswered by %s (%d attempts cut, counted as failures); they are excluded from training, "
                        "not scored", self.opts.step_deadline_s, len(pending), len(tasks), self.where, attempts)
        if self._budget is None:  # outside a training step, each batch call is its own step
            self.check_replies()
        return [cut() if task in pending else task.result() for task in tasks]

    def begin_step(self) -> None:
        """Start one training step's judge budget (``judge.step_deadline_s`` seconds of judge work, shared by
        its batch calls) and its tally of unparseable replies."""
        self._budget = float(self.opts.step_deadline_s)
        self._warned = False
        self.metrics.reset_step()

    def check_replies(self) -> None:
        """One WARNING per step when more than ``judge.unparseable_warn_share`` of the step's replies so far
        could not be read: it names the judge, the share and the first such reply (cut short). Outside a
        training step each batch call is a step of its own."""
        bad, replies, example = self.metrics.step_unparseable()
        in_step = self._budget is not None
        if not in_step:
            self.metrics.reset_step()
        if self._warned or not bad or bad <= self.opts.unparseable_warn_share * replies:
            return
        self._warned = in_step
        log.warning("judge %s (%s): %d of %d replies (%.0f%%) could not be read (above judge.unparseable_warn_share"
                    "=%g); they are failed verdicts, excluded from training and not cached. Example: %r", self.where,
                    self.opts.model, bad, replies, 100 * bad / replies, self.opts.unparseable_warn_share,
                    (example or "")[:EXAMPLE_CHARS])

    @property
    def where(self) -> str:
        """The judge server's URL (the backend's name when it has none), as outage messages name it."""
        return self.runner.breaker.where

    def outage(self) -> bool:
        """The circuit breaker is open: the server is not answering."""
        return self.runner.breaker.is_open

    def wait_for_recovery(self, max_s: float) -> bool:
        """Wait, probing every ``judge.breaker_probe_s``, until the breaker closes (True) or ``max_s``
        seconds have passed (False). With the breaker closed (a step that was not judged for another
        reason), wait one probe interval and send one probe: True when it got a reply. The seconds
        waited go into ``judge/waited_s``."""
        start = self._loop.time()
        try:
            return self._run(self._recover(start + max_s))
        finally:
            self.metrics.add(waited_s=self._loop.time() - start)

    async def _recover(self, until: float) -> bool:
        breaker = self.runner.breaker
        closed = not breaker.is_open
        while closed or breaker.is_open:
            now = self._loop.time()
            if now >= until:
                return False
            await asyncio.sleep(min(self.opts.breaker_probe_s if closed else breaker.seconds_to_probe(), until - now))
            if self._loop.time() >= until:
                return not closed and not breaker.is_open
            try:
                await self.runner.attempt(PING, {"temperature": 0.0, "max_tokens": 1},
                                          timeout_s=min(self.opts.timeout_s, max(0.1, until - self._loop.time())))
                return True
            except (BreakerOpen, TransientError, PermanentError, TimeoutError):
                if closed:
                    return False  # the breaker has counted it; the caller decides what comes next
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
