"""The judge client's circuit breaker: a server that stops answering costs one timeout, not every call's.

Counted are consecutive failed *attempts* that say the server is not answering: timeouts, dropped
or refused connections, 5xx, garbage bodies (``TransientError`` other than 429) and attempts the step
deadline cut while they waited for the server. Attempts, not calls after their retries: at the shipped timeouts a call
spends up to half an hour on its retries, while the attempts in flight against a hung server all
time out together, so the breaker opens after one ``timeout_s``. After ``breaker_failures`` of them
in a row the breaker opens. A server that accepts connections and never answers (a stopped
process) is found sooner: when calls have been waiting ``breaker_probe_s`` seconds with no reply,
the runner asks the server for ``GET /models`` (``bot_repro.judges.calls``), and no HTTP answer in 5 s
``trip``s the breaker. Once open, attempts fail at once (those in flight too), except one probe every
``breaker_probe_s`` seconds (the next attempt that comes, or ``JudgeClient.wait_for_recovery``'s
ping); the first reply closes it. A 429 is an answer (it ends a streak of silence) but no verdict: when
every answer for ``rate_limit_max_s`` seconds was a 429 (``rate_limited``), the breaker opens too, and a
probe answered 429 leaves it open. Each change of state logs one WARNING naming the URL.

Used only on the client's event loop thread; ``was_open`` is read by ``JudgeMetrics.pop``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

log = logging.getLogger("bot_repro.judges")


class BreakerOpen(Exception):
    """An attempt refused at once because the breaker is open (not sent to the server)."""


class CircuitBreaker:
    def __init__(self, failures: int, probe_s: float, where: str, clock: Callable[[], float] = time.monotonic,
                 rate_limit_s: float = float("inf")):
        self.failures = failures
        self.probe_s = probe_s
        self.rate_limit_s = rate_limit_s
        self.where = where  # the URL (or backend name) that the warnings name
        self.clock = clock
        self.is_open = False
        self.was_open = False  # open at any time since the metrics were last popped
        self._streak = 0
        self._limited_since: float | None = None  # the first 429 of the answers since the last verdict
        self._next_probe = 0.0
        self._probing = False
        self.on_open: Callable[[], None] | None = None  # the runner's: abort the attempts in flight

    def allow(self) -> bool:
        """May an attempt go out now? Closed: yes. Open: only as the interval's one probe."""
        if not self.is_open:
            return True
        if self._probing or self.clock() < self._next_probe:
            return False
        self._probing = True
        self._next_probe = self.clock() + self.probe_s
        return True

    def check(self) -> None:
        """``allow()`` or raise ``BreakerOpen`` naming the server and when the next probe goes out."""
        if not self.allow():
            wait = self.seconds_to_probe()
            raise BreakerOpen(f"circuit breaker open for {self.where} (next probe in {wait:.0f}s)")

    def seconds_to_probe(self) -> float:
        return max(0.0, self._next_probe - self.clock())

    def success(self) -> None:
        self._streak = 0
        self._limited_since = None
        self._probing = False
        if self.is_open:
            self.is_open = False
            log.warning("judge circuit breaker CLOSED for %s: a probe got a reply; calls go out again", self.where)

    def failure(self) -> None:
        """One attempt got no answer from the server."""
        self._streak += 1
        self._probing = False
        if not self.is_open and self._streak >= self.failures:
            self.trip(f"{self._streak} attempts in a row got no answer")

    def rate_limited(self) -> None:
        """One attempt was answered HTTP 429: the server is there, but gave no verdict."""
        self._streak = 0
        self._probing = False
        now = self.clock()
        if self._limited_since is None:
            self._limited_since = now
        if not self.is_open and now - self._limited_since >= self.rate_limit_s:
            self.trip(f"every answer for {now - self._limited_since:.0f}s was HTTP 429 (rate limited; "
                      f"judge.rate_limit_max_s={self.rate_limit_s:g})")

    def trip(self, why: str) -> None:
        """Open now (``why``: what showed that the server does not answer)."""
        if self.is_open:
            return
        self.is_open = self.was_open = True
        self._next_probe = self.clock() + self.probe_s
        log.warning("judge circuit breaker OPEN for %s: %s; calls fail at once, one probe every %gs", self.where,
                    why, self.probe_s)
        if self.on_open is not None:
            self.on_open()

    def release(self) -> None:
        """A probe that ended without a verdict on the server (cancelled): the next one may go."""
        self._probing = False

    def pop_was_open(self) -> bool:
        out, self.was_open = self.was_open, self.is_open
        return out
