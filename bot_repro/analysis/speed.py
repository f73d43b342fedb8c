"""FINDINGS' Speed section: the main figures of each ``results/bench/*.json`` (``claims.BENCH``, dotted keys) and
the header fields every bench file carries (``claims.BENCH_HEADER``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot_repro.analysis import claims as table
from bot_repro.analysis.formats import MISSING, cell, number


def _field(doc: dict, key: str) -> Any:
    """A header field at the top of a bench file, or in its ``header`` or ``machine`` block."""
    for node in (doc, doc.get("header"), doc.get("machine")):
        if isinstance(node, dict) and key in node:
            return node[key]
    return None


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return MISSING if value is None else number(value) if isinstance(value, int | float) else str(value)


def speed_section(root: Path) -> list[str]:
    """The Speed section: each bench file's main figures (``claims.BENCH``) and header fields."""
    bench = sorted((root / "bench").glob("*.json"))
    lines = ["## Speed", "", "From `results/bench/*.json` (`make bench`, bench/README.md); a field a file lacks reads n/a.", "",
             f"| file | main figures | {' | '.join(table.BENCH_HEADER)} |", "|---|---|" + "---|" * len(table.BENCH_HEADER)]
    for path in bench:
        doc = json.loads(path.read_text())
        figures = []
        for key in table.BENCH.get(path.name, ()):
            node: Any = doc
            for part in key.split("."):
                node = node.get(part) if isinstance(node, dict) else None
            figures.append(f"{key} {_value(node)}")
        shown = "; ".join(figures) or "none declared in bot_repro/analysis/claims.py"
        header = [_value(_field(doc, k)) for k in table.BENCH_HEADER]
        if _field(doc, "git_dirty") is True:
            header[table.BENCH_HEADER.index("git_sha")] += " (dirty)"
        lines.append(f"| [{path.name}](bench/{path.name}) | {cell(shown)} | {' | '.join(map(cell, header))} |")
    return lines
