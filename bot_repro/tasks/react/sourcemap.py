"""Map a position in the page script back to a line of the sample (source map v3, VLQ mappings).

A runtime error's stack names positions in app.js; the reward needs the sample line to penalise.
"""

from __future__ import annotations

import bisect
import json
import re

_B64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}
_FRAME = re.compile(r"app\.js:(\d+):(\d+)")


def _vlq(segment: str) -> list[int]:
    values, shift, acc = [], 0, 0
    for ch in segment:
        digit = _B64[ch]
        acc += (digit & 31) << shift
        if digit & 32:
            shift += 5
            continue
        values.append(-(acc >> 1) if acc & 1 else acc >> 1)
        shift, acc = 0, 0
    return values


class SourceMap:
    """Decoded mappings: for each generated line, sorted (column, original line) pairs."""

    def __init__(self, map_json: str):
        data = json.loads(map_json)
        self.lines: list[tuple[list[int], list[int]]] = []
        src_line = 0
        for gen_line in data.get("mappings", "").split(";"):
            cols, origs = [], []
            col = 0
            for seg in gen_line.split(","):
                if not seg:
                    continue
                v = _vlq(seg)
                col += v[0]
                if len(v) >= 4:
                    src_line += v[2]
                    cols.append(col)
                    origs.append(src_line)
            self.lines.append((cols, origs))

    def original_line(self, line: int, column: int) -> int | None:
        """0-indexed sample line for 0-indexed generated (line, column); None when unmapped."""
        if not 0 <= line < len(self.lines):
            return None
        cols, origs = self.lines[line]
        if not cols:
            return None
        i = bisect.bisect_right(cols, column) - 1
        return origs[max(i, 0)]


def line_from_stack(stack: str, smap: SourceMap | None) -> int | None:
    """The sample line of the first app.js frame in a V8 stack (1-based line:col), if any."""
    if smap is None:
        return None
    for m in _FRAME.finditer(stack or ""):
        line = smap.original_line(int(m.group(1)) - 1, int(m.group(2)) - 1)
        if line is not None:
            return line
    return None
