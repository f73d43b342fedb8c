"""Compile-and-render checks on real Node workers and Chromium: valid components, mutants, faults.

Needs node with js/node_modules and /usr/bin/chromium (scripts/install_react_deps.sh; CI runs it).
One checker (worker pool + browser) serves the whole module.
"""

from __future__ import annotations

import io
import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from bot_repro.tasks.react.checker import CheckOptions, ReactChecker, close_shared, shared_checker
from bot_repro.tasks.react.render import renderer_missing
from bot_repro.tasks.react.workers import CheckPool, toolchain_missing

COMPONENTS = sorted((Path(__file__).resolve().parents[1] / "data" / "react_components").glob("*.tsx"))
MISSING = toolchain_missing() or renderer_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"React toolchain unavailable: {MISSING}")


def fenced(code: str) -> str:
    return f"Here you go:\n\n```tsx\n{code}```\n"


# The task's evaluation below asks for the same options, so it reuses this pool and browser.
CHECKS = {"render_timeout_s": 6.0}


@pytest.fixture(scope="module")
def checker():
    yield shared_checker(CheckOptions(**CHECKS))
    close_shared()


def anchor(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if line.startswith("export default function App("))


def mutate(code: str, kind: str) -> tuple[str, int]:
    """Return (mutant, 0-indexed mutated line)."""
    lines = code.split("\n")
    a = anchor(lines)
    inserts = {
        "unclosed_tag": '  const broken = <section className="p-2">;',
        "unterminated_string": '  const label = "never closed;',
        "type_error": '  const mutantCount: number = "not a number";',
        "runtime_throw": '  if (Date.now() > 0) throw new Error("mutant");',
    }
    if kind in inserts:
        return "\n".join(lines[: a + 1] + [inserts[kind]] + lines[a + 1:]), a + 1
    if kind == "bad_import":
        return 'import { Sparkline } from "react-sparkline-kit";\n' + code, 0
    if kind == "missing_default_export":
        lines[a] = lines[a].replace("export default ", "")
        return "\n".join(lines), a
    raise ValueError(kind)


def is_blank(png: bytes) -> bool:
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    return img.size != (1280, 800) or len(set(img.resize((160, 100)).getdata())) < 3


def test_valid_components_compile_and_render(checker):
    assert len(COMPONENTS) >= 20
    outcomes = checker.check([fenced(p.read_text(encoding="utf-8")) for p in COMPONENTS])
    for path, out in zip(COMPONENTS, outcomes):
        assert out.compiled, (path.name, out.reason, out.compiler)
        assert out.png is not None and not is_blank(out.png), path.name
        assert not [m for m in out.eslint if m["severity"] != "warning"], (path.name, out.eslint)
    fetching = outcomes[COMPONENTS.index(next(p for p in COMPONENTS if p.stem == "fetch_quotes"))]
    assert fetching.blocked == ["https://quotes.example.com/api/random"]


STATIC_MUTANTS = ["unclosed_tag", "unterminated_string", "type_error", "bad_import", "missing_default_export"]


def test_static_mutants_fail_on_the_mutated_line(checker):
    cases = [(p, kind, *mutate(p.read_text(encoding="utf-8"), kind)) for p in COMPONENTS for kind in STATIC_MUTANTS]
    outcomes = checker.check([fenced(code) for _, _, code, _ in cases])
    for (path, kind, _, line), out in zip(cases, outcomes):
        assert not out.compiled and out.stage in ("transpile", "typecheck", "bundle"), (path.name, kind, out.stage)
        assert out.primary_line == line, (path.name, kind, out.compiler)
        assert out.extraction.response_line(line) == line + 3  # fenced() puts code at response line 3


def test_runtime_throw_fails_in_the_browser_on_the_mutated_line(checker):
    cases = [mutate(p.read_text(encoding="utf-8"), "runtime_throw") for p in COMPONENTS[::6]]
    outcomes = checker.check([fenced(code) for code, _ in cases])
    for (_, line), out in zip(cases, outcomes):
        assert not out.compiled and out.stage == "render" and "mutant" in out.reason
        assert out.primary_line == line, out.compiler


def test_page_that_loops_forever_is_a_scored_failure(checker):
    looping = "export default function App() {\n  while (true) {}\n  return <div>never</div>;\n}\n"
    fine = COMPONENTS[0].read_text(encoding="utf-8")
    start = time.monotonic()
    outcomes = checker.check([fenced(looping), fenced(fine)])
    assert not outcomes[0].compiled and outcomes[0].stage == "render" and "timed out" in outcomes[0].reason
    assert outcomes[1].compiled
    assert time.monotonic() - start < 60
    assert checker.check([fenced(fine)])[0].compiled  # the page slot was replaced and works


def test_empty_render_and_console_error_fail(checker):
    empty = "export default function App() {\n  return null;\n}\n"
    noisy = 'export default function App() {\n  console.error("oops");\n  return <p>hi</p>;\n}\n'
    outs = checker.check([fenced(empty), fenced(noisy), "no code at all"])
    assert outs[0].stage == "render" and "empty root" in outs[0].reason
    assert outs[1].stage == "render" and outs[1].primary_line == 1
    assert outs[2].stage == "extract" and outs[2].extraction is None


def test_killed_and_hung_workers_score_failures_and_are_replaced():
    codes = [p.read_text(encoding="utf-8") for p in COMPONENTS[:3]]
    with CheckPool(n_workers=1, timeout_s=3.0, eslint=False) as pool:
        first_pid = pool.pids[0]
        # the first sample is held for 3 s; the worker is killed while it waits
        threading.Timer(1.0, os.kill, (first_pid, signal.SIGKILL)).start()
        out = pool.check(codes, delays_ms=[3000, 0, 0])
        assert out[0]["stage"] == "worker" and "exited" in out[0]["reason"]
        assert out[1]["ok"] and out[2]["ok"]  # re-run on the replacement
        out = pool.check(codes[:2], delays_ms=[10000, 0])
        assert out[0]["stage"] == "timeout" and "timed out" in out[0]["reason"] and out[1]["ok"]
        assert pool.restarts == 2 and first_pid not in pool.pids
    for pid in pool.pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_evaluate_and_save_writes_rollouts_screens_and_gallery(checker, tmp_path):
    from bot_repro.tasks import TASKS

    task = TASKS["react"]({"limit_test": 2, "checks": CHECKS}, {"family": "qwen2"})
    rows = task.datasets()[1]
    good = fenced(COMPONENTS[1].read_text(encoding="utf-8"))
    bad = fenced(mutate(COMPONENTS[1].read_text(encoding="utf-8"), "type_error")[0])
    metrics = task.evaluate_and_save([[good, bad], [good, "nothing"]], rows, tmp_path / "eval")
    assert metrics["compile_rate"] == 0.5 and metrics["compile_any_rate"] == 1.0
    records = [json.loads(x) for x in (tmp_path / "eval" / "rollouts.jsonl").read_text().splitlines()]
    assert [r["compiled"] for r in records] == [True, False, True, False]
    assert (tmp_path / "eval" / records[0]["screenshot"]).read_bytes().startswith(b"\x89PNG")
    assert records[1]["components"]["compile_fail"] == -1.0 and records[1]["line_penalties"]
    page = (tmp_path / "eval" / "index.html").read_text()
    assert rows[0]["request"] in page and "screens/0000_00.png" in page and "rgba(239,68,68" in page
    assert task.evaluate([[bad], [good]], rows)["compile_rate"] == 0.5


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def test_a_dead_workers_typescript_server_is_killed_with_it():
    codes = [p.read_text(encoding="utf-8") for p in COMPONENTS[:2]]
    with CheckPool(n_workers=1, eslint=False) as pool:
        worker = pool.pids[0]
        servers = _children(worker)
        assert servers, "the worker runs its TypeScript server as a child process"
        # A stopped server cannot notice its closed pipe: only the process-group kill ends it.
        os.kill(servers[0], signal.SIGSTOP)
        os.kill(worker, signal.SIGKILL)
        first = pool.check(codes)  # a sample sent before the death shows up scores as a worker failure
        assert all(r["ok"] or r["stage"] == "worker" for r in first), first
        assert all(r["ok"] for r in pool.check(codes)) and pool.restarts == 1
        assert _state(servers[0]) in (None, "Z"), "the old TypeScript server still runs"


def _state(pid: int) -> str | None:
    """A process's state letter (None once it is gone; "Z": dead, waiting to be reaped by init)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


@pytest.mark.parametrize("transpiler", ["babel", "esbuild"])
def test_both_transpilers_map_runtime_errors_to_the_sample_line(transpiler):
    code = ("const MODE: string = 'production';\n\nexport default function App() {\n"
            "  const items = [1, 2];\n  if (MODE === 'production') throw new Error('line four');\n"
            "  return <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>;\n}\n")
    ok = code.replace("throw new Error('line four')", "items.push(3)")
    with ReactChecker(CheckOptions(**CHECKS, transpiler=transpiler, workers=1, pages=1)) as checker:
        bad, good = checker.check([fenced(code), fenced(ok)])
    assert bad.stage == "render" and "line four" in bad.reason and bad.primary_line == 4, bad.compiler
    assert good.compiled and good.png is not None, good.reason


def test_type_errors_after_multibyte_text_point_at_the_right_column():
    code = ('const greeting = "héllo 😀 wörld 😀";\nexport default function App() {\n'
            '  const count: number = "three";\n  return <p>{greeting}{count}</p>;\n}\n')
    with CheckPool(n_workers=1, eslint=False) as pool:
        (answer,) = pool.check([code])
    assert answer["stage"] == "typecheck"
    (d,) = answer["diagnostics"]
    assert (d["line"], d["col"], d["rule"]) == (2, code.split("\n")[2].index("count"), "TS2322")


def test_lint_knows_browser_globals_the_code_names():
    code = ("export default function App() {\n  const history: string[] = [];\n"
            "  document = null;\n  return <p>{history.length}</p>;\n}\n")
    with CheckPool(n_workers=1, typecheck="off") as pool:
        (answer,) = pool.check([code])
    rules = {(m["line"], m["rule"]) for m in answer["eslint"]}
    assert (2, "no-global-assign") in rules, answer["eslint"]  # document is a read-only browser global
    assert not [r for r in rules if r[0] == 1], answer["eslint"]  # a local may shadow window.history


def test_a_dead_typescript_server_costs_one_sample_and_a_worker_restart():
    codes = [p.read_text(encoding="utf-8") for p in COMPONENTS[:3]]
    with CheckPool(n_workers=1, eslint=False) as pool:
        (server,) = _children(pool.pids[0])
        os.kill(server, signal.SIGKILL)
        out = pool.check(codes)
        assert out[0]["stage"] == "worker" and "TypeScript server failed" in out[0]["reason"], out[0]
        assert out[1]["ok"] and out[2]["ok"] and pool.restarts == 1
