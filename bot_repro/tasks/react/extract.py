"""Find the app's code in a model response and remember where it sits.

Line penalties from the compiler, ESLint and the judges are on lines of the extracted code;
the reward maps them onto lines of the full response (docs/method.md §3), so an extraction keeps the
code's character offset and the response line of its first code line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CODE_LANGS = ("tsx", "jsx", "ts", "typescript", "javascript", "js", "react")

_OPEN = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[^\s`]*)[^\n`]*$")


@dataclass(frozen=True)
class Extraction:
    """The code of one fenced block: ``code == response[start:end]``.

    start_line: 0-indexed response line holding code line 0.
    closed: False when the response ended inside the block (a truncated generation).
    """

    code: str
    start: int
    end: int
    start_line: int
    lang: str
    closed: bool

    def response_line(self, code_line: int) -> int:
        return self.start_line + code_line


def _lines_with_offsets(text: str, begin: int) -> list[tuple[int, int, str]]:
    """(line index, start offset, line text without newline) for lines starting at or after ``begin``."""
    out = []
    pos = 0
    for idx, line in enumerate(text.split("\n")):
        if pos >= begin:
            out.append((idx, pos, line))
        pos += len(line) + 1
    return out


def _blocks(text: str, begin: int) -> list[Extraction]:
    lines = _lines_with_offsets(text, begin)
    blocks = []
    i = 0
    while i < len(lines):
        idx, pos, line = lines[i]
        m = _OPEN.match(line)
        if not m:
            i += 1
            continue
        fence = m.group("fence")
        close = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        start = pos + len(line) + 1
        j = i + 1
        while j < len(lines) and not close.match(lines[j][2]):
            j += 1
        closed = j < len(lines)
        # The code ends before the newline that precedes the closing fence.
        end = max(start, lines[j][1] - 1) if closed else len(text)
        start = min(start, len(text))
        blocks.append(Extraction(text[start:end], start, end, idx + 1, m.group("lang").lower(), closed))
        i = j + 1
    return blocks


def extract_code(response: str) -> Extraction | None:
    """The first fenced block tagged as TS/JS/React code, else the largest fenced block, else None.

    A reasoning model's ``<think>`` section may hold draft code; when ``</think>`` occurs, only
    the text after its last occurrence is searched (offsets stay those of the full response).
    """
    begin = 0
    marker = response.rfind("</think>")
    if marker >= 0:
        # Start at the line after the marker so fences are matched at line starts.
        nl = response.find("\n", marker)
        begin = len(response) if nl < 0 else nl + 1
    blocks = _blocks(response, begin)
    if not blocks:
        return None
    for block in blocks:
        if block.lang in CODE_LANGS:
            return block
    return max(blocks, key=lambda b: len(b.code))
