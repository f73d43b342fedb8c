"""Benchmark of the judge client: throughput against the loopback server, and cache-hit lookups.

Throughput: the scripted server (``bot_repro.judges.fake_server``, its own process so it does not
share the client's interpreter lock) answers every request after 50 ms; the client judges
``N_CALLS`` distinct code items with ``max_concurrency = 32``, cache off, best of ``REPEATS`` runs. The bound is
concurrency / latency = 640 calls/s; the target is ``throughput_fraction_of_bound >= 0.8``.

Cache: the same items are judged again through the full client path with every answer on disk
(``cache_lookups_per_s``, target >= 10,000); ``cache_raw_gets_per_s`` times ``JudgeCache.get`` alone.

Usage: ``python -m bench.judges [out.json]`` (default ``results/bench/judges.json``), after
``bench.header``'s header.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.header import bench_run, write
from bot_repro.judges import build_judge_client
from bot_repro.judges.types import CodeJudgeInput

LATENCY_S = 0.05
CONCURRENCY = 32
N_WARMUP = 64
N_CALLS = 1920  # 3 s at the bound
N_CACHE = 4000
REPEATS = 3  # the best of three is reported (the runs too): other load on the machine only slows a run
DEFAULT_OUT = Path("results/bench/judges.json")


def _items(n: int, tag: str) -> list[CodeJudgeInput]:
    return [CodeJudgeInput(f"build widget {i}", f"const W{i} = () => <div>{tag} {i}</div>;\n") for i in range(n)]


def _start_server() -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot_repro.judges.fake_server", "--latency", str(LATENCY_S)],
        stdout=subprocess.PIPE, text=True,
    )
    url = proc.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        proc.kill()
        raise RuntimeError(f"fake judge server did not start (printed {url!r})")
    return proc, url


def run() -> dict[str, float]:
    proc, url = _start_server()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            base = {"backend": "openai", "model": "bench", "base_url": url, "max_concurrency": CONCURRENCY,
                    "timeout_s": 30.0, "max_retries": 0, "max_tokens": 64}
            with build_judge_client({**base, "cache": False}) as judge:
                judge.code_judge(_items(N_WARMUP, "warmup"))  # connections opened, code paths warm
                rates = []
                for rep in range(REPEATS):
                    judge.pop_metrics()
                    start = time.perf_counter()
                    verdicts = judge.code_judge(_items(N_CALLS, f"timed{rep}"))
                    rates.append(N_CALLS / (time.perf_counter() - start))
                    metrics = judge.pop_metrics()
                    if metrics["judge/failures"] or not all(v.ok for v in verdicts):
                        raise RuntimeError(f"bench calls failed: {metrics}")

            with build_judge_client({**base, "cache": True, "cache_dir": tmp}) as judge:
                items = _items(N_CACHE, "cached")
                judge.code_judge(items)  # fill the cache over HTTP
                lookups = []
                for _ in range(REPEATS):
                    judge.pop_metrics()
                    start = time.perf_counter()
                    judge.code_judge(items)
                    lookups.append(N_CACHE / (time.perf_counter() - start))
                    hits = judge.pop_metrics()["judge/cache_hits"]
                    if hits != N_CACHE:
                        raise RuntimeError(f"expected {N_CACHE} cache hits, got {hits}")
                keys = judge.cache.keys()
                start = time.perf_counter()
                for key in keys:
                    judge.cache.get(key)
                raw_gets = len(keys) / (time.perf_counter() - start)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    bound = CONCURRENCY / LATENCY_S
    return {
        "latency_s": LATENCY_S,
        "concurrency": CONCURRENCY,
        "n_calls": N_CALLS,
        "repeats": REPEATS,
        "bound_calls_per_s": bound,
        "calls_per_s": max(rates),
        "throughput_fraction_of_bound": max(rates) / bound,
        "throughput_fraction_of_bound_runs": [r / bound for r in rates],
        "n_cache_lookups": N_CACHE,
        "cache_lookups_per_s": max(lookups),
        "cache_lookups_per_s_runs": lookups,
        "cache_raw_gets_per_s": raw_gets,
    }


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT
    with bench_run("judges") as header:
        results = run()
    print(json.dumps(write(out, header, results), indent=2))


if __name__ == "__main__":
    main()
