"""Systematic mutants of valid React components, and what the compile check must say about each.

For each component, one mutant per fault kind (js/mutants.mjs finds the sites with TypeScript's
parser), each with the line its fault is on:

=====================  ==================================================  ===================
kind                   mutation                                            the check must say
=====================  ==================================================  ===================
unclosed_tag           a one-line ``<X ... />`` loses its ``/``             fails at transpile
mismatched_tag         a closing tag renamed (``</div>`` -> ``</span>``)    fails at transpile
unterminated_string    a string literal (not a JSX attribute) loses its     fails at transpile
                       closing quote
missing_import         ``import { formatValue } from "./utils/format";``    fails at bundle
                       added after the imports
missing_export         the default export removed (or made a named one)     fails at bundle/render
runtime_throw          the default-exported component throws before it      fails at render
                       returns
type_error             (TypeScript only) ``const mutantTotal: number =      compiles and renders,
                       "0";`` before that return                            TypeScript penalty on
                                                                            its line
=====================  ==================================================  ===================

``penalty_lines`` / ``added_penalty_lines`` and ``on_fault`` measure whether the penalties the
mutation added land on its line (an unclosed tag may be reported one line off).
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from bot_repro.tasks.react.workers import JS_DIR

SCRIPT = JS_DIR / "mutants.mjs"
KINDS = ("unclosed_tag", "mismatched_tag", "unterminated_string", "missing_import", "missing_export",
         "runtime_throw", "type_error")
PARSE_KINDS = ("unclosed_tag", "mismatched_tag", "unterminated_string")
# The failing stage each kind must produce (None: it must compile).
EXPECTED_STAGES: dict[str, tuple[str | None, ...]] = {
    **{k: ("transpile",) for k in PARSE_KINDS},
    "missing_import": ("bundle",),
    "missing_export": ("bundle", "render"),
    "runtime_throw": ("render",),
    "type_error": (None,),
}
# How far from the fault line a penalty may land and still count as on it.
TOLERANCE = {"unclosed_tag": 1}


@dataclass(frozen=True)
class Component:
    """A valid component of a test corpus: ``lang`` is its fence tag (tsx or jsx)."""

    name: str
    code: str
    lang: str

    @property
    def n_lines(self) -> int:
        return self.code.count("\n") + 1


@dataclass(frozen=True)
class Mutant:
    """One faulty variant of ``component``; ``line``: the fault's 0-indexed line in ``code``.

    inserted_line: the mutant line the mutation added (lines after it moved down by one), or None
    when the mutant keeps the original's line numbers.
    """

    component: Component
    kind: str
    code: str
    line: int
    inserted_line: int | None

    def from_original(self, line: int) -> int:
        """The mutant line that holds the original's ``line``."""
        return line + 1 if self.inserted_line is not None and line >= self.inserted_line else line

    def on_fault(self, line: int) -> bool:
        return abs(line - self.line) <= TOLERANCE.get(self.kind, 0)


def load_corpus(root: str | Path) -> list[Component]:
    """Every ``*.tsx`` and ``*.jsx`` file under ``root`` (sorted by path), fence tag from the suffix."""
    root = Path(root)
    files = sorted([*root.rglob("*.tsx"), *root.rglob("*.jsx")])
    return [Component(str(p.relative_to(root)), p.read_text(encoding="utf-8"), p.suffix[1:]) for p in files]


def make_mutants(components: list[Component]) -> tuple[list[Mutant], list[tuple[Component, str, str]]]:
    """(mutants, skipped) for ``components``; skipped: (component, kind, why) where a kind has no site."""
    payload = json.dumps([{"code": c.code, "lang": c.lang} for c in components])
    proc = subprocess.run(["node", str(SCRIPT)], cwd=JS_DIR, input=payload, capture_output=True, text=True,
                          encoding="utf-8", timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"js/mutants.mjs failed: {proc.stderr[-2000:]}")
    mutants, skipped = [], []
    for comp, found in zip(components, json.loads(proc.stdout)):
        for m in found:
            if "skipped" in m:
                skipped.append((comp, m["kind"], m["skipped"]))
            else:
                mutants.append(Mutant(comp, m["kind"], m["code"], m["line"], m["inserted_line"]))
    return mutants, skipped


def fenced(code: str, lang: str) -> str:
    return f"```{lang}\n{code}\n```\n"


def penalty_lines(outcome) -> set[int]:
    """Code lines that get a line penalty from the compiler or ESLint (a ``CheckOutcome``)."""
    lines = set(outcome.compiler_lines())
    lines |= {m["line"] for m in outcome.eslint if isinstance(m.get("line"), int) and 0 <= m["line"] < outcome.n_code_lines}
    return lines


def added_penalty_lines(mutant: Mutant, original, outcome) -> set[int]:
    """Penalised lines of the mutant's outcome that the original's outcome does not have (moved)."""
    return penalty_lines(outcome) - {mutant.from_original(line) for line in penalty_lines(original)}


def behaviour_problem(mutant: Mutant, outcome) -> str | None:
    """Why ``outcome`` is not what ``mutant.kind`` must produce, or None when it is."""
    expected = EXPECTED_STAGES[mutant.kind]
    if (None if outcome.compiled else outcome.stage) not in expected:
        return f"stage {outcome.stage if not outcome.compiled else 'compiled'}, expected {expected}: {outcome.reason}"
    if mutant.kind == "type_error":
        if outcome.png is None:
            return "no screenshot"
        if not any(d.get("source") == "tsc" and mutant.on_fault(d["line"]) for d in outcome.compiler):
            return f"no TypeScript diagnostic on line {mutant.line}: {outcome.compiler}"
    return None


@dataclass
class CorpusVerdict:
    """What the check said about a corpus and its mutants (issue #12's acceptance numbers)."""

    components: list[Component]
    originals: list  # CheckOutcome per component
    mutants: list[Mutant]
    outcomes: list  # CheckOutcome per mutant
    skipped: list[tuple[Component, str, str]]
    problems: list[tuple[str, str, str]]  # (component, kind, why) for mutants that misbehaved
    on_fault: int  # penalised lines the mutations added that fall on the fault line
    misplaced: list[tuple[str, str, int, int]]  # (component, kind, fault line, penalised line) for the others

    @property
    def valid_ok(self) -> list[str]:
        """Components that compile and render something visible."""
        return [c.name for c, o in zip(self.components, self.originals) if o.compiled and o.blank is False]

    def summary(self) -> dict:
        added = self.on_fault + len(self.misplaced)
        kinds = {k: sum(m.kind == k for m in self.mutants) for k in KINDS}
        return {
            "components": len(self.components), "valid_compile_render_nonblank": len(self.valid_ok),
            "valid_rate": len(self.valid_ok) / max(1, len(self.components)),
            "mutants": len(self.mutants), "mutants_by_kind": kinds, "mutants_skipped": len(self.skipped),
            "mutants_behaving": len(self.mutants) - len(self.problems),
            "added_penalised_lines": added, "added_penalised_lines_on_fault": self.on_fault,
            "on_fault_rate": self.on_fault / max(1, added),
        }


def check_corpus(checker, components: list[Component]) -> CorpusVerdict:
    """Check ``components`` and their mutants with ``checker`` (a ``ReactChecker``)."""
    originals = checker.check([fenced(c.code, c.lang) for c in components])
    mutants, skipped = make_mutants(components)
    outcomes = checker.check([fenced(m.code, m.component.lang) for m in mutants])
    by_name = dict(zip((c.name for c in components), originals))
    problems = [(m.component.name, m.kind, p) for m, o in zip(mutants, outcomes) if (p := behaviour_problem(m, o))]
    on, misplaced = 0, []
    for m, o in zip(mutants, outcomes):
        for line in sorted(added_penalty_lines(m, by_name[m.component.name], o)):
            if m.on_fault(line):
                on += 1
            else:
                misplaced.append((m.component.name, m.kind, m.line, line))
    return CorpusVerdict(components, originals, mutants, outcomes, skipped, problems, on, misplaced)


def lint_marks(outcome) -> set[tuple[int, str]]:
    """(code line, severity) of every linter message of ``outcome`` (what the reward weighs per line)."""
    return {(m["line"], m["severity"]) for m in outcome.eslint
            if isinstance(m.get("line"), int) and 0 <= m["line"] < outcome.n_code_lines}


def _jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def agreement(fast: CorpusVerdict, paper: CorpusVerdict) -> dict:
    """How two toolchains' verdicts on the same corpus and mutants agree (issue #25).

    verdict_agreement: share of samples (components and mutants) with the same compile verdict
    (compiled, and the failing stage). line_agreement: |A & B| / |A | B| over the (sample, line,
    severity) marks of the linters' messages; penalised_line_agreement: the same over (sample,
    line) of every penalised line (compiler and linter). Disagreements are listed (at most 20 each).
    """
    if [m.code for m in fast.mutants] != [m.code for m in paper.mutants] or \
            [c.code for c in fast.components] != [c.code for c in paper.components]:
        raise ValueError("agreement() needs two verdicts on the same components and mutants")
    names = [f"{c.name}:original" for c in fast.components] + [f"{m.component.name}:{m.kind}" for m in fast.mutants]
    pairs = list(zip(names, fast.originals + fast.outcomes, paper.originals + paper.outcomes))
    verdict = lambda o: (o.compiled, None if o.compiled else o.stage)  # noqa: E731
    differ = [(n, verdict(a), verdict(b)) for n, a, b in pairs if verdict(a) != verdict(b)]
    lint_a = {(n, *mark) for n, a, _ in pairs for mark in lint_marks(a)}
    lint_b = {(n, *mark) for n, _, b in pairs for mark in lint_marks(b)}
    pen_a = {(n, line) for n, a, _ in pairs for line in penalty_lines(a)}
    pen_b = {(n, line) for n, _, b in pairs for line in penalty_lines(b)}
    return {
        "samples": len(pairs), "verdict_agreement": 1 - len(differ) / max(1, len(pairs)),
        "verdict_disagreements": differ[:20],
        "line_agreement": _jaccard(lint_a, lint_b), "lint_marks": [len(lint_a), len(lint_b), len(lint_a & lint_b)],
        "lint_only_fast": sorted(lint_a - lint_b)[:20], "lint_only_paper": sorted(lint_b - lint_a)[:20],
        "penalised_line_agreement": _jaccard(pen_a, pen_b),
        "penalised_lines": [len(pen_a), len(pen_b), len(pen_a & pen_b)],
    }
