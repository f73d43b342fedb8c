"""Every decimal number a reader sees in README.md and docs/*.md comes from a committed result (#33).

**Which text is read.** ``README.md`` and every ``docs/*.md`` (``docs/method.md`` included), less:
fenced code blocks (lines between ```` ``` ```` fences), inline code (```...```), the target of a Markdown
link or image (``(...)`` after ``]``), HTML comments and bare URLs. What is left is prose and tables.

**What counts as a decimal number** (``NUMBER``), written not inside a word (``Qwen2.5``, ``a100_80g``
and ``fig5`` are names):
- a number with a decimal point: ``0.838``, ``1.15x``, ``5.8 GB``, ``-0.51``;
- a percentage: ``43%``, ``12.5%``;
- a number with thousands separators: ``33,152``, ``10,556``.
Not counted: plain integers (``8 steps``, ``3/10``, ``13 min``), a dotted version or address with two
or more dots (``1.16.0``, ``127.0.0.1``), a version or section written after a word that says so
(``v0.9``, ``§2.1``, ``Eq. 8``), and digits glued to a letter or underscore before them (``Qwen2.5``).
A version with one dot is written in inline code (```trl==1.16```), where nothing is read.

**Where it must appear** (``sources``): as a number in some text file under ``results/`` that
``git ls-files`` lists, or a member of a report's archive there (JSON, JSONL, CSV, YAML, Markdown, text), other than the hand-written
``README.md`` files there (prose is what is checked, so it cannot be its own source). Numbers match by
value as written: trailing zeros after the point are dropped (``0.33`` matches ``0.330``), thousands
separators are dropped (``3,054`` matches ``3054``), a sign is ignored, and a percentage ``p%`` matches
``p%`` or the fraction ``p/100`` as a file writes it (``12.5%`` matches ``0.125``). A rounded value
does not match an unrounded one: prose that rounds links to the file instead of typing the number.

**Else the allow-list** (``ALLOWED``, per doc or for all): constants that are not results (the paper's
own numbers, a goal, a worked example of a formula), each with the reason. A number that is neither fails the test, which
names the file, the line and the number.

The file list is ``git ls-files``: without git or a checkout the test skips.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation, Overflow

import pytest

from tests.conftest import REPO, committed_texts, tracked

# Constants a doc may state that no result file holds: {doc path or "*": {value as written: why}}.
# Keep it short: a measured number belongs in a committed file under results/, not here.
ALLOWED = {
    "*": {
        "2610.09804": "the paper's arXiv id",
        "1.05": "the real-model bench's goal: our trainer's step at most 1.05x vanilla TRL's (docs/real_model.md)",
    },
    "docs/method.md": {
        # §1: the paper's own numbers, quoted as the claims we test (not our measurements)
        **dict.fromkeys(("61%", "9.6", "6.6", "16.8", "20.6", "8.3", "19.1", "0.236"), "the paper's reported value"),
        # §2's worked check: hand-computed values that tests/unit/test_algorithms.py asserts, not results
        **dict.fromkeys(("0.583333", "0.506897", "0.821993", "0.164399", "1.150791", "2.137183", "0.611111",
                         "0.515201", "0.707105", "1.414211"), "a worked example of the formula"),
    },
}

SOURCE_SUFFIXES = (".json", ".jsonl", ".csv", ".yaml", ".yml", ".md", ".txt")

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
HTML_COMMENT = re.compile(r"<!--.*?-->")
URL = re.compile(r"https?://\S+")
# a version or a section reference: the number right after one of these is not a quantity
NOT_A_QUANTITY = re.compile(r"(?:\bv|§\s?|\bEqs?\.\s?|\bsection\s|\bversion\s)$", re.IGNORECASE)
# a number: not inside a word, not part of a dotted version (no '.digit' on either side)
NUMBER = re.compile(
    r"(?<![\w.,])-?(\d+(?:\.\d+)?%|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+)(?![\d%])(?!\.\d)(?!,\d{3})"
)
# any number in a result file (JSON floats in exponent form included)
SOURCE_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][-+]?\d+)?%?")


def canonical(text: str) -> str | None:
    """``text`` as a plain decimal without trailing zeros, thousands separators or sign ('0.330' -> '0.33')."""
    t = text.replace(",", "").lstrip("-")
    try:
        d = Decimal(t)
        s = format(d.normalize(), "f") if d != 0 else "0"
    except (InvalidOperation, Overflow):  # not a number, or none we quote (a git SHA such as 168e539132556d...)
        return None
    return s.rstrip("0").rstrip(".") if "." in s else s


def prose_lines(text: str) -> list[tuple[int, str]]:
    """``(line number, text)`` of the lines outside fenced code, with inline code, link targets, HTML
    comments and URLs blanked out."""
    out, fenced = [], False
    for i, line in enumerate(HTML_COMMENT.sub(" ", text).splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append((i, URL.sub(" ", LINK_TARGET.sub("] ", INLINE_CODE.sub(" ", line)))))
    return out


def doc_numbers(text: str) -> list[tuple[int, str]]:
    """``(line number, number as written)`` for every decimal number (the module docstring's rule) in ``text``."""
    found = []
    for lineno, line in prose_lines(text):
        for m in NUMBER.finditer(line):
            if not NOT_A_QUANTITY.search(line[: m.start()]):
                found.append((lineno, m.group(0).lstrip("-")))
    return found


def keys(written: str) -> set[str]:
    """The canonical forms a number as written in prose may match in a source file."""
    if written.endswith("%"):
        c = canonical(written[:-1])
        return {f"{c}%", canonical(str(Decimal(written[:-1].replace(",", "")) / 100))} - {None}
    c = canonical(written)
    return {c} if c else set()


def source_keys(text: str) -> set[str]:
    """The canonical forms of every number in a source file's text ('12.5%' gives '12.5%')."""
    out = set()
    for m in SOURCE_NUMBER.finditer(text):
        s = m.group(0)
        pct = s.endswith("%")
        c = canonical(s.rstrip("%"))
        if c is not None:
            out.add(f"{c}%" if pct else c)
    return out


@pytest.fixture(scope="module")
def sources() -> set[str]:
    found: set[str] = set()
    for path, text in committed_texts(SOURCE_SUFFIXES):  # the reports' archived run records included
        if not path.endswith("README.md"):
            found |= source_keys(text)
    return found


def docs() -> list[str]:
    return ["README.md", *sorted(p for p in tracked("docs") if p.endswith(".md"))]


def test_rule_reads_what_the_docstring_says():
    text = (
        "0.838 [0.821, 0.851], 43% and 33,152 tokens; 1.16.0, Qwen2.5, fig5, §2.1, v0.9, 8 steps\n"
        "`0.25 s` and [a](x/0.5.md) and https://h/1.5\n```\n9.75\n```\n12.5% -0.51 1.15x\n"
    )
    assert doc_numbers(text) == [(1, "0.838"), (1, "0.821"), (1, "0.851"), (1, "43%"), (1, "33,152"),
                                 (6, "12.5%"), (6, "0.51"), (6, "1.15")]
    src = source_keys('{"a": 0.330, "b": 33152, "c": 0.125, "d": 1e-05, "e": "7%"}')
    assert keys("0.33") <= src and keys("33,152") <= src and keys("12.5%") & src and keys("7%") & src
    assert keys("0.00001") <= src
    assert not keys("0.3") & src  # rounding is not a match


def test_every_doc_number_has_a_committed_source(sources):
    bad = []
    for path in docs():
        for lineno, written in doc_numbers((REPO / path).read_text()):
            allowed = {**ALLOWED["*"], **ALLOWED.get(path, {})}
            if written not in allowed and not keys(written) & sources:
                bad.append(f"{path}:{lineno}: {written}")
    assert not bad, (
        "numbers in prose with no committed file under results/ holding them (cite or link the file, or add a "
        "commented constant to ALLOWED):\n" + "\n".join(bad)
    )
