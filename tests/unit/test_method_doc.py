"""docs/method.md matches the code: its sections keep the numbering 1-7 that the code cites ("docs/method.md §N"),
every repository path it names exists, and the estimator table's defaults are the registry's."""

from __future__ import annotations

import re

import pytest

from bot_repro.algorithms import ADVANTAGES
from tests.conftest import REPO

DOC = (REPO / "docs" / "method.md").read_text()
SECTIONS = ["claims", "algorithms", "token rewards", "tasks and data", "judges and evaluation", "figures", "setup"]


def test_sections_are_numbered_as_cited():
    headings = re.findall(r"^## (\d+)\. (.+)$", DOC, re.MULTILINE)
    assert [int(n) for n, _ in headings] == list(range(1, 8))
    for (_, title), word in zip(headings, SECTIONS):
        assert word in title.lower(), (title, word)


def _exists(path: str) -> bool:
    """A path as the doc writes it: from the repository root, from bot_repro/, or a bare file name
    inside the package or js/ (the doc names files of the folder it has just cited)."""
    path = path.split(":")[0]
    if (REPO / path).exists() or (REPO / "bot_repro" / path).exists():
        return True
    return "/" not in path and any(any(root.rglob(path)) for root in (REPO / "bot_repro", REPO / "js"))


def test_named_paths_exist():
    named = set(re.findall(r"`([\w./-]+(?:/|\.py|\.mjs|\.yaml|\.jsonl))`", DOC))
    assert len(named) > 30  # the pattern finds the doc's citations
    missing = sorted(p for p in named if not _exists(p))
    assert not missing, f"docs/method.md names paths that do not exist: {missing}"


def _table_defaults(doc: str = DOC) -> dict[str, dict[str, str]]:
    """{estimator: {option: default}} from the bold values of the estimator table's options column."""
    rows = re.findall(r"^\| `(\w+)`(?: \([^)]*\))? \|[^|]*(?:\|[^|\n]*)*?\| ([^\n]*) \|$", doc, re.MULTILINE)
    table = {}
    for name, options in rows:
        if name in ADVANTAGES:
            table[name] = dict(re.findall(r"(\w+) \*\*([^*]+)\*\*", options))
    return table


def row_problems(name: str, doc: str = DOC) -> list[str]:
    """What is wrong with estimator ``name``'s row in the §2 table of ``doc`` (the text of
    docs/method.md): none, or it has no row, or its bold defaults differ from the registry's."""
    documented = _table_defaults(doc).get(name)
    if not documented:
        return [f"estimator {name!r} has no row in docs/method.md §2"]
    code = ADVANTAGES[name].option_defaults
    problems = []
    for option, value in documented.items():
        if option not in code:
            problems.append(f"{name}: docs/method.md lists option {option!r}, which the estimator lacks")
            continue
        expected = "null" if code[option] is None else str(code[option]).lower()
        if value != expected:
            problems.append(f"{name}.{option}: docs/method.md says {value}, the code {expected}")
    undocumented = set(code) - set(documented) - {"w_g", "w_s", "eps"}
    if undocumented:
        problems.append(f"{name}: options missing from docs/method.md §2: {sorted(undocumented)}")
    return problems


@pytest.mark.parametrize("name", sorted(ADVANTAGES))
def test_estimator_defaults_match_the_registry(name):
    assert row_problems(name) == []
