"""AIME problem sets: loading (hub id, local CSV / JSONL / JSON / parquet, or the packaged smoke
set), column mapping, row validation, de-duplication and the deterministic train/test split.

The training set is AIME 1983-2024 (933 problems) from the Hugging Face dataset
``gneubig/aime-1983-2024`` (a mirror of the Kaggle set "AIME Problem Set 1983-2024"; columns ID,
Year, Question, Answer). Any other hub id or a local file can be given instead (task param
``source``). The rows are not shipped: the problems are the MAA's (docs/method.md §4, "AIME data").

``source=auto`` (conf/task/aime.yaml's default) loads that hub set when it can (network, or the
local Hugging Face cache under ``HF_HUB_OFFLINE=1``) and otherwise the packaged smoke set, with a
warning that says so; the figures' configs pin the hub id, so they fail instead. A named hub id
that cannot be loaded fails with one line naming it and the offline alternatives, before any model loads.

Columns are found by layout when not given: "kaggle" (Question / Answer / ID / Year), "verl"
(prompt[-1].content / reward_model.ground_truth / extra_info.index or id, the Skywork-OR1 eval
files) or "plain" (problem / answer / id / year, the Qwen2.5-Math eval files and our smoke set).
An explicit ``columns`` mapping takes dotted paths with list indices and "|" alternatives, e.g.
``{problem: "prompt.-1.content", answer: "reward_model.ground_truth", id: "extra_info.index|extra_info.id"}``.

Every row is validated: a problem that is empty or holds control characters (broken ``\\f``
escapes in some AIME copies), or an answer that is not an integer in 0-999 after normalisation
("025" and "336^\\circ" are fine), fails with the file and the 0-based row index. A text file
(CSV / JSONL / JSON) that is not valid UTF-8 or a JSONL line that is not JSON fails with the
file and the 1-based line.
"""

from __future__ import annotations

import json
import logging
import math
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot_repro.config_schema import ConfigError, build_options
from bot_repro.tasks.aime.answer import ANSWER_MAX, ANSWER_MIN, normalise_integer

DEFAULT_HUB_ID = "gneubig/aime-1983-2024"
SMOKE = "smoke"  # the small arithmetic set shipped in this package (smoke.jsonl)
AUTO = "auto"  # DEFAULT_HUB_ID when it loads, else SMOKE (with a warning)
SMOKE_PATH = Path(__file__).with_name("smoke.jsonl")
# relative paths are tried against the working directory, then the checkout (Hydra may chdir)
REPO_ROOT = Path(__file__).resolve().parents[3]
FILE_SUFFIXES = (".csv", ".jsonl", ".json", ".parquet")
# Skywork-OR1's AIME 2024 prompts end with this; its 2025 prompts do not (see the data notes)
SKYWORK_SUFFIX = "Let's think step by step and output the final answer within \\boxed{}."

LAYOUTS: dict[str, dict[str, str]] = {
    "kaggle": {"problem": "Question", "answer": "Answer", "id": "ID", "year": "Year"},
    "verl": {
        "problem": "prompt.-1.content",
        "answer": "reward_model.ground_truth",
        "id": "extra_info.index|extra_info.id",
        "year": "data_source",
    },
    "plain": {"problem": "problem", "answer": "answer", "id": "id", "year": "year|url"},
}
FIELDS = ("problem", "answer", "id", "year")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]")

log = logging.getLogger(__name__)


class AimeDataError(ValueError):
    """A data row is invalid; the message names the file (or hub id) and the 0-based row."""


class AimeDataUnavailable(ConfigError):
    """A hub dataset could not be loaded (offline, unreachable, unknown); one line with what to do."""

    def __init__(self, source: str, cause: str):
        self.cause = cause
        super().__init__(
            f"task.params.source={source!r}: cannot load this Hugging Face dataset ({cause}). Offline "
            f"alternatives: task.params.source={SMOKE} (16 small problems shipped in the package, for smoke "
            f"runs) or task.params.source=<local {'|'.join(FILE_SUFFIXES)} file> (a copy of the set)"
        )


@dataclass
class DataSpec:
    """Where one problem set comes from and how to read it (the ``eval_set`` param takes the same keys)."""

    source: str
    columns: dict[str, str] | None = None  # None: detect the layout from the first record
    hub_split: str = "train"
    year: int | None = None  # a constant year for files that do not state one
    id_prefix: str = ""
    strip_suffixes: list[str] = field(default_factory=lambda: [SKYWORK_SUFFIX])

    def __post_init__(self) -> None:
        if not isinstance(self.source, str) or not self.source.strip():
            raise ConfigError(f"source={self.source!r} must be a hub id, a file path, {SMOKE!r} or {AUTO!r}")
        if self.columns is not None:
            self.columns = dict(self.columns)
            unknown = sorted(set(self.columns) - set(FIELDS))
            if unknown:
                raise ConfigError(f"unknown column key(s) {unknown}; allowed: {', '.join(FIELDS)}")
            missing = [k for k in ("problem", "answer") if not self.columns.get(k)]
            if missing:
                raise ConfigError(f"columns must name {missing} (given: {self.columns})")
        self.strip_suffixes = list(self.strip_suffixes or [])


def _resolve_file(source: str) -> Path:
    path = Path(source).expanduser()
    candidates = [path] if path.is_absolute() else [Path.cwd() / path, REPO_ROOT / path]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise ConfigError(f"data file {source!r} not found (tried {', '.join(str(c) for c in candidates)})")


def read_records(spec: DataSpec) -> tuple[list[dict[str, Any]], str]:
    """Raw records of ``spec.source`` and a name for error messages."""
    source = spec.source.strip()
    if source == SMOKE:
        return _read_file(SMOKE_PATH), str(SMOKE_PATH)
    if source == AUTO:
        try:
            return _read_hub(DEFAULT_HUB_ID, spec.hub_split)
        except AimeDataUnavailable as exc:
            log.warning(
                "task.params.source=auto: the AIME set %s cannot be loaded (%s); training on the packaged smoke "
                "set (%s) instead. Pin task.params.source=%s to fail instead.",
                DEFAULT_HUB_ID, exc.cause, SMOKE_PATH.name, DEFAULT_HUB_ID,
            )  # fmt: skip
            return _read_file(SMOKE_PATH), f"{SMOKE_PATH} (source=auto: {DEFAULT_HUB_ID} unavailable)"
    looks_like_file = source.endswith(FILE_SUFFIXES) or source.startswith((".", "/", "~"))
    if looks_like_file or Path(source).expanduser().is_file():
        path = _resolve_file(source)
        return _read_file(path), str(path)
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", source):
        raise ConfigError(
            f"source={source!r} is neither a file ({', '.join(FILE_SUFFIXES)}), a hub id (owner/name), "
            f"{SMOKE!r} nor {AUTO!r}"
        )
    return _read_hub(source, spec.hub_split)


def _read_hub(source: str, split: str) -> tuple[list[dict[str, Any]], str]:
    import datasets  # only the hub path needs it; keeps worker processes light

    try:
        records = datasets.load_dataset(source, split=split).to_list()
    except Exception as exc:  # offline, unreachable, unknown id, missing split: one line, no traceback
        lines = str(exc).strip().splitlines()
        raise AimeDataUnavailable(source, f"{type(exc).__name__}: {lines[0] if lines else 'no message'}") from None
    return records, f"hub:{source}[{split}]"


def _read_text(path: Path) -> str:
    """The file decoded as UTF-8; invalid bytes fail with the file, line and byte offset."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        bad = data[exc.start : exc.end].hex(" ")
        raise AimeDataError(
            f"{path}: line {line} is not valid UTF-8 (bytes {bad} at offset {exc.start}: {exc.reason})"
        ) from None


def _read_file(path: Path) -> list[dict[str, Any]]:
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        import pandas as pd

        return pd.read_parquet(path).to_dict("records")
    if suffix == ".csv":
        import pandas as pd

        # strings as written: keep "025" and IDs like "1983-1" unchanged
        try:
            return pd.read_csv(path, dtype=str, keep_default_na=False).to_dict("records")
        except UnicodeDecodeError:
            _read_text(path)  # raises the error naming the line
            raise
    if suffix == ".json":
        try:
            records = json.loads(_read_text(path))
        except json.JSONDecodeError as exc:
            raise AimeDataError(f"{path}: line {exc.lineno} is not valid JSON: {exc}") from exc
        if not isinstance(records, list):
            raise AimeDataError(f"{path}: expected a JSON list of records, got {type(records).__name__}")
        return records
    if suffix == ".jsonl":
        records = []
        # split on "\n" only: str.splitlines() would also split inside strings holding U+2028 etc.
        for line_no, line in enumerate(_read_text(path).split("\n"), 1):
            if line.strip():
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise AimeDataError(f"{path}: line {line_no} is not valid JSON: {exc}") from exc
        return records
    raise ConfigError(f"unsupported data file {path} (allowed: {', '.join(FILE_SUFFIXES)})")


def _lookup(record: Any, spec: str) -> tuple[Any, bool]:
    """Follow a dotted path with list indices; the first "|" alternative that resolves wins."""
    for alternative in spec.split("|"):
        value, found = record, True
        for part in alternative.split("."):
            if isinstance(value, dict):
                found = part in value
                value = value.get(part)
            elif re.fullmatch(r"-?\d+", part) and hasattr(value, "__len__") and not isinstance(value, str):
                index = int(part)
                found = -len(value) <= index < len(value)
                value = value[index] if found else None
            else:
                found = False
            if not found:
                break
        if found:
            return value, True
    return None, False


def _columns(spec: DataSpec, first: dict[str, Any], where: str) -> dict[str, str]:
    if spec.columns is not None:
        columns = spec.columns
        for key in ("problem", "answer"):
            if not _lookup(first, columns[key])[1]:
                raise ConfigError(
                    f"{where}: column {columns[key]!r} ({key}) not found; fields: {sorted(first)}"
                )
        return columns
    for layout in LAYOUTS.values():
        if all(_lookup(first, layout[k])[1] for k in ("problem", "answer")):
            return layout
    raise ConfigError(
        f"{where}: no known layout fits fields {sorted(first)}; known layouts: "
        + "; ".join(f"{name} {layout}" for name, layout in LAYOUTS.items())
        + ". Give the task param columns={problem: ..., answer: ..., id: ..., year: ...}"
    )


def _year(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return int(value) if math.isfinite(value) else None
    text = str(value)
    # "2024_AIME_I" in a url, or "aime24" in a data_source name
    m = re.search(r"(?<!\d)(19[89]\d|20\d\d)(?!\d)", text) or re.search(r"aime[_-]?(\d\d)(?!\d)", text, re.I)
    if not m:
        return None
    year = int(m.group(1))
    return year if year > 99 else 2000 + year


def _clean_problem(value: Any, suffixes: list[str]) -> str | None:
    if not isinstance(value, str):
        return None
    text = value.strip()
    for suffix in suffixes:
        if suffix and text.endswith(suffix):
            text = text[: -len(suffix)].strip()
    return text


def problem_key(problem: str) -> str:
    """What counts as the same problem: equal text up to whitespace."""
    return " ".join(problem.split())


def load_rows(spec: DataSpec) -> list[dict[str, Any]]:
    """Validated, de-duplicated rows ``{id, problem, answer, year}`` of one problem set."""
    records, where = read_records(spec)
    if not records:
        raise AimeDataError(f"{where}: no rows")
    columns = _columns(spec, records[0], where)
    rows: list[dict[str, Any]] = []
    seen_problem: dict[str, int] = {}
    seen_id: dict[str, int] = {}
    for i, record in enumerate(records):
        if not isinstance(record, dict):
            raise AimeDataError(f"{where}: row {i} is a {type(record).__name__}, not a record")
        raw_problem, _ = _lookup(record, columns["problem"])
        problem = _clean_problem(raw_problem, spec.strip_suffixes)
        if not problem:
            raise AimeDataError(f"{where}: row {i}: problem {raw_problem!r} is empty or not text")
        bad = _CONTROL.search(problem)
        if bad:
            raise AimeDataError(
                f"{where}: row {i}: problem holds control character U+{ord(bad.group()):04X} "
                "(a broken LaTeX escape such as \\f in \\frac?)"
            )
        raw_answer, _ = _lookup(record, columns["answer"])
        answer = normalise_integer(raw_answer)
        if answer is None or not ANSWER_MIN <= answer <= ANSWER_MAX:
            raise AimeDataError(f"{where}: row {i}: answer {raw_answer!r} is not an integer in 0-999")
        raw_id, has_id = _lookup(record, columns["id"]) if columns.get("id") else (None, False)
        row_id = spec.id_prefix + (str(raw_id).strip() if has_id and str(raw_id).strip() else str(i))
        year = spec.year
        if year is None and columns.get("year"):
            year = _year(_lookup(record, columns["year"])[0])
        key = problem_key(problem)
        if key in seen_problem:
            continue  # the same problem again: keep the first copy
        if row_id in seen_id:
            raise AimeDataError(
                f"{where}: row {i}: id {row_id!r} already used by row {seen_id[row_id]} for another problem"
            )
        seen_problem[key], seen_id[row_id] = i, i
        rows.append({"id": row_id, "problem": problem, "answer": str(answer), "year": year})
    return rows


def split_rows(rows: list[dict[str, Any]], seed: int, test_fraction: float) -> tuple[list[dict], list[dict]]:
    """Deterministic split: sort by id (file order does not matter), shuffle with ``seed``, cut.

    The test part has round(N * test_fraction) rows, at least one, and leaves at least one for training.
    """
    if not 0.0 < test_fraction < 1.0:
        raise ConfigError(f"test_fraction={test_fraction!r} must be in (0, 1)")
    if len(rows) < 2:
        raise ConfigError(f"cannot split {len(rows)} row(s) into train and test")
    ordered = sorted(rows, key=lambda r: r["id"])
    random.Random(seed).shuffle(ordered)
    n_test = min(max(1, round(len(ordered) * test_fraction)), len(ordered) - 1)
    return ordered[n_test:], ordered[:n_test]


def parse_spec(value: str | dict[str, Any], where: str) -> DataSpec:
    """A data spec from a bare source string or a mapping of ``DataSpec`` keys."""
    values = {"source": value} if isinstance(value, str) else dict(value)
    return build_options(DataSpec, values, where)
