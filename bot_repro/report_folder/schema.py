"""The report folder's format (see the package docstring): file names, the ``summary.json`` shape
and its version, and the one reader and writer of each file.

``FORMAT_VERSION`` is written into every ``summary.json`` and checked by ``read_summary``: a summary
of another version, or one without the required keys, is a ``ReportFormatError`` naming the file and
what is wrong, never a KeyError deep in a comparison.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FORMAT_VERSION = 1
KNOWN_VERSIONS = (1,)

SUMMARY = "summary.json"
SUMMARY_MD = "summary.md"
RUNS_TABLE = "runs.csv"
POLICY = "policy.json"  # in a sweep folder and in the archive's runs/: the starting policy the runs share
LOAD = "load.csv"  # in a sweep folder and in the archive's runs/: the machine's load while the sweep trained
FIGURE_SUFFIXES = (".png", ".pdf")

REQUIRED_META = ("command", "git_sha", "date", "machine", "experiment")
TOP_KEYS = ("format_version", "meta", "summaries", "step0")
SUMMARY_KEYS = ("metric", "threshold", "group_by", "groups")


class ReportFormatError(ValueError):
    """A ``summary.json`` that does not have the report folder's shape."""


def _check(doc: Any, where: str) -> dict:
    if not isinstance(doc, dict):
        raise ReportFormatError(f"{where}: a summary is a JSON object, got {type(doc).__name__}")
    version = doc.get("format_version")
    if version not in KNOWN_VERSIONS:
        raise ReportFormatError(f"{where}: format_version={version!r}; this code reads {KNOWN_VERSIONS}")
    unknown = sorted(set(doc) - set(TOP_KEYS))
    if unknown:
        raise ReportFormatError(f"{where}: unknown key {unknown[0]!r}; allowed: {', '.join(TOP_KEYS)}")
    meta = doc.get("meta")
    missing = [k for k in REQUIRED_META if not isinstance(meta, dict) or k not in meta]
    if missing:
        raise ReportFormatError(f"{where}: meta lacks {', '.join(missing)} (required: {', '.join(REQUIRED_META)})")
    if not isinstance(doc.get("summaries"), list):
        raise ReportFormatError(f"{where}: 'summaries' must be a list (one summary per reported metric)")
    for i, summary in enumerate(doc["summaries"]):
        lacks = [k for k in SUMMARY_KEYS if not isinstance(summary, dict) or k not in summary]
        if lacks:
            raise ReportFormatError(f"{where}: summaries[{i}] lacks {', '.join(lacks)}")
    if "step0" in doc and not isinstance(doc["step0"], dict):
        raise ReportFormatError(f"{where}: 'step0' must be an object")
    return doc


def write_summary(folder: str | Path, meta: dict, summaries: list[dict], step0: dict | None = None) -> Path:
    """Write ``<folder>/summary.json`` in the current format; the document is checked first, so a
    report that could not be read back is never written."""
    doc: dict[str, Any] = {"format_version": FORMAT_VERSION, "meta": meta, "summaries": summaries}
    if step0 is not None:
        doc["step0"] = step0
    path = Path(folder) / SUMMARY
    _check(json.loads(json.dumps(doc)), str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2) + "\n")
    return path


def read_summary(folder_or_file: str | Path) -> dict:
    """The checked ``summary.json`` of a report folder (or the file itself)."""
    path = Path(folder_or_file)
    path = path / SUMMARY if path.is_dir() else path
    try:
        doc = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ReportFormatError(f"{path}: not JSON ({exc})") from exc
    return _check(doc, str(path))


def write_policy(folder: str | Path, policy: dict) -> Path:
    path = Path(folder) / POLICY
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(policy, indent=2) + "\n")
    return path


def read_policy(folder: str | Path) -> dict | None:
    """The starting policy a sweep or an archive records (``policy_hash``, ...), None when it records none."""
    path = Path(folder) / POLICY
    return json.loads(path.read_text()) if path.is_file() else None
