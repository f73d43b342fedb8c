"""Paths as published: no file under ``results/`` names a folder of the machine that made it.

A report names its sweep folder and starting policy, and a run records its command line; written
as they are, those hold this machine's absolute paths (``/work/main/runs/...``). ``portable``
rewrites every absolute path under a known root, in any string of a JSON value (keys, values, the
middle of a command line), as the root's label plus the rest: the repository's label is "" (so
``runs/x``), the cache's ``$BOT_REPRO_CACHE/``; a file of an installed package (a command run by
``pytest`` or an entry point, wherever the environment lives) keeps only ``site-packages/...``.
``absolute_paths`` lists what is left, so a publisher can refuse it and a test can scan the
committed files.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot_repro.cache import cache_root
from bot_repro.report_folder import unpacked

REPO = Path(__file__).resolve().parents[1]
CACHE_LABEL = "$BOT_REPRO_CACHE/"
# an absolute path: "/" at the start of a token (after a space, quote, "=" or ":"), then a name
ABSOLUTE = re.compile(r"(?:^|(?<=[\s\"'=:,(\[]))/[A-Za-z0-9_.~-][^\s\"',)\]]*")
# an installed package's file, wherever the environment is: "/any/where/site-packages/pkg/x.py"
SITE_PACKAGES = re.compile(r"(?:^|(?<=[\s\"'=:,(\[]))/[^\s\"',)\]]*?/site-packages/")
# the checkout a run's command ran in: "<checkout>/bot_repro/train.py -m ..."
CHECKOUT = re.compile(r"(?:^|(?<=\s))(/[^\s]+?)/bot_repro/train\.py\b")


def default_roots() -> dict[str, str]:
    """The roots of this machine: the repository (label "") and the cache (``$BOT_REPRO_CACHE/``),
    and each report archive unpacked in this process, labelled as the report folder it came from
    (``<tmp>/runs/x`` -> ``results/mini/runs/x``), so a report redrawn from an archive names its runs
    as the committed one does."""
    base = {str(REPO): "", str(cache_root()): CACHE_LABEL}
    archives = {str(runs.parent): f"{_rewrite(str(report), base)}/" for runs, report in unpacked().items()}
    return {**base, **archives}


def checkouts(text: str) -> set[str]:
    """The checkout folders named by ``<checkout>/bot_repro/train.py`` in a command line."""
    return set(CHECKOUT.findall(text))


def _rewrite(text: str, roots: Mapping[str, str]) -> str:
    text = SITE_PACKAGES.sub("site-packages/", text)
    # the longest root first, so a cache inside the repository keeps its own label
    for root in sorted(roots, key=len, reverse=True):
        label, root = roots[root], os.path.normpath(root)
        if root == "/":
            raise ValueError("'/' is not a root to make paths relative to")
        pattern = re.compile(r"(?:^|(?<=[\s\"'=:,(\[]))" + re.escape(root) + r"(/|(?=[\s\"',)\]]|$))")
        text = pattern.sub(lambda m, lab=label: lab if m.group(1) else (lab.rstrip("/") or "."), text)
    return text


def portable(value: Any, roots: Mapping[str, str] | None = None) -> Any:
    """A copy of the JSON value ``value`` with each absolute path under one of ``roots`` (folder ->
    label; default ``default_roots()``) rewritten as label + the path below the root; the root
    itself becomes the label without its slash, or "." for the label ""."""
    roots = default_roots() if roots is None else roots
    if isinstance(value, str):
        return _rewrite(value, roots)
    if isinstance(value, Mapping):
        return {portable(k, roots): portable(v, roots) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [portable(v, roots) for v in value]
    return value


def relative(path: str | Path, roots: Mapping[str, str] | None = None) -> str:
    """One path as published: ``portable`` of its absolute form."""
    return portable(os.path.abspath(path), roots)


def absolute_paths(value: Any) -> list[str]:
    """Every absolute path in the strings (keys included) of the JSON value ``value``."""
    if isinstance(value, str):
        return ABSOLUTE.findall(value)
    if isinstance(value, Mapping):
        return [p for k, v in value.items() for p in (*absolute_paths(k), *absolute_paths(v))]
    if isinstance(value, list | tuple):
        return [p for v in value for p in absolute_paths(v)]
    return []
