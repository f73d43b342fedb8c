"""Benchmark the React checks on the realistic corpus: compile+lint rate, render rate, where the time goes.

Writes results/bench/react.json (``make bench``). Samples are the components of
tests/data/react_realistic (long TSX and JSX apps; their fence tags as a model would write them),
each copy made distinct by a trailing comment so nothing is cached. Pool rates are steady-state:
each pool first checks ``--warm-rounds`` copies of the corpus (V8 needs a few hundred samples to
optimise TypeScript, Babel and ESLint), then the timed copies; each rate is that of the median of
``--repeats`` fresh pools, one worker per core.

Keys: compile_lint_pool_per_s (the task's default checks: esbuild, TypeScript type errors as
penalties, bundling against the allowed libraries, oxlint; goal >= 20 on 2 cores) and the same for
other settings (``_paper``: Babel and ESLint, the paper's toolchain; the others show where the time
goes); cpu_ms_per_sample (CPU time of the workers and their
TypeScript, oxlint and esbuild processes per sample: what the rate would be on idle cores, 1000 * cores / cpu_ms);
stage_median_ms_per_100_lines; compile_lint_spawn_per_s (one Node process per sample);
render_per_s (screenshots/s, 2 pages per core; goal >= 4) with its stage split; the corpus's size; and,
in ``header`` (``bench.header``, the one header and loaded rule of every bench), whether other work
shared the machine, since that makes every rate lower. The top-level ``loaded``, ``loaded_rule``,
``other_cpu_s``, ``other_cores``, ``peak_rss_mib`` and ``load_avg_1m_at_start`` are copies of the
header's (``load_avg_1m_at_end`` includes the bench's own load). ``acceptance``: with the default checks, how many valid
components compile and render non-blank, how many mutants behave as their kind says, and what
share of the penalised lines the mutations added fall on the fault line (issue #12).
``verdict_agreement`` / ``line_agreement`` (issue #25; details in ``agreement``): the default
checks against the paper's toolchain on the same corpus and mutants, renders included: the share
of samples with the same compile verdict (goal 1.0) and the overlap of the linters' penalised
(line, severity) marks (goal >= 0.98). The arguments used are recorded under ``args``.
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

from bench.header import CLK, bench_run, descendants, read_procs, write
from bot_repro.tasks.react.checker import CheckOptions, ReactChecker, is_blank_png, page_of
from bot_repro.tasks.react.mutants import agreement, check_corpus, load_corpus
from bot_repro.tasks.react.render import Renderer
from bot_repro.tasks.react.workers import JS_DIR, WORKER_SCRIPT, CheckPool
from bot_repro.trainer.run_dir import git_sha, hardware

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "react_realistic"
# Name suffix -> CheckPool options; "" is the task's default (conf/task/react.yaml).
PAPER = {"transpiler": "babel", "linter": "eslint"}
SETTINGS = {
    "": {},
    "_paper": PAPER,
    "_babel": {"transpiler": "babel"},
    "_eslint": {"linter": "eslint"},
    "_no_typecheck": {"typecheck": "off"},
    "_no_lint": {"eslint": False},
}
STAGES = ("parse_ms", "tsc_ms", "transpile_ms", "bundle_ms", "css_ms", "lint_ms", "total_ms")
# Per-sample timeout in the bench: generous, so that a loaded machine slows the rates, not the verdicts.
TIMEOUT_S = 300.0
RENDER_TIMEOUT_S = 60.0
def cpu_seconds(pids: list[int]) -> float:
    """User+system CPU seconds of ``pids`` and their live descendants, including what their reaped
    children used (a check worker's short-lived helpers)."""
    procs = read_procs()
    return sum(procs[p].ticks for p in descendants(set(pids), procs)) / CLK


# The header's fields that this file has carried at its top level since issue #25 (README cites them).
FROM_HEADER = {"loaded": "loaded", "loaded_rule": "loaded_rule", "other_cpu_s": "other_cpu_s",
               "other_cores": "other_cores", "peak_rss_mib": "peak_rss_mib"}


def header_copies(header: dict) -> dict:
    """This file's top-level load keys, copied from the header (one rule: ``bench.header.LOADED_RULE``)."""
    return {"load_avg_1m_at_start": header["load_avg_before"][0],
            **{key: header[field] for key, field in FROM_HEADER.items()}}


def copies(components, rounds: int, tag: str) -> tuple[list[str], list[str], list[int]]:
    codes, langs, lines = [], [], []
    for r in range(rounds):
        for c in components:
            codes.append(f"{c.code}\n// {tag} copy {r}\n")
            langs.append(c.lang)
            lines.append(c.n_lines + 1)
    return codes, langs, lines


def pool_rate(components, warm_rounds: int, rounds: int, **options) -> dict:
    """Rate, CPU per sample and stage medians for one fresh pool, one worker per core."""
    cores = os.cpu_count() or 1
    warm, warm_langs, _ = copies(components, warm_rounds, "warm-up")
    timed, langs, lines = copies(components, rounds, "bench")
    start = time.perf_counter()
    with CheckPool(n_workers=cores, timeout_s=TIMEOUT_S, **options) as pool:
        startup_s = time.perf_counter() - start
        pool.check(warm, langs=warm_langs)
        cpu0 = cpu_seconds(pool.pids)
        start = time.perf_counter()
        results = pool.check(timed, langs=langs)
        elapsed = time.perf_counter() - start
        cpu = cpu_seconds(pool.pids) - cpu0
    assert all(r["ok"] for r in results), [r.get("reason") or r["diagnostics"][:2] for r in results if not r["ok"]][:3]
    per_100 = {k: statistics.median(r["timings"].get(k, 0.0) * 100 / n for r, n in zip(results, lines)) for k in STAGES}
    medians = {k: statistics.median(r["timings"].get(k, 0.0) for r in results) for k in STAGES}
    return {"per_s": len(timed) / elapsed, "cpu_ms_per_sample": 1000 * cpu / len(timed), "startup_s": startup_s,
            "stage_median_ms": medians, "stage_median_ms_per_100_lines": per_100}


def spawn_rate(components, n: int) -> float:
    """One fresh Node process per sample, run one per core at a time."""
    codes, langs, _ = copies(components, 1, "spawn")
    codes, langs = codes[:n], langs[:n]

    def one(code: str, lang: str) -> None:
        req = json.dumps({"id": 1, "op": "check", "items": [{"code": code, "lang": lang}]}) + "\n"
        out = subprocess.run(["node", str(WORKER_SCRIPT), "--once"], cwd=JS_DIR, input=req, capture_output=True,
                             text=True, timeout=300, check=True)
        assert '"ok":true' in out.stdout.splitlines()[-1]

    cores = os.cpu_count() or 1
    start = time.perf_counter()
    for s in range(0, len(codes), cores):
        threads = [threading.Thread(target=one, args=a) for a in zip(codes[s: s + cores], langs[s: s + cores])]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return len(codes) / (time.perf_counter() - start)


def render_rate(components, rounds: int) -> dict:
    cores = os.cpu_count() or 1
    codes, langs, _ = copies(components, rounds, "render")
    with CheckPool(n_workers=cores, timeout_s=TIMEOUT_S) as pool:
        assets = pool.vendor()
        answers = pool.check(codes, langs=langs)
    pages = [page_of(a) for a in answers]
    with Renderer(assets["vendor_js"], assets["tailwind_js"], pages=2 * cores, chunks=assets["chunks"],
                  timeout_s=RENDER_TIMEOUT_S) as renderer:
        renderer.render(pages[:4])  # warm-up
        cpu0 = cpu_seconds([os.getpid()])  # this process, Playwright's driver and Chromium (the pool is closed)
        start = time.perf_counter()
        results = renderer.render(pages)
        elapsed = time.perf_counter() - start
        cpu = cpu_seconds([os.getpid()]) - cpu0
    bad = [r.reason for r in results if not r.ok]
    assert not bad, bad[:3]
    blank = sum(is_blank_png(r.png) for r in results)
    return {"per_s": len(pages) / elapsed, "cpu_ms_per_render": 1000 * cpu / len(pages),
            "median_s": statistics.median(r.elapsed_s for r in results), "blank": blank,
            "chunk_pages": sum(bool(p.chunks) for p in pages), "n": len(pages)}


def worker_versions() -> dict[str, str]:
    out = subprocess.run(["node", str(WORKER_SCRIPT), "--once"], cwd=JS_DIR, input="", capture_output=True,
                         text=True, timeout=300)
    return json.loads(out.stdout.splitlines()[0])["versions"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench" / "react.json")
    parser.add_argument("--rounds", type=int, default=3, help="timed copies of the corpus per pool")
    parser.add_argument("--warm-rounds", type=int, default=3, help="untimed copies checked first by each pool")
    parser.add_argument("--repeats", type=int, default=3, help="fresh pools per setting; the median rate is kept")
    parser.add_argument("--render-rounds", type=int, default=2, help="copies of the corpus rendered")
    parser.add_argument("--spawn-samples", type=int, default=6)
    parser.add_argument("--settings", nargs="*", default=list(SETTINGS), help="setting suffixes to run ('' first)")
    parser.add_argument("--no-acceptance", action="store_true",
                        help="skip the corpus and mutant verdicts and the agreement with the paper's toolchain")
    args = parser.parse_args(argv)
    with bench_run("react") as header:
        components = load_corpus(CORPUS)
        sizes = sorted(c.n_lines for c in components)
        cores = os.cpu_count() or 1
        result: dict = {
            "cores": cores, "load_avg_1m_at_start": header.fields["load_avg_before"][0], "git_sha": git_sha(ROOT),
            "hardware": hardware(),
            "corpus": str(CORPUS.relative_to(ROOT)),
            "corpus_components": len(components), "corpus_tsx": sum(c.lang == "tsx" for c in components),
            "corpus_jsx": sum(c.lang == "jsx" for c in components), "corpus_median_lines": statistics.median(sizes),
            "corpus_max_lines": sizes[-1], "n_samples_pool": args.rounds * len(components),
            "n_warm_up_samples_pool": args.warm_rounds * len(components), "repeats": args.repeats,
            "versions": worker_versions(), "args": {k: v for k, v in vars(args).items() if k != "out"},
        }
        started = time.perf_counter()
        for suffix in args.settings:
            runs = [pool_rate(components, args.warm_rounds, args.rounds, **SETTINGS[suffix])
                    for _ in range(args.repeats)]
            middle = sorted(runs, key=lambda r: r["per_s"])[len(runs) // 2]  # the median run (upper one if even)
            result[f"compile_lint_pool{suffix}_per_s"] = middle["per_s"]
            result[f"compile_lint_pool{suffix}_runs_per_s"] = [r["per_s"] for r in runs]
            result[f"cpu_ms_per_sample{suffix}"] = middle["cpu_ms_per_sample"]
            result[f"idle_cores_per_s{suffix}"] = 1000 * cores / middle["cpu_ms_per_sample"]
            result[f"stage_median_ms{suffix}"] = middle["stage_median_ms"]
            result[f"stage_median_ms_per_100_lines{suffix}"] = middle["stage_median_ms_per_100_lines"]
            if not suffix:
                result["pool_startup_s"] = statistics.median(r["startup_s"] for r in runs)
        result["compile_lint_spawn_per_s"] = spawn_rate(components, args.spawn_samples)
        render = render_rate(components, args.render_rounds)
        result["render_per_s"] = render["per_s"]
        result["render"] = render
        if not args.no_acceptance:
            with ReactChecker(CheckOptions(check_timeout_s=TIMEOUT_S, render_timeout_s=RENDER_TIMEOUT_S)) as checker:
                verdict = check_corpus(checker, components)
            result["acceptance"] = {**verdict.summary(), "misbehaving": verdict.problems[:20],
                                    "misplaced": verdict.misplaced[:20]}
            with ReactChecker(CheckOptions(check_timeout_s=TIMEOUT_S, render_timeout_s=RENDER_TIMEOUT_S, **PAPER)) as checker:
                paper = check_corpus(checker, components)
            result["agreement"] = agreement(verdict, paper)
            result["verdict_agreement"] = result["agreement"]["verdict_agreement"]
            result["line_agreement"] = result["agreement"]["line_agreement"]
        result["pool_over_spawn"] = result["compile_lint_pool_per_s"] / result["compile_lint_spawn_per_s"]
        result["bench_wall_s"] = time.perf_counter() - started
    result["load_avg_1m_at_end"] = os.getloadavg()[0]  # the bench's own load included
    result.update(header_copies(header.as_dict()))
    if result["loaded"]:
        result["note"] = ("measured while other work used the cores (see loaded_rule): the wall-clock rates are lower "
                          "than on idle cores; cpu_ms_per_sample and idle_cores_per_s estimate the idle-core rate, "
                          "though contention inflates CPU time too")
    print(json.dumps(write(args.out, header, result), indent=2))


if __name__ == "__main__":
    main()
