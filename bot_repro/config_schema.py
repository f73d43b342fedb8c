"""Turn a config section into a typed options object: an unknown key, a value of the wrong type or a
value out of range fails with the key, the value and what is allowed.

A schema is a dataclass; each field's annotation is its type (``int``, ``float``, ``str``, ``bool``,
``X | None``, ``list[X]``, ``tuple[X, ...]``, ``dict[str, X]``, ``Literal[...]``, ``Any``) and
``checked(default, rule)`` adds a range (``POSITIVE``, ``NON_NEGATIVE``, ``PROBABILITY``,
``one_of(...)``, ``at_least(n)``). ``build_options`` checks both before the dataclass is made, so
``trainer.max_steps=abc`` is refused at validation, not minutes later inside the trainer.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
RULE = "bot_repro_rule"  # dataclass field metadata key of a field's range


class ConfigError(ValueError):
    """A config value or key is invalid; raised before any model or data is loaded."""


@dataclasses.dataclass(frozen=True)
class Rule:
    """The values a field accepts beyond its type; ``text`` says which, in the error message."""

    text: str
    test: Callable[[Any], bool]
    names_type: bool = False  # the text says the type too ("one of a, b"): print it alone


POSITIVE = Rule("> 0", lambda v: v > 0)
NON_NEGATIVE = Rule(">= 0", lambda v: v >= 0)
PROBABILITY = Rule("in [0, 1]", lambda v: 0 <= v <= 1)


def at_least(low: float) -> Rule:
    return Rule(f">= {low}", lambda v: v >= low)


def one_of(*choices: Any) -> Rule:
    return Rule(f"one of {', '.join(map(str, choices))}", lambda v: v in choices, names_type=True)


def checked(default: Any, rule: Rule) -> Any:
    """A dataclass field with ``default`` whose value must pass ``rule`` (None passes, for ``X | None``)."""
    return dataclasses.field(default=default, metadata={RULE: rule})


def build_options(schema: type[T], values: dict[str, Any] | None, where: str) -> T:
    """Instantiate dataclass ``schema`` from ``values``; unknown keys, wrong types and values out of
    range raise ``ConfigError``. ``where`` names the config section (e.g. ``"reward"``) in the message.
    """
    values = dict(values or {})
    fields = dataclasses.fields(schema)  # type: ignore[arg-type]
    allowed = [f.name for f in fields]
    unknown = sorted(set(values) - set(allowed))
    if unknown:
        raise ConfigError(f"unknown key(s) {unknown} in {where}; allowed keys: {', '.join(allowed)}")
    hints = typing.get_type_hints(schema)
    for f in fields:
        if f.name not in values:
            continue
        hint, value = hints[f.name], values[f.name]
        if dataclasses.is_dataclass(hint) and isinstance(value, dict):  # a nested section (trainer.eval)
            values[f.name] = build_options(hint, value, f"{where}.{f.name}")
        else:
            check_value(value, hint, f"{where}.{f.name}", f.metadata.get(RULE))
    try:
        return schema(**values)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"invalid {where}: {exc}") from exc


def check_value(value: Any, hint: Any, key: str, rule: Rule | None = None) -> None:
    """Raise ``ConfigError`` naming ``key``, ``value`` and what is allowed unless ``value`` has type
    ``hint`` (and, when not None, passes ``rule``)."""
    problem = _type_problem(value, hint, key)
    if problem is None and rule is not None and value is not None and not rule.test(value):
        problem = key, value, rule.text if rule.names_type else f"{_describe(_without_none(hint))} {rule.text}"
    elif problem is not None and rule is not None and problem[0] == key:
        problem = key, value, f"{problem[2]} ({rule.text})"
    if problem is not None:
        bad_key, bad_value, expected = problem
        raise ConfigError(f"{bad_key}={bad_value!r} is not allowed: expected {expected}")


def _type_problem(value: Any, hint: Any, key: str) -> tuple[str, Any, str] | None:
    """(key, value, expected) of the first part of ``value`` that does not have type ``hint``, else None."""
    if hint is Any:
        return None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if any(_type_problem(value, a, key) is None for a in args):
            return None
        inner = [_type_problem(value, a, key) for a in args if _container_matches(value, a)]
        return inner[0] if inner else (key, value, _describe(hint))
    if origin is typing.Literal:
        return None if value in args else (key, value, _describe(hint))
    if origin in (list, tuple):
        if not isinstance(value, list | tuple):
            return key, value, _describe(hint)
        item = args[0] if args else Any
        if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
            if len(value) != len(args):
                return key, value, _describe(hint)
            pairs = list(zip(value, args))
        else:
            pairs = [(v, item) for v in value]
        for i, (v, a) in enumerate(pairs):
            if (p := _type_problem(v, a, f"{key}[{i}]")) is not None:
                return p
        return None
    if origin is dict:
        if not isinstance(value, dict):
            return key, value, _describe(hint)
        item = args[1] if len(args) == 2 else Any
        for k, v in value.items():
            if (p := _type_problem(v, item, f"{key}.{k}")) is not None:
                return p
        return None
    if hint is type(None):
        return None if value is None else (key, value, "null")
    if hint is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(hint, type):
        ok = isinstance(value, hint)
    else:  # a hint this checker does not know (a TypeVar, a Protocol): the dataclass decides
        ok = True
    return None if ok else (key, value, _describe(hint))


def _container_matches(value: Any, hint: Any) -> bool:
    """Whether ``value`` is the container ``hint`` names, so an error inside it is the precise one."""
    origin = typing.get_origin(hint)
    return (origin is dict and isinstance(value, dict)) or (origin in (list, tuple) and isinstance(value, list | tuple))


def _without_none(hint: Any) -> Any:
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    return args[0] if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(args) == 1 else hint


_NAMES = {int: "an integer", float: "a number", str: "a string", bool: "true or false", type(None): "null"}


def _describe(hint: Any) -> str:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe(a) for a in args)
    if origin is typing.Literal:
        return f"one of {', '.join(map(str, args))}"
    if origin in (list, tuple):
        return f"a list (items: {_describe(args[0])})" if args and (origin is list or args[-1] is Ellipsis) else "a list"
    if origin is dict:
        return "a mapping"
    if hint in _NAMES:
        return _NAMES[hint]
    return getattr(hint, "__name__", str(hint))
