"""Per-step accounting of judge calls, popped by the trainer into ``metrics.jsonl``.

Counted per logical request: ``calls`` (every request a role makes, cache hits included),
``cache_hits`` (answered from the on-disk cache or by an identical request already in flight:
paid once), ``failures`` (requests that gave no reply: retries spent, a permanent error, or refused
by the open circuit breaker), ``replies`` (requests that got a reply, cached or not), ``unparseable``
(replies that could not be read: failed verdicts, excluded as failed calls are, never cached),
``rate_limited`` (attempts answered HTTP 429), ``deadline_cut`` (batch items cancelled by the step
deadline), ``retries`` (extra attempts), tokens in/out as reported by the backend for calls actually
sent, the mean latency of those calls (retries and backoff included) and ``waited_s`` (seconds a
step waited for the breaker to close, ``JudgeClient.wait_for_recovery``). ``JudgeClient.pop_metrics``
adds ``judge/breaker_open``: 1 when the breaker was open at any time since the last pop.

Beside these, a step's tally of replies and unparseable ones with the first unparseable reply
(``step_unparseable``), kept from ``reset_step`` to the next whatever the pops between: the client's
one warning per step about unreadable replies reads it.
"""

from __future__ import annotations

import threading


class JudgeMetrics:
    def __init__(self) -> None:
        self._lock = threading.Lock()  # updated on the judge loop thread, popped by the trainer's
        self._reset()
        self.reset_step()

    def _reset(self) -> None:
        self.calls = 0
        self.cache_hits = 0
        self.failures = 0
        self.replies = 0
        self.unparseable = 0
        self.rate_limited = 0
        self.deadline_cut = 0
        self.waited_s = 0.0
        self.retries = 0
        self.tokens_in = 0
        self.tokens_out = 0
        self._latency_sum = 0.0
        self._latency_n = 0

    def add(self, **counts: float) -> None:
        with self._lock:
            for name, value in counts.items():
                setattr(self, name, getattr(self, name) + value)

    def reply(self, text: str, readable: bool) -> None:
        """A request got ``text`` back; ``readable``: its role could parse it."""
        with self._lock:
            self.replies += 1
            self._step_replies += 1
            if not readable:
                self.unparseable += 1
                self._step_unparseable += 1
                if self._step_example is None:
                    self._step_example = text

    def reset_step(self) -> None:
        with self._lock:
            self._step_replies = self._step_unparseable = 0
            self._step_example: str | None = None

    def step_unparseable(self) -> tuple[int, int, str | None]:
        """(unparseable replies, replies, the first unparseable reply) since ``reset_step``."""
        with self._lock:
            return self._step_unparseable, self._step_replies, self._step_example

    def add_sent(self, latency_s: float, tokens_in: int, tokens_out: int) -> None:
        with self._lock:
            self._latency_sum += latency_s
            self._latency_n += 1
            self.tokens_in += tokens_in
            self.tokens_out += tokens_out

    def pop(self) -> dict[str, float]:
        with self._lock:
            out = {
                "judge/calls": float(self.calls),
                "judge/cache_hits": float(self.cache_hits),
                "judge/failures": float(self.failures),
                "judge/replies": float(self.replies),
                "judge/unparseable": float(self.unparseable),
                "judge/rate_limited": float(self.rate_limited),
                "judge/deadline_cut": float(self.deadline_cut),
                "judge/waited_s": float(self.waited_s),
                "judge/retries": float(self.retries),
                "judge/tokens_in": float(self.tokens_in),
                "judge/tokens_out": float(self.tokens_out),
                "judge/latency_s_mean": self._latency_sum / self._latency_n if self._latency_n else 0.0,
            }
            self._reset()
        return out
