"""React check options, page shells, blank screenshots and the mutant bookkeeping (no Node, no browser)."""

from __future__ import annotations

import io

import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.tasks.react.checker import CheckOptions, CheckOutcome, is_blank_png, page_of
from bot_repro.tasks.react.evaluation import compile_metrics
from bot_repro.tasks.react.extract import extract_code
from bot_repro.tasks.react.mutants import (
    EXPECTED_STAGES,
    KINDS,
    Component,
    CorpusVerdict,
    Mutant,
    added_penalty_lines,
    agreement,
    behaviour_problem,
    penalty_lines,
)
from bot_repro.tasks.react.render import Page


def test_defaults_follow_spec_and_bad_values_name_the_choices():
    o = CheckOptions()
    assert (o.typecheck, o.render_strict, o.tailwind, o.transpiler, o.linter) == (
        "penalise", False, "static", "esbuild", "oxlint")
    assert o.allowed_imports == ("react", "react-dom", "lucide-react", "react-icons", "recharts", "framer-motion")
    narrow = CheckOptions.from_dict({"allowed_imports": ["react", "react-dom"]}, "task.params.checks")
    assert narrow.allowed_imports == ("react", "react-dom") and hash(narrow) != hash(o)  # a shared_checker key
    with pytest.raises(ConfigError, match="lodash.*choose from: react, react-dom, lucide-react"):
        CheckOptions.from_dict({"allowed_imports": ["react", "react-dom", "lodash"]}, "checks")
    with pytest.raises(ConfigError, match="must include react and react-dom"):
        CheckOptions.from_dict({"allowed_imports": ["lucide-react"]}, "checks")
    with pytest.raises(ConfigError, match="allowed_imports=.react. is not allowed: expected a list"):
        CheckOptions.from_dict({"allowed_imports": "react"}, "checks")
    for key, bad in (("typecheck", "maybe"), ("tailwind", "cdn"), ("transpiler", "swc"), ("linter", "jshint")):
        with pytest.raises(ConfigError, match=key):
            CheckOptions.from_dict({key: bad}, "checks")


def test_page_shell_loads_only_what_the_sample_needs():
    answer = {"bundle": "app()", "deps": "icons()", "chunks": ["recharts"], "sourcemap": "{}", "css": ".p-2{}"}
    page = page_of(answer)
    shell = page.shell()
    assert '<link rel="stylesheet" href="/app.css">' in shell and "tailwind.js" not in shell
    assert shell.index("/vendor.js") < shell.index("/lib/recharts.js") < shell.index("/deps.js") < shell.index("/app.js")
    bare = Page("app()").shell()  # no CSS: Tailwind's browser build styles the page
    assert "/tailwind.js" in bare and "/deps.js" not in bare and "/lib/" not in bare
    assert page_of({**answer, "css": "", "deps": "", "chunks": []}).shell() == bare


def _png(draw) -> bytes:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (1280, 800), "white")
    draw(ImageDraw.Draw(img))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def test_blank_screenshots():
    assert is_blank_png(_png(lambda d: None))
    assert is_blank_png(_png(lambda d: d.rectangle((0, 0, 1280, 800), fill="#0f172a")))  # a dark empty page
    assert not is_blank_png(_png(lambda d: d.text((600, 380), "Hello", fill="black")))


RESPONSE = "```tsx\nline0\nline1\nline2\nline3\n```\n"


def _outcome(compiled=True, stage=None, compiler=(), eslint=(), png=b"png", console=(), blank=False):
    return CheckOutcome(extract_code(RESPONSE), compiled, stage, "", compiler=list(compiler), eslint=list(eslint),
                        png=png, console=list(console), blank=blank)


def _d(line, source="tsc"):
    return {"line": line, "col": 0, "severity": "error", "source": source, "rule": "R", "message": "m"}


def test_added_penalty_lines_follow_an_inserted_line():
    comp = Component("a.tsx", "line0\nline1\nline2\nline3\n", "tsx")
    mutant = Mutant(comp, "runtime_throw", "x", line=2, inserted_line=2)
    assert [mutant.from_original(i) for i in range(4)] == [0, 1, 3, 4]
    original = _outcome(eslint=[{**_d(2, "eslint"), "severity": "warning"}])
    after = _outcome(compiled=False, stage="render", compiler=[_d(2, "runtime")],
                     eslint=[{**_d(3, "eslint"), "severity": "warning"}])  # the original warning, moved down
    assert penalty_lines(after) == {2, 3} and added_penalty_lines(mutant, original, after) == {2}
    assert behaviour_problem(mutant, after) is None
    assert "expected ('render',)" in behaviour_problem(mutant, _outcome())
    tolerant = Mutant(comp, "unclosed_tag", "x", line=2, inserted_line=None)
    assert tolerant.on_fault(3) and tolerant.on_fault(1) and not tolerant.on_fault(4) and not mutant.on_fault(3)


def test_type_error_mutants_must_compile_render_and_be_flagged_on_their_line():
    comp = Component("a.tsx", "l0\nl1\nl2\n", "tsx")
    m = Mutant(comp, "type_error", "x", line=1, inserted_line=1)
    assert behaviour_problem(m, _outcome(compiler=[_d(1)])) is None
    assert "no TypeScript diagnostic" in behaviour_problem(m, _outcome(compiler=[_d(2)]))
    assert "no screenshot" in behaviour_problem(m, _outcome(compiler=[_d(1)], png=None))
    assert "stage typecheck" in behaviour_problem(m, _outcome(compiled=False, stage="typecheck", compiler=[_d(1)]))
    assert set(EXPECTED_STAGES) == set(KINDS)


def test_compile_metrics_count_blank_and_console_error_renders():
    outs = [_outcome(), _outcome(blank=True), _outcome(console=[_d(0, "runtime")]),
            _outcome(compiled=False, stage="transpile", png=None, blank=None)]
    m = compile_metrics([outs])
    assert m["compile_rate"] == 0.75 and m["blank_render_rate"] == 0.25 and m["console_error_rate"] == 0.25


def _verdict(originals, outcomes, comp, mutant):
    return CorpusVerdict([comp], originals, [mutant], outcomes, [], [], 0, [])


def test_agreement_counts_verdicts_and_linter_marks():
    comp = Component("a.tsx", "line0\nline1\nline2\nline3\n", "tsx")
    mutant = Mutant(comp, "runtime_throw", "x", line=2, inserted_line=2)
    warn = lambda line: {**_d(line, "eslint"), "severity": "warning"}  # noqa: E731
    fast = _verdict([_outcome(eslint=[warn(1), warn(2)])], [_outcome(compiled=False, stage="render")], comp, mutant)
    paper = _verdict([_outcome(eslint=[warn(1), _d(2, "eslint")])], [_outcome(compiled=False, stage="bundle")],
                     comp, mutant)
    a = agreement(fast, paper)
    # 1 of 2 samples agrees; marks (1, warning) shared, (2, warning) vs (2, error) differ: 1 / 3
    assert a["samples"] == 2 and a["verdict_agreement"] == 0.5
    assert a["verdict_disagreements"] == [("a.tsx:runtime_throw", (False, "render"), (False, "bundle"))]
    assert a["line_agreement"] == pytest.approx(1 / 3) and a["lint_marks"] == [2, 2, 1]
    assert a["penalised_line_agreement"] == 1.0  # the same lines {1, 2}, whatever the severity
    assert agreement(fast, fast)["verdict_agreement"] == agreement(fast, fast)["line_agreement"] == 1.0
    other = Mutant(comp, "runtime_throw", "y", line=2, inserted_line=2)
    with pytest.raises(ValueError, match="same components and mutants"):
        agreement(fast, _verdict(paper.originals, paper.outcomes, comp, other))
