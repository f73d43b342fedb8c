"""A pool of persistent Node check workers (js/check_worker.mjs) speaking JSON lines.

Owns process lifecycle: start (wait for the worker's ready line), per-sample timeouts, and
replacement of a crashed, hung or stopped worker. A sample whose worker died or hung scores as a
failure with the reason; the samples queued behind it in the same batch are re-run on the
replacement, and so is the sample itself when its worker was stopped (``bot_repro.tasks.stalls``).
Samples are sent in batches because the worker type-checks a batch in one TypeScript snapshot.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import shutil
import signal
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bot_repro import ranks
from bot_repro.tasks import stalls
from bot_repro.tasks.react.lifecycle import OwnsProcesses

JS_DIR = Path(__file__).resolve().parents[3] / "js"
WORKER_SCRIPT = JS_DIR / "check_worker.mjs"
INSTALL_HINT = "run scripts/install_react_deps.sh (npm ci in js/)"


class WorkerStartError(RuntimeError):
    """A check worker could not start (node or js/node_modules missing, or it crashed at start)."""


def toolchain_missing() -> str | None:
    """Why the Node toolchain cannot run here, or None when it can."""
    if shutil.which("node") is None:
        return "node is not on PATH"
    if not (JS_DIR / "node_modules" / "typescript").is_dir():
        return f"{JS_DIR / 'node_modules'} is missing; {INSTALL_HINT}"
    return None


# The packages js/libs.mjs can put on the page; task.params.checks.allowed_imports picks from these.
PROVIDABLE_IMPORTS = ("react", "react-dom", "lucide-react", "react-icons", "recharts", "framer-motion")


def failed_result(stage: str, reason: str) -> dict[str, Any]:
    """A worker answer for a sample that could not be checked."""
    return {"ok": False, "stage": stage, "reason": reason, "lang": None, "diagnostics": [], "eslint": [],
            "bundle": None, "deps": "", "chunks": [], "css": "", "sourcemap": None, "timings": {}}


def balanced_chunks(codes: list[str], langs: list[str] | None, size: int,
                    js_fences: frozenset[str] = frozenset()) -> list[list[int]]:
    """The indices of ``codes`` in chunks of at most ``size``, with about equal work each, heaviest first.

    A worker checks a chunk as one batch, so chunks of unequal work leave a core idle at the end of
    a call (the realistic corpus lists its JSX apps before its TSX ones: two plain chunks put every
    type check on one worker). The work of a sample is estimated as its length, doubled when it may
    be type-checked (its fence is not one of ``js_fences``), which is about what TypeScript adds;
    the samples, longest first, go to the lightest chunk with room (longest-processing-time first).
    """
    n_chunks = -(-len(codes) // size)
    weight = [len(c) * (1 if langs and langs[i] and langs[i].lower() in js_fences else 2) for i, c in enumerate(codes)]
    chunks: list[list[int]] = [[] for _ in range(n_chunks)]
    load = [0] * n_chunks
    for i in sorted(range(len(codes)), key=lambda i: -weight[i]):
        k = min((k for k in range(n_chunks) if len(chunks[k]) < size), key=lambda k: load[k])
        chunks[k].append(i)
        load[k] += weight[i]
    order = sorted(range(n_chunks), key=lambda k: -load[k])
    return [sorted(chunks[k]) for k in order]


class _Worker:
    """One Node process; a reader thread turns its stdout lines into queue items (None at EOF)."""

    def __init__(self, startup_timeout_s: float):
        self.startup_timeout_s = startup_timeout_s
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue = queue.Queue()
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self.next_id = 0
        self.ready: dict[str, Any] = {}  # the worker's ready line (versions, js_fences)
        self.start()

    def start(self) -> None:
        self.lines = queue.Queue()
        # Its own process group: the worker's TypeScript server and esbuild service die with it,
        # even when they are busy and would not notice a closed pipe.
        self.proc = subprocess.Popen(
            ["node", str(WORKER_SCRIPT)], cwd=JS_DIR, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1, start_new_session=True,
        )
        threading.Thread(target=self._read, args=(self.proc, self.lines), daemon=True).start()
        threading.Thread(target=self._drain_stderr, args=(self.proc,), daemon=True).start()
        try:
            first = self.lines.get(timeout=self.startup_timeout_s)
        except queue.Empty:
            self.kill()
            raise WorkerStartError(f"check worker sent no ready line in {self.startup_timeout_s}s") from None
        if first is None or not first.get("ready"):
            code = self.proc.wait(timeout=5) if first is None else None
            self.kill()
            raise WorkerStartError(f"check worker failed to start (exit {code}): {self.stderr()}")
        self.ready = first

    @staticmethod
    def _read(proc: subprocess.Popen, out: queue.Queue) -> None:
        for line in proc.stdout:
            try:
                out.put(json.loads(line))
            except json.JSONDecodeError:
                continue  # not a protocol line; the worker keeps stdout clean, so ignore it
        out.put(None)

    def _drain_stderr(self, proc: subprocess.Popen) -> None:
        for line in proc.stderr:
            self.stderr_tail.append(line.rstrip())

    def stderr(self) -> str:
        return " | ".join(list(self.stderr_tail)[-5:])

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def request(self, payload: dict[str, Any]) -> int:
        """Send a request; the caller's answer deadline bounds it. The line is written by a thread
        because a stopped worker reads nothing: a request longer than the pipe's buffer (a batch of
        long apps) would block here forever, before any deadline starts. Killing the worker ends
        that write (a broken pipe, ignored: the reader's EOF reports the death)."""
        if self.proc.poll() is not None:
            raise OSError(f"check worker exited (code {self.proc.returncode})")
        self.next_id += 1
        line = json.dumps({"id": self.next_id, **payload}) + "\n"
        threading.Thread(target=self._write, args=(self.proc, line), daemon=True).start()
        return self.next_id

    @staticmethod
    def _write(proc: subprocess.Popen, line: str) -> None:
        try:
            proc.stdin.write(line)
            proc.stdin.flush()
        except (OSError, ValueError):  # the worker died or was killed (ValueError: pipe closed here)
            pass

    def stopped(self) -> bool:
        """Whether the worker, or a server it waits on (its process group), is stopped (``stalls``)."""
        return self.proc is not None and stalls.any_stopped(stalls.group(self.proc.pid))

    def kill(self) -> None:
        if self.proc:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the group outlives a dead leader
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass

    def close(self) -> None:
        """Ask the worker to exit (EOF on stdin), then kill it if it lingers. A stopped worker is killed
        at once: it would never read the EOF, and closing its stdin waits for a write blocked on it."""
        if self.proc and self.proc.poll() is None and not self.stopped():
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()  # also reaps whatever the worker left behind


class CheckPool(OwnsProcesses):
    """Checks code samples on ``n_workers`` persistent Node processes (default: one per core of this
    process's share, ``bot_repro.ranks.cpu_share``).

    ``check(codes, langs)`` returns one worker answer per code (dicts, see js/check_worker.mjs), with
    a failed answer (``stage`` "timeout" or "worker", ``reason``) for a sample whose worker hung
    past ``timeout_s`` or died, or "stalled" (no verdict) for one whose worker was stopped at each
    of ``stalls.MAX_STALLS`` tries. ``langs``: each code's fence tag (jsx/js/javascript: JavaScript,
    never type-checked; otherwise TypeScript when the code has type syntax).
    """

    def __init__(self, n_workers: int | None = None, timeout_s: float = 30.0, batch_size: int = 32,
                 typecheck: str = "penalise", eslint: bool = True, linter: str = "oxlint", transpiler: str = "esbuild",
                 allowed_imports: tuple[str, ...] | list[str] = PROVIDABLE_IMPORTS, tailwind: str = "static",
                 startup_timeout_s: float = 120.0):
        missing = toolchain_missing()
        if missing:
            raise WorkerStartError(f"cannot start React check workers: {missing}")
        self.n_workers = n_workers or ranks.cpu_share()  # this process's share of the cores (N ranks: 1/N each)
        self.timeout_s = timeout_s
        self.batch_size = batch_size
        self.options = {"typecheck": typecheck, "eslint": eslint, "linter": linter, "transpiler": transpiler,
                        "allowed_imports": list(allowed_imports), "tailwind": tailwind}
        self.startup_timeout_s = startup_timeout_s
        self.restarts = 0
        self.stalls = 0  # deadlines passed on a stopped worker (re-run, not scored)
        self._lock = threading.Lock()  # one check() at a time: each worker serves one request
        self._workers: list[_Worker] = []
        self._cleanup_with(CheckPool._close_workers, self._workers)
        try:
            with ThreadPoolExecutor(self.n_workers) as ex:
                self._workers.extend(ex.map(lambda _: _Worker(startup_timeout_s), range(self.n_workers)))
        except BaseException:
            self.close()
            raise

    @property
    def pids(self) -> list[int]:
        return [w.pid for w in self._workers if w.pid is not None]

    def vendor(self) -> dict[str, Any]:
        """The page's vendor bundle (React, ReactDOM, mount helper, icon factories), Tailwind's browser
        build and the prebuilt library chunks (``chunks``: name -> script)."""
        with self._lock:
            worker = self._workers[0]
            rid = worker.request({"op": "vendor"})
            answer = worker.lines.get(timeout=self.startup_timeout_s)
            if answer is None or answer.get("id") != rid or "vendor_js" not in answer:
                raise WorkerStartError(f"check worker could not build the page vendor bundle: {answer}")
            return {"vendor_js": answer["vendor_js"], "tailwind_js": answer["tailwind_js"],
                    "chunks": dict(answer.get("chunks") or {})}

    def check(self, codes: list[str], delays_ms: list[int] | None = None,
              langs: list[str] | None = None) -> list[dict[str, Any]]:
        if not codes:
            return []
        items = [{"code": c, **({"lang": langs[i]} if langs and langs[i] else {}),
                  **({"delay_ms": delays_ms[i]} if delays_ms and delays_ms[i] else {})}
                 for i, c in enumerate(codes)]
        results: list[dict[str, Any] | None] = [None] * len(codes)
        # Spread small requests over every worker; cap batches so a hang re-runs few samples.
        size = max(1, min(self.batch_size, -(-len(codes) // self.n_workers)))
        fences = frozenset(self._workers[0].ready.get("js_fences", ()))
        todo: collections.deque[list[int]] = collections.deque(balanced_chunks(codes, langs, size, fences))
        todo_lock = threading.Lock()
        stalled: collections.Counter = collections.Counter()  # per sample: deadlines passed on a stopped worker

        def serve(worker: _Worker) -> None:
            while True:
                with todo_lock:
                    if not todo:
                        return
                    chunk = todo.popleft()
                leftover = self._run_chunk(worker, chunk, items, results, stalled)
                if leftover:
                    with todo_lock:
                        todo.append(leftover)

        with self._lock, ThreadPoolExecutor(self.n_workers) as ex:
            list(ex.map(serve, self._workers))
        return results  # type: ignore[return-value]

    def _run_chunk(self, worker: _Worker, chunk: list[int], items: list[dict], results: list,
                   stalled: collections.Counter) -> list[int]:
        """Run ``chunk`` on ``worker``; return the indices left unanswered after a failure.

        A sample past its deadline on a stopped worker (``bot_repro.tasks.stalls``) is not at fault:
        it goes back with the rest of the chunk, to the replacement, and only after ``MAX_STALLS``
        stalls is it given up as ``stage`` "stalled" (no verdict; the reward excludes it).
        """
        try:
            if worker.proc.poll() is not None:
                self._restart(worker)
            rid = worker.request({"op": "check", **self.options, "items": [items[i] for i in chunk]})
        except (OSError, WorkerStartError) as exc:
            for idx in chunk:
                results[idx] = failed_result("worker", f"no working check worker: {exc}")
            return []
        for pos, idx in enumerate(chunk):
            answer = self._next_answer(worker, rid, time.monotonic())
            rerun = chunk[pos + 1:]
            if answer == "timeout" and worker.stopped():
                self.stalls += 1
                stalled[idx] += 1
                if stalled[idx] < stalls.MAX_STALLS:
                    rerun = chunk[pos:]
                else:
                    results[idx] = failed_result("stalled", f"check worker stopped (state T) for {self.timeout_s:g}s, "
                                                            f"{stalled[idx]} times; worker replaced")
            elif answer == "timeout":
                results[idx] = failed_result("timeout", f"check timed out after {self.timeout_s:g}s; worker replaced")
            elif answer is None:
                code = worker.proc.poll()
                results[idx] = failed_result("worker", f"check worker exited (code {code}) while checking this "
                                                       f"sample; worker replaced. stderr: {worker.stderr()}")
            elif "error" in answer:
                results[idx] = failed_result("worker", str(answer["error"])[:2000])
                continue
            else:
                results[idx] = answer
                continue
            # The worker is dead, stuck or stopped: replace it; the rest of the chunk runs again later.
            try:
                self._restart(worker)
            except WorkerStartError as exc:
                for rest in rerun:
                    results[rest] = failed_result("worker", f"no working check worker: {exc}")
                return []
            return rerun
        return []

    def _next_answer(self, worker: _Worker, rid: int, started: float) -> dict | str | None:
        while True:
            left = self.timeout_s - (time.monotonic() - started)
            try:
                answer = worker.lines.get(timeout=max(left, 0.001))
            except queue.Empty:
                return "timeout"
            if answer is None or answer.get("id") == rid:
                return answer
            # An answer to an older request (one that timed out) is stale: skip it.

    def _restart(self, worker: _Worker) -> None:
        worker.kill()
        self.restarts += 1
        worker.start()

    @staticmethod
    def _close_workers(workers: list[_Worker]) -> None:
        for w in workers:
            w.close()

