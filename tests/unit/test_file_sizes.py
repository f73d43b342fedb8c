"""Files and functions stay small enough to read whole (issue #32): every module of ``bot_repro/`` and
``bench/`` within about 400 lines, and every function or method of ``bench/`` and ``bot_repro/plots/``
within about 80 (counted from its first decorator to its last line, nested functions included)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

MAX_FILE_LINES = 420
MAX_FUNCTION_LINES = 80


def _python_files(*roots: str) -> list[Path]:
    files = sorted(p for root in roots for p in (REPO / root).rglob("*.py"))
    assert files, roots
    return files


def _function_lengths(path: Path, root: Path = REPO) -> list[tuple[str, int]]:
    """(``path:line name``, lines) of every function and method defined in ``path`` (named from ``root``)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            out.append((f"{path.relative_to(root)}:{node.lineno} {node.name}", node.end_lineno - start + 1))
    return out


def test_no_module_is_over_the_file_limit():
    lengths = {p.relative_to(REPO): len(p.read_text().splitlines()) for p in _python_files("bot_repro", "bench")}
    over = {str(p): n for p, n in lengths.items() if n > MAX_FILE_LINES}
    assert not over, f"over {MAX_FILE_LINES} lines (split them into modules that each own one thing): {over}"


def test_no_function_in_bench_or_plots_is_over_the_function_limit():
    lengths = [f for p in _python_files("bench", "bot_repro/plots") for f in _function_lengths(p)]
    assert any(name.endswith(" plot_curves") for name, _ in lengths)  # the walk sees module functions
    over = {name: n for name, n in lengths if n > MAX_FUNCTION_LINES}
    assert not over, f"over {MAX_FUNCTION_LINES} lines: {over}"


def test_the_counts_are_lines_of_the_definition(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("import functools\n\n\n@functools.cache\ndef f():\n    def g():\n        return 1\n\n    return g\n")
    assert sorted(_function_lengths(path, tmp_path)) == [("m.py:5 f", 6), ("m.py:6 g", 2)]
