"""The package's imports run one way, in the layer order its docstring states, without circles.

Every ``import`` of a ``bot_repro`` module (top-level or inside a function: a lazy import that
dodges a circle is still a circle) is read from the source with ``ast``; importing a module
implicitly imports its parent packages, and those implicit edges are not counted.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import bot_repro

PKG = Path(bot_repro.__file__).parent


def _layers() -> list[list[str]]:
    """The docstring's ``Layers`` block: one line per layer, lowest first, ``N. name, name``."""
    block = bot_repro.__doc__.split("Layers", 1)[1]
    return [[n.strip() for n in m.group(1).split(",")] for m in re.finditer(r"^\s*\d+\.\s+(.+)$", block, re.M)]


def _modules() -> dict[str, Path]:
    out = {}
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG.parent).with_suffix("")
        parts = list(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """bot_repro modules ``name`` imports (``from a.b import c`` counts a.b.c when c is a module)."""
    is_pkg = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            found.add(mod)
            found |= {f"{mod}.{a.name}" for a in node.names if f"{mod}.{a.name}" in known}
    return {m for m in found if m in known and m != name}


def _layer_of(module: str, layers: list[list[str]]) -> int:
    short = module.removeprefix("bot_repro").lstrip(".")
    top = short.split(".")[0] if short else ""
    for i, names in enumerate(layers):
        if top in names:
            return i
    raise AssertionError(f"{module}: its top-level name {top!r} is in no layer of bot_repro's docstring")


def test_every_module_is_in_a_layer_and_imports_only_down():
    layers = _layers()
    assert len(layers) >= 4, layers
    mods = _modules()
    known = set(mods)
    upward = []
    for name, path in mods.items():
        if name == "bot_repro":
            continue
        mine = _layer_of(name, layers)
        for dep in _imports(name, path, known):
            if dep != "bot_repro" and _layer_of(dep, layers) > mine:
                upward.append(f"{name} (layer {mine}) imports {dep} (layer {_layer_of(dep, layers)})")
    assert not upward, "\n".join(upward)


def test_no_import_circles():
    mods = _modules()
    known = set(mods)
    graph = {}
    for name, path in mods.items():
        parents = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
        graph[name] = _imports(name, path, known) - parents
    # a package's __init__ re-exporting its own submodules is not a circle through the package
    for name in graph:
        graph[name] = {d for d in graph[name] if not (mods[d].name == "__init__.py" and name.startswith(d + "."))}
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(n: str) -> None:
        state[n] = 1
        stack.append(n)
        for d in sorted(graph[n]):
            if state.get(d) == 1:
                cycles.append(" -> ".join(stack[stack.index(d):] + [d]))
            elif d not in state:
                visit(d)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)
    assert not cycles, "\n".join(cycles)


def test_checker_sees_an_upward_import(tmp_path):
    """The walker itself: an import from a lower layer to a higher one is reported."""
    src = tmp_path / "mod.py"
    src.write_text("def f():\n    from bot_repro.trainer.build import build_trainer\n")
    found = _imports("bot_repro.tasks.fake", src, set(_modules()))
    assert "bot_repro.trainer.build" in found
    layers = _layers()
    assert _layer_of("bot_repro.trainer.build", layers) > _layer_of("bot_repro.tasks.fake", layers)
