"""Name -> object registries with errors that list the valid names.

Every pluggable piece (advantage estimators, tasks, reward sources, judge backends) is looked up
by the name a Hydra config gives, so a typo must fail early with the allowed names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class UnknownNameError(KeyError):
    """A config named something that is not registered."""

    def __str__(self) -> str:  # KeyError quotes its message; we want it plain
        return str(self.args[0])


class Registry(dict):
    """A dict of name -> object whose failed lookups name the kind and the valid names."""

    def __init__(self, kind: str):
        super().__init__()
        self.kind = kind

    def register(self, name: str) -> Callable[[Any], Any]:
        def wrap(obj: Any) -> Any:
            if name in self:
                raise ValueError(f"{self.kind} {name!r} is registered twice")
            self[name] = obj
            return obj

        return wrap

    def __missing__(self, name: str) -> Any:
        raise UnknownNameError(f"unknown {self.kind} {name!r}; valid names: {', '.join(sorted(self))}")

    def get_checked(self, name: str) -> Any:
        return self[name]
