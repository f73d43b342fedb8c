"""The worst step stall one stopped checker worker causes, with the shipped timeouts (issue #43).

For each process pool a training step waits on, one worker is stopped (SIGSTOP) and a step's batch
is timed (``time.monotonic``) against the same batch on healthy workers:

- ``react_check_pool``: the Node check workers (``conf/task/react.yaml`` ``checks``: workers, batch
  size, ``check_timeout_s``) on the realistic corpus (the first ``REACT_APPS`` TSX and JSX apps
  each); one worker stopped before the batch, and one stopped ``MID_BATCH_S`` into it.
- ``aime_pool`` / ``arith_pool``: math-verify's process pool (``check_workers``, ``check_timeout_s``
  of ``conf/task/aime.yaml`` and ``arith.yaml``) on ``MV_ANSWERS`` answers that need math-verify;
  a worker stopped ``MID_BATCH_S`` into the batch, ``TRIALS`` times (a stopped worker that is idle
  and not holding the pool's queue lock stalls nothing, so the trials differ), and one stopped
  between batches.
- ``react_renderer``: Chromium's page renderers (``render_timeout_s``, ``pages``) through the
  checker on the short components; each renderer process of the browser stopped in turn and let go
  after its batch (Playwright does not say which process serves which page), the worst kept.

Each part gives the batch times, ``stall_s`` (worst stopped batch minus the healthy one),
``stall_beyond_deadline_s`` (that minus the pool's per-sample deadline), whether every sample got the
verdict of the healthy run (``same_verdicts``), and the next batch's time (``next_batch_s``).

Usage: ``python -m bench.stalls [out.json]`` (default ``results/bench/stalls.json``), after
``bench.header``'s header.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from omegaconf import OmegaConf

from bench.header import bench_run, write
from bot_repro import ranks
from bot_repro.tasks import stalls
from bot_repro.tasks.aime.answer import AnswerChecker
from bot_repro.tasks.react.checker import CheckOptions, ReactChecker
from bot_repro.tasks.react.workers import CheckPool

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "results" / "bench" / "stalls.json"
REACT_APPS = 8
MV_ANSWERS = 400
MID_BATCH_S = 0.3
TRIALS = 3


def task_params(name: str) -> dict[str, Any]:
    return OmegaConf.to_container(OmegaConf.load(ROOT / "conf" / "task" / f"{name}.yaml"))["params"]


def stop(pid: int) -> None:
    """SIGSTOP ``pid`` and wait until it has stopped."""
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + 10
    while stalls.state(pid) != "T" and time.monotonic() < deadline:
        time.sleep(0.01)


def timed(fn, *args) -> tuple[Any, float]:
    start = time.monotonic()
    out = fn(*args)
    return out, round(time.monotonic() - start, 2)


def summary(healthy_s: float, stopped_s: list[float], deadline_s: float, same: bool, next_s: float) -> dict:
    worst = max(stopped_s)
    return {"healthy_batch_s": healthy_s, "stopped_batch_s": stopped_s, "stall_s": round(worst - healthy_s, 2),
            "stall_beyond_deadline_s": round(worst - healthy_s - deadline_s, 2), "same_verdicts": same,
            "next_batch_s": next_s}


def react_pool() -> dict[str, Any]:
    checks = task_params("react")["checks"]
    apps = sorted((ROOT / "tests/data/react_realistic/tsx").glob("*.tsx"))[:REACT_APPS]
    apps += sorted((ROOT / "tests/data/react_realistic/jsx").glob("*.jsx"))[:REACT_APPS]
    codes = [p.read_text(encoding="utf-8") for p in apps]
    n_workers = checks["workers"] or ranks.cpu_share()
    with CheckPool(n_workers=n_workers, timeout_s=checks["check_timeout_s"], batch_size=checks["batch_size"]) as pool:
        pool.check(codes)  # warm
        expected, healthy_s = timed(pool.check, codes)
        verdicts = [(a["ok"], a["stage"]) for a in expected]
        stop(pool.pids[0])
        before, before_s = timed(pool.check, codes)
        threading.Timer(MID_BATCH_S, stop, (pool.pids[0],)).start()
        mid, mid_s = timed(pool.check, codes)
        _, next_s = timed(pool.check, codes)
        same = all([(a["ok"], a["stage"]) for a in out] == verdicts for out in (before, mid))
        return {"workers": n_workers, "check_timeout_s": checks["check_timeout_s"], "samples": len(codes),
                "stopped": ["before the batch", f"{MID_BATCH_S} s into it"], "stalls": pool.stalls,
                "restarts": pool.restarts, **summary(healthy_s, [before_s, mid_s], checks["check_timeout_s"], same, next_s)}


def math_verify_pool(task: str) -> dict[str, Any]:
    params = task_params(task)
    workers, timeout_s = params["check_workers"], params["check_timeout_s"]
    golds = [str(i % 500) for i in range(MV_ANSWERS)]
    preds = [f"\\frac{{{2 * (i % 500) + (i % 3 == 0)}}}{{2}}" for i in range(MV_ANSWERS)]  # a third wrong
    with AnswerChecker(workers=workers, timeout_s=timeout_s) as checker:
        checker.check(golds[:4], preds[:4])  # the pool is up
        expected, healthy_s = timed(checker.check, golds, preds)
        stopped_s, same = [], True
        for _ in range(TRIALS):
            checker.check(golds[:4], preds[:4])  # replaces a worker the last trial left stopped
            victim = next(iter(checker._processes())).pid
            threading.Timer(MID_BATCH_S, stop, (victim,)).start()
            out, took = timed(checker.check, golds, preds)
            stopped_s.append(took)
            same &= out == expected
        stop(next(iter(checker._processes())).pid)
        out, between_s = timed(checker.check, golds, preds)
        same &= out == expected
        _, next_s = timed(checker.check, golds, preds)
        return {"workers": workers, "check_timeout_s": timeout_s, "answers": MV_ANSWERS,
                "stopped": f"{MID_BATCH_S} s into the batch, {TRIALS} trials", "stopped_between_batches_s": between_s,
                "stalls": checker.stalls, "timeouts": checker.timeouts, "rebuilds": checker.rebuilds,
                **summary(healthy_s, stopped_s, timeout_s, same, next_s)}


def _renderers() -> list[int]:
    """This process's Chromium renderer processes (descendants whose command line says so)."""
    from bench.header import descendants, read_procs

    out = []
    for pid in sorted(descendants({os.getpid()}, read_procs())):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"--type=renderer" in cmdline:
            out.append(pid)
    return out


def react_renderer() -> dict[str, Any]:
    checks = task_params("react")["checks"]
    responses = [f"```tsx\n{p.read_text(encoding='utf-8')}```"
                 for p in sorted((ROOT / "tests/data/react_components").glob("*.tsx"))[:8]]
    options = CheckOptions(**{k: v for k, v in checks.items() if k in ("render_timeout_s", "pages", "workers")})
    with ReactChecker(options) as checker:
        checker.check(responses)  # warm
        expected, healthy_s = timed(checker.check, responses)
        verdicts = [(o.compiled, o.stage) for o in expected]
        stopped_s, wrong = [], 0
        for pid in _renderers():
            if stalls.state(pid) is None:  # recycled with a page that stalled before
                continue
            stop(pid)
            out, took = timed(checker.check, responses)
            if stalls.state(pid) is not None:  # not this trial's page: let it run on, one stopped at a time
                os.kill(pid, signal.SIGCONT)
            stopped_s.append(took)
            wrong += sum((o.compiled, o.stage) != v for o, v in zip(out, verdicts))
        _, next_s = timed(checker.check, responses)
        return {"pages": checker.renderer.n_pages, "render_timeout_s": checker.renderer.timeout_s,
                "samples": len(responses), "renderers_stopped": len(stopped_s), "recycled": checker.renderer.recycled,
                "samples_scored_as_render_timeouts": wrong,
                **summary(healthy_s, stopped_s, checker.renderer.timeout_s, wrong == 0, next_s)}


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT
    with bench_run("stalls") as header:
        result = {"react_check_pool": react_pool(), "aime_pool": math_verify_pool("aime"),
                  "arith_pool": math_verify_pool("arith"), "react_renderer": react_renderer()}
    print(json.dumps(write(out, header, result), indent=2))


if __name__ == "__main__":
    main()
