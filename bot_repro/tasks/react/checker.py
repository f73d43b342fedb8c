"""The React compile check: response -> extracted code -> Node checks -> Chromium render.

Owns the definition of "compiles" (docs/method.md §4): the fenced code transpiles (esbuild by default; Babel,
the paper's, gives the same verdicts: bench/react.py measures it), bundles against
the page's local React/ReactDOM and the allowed UI libraries (``allowed_imports``), and renders at
1280x800 in headless Chromium without a page error or timeout. TypeScript type errors are line
penalties, not failures (``typecheck=penalise``; ``fail`` makes them fail), and only TypeScript is
type-checked (a jsx/js/javascript fence or code without type syntax is JavaScript). Console errors
and an empty root are reported (metrics, diagnostics), not failures (``render_strict`` makes them
fail). The task's compile rate and the reward's compile/compiler signals both read a
``CheckOutcome``; ``shared_checker`` gives them one worker pool and one browser per process.
"""

from __future__ import annotations

import atexit
import io
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from bot_repro import ranks
from bot_repro.config_schema import build_options
from bot_repro.tasks.react.extract import Extraction, extract_code
from bot_repro.tasks.react.render import Page, Renderer
from bot_repro.tasks.react.workers import PROVIDABLE_IMPORTS, CheckPool

TYPECHECK_MODES = ("penalise", "fail", "off")
TRANSPILERS = ("esbuild", "babel")
LINTERS = ("oxlint", "eslint")
TAILWIND_MODES = ("static", "browser")


def is_blank_png(png: bytes) -> bool:
    """A screenshot with nothing to see: fewer than 3 colours once shrunk to 160x100 (or not 1280x800)."""
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    return img.size != (1280, 800) or len(set(img.resize((160, 100)).getdata())) < 3


@dataclass(frozen=True)
class CheckOptions:
    """``task.params.checks``: how samples are checked (also read by the reward via interpolation).

    typecheck: "penalise" (TypeScript type errors are compiler line penalties; default), "fail"
        (they fail the compile) or "off". transpiler: "esbuild" (default) or "babel" (the paper's);
        linter: "oxlint" (default) or "eslint" (the paper's), the same rules either way; the
        defaults are ~2x faster with the same compile verdicts (README, results/bench/react.json).
    allowed_imports: the packages a sample may import (any subpath, e.g. react-icons/fa); any
        other import, and every relative one, fails the bundle on its line.
    render_strict: console errors and an empty root fail the render too (default: reported).
    tailwind: "static" (the worker compiles the classes found in the source, as a Tailwind build
        does; default) or "browser" (Tailwind's browser build in the page: it also sees class
        names built at run time, and costs ~0.25 s of CPU per render).
    workers/pages: Node processes and browser pages (default: cores and 2 x cores).
    render: False skips Chromium (compile = static checks only; for machines without it).
    """

    workers: int | None = None
    pages: int | None = None
    batch_size: int = 32
    check_timeout_s: float = 30.0
    render_timeout_s: float = 10.0
    settle_ms: int = 150
    typecheck: str = "penalise"
    eslint: bool = True
    transpiler: str = "esbuild"
    linter: str = "oxlint"
    allowed_imports: tuple[str, ...] = PROVIDABLE_IMPORTS
    render: bool = True
    render_strict: bool = False
    tailwind: str = "static"

    def __post_init__(self) -> None:
        if isinstance(self.allowed_imports, str) or not all(isinstance(p, str) for p in self.allowed_imports):
            raise ValueError(f"allowed_imports={self.allowed_imports!r}; must be a list of package names")
        object.__setattr__(self, "allowed_imports", tuple(self.allowed_imports))  # hashable: shared_checker key
        unknown = [p for p in self.allowed_imports if p not in PROVIDABLE_IMPORTS]
        if unknown:
            raise ValueError(f"allowed_imports names {unknown}, which js/ does not provide; "
                             f"choose from: {', '.join(PROVIDABLE_IMPORTS)}")
        if not {"react", "react-dom"} <= set(self.allowed_imports):
            raise ValueError("allowed_imports must include react and react-dom")
        if self.typecheck not in TYPECHECK_MODES:
            raise ValueError(f"typecheck={self.typecheck!r}; allowed: {', '.join(TYPECHECK_MODES)}")
        if self.tailwind not in TAILWIND_MODES:
            raise ValueError(f"tailwind={self.tailwind!r}; allowed: {', '.join(TAILWIND_MODES)}")
        if self.transpiler not in TRANSPILERS:
            raise ValueError(f"transpiler={self.transpiler!r}; allowed: {', '.join(TRANSPILERS)}")
        if self.linter not in LINTERS:
            raise ValueError(f"linter={self.linter!r}; allowed: {', '.join(LINTERS)}")
        for name in ("workers", "pages"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"{name}={value!r}; must be >= 1 or null (auto)")
        if self.batch_size < 1 or self.check_timeout_s <= 0 or self.render_timeout_s <= 0:
            raise ValueError("batch_size, check_timeout_s and render_timeout_s must be positive")

    @classmethod
    def from_dict(cls, values: dict[str, Any] | None, where: str) -> CheckOptions:
        return build_options(cls, values, where)


@dataclass
class CheckOutcome:
    """Everything the reward, the evaluation and the gallery need about one response.

    Diagnostic dicts: {"line" (0-indexed code line or None), "col", "severity" ("fatal" | "error"
    | "warning"), "source" ("tsc" | "babel" | "esbuild" | "bundle" | "runtime" | "eslint" | "oxlint"),
    "rule" (the linters' messages carry ESLint's rule names either way), "message"}. ``eslint``
    holds the linter's messages (ESLint's or oxlint's; the reward weighs them as docs/method.md §3's ESLint
    terms); ``compiler`` holds every other diagnostic (each flagged line: -1), page errors
    included; ``console`` holds console errors (not penalised, unless strict mode failed on them).
    ``blank``: the screenshot shows nothing (None: no screenshot).
    """

    extraction: Extraction | None
    compiled: bool
    stage: str | None  # the failing stage: extract, transpile, typecheck, bundle, render, timeout, worker,
    # or stalled (no verdict: the check worker was stopped, bot_repro.tasks.stalls)
    reason: str = ""
    compiler: list[dict] = field(default_factory=list)
    eslint: list[dict] = field(default_factory=list)
    png: bytes | None = None
    blocked: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    lang: str | None = None  # "ts" (type-checked) or "js"
    console: list[dict] = field(default_factory=list)
    blank: bool | None = None
    empty_root: bool = False
    placeholders: list[str] = field(default_factory=list)

    def compiler_lines(self) -> set[int]:
        n = self.n_code_lines
        return {d["line"] for d in self.compiler if isinstance(d.get("line"), int) and 0 <= d["line"] < n}

    @property
    def primary_line(self) -> int | None:
        """The code line a person should look at first: the earliest flagged compiler line."""
        lines = self.compiler_lines()
        return min(lines) if lines else None

    @property
    def n_code_lines(self) -> int:
        return self.extraction.code.count("\n") + 1 if self.extraction else 0

    def summary(self) -> dict[str, Any]:
        """JSON-ready view (no PNG bytes) for saved rollouts and ``RewardResult.info``."""
        ex = self.extraction
        return {
            "compiled": self.compiled, "stage": self.stage, "reason": self.reason,
            "code_start_line": ex.start_line if ex else None, "code_offset": ex.start if ex else None,
            "lang": self.lang, "compiler": self.compiler, "eslint": self.eslint, "console": self.console,
            "blank": self.blank, "empty_root": self.empty_root, "blocked_requests": len(self.blocked),
            "blocked_urls": self.blocked[:20], "placeholder_images": len(self.placeholders), "timings": self.timings,
        }


class ReactChecker:
    """Owns one CheckPool and one Renderer; ``check(responses)`` -> one CheckOutcome each."""

    def __init__(self, options: CheckOptions | None = None):
        self.options = options or CheckOptions()
        cores = ranks.cpu_share()  # N ranks on one machine: each pool gets 1/N of the cores
        o = self.options
        self.pool = CheckPool(n_workers=o.workers or cores, timeout_s=o.check_timeout_s, batch_size=o.batch_size,
                              typecheck=o.typecheck, eslint=o.eslint, linter=o.linter, transpiler=o.transpiler,
                              allowed_imports=o.allowed_imports, tailwind=o.tailwind)
        self.renderer: Renderer | None = None
        try:
            if o.render:
                assets = self.pool.vendor()
                self.renderer = Renderer(assets["vendor_js"], assets["tailwind_js"], pages=o.pages or 2 * cores,
                                         timeout_s=o.render_timeout_s, settle_ms=o.settle_ms,
                                         chunks=assets["chunks"], strict=o.render_strict)
        except BaseException:
            self.pool.close()
            raise

    def check(self, responses: list[str]) -> list[CheckOutcome]:
        extractions = [extract_code(r if isinstance(r, str) else "") for r in responses]
        todo = [i for i, ex in enumerate(extractions) if ex is not None and ex.code.strip()]
        t0 = time.monotonic()
        answers = self.pool.check([extractions[i].code for i in todo], langs=[extractions[i].lang for i in todo])
        check_s = time.monotonic() - t0
        outcomes: list[CheckOutcome] = []
        by_index = dict(zip(todo, answers))
        for i, ex in enumerate(extractions):
            if i not in by_index:
                why = "no fenced code block in the response" if ex is None else "the code block is empty"
                outcomes.append(CheckOutcome(ex, False, "extract", why))
                continue
            a = by_index[i]
            diags = a.get("diagnostics", [])
            outcome = CheckOutcome(ex, bool(a.get("ok")), a.get("stage"), a.get("reason", ""),
                                   compiler=diags, eslint=a.get("eslint", []),
                                   timings=dict(a.get("timings", {})), lang=a.get("lang"))
            if not outcome.compiled and not outcome.reason:
                first = next((d for d in diags if d.get("line") is not None), diags[0] if diags else None)
                outcome.reason = (f"{outcome.stage}: line {first['line'] + 1}: {first['message']}"
                                  if first and first.get("line") is not None else
                                  f"{outcome.stage}: {first['message'] if first else 'failed'}")
            outcome.timings["check_batch_s"] = check_s
            outcomes.append(outcome)
        self._render(outcomes, by_index)
        return outcomes

    def _render(self, outcomes: list[CheckOutcome], answers: dict[int, dict]) -> None:
        if self.renderer is None:
            return
        idx = [i for i, o in enumerate(outcomes) if o.compiled]
        if not idx:
            return
        results = self.renderer.render([page_of(answers[i]) for i in idx])
        for i, r in zip(idx, results):
            o = outcomes[i]
            o.blocked, o.placeholders, o.empty_root = r.blocked, r.placeholders, r.empty_root
            o.timings["render_s"] = r.elapsed_s
            o.console = [runtime_diag(e) for e in r.console]
            if r.ok:
                o.png = r.png
                o.blank = is_blank_png(r.png)
                continue
            o.compiled, o.stage, o.reason = False, "render", r.reason
            o.compiler.extend(runtime_diag(e) for e in r.errors)
            if self.options.render_strict:
                o.compiler.extend(o.console)

    def close(self) -> None:
        if self.renderer is not None:
            self.renderer.close()
        self.pool.close()

    def __enter__(self) -> ReactChecker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def page_of(answer: dict) -> Page:
    """The page a worker answer describes (app.js, deps.js, chunks, source map, CSS or None)."""
    css = answer.get("css")
    return Page(answer["bundle"], answer.get("deps") or "", list(answer.get("chunks") or []), answer.get("sourcemap"),
                css if css else None)


def runtime_diag(error: dict) -> dict:
    """A page or console error from the renderer as a diagnostic (source "runtime", rule = its kind)."""
    return {"line": error["line"], "col": 0, "severity": "error", "source": "runtime", "rule": error["kind"],
            "message": error["message"]}


_shared: dict[CheckOptions, ReactChecker] = {}
_shared_lock = threading.Lock()


def shared_checker(options: CheckOptions) -> ReactChecker:
    """One checker per distinct options in this process (task and reward share it); closed at exit."""
    with _shared_lock:
        if options not in _shared:
            _shared[options] = ReactChecker(options)
        return _shared[options]


@atexit.register
def close_shared() -> None:
    with _shared_lock:
        while _shared:
            _shared.popitem()[1].close()
