"""Lifetime of the React check objects that own processes or threads (check pool, renderer).

The cleanup is registered once, before anything is started, as a ``weakref.finalize``: it runs
exactly once, on ``close()``, on leaving a ``with`` block, when the object is collected, or at
interpreter exit, so a failed start, a forgotten ``close()`` or a crash in a test leaves no Node
or Chromium process behind.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any


class OwnsProcesses:
    _finalizer: weakref.finalize

    def _cleanup_with(self, fn: Callable[..., None], *args: Any) -> None:
        """Register ``fn(*args)`` as the cleanup; ``args`` must not hold ``self`` (that would keep it alive)."""
        self._finalizer = weakref.finalize(self, fn, *args)

    def close(self) -> None:
        self._finalizer()

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
