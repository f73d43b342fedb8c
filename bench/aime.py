"""Benchmark of AIME answer checking on this machine's cores (2 pool workers, as in training).

``answer_checks_per_s`` (the headline) times ``AnswerChecker.check`` on a batch shaped like a
training step's answers: half plain integers ("025", "$204$", "\\boxed{70}", decided in the
parent without a worker) and half other forms ("\\frac{50}{2}", "5^2", prose) that go through
math-verify in the process pool. ``math_verify_checks_per_s`` is the pool alone (no integers),
``integer_checks_per_s`` the integer path alone, ``parses_per_s`` the format parser on full
tagged completions. Pool start-up (spawned workers importing math-verify) is reported apart as
``pool_startup_s`` and excluded from the rates. Best of ``REPEATS`` runs.

Usage: ``python -m bench.aime [out.json]`` (default ``results/bench/aime.json``), after ``bench.header``'s
header.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

from bench.header import bench_run, write
from bot_repro.tasks.aime.answer import AnswerChecker
from bot_repro.tasks.aime.tags import extract_answer, parse_solution

N = 2000
REPEATS = 3
WORKERS = 2
DEFAULT_OUT = Path("results/bench/aime.json")


def _integer_answers(n: int) -> tuple[list[str], list[str]]:
    forms = ["{:03d}", "{}", "${}$", "\\boxed{{{}}}", "{}^\\circ"]
    golds = [str(i % 1000) for i in range(n)]
    preds = [forms[i % len(forms)].format((i + (i % 3 == 0)) % 1000) for i in range(n)]  # a third wrong
    return golds, preds


def _other_answers(n: int) -> tuple[list[str], list[str]]:
    forms = ["\\frac{{{}}}{{2}}", "{} \\cdot 1", "The answer is {}", "\\sqrt{{{}}}"]
    golds, preds = [], []
    for i in range(n):
        value = i % 500
        arg = {0: 2 * value, 3: value * value}.get(i % len(forms), value)
        golds.append(str(value))
        preds.append(forms[i % len(forms)].format(arg))
    return golds, preds


def _best_rate(checker: AnswerChecker, golds: list[str], preds: list[str]) -> tuple[float, list[float]]:
    rates = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        results = checker.check(golds, preds)
        rates.append(len(golds) / (time.perf_counter() - start))
        if any(r.reason and "timed out" in r.reason for r in results):
            raise RuntimeError("an answer check timed out during the bench")
    return max(rates), rates


def run() -> dict[str, object]:
    int_golds, int_preds = _integer_answers(N // 2)
    other_golds, other_preds = _other_answers(N // 2)
    mixed = [
        (g, p) for pair in zip(zip(int_golds, int_preds), zip(other_golds, other_preds)) for g, p in pair
    ]
    with AnswerChecker(workers=WORKERS, timeout_s=30.0) as checker:
        start = time.perf_counter()
        checker.check(["1"], ["\\frac{2}{2}"])  # starts the pool
        startup = time.perf_counter() - start
        mixed_rate, mixed_runs = _best_rate(checker, [g for g, _ in mixed], [p for _, p in mixed])
        mv_rate, _ = _best_rate(checker, other_golds, other_preds)
        int_rate, _ = _best_rate(checker, int_golds, int_preds)
    completion = "<step 1> 3 + 4 = 7 </step 1>\n<step 2> 7 * 2 = 14 </step 2>\n<final> 14 </final>"
    start = time.perf_counter()
    for _ in range(N):
        extract_answer(parse_solution(completion), completion)
    parse_rate = N / (time.perf_counter() - start)
    return {
        "answer_checks_per_s": round(mixed_rate, 1),
        "answer_checks_per_s_runs": [round(r, 1) for r in mixed_runs],
        "math_verify_checks_per_s": round(mv_rate, 1),
        "integer_checks_per_s": round(int_rate, 1),
        "parses_per_s": round(parse_rate, 1),
        "pool_startup_s": round(startup, 3),
        "batch_size": N,
        "workers": WORKERS,
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "time": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT
    with bench_run("aime") as header:
        result = run()
    print(json.dumps(write(out, header, result), indent=2))


if __name__ == "__main__":
    main()
