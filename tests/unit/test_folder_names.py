"""The run folder's and the report folder's file names are spelled in their own modules only
(``bot_repro.run_folder``, ``bot_repro.report_folder``): every other module reaches those files through
them. Read from the source with ``ast``; docstrings and messages may name the files, code may not
build a path from the bare name."""

from __future__ import annotations

import ast
from pathlib import Path

import bot_repro

PKG = Path(bot_repro.__file__).parent
OWNERS = {"run_folder", "report_folder"}
NAMES = {"metrics.jsonl", "run.json", "config.yaml", ".hydra/config.yaml", "overrides.yaml", ".hydra/overrides.yaml",
         "hydra.yaml", "summary.json", "summary.md", "runs.csv", "policy.json", "run.lock"}


def _spelled(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text())
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings and n.value in NAMES]


def test_no_module_outside_the_folder_modules_spells_their_file_names():
    found = {f"{p.relative_to(PKG.parent)}:{line}": name for p in sorted(PKG.rglob("*.py"))
             if p.relative_to(PKG).parts[0] not in OWNERS for line, name in _spelled(p)}
    assert not found, f"file names of run_folder / report_folder spelled elsewhere: {found}"


def test_the_check_sees_a_spelled_name(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('"""Reads run.json."""\nPATH = "run.json"\nprint(f"see {PATH}")\n')
    assert _spelled(bad) == [(2, "run.json")]
