"""A stopped React check worker (SIGSTOP) costs a batch one deadline and a restart, and no sample a
made-up verdict (issue #43). Needs node with js/node_modules (scripts/install_react_deps.sh)."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from bot_repro.tasks import stalls
from bot_repro.tasks.react import workers
from bot_repro.tasks.react.workers import CheckPool, toolchain_missing

DATA = Path(__file__).resolve().parents[1] / "data"
SHORT = [p.read_text(encoding="utf-8") for p in sorted((DATA / "react_components").glob("*.tsx"))[:6]]
# The longest realistic app and two more: one request of these is larger than a pipe's buffer (64 KiB),
# so writing it to a stopped worker blocks until the worker is killed.
LONG = [(DATA / "react_realistic" / name).read_text(encoding="utf-8")
        for name in ("tsx/project_hub.tsx", "tsx/kanban_board.tsx", "jsx/game_2048.jsx")]
# A restart starts Node and its TypeScript and oxlint servers: seconds on a quiet core, more on a
# shared machine; the bounds allow for that generously (the measured values: results/bench/stalls.json).
RESTART_MARGIN_S = 60.0
MISSING = toolchain_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"React toolchain unavailable: {MISSING}")


def stop(pid: int) -> None:
    """SIGSTOP ``pid`` and wait until it has stopped (the signal is handled when it is next scheduled)."""
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + 30
    while stalls.state(pid) != "T" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert stalls.state(pid) == "T", f"process {pid} did not stop within 30 s of SIGSTOP"


def bounded_check(pool: CheckPool, codes: list[str], limit_s: float, **kw) -> list[dict]:
    """``pool.check`` in a thread, failing the test (instead of hanging it) past ``limit_s``."""
    out: list = []
    thread = threading.Thread(target=lambda: out.append(pool.check(codes, **kw)), daemon=True)
    thread.start()
    thread.join(limit_s)
    assert not thread.is_alive(), f"check() still running after {limit_s:g}s"
    return out[0]


def verdicts(answers: list[dict]) -> list[tuple]:
    return [(a["ok"], a["stage"], a["lang"], len(a["diagnostics"]), len(a["eslint"])) for a in answers]


def test_a_worker_stopped_before_a_long_batch_costs_one_deadline_and_a_restart():
    timeout_s = 10.0
    assert sum(map(len, LONG)) > 64 * 1024
    with CheckPool(n_workers=1, timeout_s=timeout_s) as pool:
        expected = verdicts(pool.check(LONG))
        (victim,) = pool.pids
        stop(victim)
        out = bounded_check(pool, LONG, timeout_s + RESTART_MARGIN_S)
        assert verdicts(out) == expected, "a sample of the stopped worker did not get its own verdict"
        assert pool.stalls == 1 and pool.restarts == 1 and stalls.state(victim) in (None, "Z")
        assert verdicts(bounded_check(pool, LONG, RESTART_MARGIN_S)) == expected and pool.restarts == 1


def test_a_worker_stopped_mid_batch_leaves_the_other_samples_and_the_next_batch_alone(monkeypatch):
    timeout_s = 3.0
    with CheckPool(n_workers=2, timeout_s=timeout_s, eslint=False) as pool:
        expected = verdicts(pool.check(SHORT))
        victim = pool.pids[0]
        request = workers._Worker.request

        def stop_on_request(worker, payload):
            """Stop the victim as its chunk is sent (an event, not a timer): every sample first waits
            0.5 s in its worker, so it is stopped with its chunk unanswered however loaded the machine."""
            rid = request(worker, payload)
            if worker.pid == victim and stalls.state(victim) != "T":
                stop(victim)
            return rid

        monkeypatch.setattr(workers._Worker, "request", stop_on_request)
        out = bounded_check(pool, SHORT, timeout_s + RESTART_MARGIN_S, delays_ms=[500] * len(SHORT))
        monkeypatch.undo()
        assert verdicts(out) == expected and pool.stalls == 1 and pool.restarts == 1
        assert stalls.state(victim) in (None, "Z"), "the stopped worker was not killed"
        out = bounded_check(pool, SHORT, RESTART_MARGIN_S)
        assert verdicts(out) == expected and pool.restarts == 1


def test_a_sample_whose_worker_stalls_max_stalls_times_is_given_up_and_a_real_hang_still_times_out(monkeypatch):
    monkeypatch.setattr(stalls, "MAX_STALLS", 1)  # give up at the first stall: one stop shows it
    timeout_s = 3.0
    with CheckPool(n_workers=1, timeout_s=timeout_s, eslint=False) as pool:
        expected = verdicts(pool.check(SHORT[:3]))
        stop(pool.pids[0])
        out = bounded_check(pool, SHORT[:3], timeout_s + RESTART_MARGIN_S)
        assert out[0]["stage"] == "stalled" and "stopped" in out[0]["reason"] and not out[0]["ok"]
        assert verdicts(out[1:]) == expected[1:]
        # a sample that hangs its (running) worker is its own fault: scored as a timeout, as before
        out = bounded_check(pool, SHORT[:2], timeout_s + RESTART_MARGIN_S, delays_ms=[60_000, 0])
        assert out[0]["stage"] == "timeout" and verdicts(out[1:]) == expected[1:2]
        assert pool.stalls == 1 and pool.restarts == 2


def test_close_does_not_wait_for_a_stopped_worker():
    pool = CheckPool(n_workers=1, eslint=False)
    (victim,) = pool.pids
    stop(victim)
    closer = threading.Thread(target=pool.close, daemon=True)
    closer.start()
    closer.join(30)
    assert not closer.is_alive(), "close() hung on a stopped worker"
    assert stalls.state(victim) in (None, "Z")
