"""The package's imports run one way, in the layer order its docstring states, without circles.

Every import of a ``bot_repro`` module is read from the source with ``ast``, wherever it sits (top
level, inside a function or an ``if``: a lazy import that dodges a circle is still a circle) and
however deep the module (``from bot_repro.trainer.monitors import X`` is an import of
``bot_repro.trainer.monitors``, layer of ``trainer``); ``importlib.import_module("bot_repro....")``
with a literal name counts too. Importing a module implicitly imports its parent packages, and those
implicit edges are not counted. The checks are functions of a module table (name -> source file), so
a test can plant an import in a copy of one module and see the check fail.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

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


def _known(name: str, known: set[str]) -> str | None:
    """The deepest module of ``known`` that ``name`` is or lies in (``bot_repro.a.b.Cls`` -> ``bot_repro.a.b``)."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in known:
            return ".".join(parts[:i])
    return None


def _named(node: ast.AST) -> list[str]:
    """Module names an ``import``, ``from ... import`` or ``import_module("...")`` node names (absolute)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module":
        arg = node.args[0] if node.args else None
        return [arg.value] if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else []
    return []


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """bot_repro modules ``name`` imports (``from a.b import c`` counts a.b.c when c is a module)."""
    is_pkg = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            found |= {mod, *(f"{mod}.{a.name}" for a in node.names)}
        else:
            found |= set(_named(node))
    resolved = {_known(m, known) for m in found if m == "bot_repro" or m.startswith("bot_repro.")}
    return {m for m in resolved if m is not None and m != name}


def _layer_of(module: str, layers: list[list[str]]) -> int:
    short = module.removeprefix("bot_repro").lstrip(".")
    top = short.split(".")[0] if short else ""
    for i, names in enumerate(layers):
        if top in names:
            return i
    raise AssertionError(f"{module}: its top-level name {top!r} is in no layer of bot_repro's docstring")


def upward_imports(mods: dict[str, Path], layers: list[list[str]]) -> list[str]:
    """Every import of a module of a higher layer than the importer's, as ``a (layer i) imports b (layer j)``."""
    known = set(mods)
    upward = []
    for name, path in mods.items():
        if name == "bot_repro":
            continue
        mine = _layer_of(name, layers)
        for dep in sorted(_imports(name, path, known)):
            if dep != "bot_repro" and _layer_of(dep, layers) > mine:
                upward.append(f"{name} (layer {mine}) imports {dep} (layer {_layer_of(dep, layers)})")
    return upward


def circles(mods: dict[str, Path]) -> list[str]:
    """Every import circle found by a depth-first walk, as ``a -> b -> a``."""
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
    found = []

    def visit(n: str) -> None:
        state[n] = 1
        stack.append(n)
        for d in sorted(graph[n]):
            if state.get(d) == 1:
                found.append(" -> ".join(stack[stack.index(d):] + [d]))
            elif d not in state:
                visit(d)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)
    return found


def _planted(tmp_path: Path, module: str, line: str) -> dict[str, Path]:
    """The real module table with ``module``'s source replaced by a copy that ends with ``line``."""
    mods = _modules()
    copy = tmp_path / mods[module].name
    copy.write_text(mods[module].read_text() + "\n" + line + "\n")
    return {**mods, module: copy}


def test_every_module_is_in_a_layer_and_imports_only_down():
    layers = _layers()
    assert len(layers) >= 4, layers
    upward = upward_imports(_modules(), layers)
    assert not upward, "\n".join(upward)


def test_no_import_circles():
    found = circles(_modules())
    assert not found, "\n".join(found)


def test_config_sits_below_trainer():
    layers = _layers()
    assert _layer_of("bot_repro.config", layers) < _layer_of("bot_repro.trainer.monitors", layers)


@pytest.mark.parametrize("line", [
    "from bot_repro.trainer.monitors import MonitorCfg",
    "def f():\n    from bot_repro.trainer.monitors import MonitorCfg",
    "if True:\n    import bot_repro.trainer.monitors",
    "from bot_repro.trainer import monitors",
    "from bot_repro import trainer",
    "class C:\n    def m(self):\n        from bot_repro.trainer.build import build_trainer",
    "import importlib\nimportlib.import_module('bot_repro.trainer.callbacks')",
])
def test_a_planted_config_to_trainer_import_fails_the_check(tmp_path, line):
    """config.py with one import of the trainer added, at any depth: the layer check reports it."""
    layers = _layers()
    upward = upward_imports(_planted(tmp_path, "bot_repro.config", line), layers)
    config, trainer = _layer_of("bot_repro.config", layers), _layer_of("bot_repro.trainer", layers)
    assert upward, f"the check missed {line!r} in config.py"
    assert all(u.startswith(f"bot_repro.config (layer {config}) imports bot_repro.trainer")
               and u.endswith(f"(layer {trainer})") for u in upward), upward


def test_a_planted_circle_fails_the_check(tmp_path):
    """registry.py importing a module that imports it back: the circle check reports it."""
    found = circles(_planted(tmp_path, "bot_repro.registry", "def f():\n    from bot_repro.rewards import base"))
    assert found and all("bot_repro.registry" in c for c in found), found
