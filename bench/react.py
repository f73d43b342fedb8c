"""Benchmark the React checks: pooled vs one-process-per-sample compile+lint, render rate, peak memory.

Writes results/bench/react.json (``make bench``). Samples are the hand-written components of
tests/data/react_components, each copy made distinct by a trailing comment so nothing is cached.
Pool rates are steady-state: each pool first checks ``--warm-rounds`` copies of the set (V8 needs
a few hundred samples to optimise TypeScript, Babel and ESLint), then the timed copies; each rate
is that of the median of ``--repeats`` fresh pools. Keys: compile_lint_pool_per_s (the default checks:
Babel, TypeScript type errors fail, ESLint; target >= 100 on 2 cores) and the same for the faster
settings, compile_lint_spawn_per_s (pool/spawn >= 10), render_per_s (>= 4), per-stage median
milliseconds, peak_rss_mib (this process and all its children, sampled).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import threading
import time
from pathlib import Path

from bot_repro.tasks.react.render import Renderer
from bot_repro.tasks.react.workers import JS_DIR, WORKER_SCRIPT, CheckPool

ROOT = Path(__file__).resolve().parents[1]
COMPONENTS = sorted((ROOT / "tests" / "data" / "react_components").glob("*.tsx"))
# Name suffix -> CheckPool options; "" is the task's default (conf/task/react.yaml).
SETTINGS = {
    "": {},
    "_esbuild": {"transpiler": "esbuild"},
    "_no_typecheck": {"typecheck": "off"},
    "_no_typecheck_esbuild": {"typecheck": "off", "transpiler": "esbuild"},
}
STAGES = ("tsc_ms", "transpile_bundle_ms", "eslint_ms", "total_ms")


class PeakRss:
    """Samples the summed RSS of this process tree every 0.2 s."""

    def __init__(self) -> None:
        self.peak_kib = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def _tree_rss_kib() -> int:
        children: dict[int, list[int]] = {}
        rss: dict[int, int] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/status") as f:
                    fields = dict(line.split(":", 1) for line in f if ":" in line)
                children.setdefault(int(fields["PPid"]), []).append(int(entry))
                rss[int(entry)] = int(fields.get("VmRSS", "0 kB").split()[0])
            except (OSError, KeyError, ValueError):
                continue
        total, stack = 0, [os.getpid()]
        while stack:
            pid = stack.pop()
            total += rss.get(pid, 0)
            stack.extend(children.get(pid, []))
        return total

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            self.peak_kib = max(self.peak_kib, self._tree_rss_kib())

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def samples(rounds: int, tag: str = "bench") -> list[str]:
    texts = [p.read_text(encoding="utf-8") for p in COMPONENTS]
    return [f"{t}\n// {tag} copy {r}\n" for r in range(rounds) for t in texts]


def pool_rate(warm: list[str], timed: list[str], **options) -> tuple[float, dict[str, float], float]:
    """(samples/s, median ms per stage, start-up s) for one fresh pool, one worker per core."""
    start = time.perf_counter()
    with CheckPool(n_workers=os.cpu_count() or 1, **options) as pool:
        startup_s = time.perf_counter() - start
        pool.check(warm)
        start = time.perf_counter()
        results = pool.check(timed)
        elapsed = time.perf_counter() - start
    assert all(r["ok"] for r in results), [r.get("reason") for r in results if not r["ok"]][:3]
    stages = {k: statistics.median(r["timings"][k] for r in results) for k in STAGES}
    return len(timed) / elapsed, stages, startup_s


def spawn_rate(codes: list[str]) -> float:
    """One fresh Node process per sample, run two at a time (one per core)."""
    def one(code: str) -> None:
        req = json.dumps({"id": 1, "op": "check", "items": [{"code": code}]}) + "\n"
        out = subprocess.run(["node", str(WORKER_SCRIPT), "--once"], cwd=JS_DIR, input=req, capture_output=True,
                             text=True, timeout=120, check=True)
        assert '"ok":true' in out.stdout.splitlines()[-1]

    start = time.perf_counter()
    threads = []
    for chunk in range(0, len(codes), os.cpu_count() or 1):
        threads = [threading.Thread(target=one, args=(c,)) for c in codes[chunk: chunk + (os.cpu_count() or 1)]]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return len(codes) / (time.perf_counter() - start)


def render_rate(codes: list[str]) -> float:
    with CheckPool(n_workers=os.cpu_count() or 1) as pool:
        assets = pool.vendor()
        answers = pool.check(codes)
    with Renderer(assets["vendor_js"], assets["tailwind_js"], pages=2 * (os.cpu_count() or 1)) as renderer:
        renderer.render([a["bundle"] for a in answers[:4]])  # warm-up
        start = time.perf_counter()
        results = renderer.render([a["bundle"] for a in answers], [a["sourcemap"] for a in answers])
        elapsed = time.perf_counter() - start
    assert all(r.ok for r in results), [r.reason for r in results if not r.ok][:3]
    return len(codes) / elapsed


def worker_versions() -> dict[str, str]:
    out = subprocess.run(["node", str(WORKER_SCRIPT), "--once"], cwd=JS_DIR, input="", capture_output=True,
                         text=True, timeout=120)
    return json.loads(out.stdout.splitlines()[0])["versions"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench" / "react.json")
    parser.add_argument("--rounds", type=int, default=8, help="timed copies of the component set per pool")
    parser.add_argument("--warm-rounds", type=int, default=6, help="untimed copies checked first by each pool")
    parser.add_argument("--repeats", type=int, default=3, help="fresh pools per setting; the median rate is kept")
    parser.add_argument("--spawn-samples", type=int, default=8)
    args = parser.parse_args(argv)
    warm, timed = samples(args.warm_rounds, "warm-up"), samples(args.rounds)
    result: dict = {"cores": os.cpu_count(), "load_avg_1m_at_start": os.getloadavg()[0],
                    "n_samples_pool": len(timed), "n_warm_up_samples_pool": len(warm), "repeats": args.repeats,
                    "versions": worker_versions()}
    with PeakRss() as mem:
        for suffix, options in SETTINGS.items():
            runs = [pool_rate(warm, timed, **options) for _ in range(args.repeats)]
            middle = sorted(runs, key=lambda r: r[0])[len(runs) // 2]  # the median run (upper one if even)
            result[f"compile_lint_pool{suffix}_per_s"] = middle[0]
            result[f"compile_lint_pool{suffix}_runs_per_s"] = [r[0] for r in runs]
            result[f"stage_median_ms{suffix}"] = middle[1]
            if not suffix:
                result["pool_startup_s"] = statistics.median(r[2] for r in runs)
        result["compile_lint_spawn_per_s"] = spawn_rate(timed[: args.spawn_samples])
        result["render_per_s"] = render_rate(samples(1))
    result["pool_over_spawn"] = result["compile_lint_pool_per_s"] / result["compile_lint_spawn_per_s"]
    result["peak_rss_mib"] = mem.peak_kib / 1024
    result["load_avg_1m_at_end"] = os.getloadavg()[0]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
