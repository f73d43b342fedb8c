"""Turn a config section into a typed options object, failing with the bad key and the allowed ones."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


class ConfigError(ValueError):
    """A config value or key is invalid; raised before any model or data is loaded."""


def build_options(schema: type[T], values: dict[str, Any] | None, where: str) -> T:
    """Instantiate dataclass ``schema`` from ``values``; unknown keys raise ``ConfigError``.

    ``where`` names the config section (e.g. ``"reward"``) in the message.
    """
    values = dict(values or {})
    allowed = [f.name for f in dataclasses.fields(schema)]
    unknown = sorted(set(values) - set(allowed))
    if unknown:
        raise ConfigError(f"unknown key(s) {unknown} in {where}; allowed keys: {', '.join(allowed)}")
    try:
        return schema(**values)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"invalid {where}: {exc}") from exc
