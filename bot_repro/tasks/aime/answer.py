"""AIME answer checking: integer normalisation, then math-verify in a process pool with a timeout.

An AIME answer is one integer in 0-999. An answer that states two or more distinct numbers
("50 or 49", "48, 49", "\\boxed{48} or \\boxed{49}") is a hedge and wrong whatever the gold
(math-verify would read the last one); numbers inside one expression ("\\frac{98}{2}", "7^2")
and words around a single number ("The answer is 49", "x = 49") are not hedges. A predicted
answer that normalises to a plain integer ("025", "336^\\circ", "\\boxed{70}", "$204$", "\\$204",
"1,000", "25.0") is compared with the gold integer directly; anything else ("\\frac{50}{2}", "the
answer is 25") goes to math-verify. Integers outside 0-999 are wrong, and so is a math-verify
value that is not an integer in that range. What runs in the caller's process reads at most
MAX_ANSWER_CHARS characters in linear time; only math-verify needs the worker deadline.

math-verify guards its parse and verify with SIGALRM, which only works in a main thread, and
sympy can still hang on adversarial input. So every math-verify call runs in a worker process of
a ``ProcessPoolExecutor`` (spawned, so it is safe next to CUDA): the pool waits for its workers to
start, then at most ``workers`` calls are in flight, each with its own deadline. A call past its deadline is scored wrong with the reason,
the pool's processes are killed and the pool rebuilt, the other in-flight calls are re-queued,
and the batch finishes. A worker that crashes is retried once, then scored wrong. A call past its
deadline while a pool process is stopped (SIGSTOP: ``bot_repro.tasks.stalls``) is not the answer's
fault: it is re-queued like the others, and after ``MAX_STALLS`` such deadlines it is given up
with ``stalled=True`` (no verdict: the reward excludes it). So one stopped worker costs a batch at
most one deadline plus a pool rebuild, and a worker found stopped between batches is replaced first.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.util
import os
import queue
import re
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bot_repro.tasks import stalls
from bot_repro.tasks.aime.tags import EXTRACT_TIMEOUT_S, last_boxed

ANSWER_MIN, ANSWER_MAX = 0, 999
MAX_ANSWER_CHARS = 1000  # a longer "answer" is scored wrong without parsing it

_WRAPPERS = [
    re.compile(r"^\$+(.*?)\$+$", re.S),
    re.compile(r"^\\\((.*)\\\)$", re.S),
    re.compile(r"^\\\[(.*)\\\]$", re.S),
    re.compile(r"^\\(?:text|textbf|mathrm|mathbf)\s*\{(.*)\}$", re.S),
    re.compile(r"^\{(.*)\}$", re.S),
]
# degree signs (a 2025 gold answer is "336^\circ"), LaTeX spacing commands and an escaped
# (currency) dollar sign carry no value
_NOISE = re.compile(r"\^\s*+\{?\s*+\\circ\s*+\}?|\\circ|°|\\degree|\\[,!;: ]|\\q?quad(?![a-zA-Z])|~|\\\$")
# a lone leading dollar sign before a number is currency too ("$371")
_CURRENCY = re.compile(r"^\$(?=\s*+[+-]?\d[\d,.]*+$)")

# stated_numbers: wrappers whose content is read as plain text, math delimiters, numbers (with
# thousands separators), and what joins two numbers into one expression
_TEXT_WRAPPER = re.compile(r"\\(?:boxed|fbox|text|textbf|textrm|mathrm|mathbf|mbox)\s*+\{([^{}]*+)\}")
_DELIMITERS = re.compile(r"\$|\\[()\[\]]")
_NUMBER = re.compile(r"\d{1,3}+(?:,\d{3})++(?![\d,])|\d++(?:\.\d++)?+")
_OPERATOR = re.compile(r"[-+*/^_{}()\[\]|\\!<>]")


@dataclass
class CheckResult:
    correct: bool
    reason: str | None = None  # why it is wrong (None when correct)
    stalled: bool = False  # no verdict: its worker was stopped at every try (``correct`` is a placeholder)


def stated_numbers(text: str) -> list[str]:
    """The distinct numbers an answer text states on their own, in order of first appearance.

    Numbers joined by an operator, a brace or a LaTeX command form one expression and state no
    number by themselves ("\\frac{98}{2}", "7^2", "2 \\cdot 3"); text wrappers (``\\boxed{}``,
    ``\\text{}``, ...), math delimiters, degree signs and LaTeX spacing are read through; words
    and punctuation between numbers keep them apart ("48, 49", "50 or 49", "x = 48 or x = 49").
    Distinct means a different value: "49 and 049" states one number. A minus sign that is not
    a subtraction belongs to its number. Linear in the length of a short (capped) answer per pass.
    """
    s = _NOISE.sub(" ", text)
    previous = None
    while previous != s:  # innermost wrappers first; each pass removes at least one
        previous, s = s, _TEXT_WRAPPER.sub(r" \1 ", s)
    s = _DELIMITERS.sub(" ", s)
    groups: list[list[tuple[str, Fraction]]] = []
    end = None
    for m in _NUMBER.finditer(s):
        token, start = m.group(), m.start()
        if start and s[start - 1] == "-":
            j = start - 2
            while j >= 0 and s[j].isspace():
                j -= 1
            if j < 0 or not (s[j].isdigit() or s[j] in ")]}."):  # not a subtraction: a sign
                token, start = "-" + token, start - 1
        if end is None or _OPERATOR.search(s, end, start) is None:
            groups.append([])  # only words, spaces and punctuation since the previous number
        groups[-1].append((token, Fraction(token.replace(",", ""))))
        end = m.end()
    seen: dict[Fraction, str] = {}
    for group in groups:
        if len(group) == 1:
            seen.setdefault(group[0][1], group[0][0])
    return list(seen.values())


def normalise_integer(text: object) -> int | None:
    """The integer a short answer text states, or None when it is not a plain integer.

    Unwraps ``\\boxed{}``, ``$...$``, ``\\(...\\)``, ``\\text{}``; drops degree signs, LaTeX
    spacing, a currency dollar (``\\$371``, ``$371``) and a trailing period; accepts leading zeros,
    a sign, "1,000" and "25.0". Says nothing about hedges: ``AnswerChecker.check`` rejects an
    answer with more than one ``stated_numbers`` first.
    """
    if text is None:
        return None
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return text
    if isinstance(text, float):
        return int(text) if text.is_integer() else None
    s = str(text).strip()
    boxed = last_boxed(s)
    if boxed is not None:
        s = boxed.strip()
    changed = True
    while changed:
        changed = False
        s = _CURRENCY.sub("", _NOISE.sub("", s)).strip().rstrip(".").strip()
        for pattern in _WRAPPERS:
            m = pattern.match(s)
            if m:
                s, changed = m.group(1).strip(), True
    if re.fullmatch(r"[+-]?\d+\.0*", s):
        s = s.split(".")[0]
    elif re.fullmatch(r"[+-]?\d{1,3}(?:,\d{3})+", s):
        s = s.replace(",", "")
    if re.fullmatch(r"[+-]?\d+", s):
        try:
            return int(s)
        except ValueError:  # more digits than Python converts; callers cap answer length first
            return None
    return None


def math_verify_check(gold: int, pred: str, timeout_s: int = 5) -> tuple[bool, str | None]:
    """Run in a worker process: does math-verify read ``pred`` as the integer ``gold``?"""
    import sympy
    from math_verify import parse, verify

    parsed = parse(pred, parsing_timeout=timeout_s)
    if not parsed:
        return False, f"math-verify found no answer in {pred[:80]!r}"
    value = parsed[0]
    if isinstance(value, sympy.Number):
        if not (value.is_finite and value == int(value) and ANSWER_MIN <= int(value) <= ANSWER_MAX):
            return False, f"answer {value} is not an integer in {ANSWER_MIN}-{ANSWER_MAX}"
    if verify(parse(str(gold)), parsed, timeout_seconds=timeout_s):
        return True, None
    return False, f"math-verify: {parsed[1] if len(parsed) > 1 else value} != {gold}"


def _warm_up(ready: Any) -> None:
    import math_verify  # noqa: F401  (import once per worker, not on the first call)

    ready.put(os.getpid())


def _noop() -> None:
    return None


@contextlib.contextmanager
def _default_start_method(method: str):
    """Make ``method`` the process-wide default start method while children start, then restore it.

    A spawned child first re-applies its parent's *default* start method, whatever context started
    it. Inside a loky worker (Hydra's joblib launcher, ``cluster=joblib``) that default is 'loky',
    which a plain spawned child cannot resolve: it dies with "cannot find context for 'loky'" and
    the pool never starts.
    """
    previous = multiprocessing.get_start_method(allow_none=True)
    if previous in (None, method):
        yield
        return
    multiprocessing.set_start_method(method, force=True)
    try:
        yield
    finally:
        multiprocessing.set_start_method(previous, force=True)


CheckFn = Callable[[int, str, int], tuple[bool, str | None]]


class AnswerChecker:
    """Checks (gold, predicted answer) pairs; math-verify calls run in a killable process pool."""

    def __init__(
        self,
        workers: int = 2,
        timeout_s: float = EXTRACT_TIMEOUT_S,
        check_fn: CheckFn = math_verify_check,
        start_method: str = "spawn",
        startup_timeout_s: float = 120.0,
    ):
        if workers < 1:
            raise ValueError(f"answer checker workers must be >= 1, got {workers}")
        if timeout_s <= 0:
            raise ValueError(f"answer checker timeout_s must be > 0, got {timeout_s}")
        self.workers = workers
        self.timeout_s = float(timeout_s)
        self.startup_timeout_s = float(startup_timeout_s)
        self.check_fn = check_fn
        self.context = multiprocessing.get_context(start_method)
        self.pool: ProcessPoolExecutor | None = None
        self.timeouts = 0  # calls scored wrong for running past their deadline (kept for logging)
        self.stalls = 0  # deadlines passed while a pool process was stopped (re-queued, not scored)
        self.rebuilds = 0

    def _ensure_pool(self) -> ProcessPoolExecutor:
        """Start the pool and wait until every worker is up, so no call's deadline pays for start-up."""
        if self.pool is None:
            ready = self.context.Queue()
            self.pool = ProcessPoolExecutor(
                self.workers, mp_context=self.context, initializer=_warm_up, initargs=(ready,)
            )
            # spawned pools start a process per submit while none is idle: one call per worker starts
            # all, so no later submit starts a process
            with _default_start_method(self.context.get_start_method()):
                starters = [self.pool.submit(_noop) for _ in range(self.workers)]
            deadline = time.monotonic() + self.startup_timeout_s
            try:
                for _ in range(self.workers):
                    ready.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                self._kill_pool()
                raise RuntimeError(
                    f"answer checker workers did not start within {self.startup_timeout_s:g}s"
                ) from None
            wait(starters, timeout=max(0.01, deadline - time.monotonic()))
        return self.pool

    def _processes(self) -> list[Any]:
        return list((getattr(self.pool, "_processes", None) or {}).values())

    def _any_stopped(self) -> bool:
        return stalls.any_stopped(proc.pid for proc in self._processes())

    def _end_pool(self) -> bool:
        """Kill every process of the pool; False when there was no pool."""
        # ProcessPoolExecutor cannot stop a running call; killing its processes (SIGKILL, which
        # also ends a stopped one) is the only way.
        processes = self._processes()
        pool, self.pool = self.pool, None
        if pool is None:
            return False
        for proc in processes:
            proc.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            proc.join(timeout=5)
        return True

    def _kill_pool(self) -> None:
        if self._end_pool():
            self.rebuilds += 1

    def close(self) -> None:
        if self.pool is not None and self._any_stopped():
            # A stopped worker never exits, so the executor's shutdown (also the one at interpreter
            # exit) would wait for it forever; killing it alone is not enough either, as it may hold
            # the call queue's lock, and the others would never read their stop message.
            self._end_pool()
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def __enter__(self) -> AnswerChecker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def check(self, golds: list[object], preds: list[str | None]) -> list[CheckResult]:
        """One result per pair, in order; never raises on a bad prediction."""
        if len(golds) != len(preds):
            raise ValueError(f"{len(golds)} gold answers but {len(preds)} predictions")
        results: list[CheckResult | None] = [None] * len(golds)
        pending: deque[tuple[int, int, str]] = deque()
        for i, (gold, pred) in enumerate(zip(golds, preds)):
            gold_int = normalise_integer(gold)
            if gold_int is None or not ANSWER_MIN <= gold_int <= ANSWER_MAX:
                results[i] = CheckResult(False, f"gold answer {gold!r} is not an integer in 0-999")
            elif pred is None or not str(pred).strip():
                results[i] = CheckResult(False, "no answer")
            elif len(str(pred)) > MAX_ANSWER_CHARS:
                results[i] = CheckResult(False, f"answer longer than {MAX_ANSWER_CHARS} characters")
            elif len(numbers := stated_numbers(str(pred))) > 1:
                listed = ", ".join(numbers[:5]) + (", ..." if len(numbers) > 5 else "")
                results[i] = CheckResult(False, f"answer states {len(numbers)} numbers ({listed}): a hedge")
            else:
                value = normalise_integer(pred)
                if value is None:
                    pending.append((i, gold_int, str(pred)))
                elif not ANSWER_MIN <= value <= ANSWER_MAX:
                    results[i] = CheckResult(False, f"answer {value} is outside {ANSWER_MIN}-{ANSWER_MAX}")
                else:
                    results[i] = CheckResult(
                        value == gold_int, None if value == gold_int else f"{value} != {gold_int}"
                    )
        self._run_pool(pending, results)
        return [r if r is not None else CheckResult(False, "not checked") for r in results]

    def _run_pool(self, pending: deque[tuple[int, int, str]], results: list[CheckResult | None]) -> None:
        inner_timeout = max(1, int(self.timeout_s / 2))  # math-verify's own SIGALRM guard, inside ours
        attempts: dict[int, int] = {}
        stalled: Counter[int] = Counter()  # per job: deadlines passed while a pool process was stopped
        if pending and self.pool is not None and self._any_stopped():
            self._kill_pool()  # stopped between batches: replace it now rather than wait a deadline on it
        inflight: dict[Future, tuple[tuple[int, int, str], float]] = {}
        while pending or inflight:
            pool = self._ensure_pool()
            while pending and len(inflight) < self.workers:
                # A job retried after a crash runs alone: a second crash is then its own, and
                # the jobs that merely shared the broken pool are not blamed for it.
                if inflight and (pending[0][0] in attempts or any(j[0] in attempts for j, _ in inflight.values())):
                    break
                job = pending.popleft()
                future = pool.submit(self.check_fn, job[1], job[2], inner_timeout)
                inflight[future] = (job, time.monotonic() + self.timeout_s)
            earliest = min(deadline for _, deadline in inflight.values())
            done, _ = wait(
                list(inflight), timeout=max(0.0, earliest - time.monotonic()), return_when=FIRST_COMPLETED
            )
            broken = False
            for future in done:
                job, _ = inflight.pop(future)
                try:
                    ok, reason = future.result()
                    results[job[0]] = CheckResult(bool(ok), None if ok else reason)
                except BrokenProcessPool:
                    broken = True
                    attempts[job[0]] = attempts.get(job[0], 0) + 1
                    if attempts[job[0]] >= 2:
                        results[job[0]] = CheckResult(False, "answer checker worker crashed")
                    else:
                        pending.appendleft(job)
                except Exception as exc:  # a checker bug on odd input scores the sample, not the run
                    results[job[0]] = CheckResult(False, f"answer check failed: {type(exc).__name__}: {exc}")
            now = time.monotonic()
            expired = [f for f, (_, deadline) in inflight.items() if deadline <= now and not f.done()]
            stopped = bool(expired) and self._any_stopped()
            for future in expired:
                job, _ = inflight.pop(future)
                if not stopped:
                    self.timeouts += 1
                    results[job[0]] = CheckResult(False, f"answer check timed out after {self.timeout_s:g}s")
                    continue
                self.stalls += 1
                stalled[job[0]] += 1
                if stalled[job[0]] < stalls.MAX_STALLS:
                    pending.appendleft(job)
                else:
                    results[job[0]] = CheckResult(False, f"answer checker worker stopped (state T) {stalled[job[0]]} "
                                                         f"times past the {self.timeout_s:g}s deadline", stalled=True)
            if expired or broken:
                # the pool's other calls die with it: run them again on the new pool
                pending.extendleft(job for job, _ in inflight.values())
                inflight.clear()
                self._kill_pool()


_SHARED: dict[tuple[int, float], AnswerChecker] = {}


def shared_checker(workers: int = 2, timeout_s: float = EXTRACT_TIMEOUT_S) -> AnswerChecker:
    """One checker per (workers, timeout) per process, so the task and the reward share a pool."""
    key = (int(workers), float(timeout_s))
    if key not in _SHARED:
        _SHARED[key] = AnswerChecker(workers, timeout_s)
    return _SHARED[key]


def _close_shared() -> None:
    for checker in _SHARED.values():
        checker.close()


# Not atexit: a multiprocessing child (a loky worker under cluster=joblib) ends by joining its live
# non-daemon children, the pool's workers, before atexit or threading's exit hooks could shut the pool
# down, so the worker never exited and the sweep hung after its last job. multiprocessing runs
# finalizers of priority >= 0 before that join (in the main process at exit as well), highest first:
# above 10, the priority of the queues' own close, whose feeder thread must still carry the pool's
# stop messages.
multiprocessing.util.Finalize(None, _close_shared, exitpriority=100)
