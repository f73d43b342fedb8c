"""One judge request end to end: cache, in-flight sharing, concurrency bound, timeout, retries.

Every role goes through ``CallRunner.call``. At most ``max_concurrency`` attempts are in flight
(the bound is released while a call sleeps in backoff); each attempt has ``timeout_s``.
Transient failures are retried up to ``max_retries`` times after
``min(backoff_max_s, backoff_base_s * 2**attempt)`` seconds scaled by a random factor in
[0.5, 1] (jitter, so a burst of failures does not come back in lockstep); a server's Retry-After
is honoured up to ``retry_after_max_s`` and scaled by a random factor in [1, 1.5], so calls told the
same Retry-After spread out. When the retries are spent, or on a permanent error, ``JudgeCallFailed``
carries the reason; roles turn it into failed verdicts. A reply is cached only when the role's
``valid`` check reads it (an unparseable reply is asked again next time, never replayed from the
cache). A circuit breaker (``bot_repro.judges.breaker``) sees every attempt (429s as
``rate_limited``, attempts cut by the step deadline as failures, ``count_cut``): while it is open an
attempt fails at once (no retries), except its periodic probe, and when it opens the attempts in
flight fail too. With a ``liveness`` check (the client's ``GET /models`` for an OpenAI-style server),
a watchdog asks it whenever attempts have waited ``breaker_probe_s`` with no reply from the server,
and trips the breaker when it gets no answer either. Identical requests already in flight share one call: a sweep's runs and the repeated
items of a batch pay once. With ``structured_outputs`` the role's reply regex travels in the
request's params (``params["regex"]``), which backends that can constrain decoding send.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from bot_repro.judges.backends.base import Backend, PermanentError, TransientError
from bot_repro.judges.breaker import BreakerOpen, CircuitBreaker
from bot_repro.judges.cache import CachedReply, JudgeCache, cache_key
from bot_repro.judges.metrics import JudgeMetrics
from bot_repro.judges.options import JudgeOptions
from bot_repro.judges.parsers import REPLY_PATTERNS

log = logging.getLogger("bot_repro.judges")


class JudgeCallFailed(Exception):
    """A request gave no reply: retries spent or a permanent error (the message says which)."""


@dataclass
class _InFlight:
    task: asyncio.Task
    waiters: int = 0


class CallRunner:
    def __init__(
        self,
        opts: JudgeOptions,
        backend: Backend,
        cache: JudgeCache | None,
        metrics: JudgeMetrics,
        failure_log: Path | None = None,
        rng: random.Random | None = None,
        breaker: CircuitBreaker | None = None,
        liveness: Callable[[], Awaitable[str | None]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.opts = opts
        self.clock = clock  # the event loop's (JudgeClient passes loop.time: a test's virtual clock works)
        self.backend = backend
        self.cache = cache
        self.metrics = metrics
        self.failure_log = failure_log
        self._rng = rng or random.Random()
        self.breaker = breaker or CircuitBreaker(opts.breaker_failures, opts.breaker_probe_s, opts.base_url or opts.backend,
                                                 clock=clock, rate_limit_s=opts.rate_limit_max_s)
        self.breaker.on_open = self._abort_in_flight
        self.liveness = liveness  # None, or why the server gave no HTTP answer to a cheap request
        self._aborted = asyncio.Event()  # set when the breaker opens: the attempts in flight give up
        self._at_server = 0  # attempts waiting for the backend now
        self._last_heard = clock()  # the last reply, or when the first waiting attempt went out
        self._watchdog: asyncio.Task | None = None
        self._sem = asyncio.Semaphore(opts.max_concurrency)
        self._inflight: dict[str, _InFlight] = {}
        self._n_failed = 0

    async def call(self, role: str, messages: list[dict[str, Any]], sample: int = 0,
                   valid: Callable[[str], bool] | None = None) -> str:
        """The reply text; ``sample`` separates calls meant as independent draws of one request; ``valid``
        says whether a reply can be read (None: any can): only those are cached, and a cached reply that
        cannot be read (stored before this rule) is asked again."""
        params: dict[str, Any] = {"temperature": float(self.opts.temperature), "max_tokens": int(self.opts.max_tokens)}
        if self.opts.structured_outputs and role in REPLY_PATTERNS:
            params["regex"] = REPLY_PATTERNS[role]  # part of the cache key: a constrained reply differs
        key = cache_key(self.opts.backend, self.opts.model, messages, {**params, "sample": sample})
        self.metrics.add(calls=1)
        hit = self._cache_get(key)
        if hit is not None and (valid is None or valid(hit.text)):
            self.metrics.add(cache_hits=1)
            return hit.text
        entry = self._inflight.get(key)
        if entry is None:
            entry = _InFlight(asyncio.ensure_future(self._fetch(role, key, messages, params, valid)))
            self._inflight[key] = entry
            entry.task.add_done_callback(lambda _t, k=key, e=entry: self._forget(k, e))
        else:
            self.metrics.add(cache_hits=1)
        entry.waiters += 1
        try:
            return await asyncio.shield(entry.task)
        except asyncio.CancelledError:
            # the last caller that gives up cancels the call, so skipped steps are not paid for
            entry.waiters -= 1
            if entry.waiters == 0 and not entry.task.done():
                self._forget(key, entry)
                entry.task.cancel()
            raise

    def _forget(self, key: str, entry: _InFlight) -> None:
        if self._inflight.get(key) is entry:
            del self._inflight[key]

    async def _fetch(self, role: str, key: str, messages: list[dict[str, Any]], params: dict[str, Any],
                     valid: Callable[[str], bool] | None) -> str:
        start = self.clock()
        attempt = 0
        while True:
            try:
                reply = await self.attempt(messages, params)
                break
            except BreakerOpen as exc:  # the server is known not to answer: no retries
                self._failed(role, str(exc), start)
            except (TransientError, TimeoutError) as exc:
                reason = str(exc) or f"timeout after {self.opts.timeout_s}s"
                if self.breaker.is_open:  # it opened (or this was its probe): the server is known not to answer
                    self._failed(role, f"circuit breaker open for {self.breaker.where}: {reason}", start)
                if attempt >= self.opts.max_retries:
                    self._failed(role, f"gave up after {attempt + 1} attempts: {reason}", start)
                wait = self._backoff(attempt, getattr(exc, "retry_after", None))
                log.debug("judge %s attempt %d failed (%s); retrying in %.2fs", role, attempt + 1, reason, wait)
                self.metrics.add(retries=1)
                attempt += 1
                await asyncio.sleep(wait)
            except PermanentError as exc:
                self._failed(role, str(exc), start)
            except Exception as exc:  # a backend bug must not end the run; cancellation is not an Exception
                self._failed(role, f"unexpected {type(exc).__name__}: {exc}", start)
        self.metrics.add_sent(self.clock() - start, reply.tokens_in, reply.tokens_out)
        if valid is None or valid(reply.text):
            self._cache_put(key, CachedReply(reply.text, reply.tokens_in, reply.tokens_out))
        return reply.text

    async def attempt(self, messages: list[dict[str, Any]], params: dict[str, Any], timeout_s: float | None = None):
        """One request to the backend within ``timeout_s`` (default ``timeout_s`` of the options), told to
        the breaker: a reply or a 4xx closes it, no answer counts toward opening it. ``BreakerOpen`` when
        it is open and this is not the probe's turn."""
        async with self._sem:
            probe = self.breaker.is_open
            self.breaker.check()
            self._waiting(+1)
            try:
                async with asyncio.timeout(timeout_s or self.opts.timeout_s):
                    work = self.backend.complete(messages, params)
                    reply = await (work if probe else self._unless_aborted(work, self._aborted))
                self._last_heard = self.clock()
                if not isinstance(reply.text, str):
                    raise TransientError(f"backend returned a {type(reply.text).__name__}, not text")
            except (TransientError, TimeoutError) as exc:
                if getattr(exc, "status", None) is not None:
                    self._last_heard = self.clock()  # an HTTP status: the server is there
                if getattr(exc, "status", None) == 429:  # an answer, no verdict: the server is up, only busy
                    self.metrics.add(rate_limited=1)
                    self.breaker.rate_limited()
                else:
                    self.breaker.failure()
                raise
            except PermanentError:
                self._last_heard = self.clock()
                self.breaker.success()  # a 4xx: the server answered
                raise
            except BaseException:  # cancelled (deadline, error propagation), aborted, or a backend bug
                if probe:
                    self.breaker.release()
                raise
            finally:
                self._waiting(-1)
            self.breaker.success()
            return reply

    async def _unless_aborted(self, work: Awaitable, aborted: asyncio.Event):
        """``work``'s result, or ``BreakerOpen`` as soon as the breaker opens (``aborted`` is set)."""
        task, stop = asyncio.ensure_future(work), asyncio.ensure_future(aborted.wait())
        try:
            await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
            if not task.done():
                task.cancel()
            await asyncio.gather(task, return_exceptions=True)  # its outcome is retrieved in every case
        if task.done() and not task.cancelled():
            return task.result()
        raise BreakerOpen(f"circuit breaker opened for {self.breaker.where} while this call waited")

    def count_cut(self) -> int:
        """The step deadline cut the attempts waiting for the server now: each counts toward the breaker as
        an attempt with no answer (a server too slow for a small batch opens it). How many were cut."""
        cut = self._at_server
        for _ in range(cut):
            self.breaker.failure()
        return cut

    def _abort_in_flight(self) -> None:
        self._aborted.set()
        self._aborted = asyncio.Event()  # for the probes and the attempts after the breaker closes

    def _waiting(self, delta: int) -> None:
        if delta > 0 and self._at_server == 0:
            self._last_heard = self.clock()  # silence counts from when someone waits
        self._at_server += delta
        if self._at_server and self.liveness is not None and (self._watchdog is None or self._watchdog.done()):
            self._watchdog = asyncio.ensure_future(self._watch())

    async def aclose(self) -> None:
        if self._watchdog is not None and not self._watchdog.done():
            self._watchdog.cancel()
            await asyncio.gather(self._watchdog, return_exceptions=True)

    async def _watch(self) -> None:
        """While attempts wait: after ``breaker_probe_s`` with no reply, ask ``liveness``; no answer trips
        the breaker (a stopped server accepts connections and answers nothing; each attempt alone would
        wait its whole ``timeout_s``)."""
        quiet_s = self.opts.breaker_probe_s
        while self._at_server and not self.breaker.is_open:
            left = self._last_heard + quiet_s - self.clock()
            if left > 0:
                await asyncio.sleep(left)
                continue
            why = await self.liveness()
            if why is None:
                self._last_heard = self.clock()  # alive, only slow: wait another interval
            elif self._at_server and self.clock() - self._last_heard >= quiet_s:
                self.breaker.trip(f"calls waited {quiet_s:g}s with no reply and {why}")

    # a broken cache (locked past its timeout, disk full) costs money, never the run
    def _cache_get(self, key: str) -> CachedReply | None:
        if self.cache is None:
            return None
        try:
            return self.cache.get(key)
        except sqlite3.Error as exc:
            log.warning("judge cache read failed (%s); calling the judge", exc)
            return None

    def _cache_put(self, key: str, reply: CachedReply) -> None:
        if self.cache is None:
            return
        try:
            self.cache.put(key, reply)
        except sqlite3.Error as exc:
            log.warning("judge cache write failed (%s); the reply is used but not stored", exc)

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        wait = min(self.opts.backoff_max_s, self.opts.backoff_base_s * 2**attempt) * self._rng.uniform(0.5, 1.0)
        if retry_after is not None:  # honoured up to the cap, spread so that the calls do not return together
            wait = max(wait, min(retry_after, self.opts.retry_after_max_s) * self._rng.uniform(1.0, 1.5))
        return wait

    def _failed(self, role: str, reason: str, start: float) -> NoReturn:
        self.metrics.add_sent(self.clock() - start, 0, 0)
        self._n_failed += 1
        # warn on the 1st, 10th, 100th, ... failure: visible without flooding the log
        if self._n_failed in (1, 10, 100, 1000) or self._n_failed % 10000 == 0:
            log.warning("judge call failed (%d so far): role=%s: %s", self._n_failed, role, reason)
        if self.failure_log is not None:
            with self.failure_log.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps({"time": time.time(), "role": role, "reason": reason}) + "\n")
        raise JudgeCallFailed(reason)
