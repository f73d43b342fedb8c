"""Compile-and-render checks on real Node workers and Chromium: valid components, mutants, faults.

Needs node with js/node_modules and /usr/bin/chromium (scripts/install_react_deps.sh; CI runs it).
One checker (worker pool + browser) serves the whole module. Two corpora: the short hand-written
components of tests/data/react_components and the realistic ones of tests/data/react_realistic
(long TSX and JSX apps with icons, charts and animation); the whole realistic corpus and its
mutants run in the slow test, a representative subset in the default suite.
"""

from __future__ import annotations

import collections
import io
import json
import os
import signal
import time
from pathlib import Path

import pytest

from bot_repro.tasks.react import workers
from bot_repro.tasks.react.checker import (
    CheckOptions,
    ReactChecker,
    close_shared,
    is_blank_png,
    shared_checker,
)
from bot_repro.tasks.react.mutants import KINDS, check_corpus, load_corpus
from bot_repro.tasks.react.render import renderer_missing
from bot_repro.tasks.react.workers import JS_DIR, CheckPool, toolchain_missing

DATA = Path(__file__).resolve().parents[1] / "data"
COMPONENTS = sorted((DATA / "react_components").glob("*.tsx"))
REALISTIC = DATA / "react_realistic"
# The default suite's share of the realistic corpus: TSX and JSX, every allowed library, the longest file.
SUBSET = ["tsx/analytics_dashboard.tsx", "tsx/support_chat.tsx", "tsx/project_hub.tsx", "tsx/kanban_board.tsx",
          "jsx/developer_portfolio.jsx", "jsx/sales_dashboard.jsx", "jsx/game_2048.jsx", "jsx/minesweeper.jsx"]
MISSING = toolchain_missing() or renderer_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"React toolchain unavailable: {MISSING}")


def tsx(code: str) -> str:
    return f"Here you go:\n\n```tsx\n{code}```\n"


# The task's evaluation below asks for the same options, so it reuses this pool and browser.
CHECKS = {"render_timeout_s": 8.0}


@pytest.fixture(scope="module")
def checker():
    yield shared_checker(CheckOptions(**CHECKS))
    close_shared()


def anchor(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if line.startswith("export default function App("))


def mutate(code: str, kind: str) -> tuple[str, int]:
    """Return (mutant, 0-indexed mutated line) for the short components."""
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


# ---------------------------------------------------------------------- short components
def test_valid_components_compile_and_render(checker):
    assert len(COMPONENTS) >= 20
    outcomes = checker.check([tsx(p.read_text(encoding="utf-8")) for p in COMPONENTS])
    for path, out in zip(COMPONENTS, outcomes):
        assert out.compiled, (path.name, out.reason, out.compiler)
        assert out.png is not None and not is_blank_png(out.png) and out.blank is False, path.name
        assert not [m for m in out.eslint if m["severity"] != "warning"], (path.name, out.eslint)
        assert not out.compiler and not out.console, (path.name, out.compiler, out.console)
    fetching = outcomes[COMPONENTS.index(next(p for p in COMPONENTS if p.stem == "fetch_quotes"))]
    assert fetching.blocked == ["https://quotes.example.com/api/random"]


STATIC_MUTANTS = ["unclosed_tag", "unterminated_string", "bad_import", "missing_default_export"]


def test_static_mutants_fail_on_the_mutated_line_with_one_penalised_line(checker):
    cases = [(p, kind, *mutate(p.read_text(encoding="utf-8"), kind)) for p in COMPONENTS for kind in STATIC_MUTANTS]
    outcomes = checker.check([tsx(code) for _, _, code, _ in cases])
    for (path, kind, _, line), out in zip(cases, outcomes):
        assert not out.compiled and out.stage in ("transpile", "bundle"), (path.name, kind, out.stage)
        assert out.primary_line == line, (path.name, kind, out.compiler)
        assert out.extraction.response_line(line) == line + 3  # tsx() puts code at response line 3
        if kind in ("unclosed_tag", "unterminated_string"):
            # one fault, one line: one compiler diagnostic, and ESLint's parse error on the same line
            assert out.compiler_lines() == {line}, (path.name, kind, out.compiler)
            assert {m["line"] for m in out.eslint} == {line}, (path.name, kind, out.eslint)


def test_type_errors_are_penalties_not_failures_by_default(checker):
    cases = [mutate(p.read_text(encoding="utf-8"), "type_error") for p in COMPONENTS[::5]]
    outcomes = checker.check([tsx(code) for code, _ in cases])
    for (_, line), out in zip(cases, outcomes):
        assert out.compiled and out.png is not None and out.lang == "ts", out.reason
        assert [(d["line"], d["source"], d["rule"]) for d in out.compiler] == [(line, "tsc", "TS2322")]
    with ReactChecker(CheckOptions(**CHECKS, typecheck="fail", workers=1, render=False)) as strict:
        (out,) = strict.check([tsx(cases[0][0])])
    assert not out.compiled and out.stage == "typecheck" and out.primary_line == cases[0][1]


def test_javascript_is_not_type_checked():
    # TypeScript would infer number for `count` and reject the string; JavaScript has no such error.
    js = ('import { useState } from "react";\n\nexport default function App() {\n'
          '  const [count, setCount] = useState(0);\n  const reset = () => setCount("zero");\n'
          '  return <button onClick={reset}>{count}</button>;\n}\n')
    typed = js.replace("useState(0)", "useState<number>(0)")
    with ReactChecker(CheckOptions(**CHECKS, workers=1, render=False)) as checker:
        outs = checker.check([f"```jsx\n{js}```", f"```tsx\n{js}```", f"```\n{js}```", f"```jsx\n{typed}```",
                              f"```tsx\n{typed}```"])
    assert [o.lang for o in outs] == ["js", "js", "js", "js", "ts"]
    assert all(o.compiled for o in outs), [o.reason for o in outs]
    assert [o.compiler for o in outs[:4]] == [[], [], [], []]
    assert [(d["line"], d["rule"]) for d in outs[4].compiler] == [(4, "TS2345")]


def test_runtime_throw_fails_in_the_browser_on_the_mutated_line(checker):
    cases = [mutate(p.read_text(encoding="utf-8"), "runtime_throw") for p in COMPONENTS[::6]]
    outcomes = checker.check([tsx(code) for code, _ in cases])
    for (_, line), out in zip(cases, outcomes):
        assert not out.compiled and out.stage == "render" and "mutant" in out.reason
        assert out.primary_line == line, out.compiler


def test_page_that_loops_forever_is_a_scored_failure(checker):
    looping = "export default function App() {\n  while (true) {}\n  return <div>never</div>;\n}\n"
    fine = COMPONENTS[0].read_text(encoding="utf-8")
    start = time.monotonic()
    outcomes = checker.check([tsx(looping), tsx(fine)])
    assert not outcomes[0].compiled and outcomes[0].stage == "render" and "timed out" in outcomes[0].reason
    assert outcomes[1].compiled
    assert time.monotonic() - start < 60
    assert checker.check([tsx(fine)])[0].compiled  # the page slot was replaced and works


def test_console_errors_and_empty_roots_are_reported_not_failures(checker):
    empty = "export default function App() {\n  return null;\n}\n"
    noisy = 'export default function App() {\n  console.error("oops");\n  return <p>hi</p>;\n}\n'
    outs = checker.check([tsx(empty), tsx(noisy), "no code at all"])
    assert outs[0].compiled and outs[0].empty_root and outs[0].blank is True and outs[0].png is not None
    assert outs[1].compiled and not outs[1].blank and not outs[1].compiler
    assert [(c["line"], c["message"]) for c in outs[1].console] == [(1, "oops")]
    assert outs[2].stage == "extract" and outs[2].extraction is None
    from bot_repro.tasks.react.evaluation import compile_metrics

    metrics = compile_metrics([outs])
    assert metrics["compile_rate"] == pytest.approx(2 / 3) and metrics["blank_render_rate"] == pytest.approx(1 / 3)
    assert metrics["console_error_rate"] == pytest.approx(1 / 3)
    with ReactChecker(CheckOptions(**CHECKS, render_strict=True, workers=1, pages=1)) as strict:
        outs = strict.check([tsx(empty), tsx(noisy)])
    assert outs[0].stage == "render" and "empty root" in outs[0].reason
    assert outs[1].stage == "render" and outs[1].primary_line == 1


def test_image_requests_get_a_placeholder_and_the_page_is_shot_promptly(checker, monkeypatch):
    # onError swaps in another remote URL: with every image blocked this page never finished loading.
    code = ('import { useState } from "react";\n\nexport default function App() {\n'
            '  const [src, setSrc] = useState("https://images.example.com/hero.jpg");\n'
            '  return (\n    <div className="p-8">\n'
            '      <img src={src} alt="hero" className="w-96 h-64 object-cover" '
            'onError={() => setSrc(`https://cdn.example.com/fallback-${Date.now()}.jpg`)} />\n'
            '      <div style={{ backgroundImage: "url(https://images.example.com/bg.png)" }} className="h-20 w-20" />\n'
            '      <p>Gallery</p>\n    </div>\n  );\n}\n')
    rendered, render = [], checker.renderer.render

    def keep(pages):
        rendered.extend(results := render(pages))
        return results

    monkeypatch.setattr(checker.renderer, "render", keep)
    (out,) = checker.check([tsx(code)])
    assert out.compiled and not out.blank, out.reason
    assert out.placeholders[0] == "https://images.example.com/hero.jpg" and not out.blocked
    assert "https://images.example.com/bg.png" in out.placeholders
    # promptly: the page's load event came (a page still loading is shot at half the render timeout);
    # an event, where a wall-clock bound stretches on a loaded machine
    assert not rendered[0].load_timed_out


def test_static_tailwind_css_renders_like_tailwinds_browser_build(checker):
    from PIL import Image, ImageChops

    code = COMPONENTS[COMPONENTS.index(next(p for p in COMPONENTS if p.stem == "kpi_dashboard"))].read_text()
    (static,) = checker.check([tsx(code)])
    with ReactChecker(CheckOptions(**CHECKS, tailwind="browser", workers=1, pages=1)) as browser:
        (runtime,) = browser.check([tsx(code)])
    assert static.compiled and runtime.compiled
    a, b = (Image.open(io.BytesIO(o.png)).convert("RGB") for o in (static, runtime))
    differing = sum(max(px) > 40 for px in ImageChops.difference(a, b).resize((320, 200)).getdata())
    assert differing < 0.005 * 320 * 200, differing
    versions = [json.loads((JS_DIR / "node_modules" / name / "package.json").read_text())["version"]
                for name in ("tailwindcss", "@tailwindcss/browser")]
    assert versions[0] == versions[1], versions  # the static compiler is the browser build's own version


def test_allowed_libraries_bundle_offline_and_render(checker):
    code = ('import { useState } from "react";\nimport { Sun, MoonIcon } from "lucide-react";\n'
            'import { FaGithub } from "react-icons/fa";\nimport { motion } from "framer-motion";\n'
            'import { LineChart, Line, XAxis } from "recharts";\nimport type { TooltipProps } from "recharts";\n\n'
            'type Tip = TooltipProps<number, string>;\nconst data = [{ x: "a", y: 1 }, { x: "b", y: 3 }];\n\n'
            'export default function App() {\n  const [dark] = useState(false);\n  const tip: Tip | null = null;\n'
            '  return (\n    <motion.div className="p-4" data-tip={String(tip)}>\n'
            '      {dark ? <MoonIcon data-testid="moon" /> : <Sun data-testid="sun" />}\n'
            '      <FaGithub data-testid="gh" size={32} />\n'
            '      <LineChart width={300} height={200} data={data}><XAxis dataKey="x" /><Line dataKey="y" /></LineChart>\n'
            '    </motion.div>\n  );\n}\n')
    (out,) = checker.check([tsx(code)])
    assert out.compiled and not out.blank and not out.compiler and not out.console, (out.reason, out.compiler)
    assert not out.blocked


def test_imports_outside_the_allowed_set_fail_the_bundle_on_their_line(checker):
    base = "export default function App() {\n  return <p>{String(x)}</p>;\n}\n"
    cases = {
        'import x from "lodash";\n': ("unavailable-import", "lodash"),
        'import { x } from "./helpers";\n': ("unresolved-import", "./helpers"),
        'import { NotAnIcon as x } from "lucide-react";\n': ("missing-export", "NotAnIcon"),
        'import x from "recharts";\n': ("missing-export", "no default export"),
        'import { x } from "react-icons/zz";\n': ("unresolved-import", "react-icons/zz"),
    }
    outs = checker.check([tsx("// header\n" + imp + base) for imp in cases])
    for (imp, (rule, text)), out in zip(cases.items(), outs):
        assert not out.compiled and out.stage == "bundle", (imp, out.stage, out.reason)
        (d,) = [d for d in out.compiler if d["source"] == "bundle"]
        assert (d["line"], d["rule"]) == (1, rule) and text in d["message"], (imp, d)
    # the allowed set is a config list: without recharts, a recharts import fails too
    with ReactChecker(CheckOptions(**CHECKS, workers=1, render=False,
                                   allowed_imports=["react", "react-dom", "lucide-react"])) as narrow:
        (out,) = narrow.check([tsx('import { Line as x } from "recharts";\n' + base)])
    assert out.stage == "bundle" and out.compiler[0]["rule"] == "unavailable-import" and out.primary_line == 0


def test_killed_and_hung_workers_score_failures_and_are_replaced(monkeypatch):
    codes = [p.read_text(encoding="utf-8") for p in COMPONENTS[:3]]
    with CheckPool(n_workers=1, timeout_s=3.0, eslint=False) as pool:
        first_pid = pool.pids[0]
        request = workers._Worker.request

        def kill_on_request(worker, payload):
            """SIGKILL the first worker as its chunk is sent (an event, not a timer): its first sample is
            held 60 s in it, so it dies with that sample unanswered however loaded the machine."""
            rid = request(worker, payload)
            if worker.pid == first_pid:
                os.kill(first_pid, signal.SIGKILL)
            return rid

        monkeypatch.setattr(workers._Worker, "request", kill_on_request)
        out = pool.check(codes, delays_ms=[60_000, 0, 0])
        monkeypatch.undo()
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
    good = tsx(COMPONENTS[1].read_text(encoding="utf-8"))
    bad = tsx(mutate(COMPONENTS[1].read_text(encoding="utf-8"), "unterminated_string")[0])
    metrics = task.evaluate_and_save([[good, bad], [good, "nothing"]], rows, tmp_path / "eval")
    assert metrics["compile_rate"] == 0.5 and metrics["compile_any_rate"] == 1.0
    assert metrics["blank_render_rate"] == 0.0 and metrics["console_error_rate"] == 0.0
    records = [json.loads(x) for x in (tmp_path / "eval" / "rollouts.jsonl").read_text().splitlines()]
    assert [r["compiled"] for r in records] == [True, False, True, False]
    assert records[0]["blank"] is False and records[0]["lang"] in ("ts", "js")
    assert (tmp_path / "eval" / records[0]["screenshot"]).read_bytes().startswith(b"\x89PNG")
    assert records[1]["components"]["compile_fail"] == -1.0 and records[1]["line_penalties"]
    page = (tmp_path / "eval" / "index.html").read_text()
    assert rows[0]["request"] in page and "screens/0000_00.png" in page and "rgba(239,68,68" in page
    assert task.evaluate([[bad], [good]], rows)["compile_rate"] == 0.5


def _children(pid: int, kind: str = "typescript") -> list[int]:
    """The worker's TypeScript servers (its child processes other than esbuild's service and the
    oxlint server, a Node process), or with ``kind="oxlint"`` its oxlint servers."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(c) for c in f.read().split()]
    except OSError:
        return []
    def exe(child: int) -> str:
        try:
            with open(f"/proc/{child}/cmdline", "rb") as f:
                return os.path.basename(f.read().split(b"\0")[0].decode())
        except OSError:
            return ""
    if kind == "oxlint":
        return [c for c in kids if exe(c) == "node"]
    return [c for c in kids if exe(c) not in ("", "esbuild", "node")]


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
        bad, good = checker.check([tsx(code), tsx(ok)])
    assert bad.stage == "render" and "line four" in bad.reason and bad.primary_line == 4, bad.compiler
    assert good.compiled and good.png is not None, good.reason


def test_type_errors_after_multibyte_text_point_at_the_right_column():
    code = ('const greeting = "héllo 😀 wörld 😀";\nexport default function App() {\n'
            '  const count: number = "three";\n  return <p>{greeting}{count}</p>;\n}\n')
    with CheckPool(n_workers=1, eslint=False) as pool:
        (answer,) = pool.check([code])
    assert answer["ok"] and answer["lang"] == "ts"
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


def test_a_dead_oxlint_server_ends_its_worker_which_is_replaced():
    code = "export default function App() {\n  const unused = 1;\n  return <p>ok</p>;\n}\n"
    with CheckPool(n_workers=1, typecheck="off") as pool:
        (before,) = pool.check([code])
        (server,) = _children(pool.pids[0], "oxlint")
        worker = pool._workers[0].proc
        os.kill(server, signal.SIGKILL)
        worker.wait(timeout=30)  # a worker that cannot lint any more exits at once
        (after,) = pool.check([code])
        assert pool.restarts == 1 and after["ok"], after
        assert [(m["line"], m["rule"]) for m in after["eslint"]] == [(1, "@typescript-eslint/no-unused-vars")]
        assert after["eslint"] == before["eslint"]


# ---------------------------------------------------------------------- realistic corpus
def _assert_acceptance(v):
    failed = [(c.name, o.stage, o.reason, o.blank) for c, o in zip(v.components, v.originals)
              if not (o.compiled and o.blank is False)]
    assert len(v.valid_ok) >= 0.95 * len(v.components), failed
    assert not v.problems, v.problems
    kinds = collections.Counter(m.kind for m in v.mutants)
    assert set(kinds) == set(KINDS), kinds
    assert kinds["type_error"] == sum(c.lang == "tsx" for c in v.components) - sum(
        k == "type_error" for _, k, _ in v.skipped)
    assert v.on_fault >= 0.95 * (v.on_fault + len(v.misplaced)), v.misplaced


def test_realistic_subset_compiles_and_its_mutants_fail_where_their_fault_is(checker):
    components = [c for c in load_corpus(REALISTIC) if c.name in SUBSET]
    assert len(components) == len(SUBSET)
    v = check_corpus(checker, components)
    _assert_acceptance(v)
    assert not v.skipped, v.skipped


@pytest.mark.slow
def test_whole_realistic_corpus_meets_the_acceptance(checker):
    components = load_corpus(REALISTIC)
    lines = sorted(c.n_lines for c in components)
    assert len(components) >= 60 and lines[len(lines) // 2] >= 200 and lines[-1] >= 800
    assert abs(sum(c.lang == "tsx" for c in components) - sum(c.lang == "jsx" for c in components)) <= 2
    v = check_corpus(checker, components)
    _assert_acceptance(v)
    assert len(v.skipped) <= 0.02 * len(v.mutants), v.skipped
