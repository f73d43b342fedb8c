"""The fast React toolchain (esbuild, oxlint) against the paper's (Babel, ESLint), older lucide names,
and where diagnostics point (issue #25). Real Node workers and Chromium, like test_react_checks.py.
"""

from __future__ import annotations

import pytest

from bot_repro.tasks.react.checker import CheckOptions, ReactChecker
from bot_repro.tasks.react.render import renderer_missing
from bot_repro.tasks.react.workers import CheckPool, toolchain_missing

MISSING = toolchain_missing() or renderer_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"React toolchain unavailable: {MISSING}")

# One finding per line, each rule of a different family: core, React, hooks, unused names.
LINTED = """import { useEffect, useState } from "react";

export default function App({ items }: { items: string[] }) {
  const [count, setCount] = useState(0);
  const unused = 3;
  if (count > 3) {
    const [late] = useState(1);
  }
  useEffect(() => { setCount(items.length); }, []);
  const style = { color: "red", color: "blue" };
  if (typeof count === "numbr") setCount(1);
  debugger;
  return <ul style={style}>{items.map((i) => <li>{i}</li>)}<p>Don't</p></ul>;
}
"""
EXPECTED = {(4, "warning", "@typescript-eslint/no-unused-vars"), (6, "warning", "@typescript-eslint/no-unused-vars"),
            (6, "error", "react-hooks/rules-of-hooks"), (8, "warning", "react-hooks/exhaustive-deps"),
            (9, "error", "no-dupe-keys"), (10, "error", "valid-typeof"), (11, "error", "no-debugger"),
            (12, "error", "react/jsx-key"), (12, "error", "react/no-unescaped-entities")}
BROKEN = [
    "export default function App() {\n  return <div>\n    <p>x</p>\n}\n",  # unclosed element
    "export default function App() {\n  const s = 'open;\n  return <p>{s}</p>;\n}\n",  # unterminated string
    "export default function App() {\n  return <div><span>x</div></span>;\n}\n",  # mismatched tags
    "export default function App() {\n  const x = ;\n  return <p />;\n}\n",  # missing expression
    "const a = 1;\nexport default function App() { return <p>{a}</p>; }\n",  # valid
]


def _marks(answer: dict) -> set[tuple[int, str, str]]:
    return {(m["line"], m["severity"], m["rule"]) for m in answer["eslint"]}


def test_oxlint_reports_what_eslint_reports_line_for_line():
    answers = {}
    for linter in ("oxlint", "eslint"):
        with CheckPool(n_workers=1, typecheck="off", linter=linter) as pool:
            answers[linter] = pool.check([LINTED] + BROKEN)
    ox, es = answers["oxlint"], answers["eslint"]
    assert _marks(es[0]) == EXPECTED, sorted(_marks(es[0]))
    assert _marks(ox[0]) == EXPECTED, sorted(_marks(ox[0]))
    assert {m["source"] for m in ox[0]["eslint"]} == {"oxlint"}
    for o, e in zip(ox[1:], es[1:]):  # a parse error: one fatal message on the same line, as ESLint's
        assert [(m["line"], m["severity"]) for m in o["eslint"]] == [(m["line"], m["severity"]) for m in e["eslint"]]


def test_esbuild_and_babel_give_the_same_verdicts_and_lines():
    answers = {}
    for transpiler in ("esbuild", "babel"):
        with CheckPool(n_workers=1, eslint=False, transpiler=transpiler) as pool:
            answers[transpiler] = pool.check(BROKEN)
    for i, (e, b) in enumerate(zip(answers["esbuild"], answers["babel"])):
        assert (e["ok"], e["stage"]) == (b["ok"], b["stage"]) == ((True, None) if i == 4 else (False, "transpile"))
        assert [d["line"] for d in e["diagnostics"]] == [d["line"] for d in b["diagnostics"]], (e, b)
    with pytest.raises(ValueError, match="linter='jshint'; allowed: oxlint, eslint"):
        CheckOptions(linter="jshint")


OLD_ICONS = """import {
  Github,
  Twitter,
  Facebook,
  Instagram,
} from "lucide-react";

export default function App() {
  const size: number = 160;
  return (
    <div className="flex gap-4 p-8">
      <Github size={size} /><Twitter size={size} /><Facebook size={size} /><Instagram size={size} />
    </div>
  );
}
"""


@pytest.mark.parametrize("lang", ["tsx", "jsx"])
def test_icon_names_lucide_1x_removed_compile_and_render(lang):
    code = OLD_ICONS if lang == "tsx" else OLD_ICONS.replace(": number", "")
    with ReactChecker(CheckOptions(workers=1, pages=1, render_timeout_s=30.0)) as checker:
        (out,) = checker.check([f"```{lang}\n{code}```\n"])
    # the page shows only the icons, so a non-blank screenshot means they drew
    assert out.compiled and out.blank is False, (out.reason, out.compiler)
    assert not out.compiler and not out.console, (out.compiler, out.console)  # no TypeScript complaint either


def test_a_missing_named_import_points_at_its_own_line_and_reasons_count_from_1():
    code = 'import {\n  Sun,\n  NotAnIcon,\n} from "lucide-react";\n\nexport default function App() {\n' \
           "  return <p><Sun /><NotAnIcon /></p>;\n}\n"
    broken = "export default function App() {\n  const x = ;\n  return <p />;\n}\n"
    with ReactChecker(CheckOptions(workers=1, render=False)) as checker:
        missing, parse = checker.check([f"```tsx\n{code}```\n", f"```tsx\n{broken}```\n"])
    (d,) = [d for d in missing.compiler if d["rule"] == "missing-export"]
    assert d["line"] == 2 and d["col"] == 2, d  # 0-indexed: NotAnIcon's line, not the import's first
    assert missing.stage == "bundle" and missing.reason.startswith("bundle: line 3: "), missing.reason
    assert parse.stage == "transpile" and parse.reason.startswith("transpile: line 2: "), parse.reason
