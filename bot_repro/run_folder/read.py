"""Readers of the run folder: find run folders, read ``metrics.jsonl``, the Hydra config and ``run.json``.

A run directory is any folder holding ``metrics.jsonl``; ``.hydra/config.yaml`` and ``run.json`` are
optional (a run killed early may lack them) and their absent values become ``None``. A sweep (Hydra
multirun) is a folder of run directories, so every root is searched recursively.

``metrics.jsonl`` rules:

- each non-blank line is a JSON object with an integer ``step`` >= 0; ``time`` and ``generated_tokens``
  are required from step 1 on and default to 0 on step 0 (the pre-training evaluation may log only
  ``eval/...`` keys);
- a malformed line raises ``MetricsFormatError`` naming the file and line number, except a last line
  that is not valid JSON: that is what a run killed mid-write leaves, so it is skipped with a warning;
- a resumed run restarts from a checkpoint and logs some steps again: the LAST occurrence of a step
  wins, and when the step counter goes backwards, records of the abandoned attempt at or beyond the
  restart step are dropped even if the new attempt has not reached them yet.

``run.json``: its ``format_version`` must be one this reader knows (``schema.KNOWN_VERSIONS``); one
without the field reads as version 1.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml
from omegaconf import DictConfig, ListConfig, OmegaConf

from bot_repro.run_folder.schema import CONFIG, FORMAT_KEY, KNOWN_VERSIONS, METRICS, RUN_INFO

# Keys with this prefix are read from run.json instead of the Hydra config (e.g. "run.status").
RUN_INFO_PREFIX = "run."

RootsArg = str | os.PathLike | Iterable[str | os.PathLike]


class MetricsFormatError(ValueError):
    """A metrics.jsonl line (not a truncated last line) cannot be read."""


class RunFormatError(ValueError):
    """A run.json of a format version this reader does not know."""


def find_run_dirs(roots: RootsArg) -> list[tuple[str, Path]]:
    """``(run_id, run_dir)`` for every folder at or below ``roots`` that holds ``metrics.jsonl``.

    ``run_id`` is the run directory's path relative to the common parent of the roots (e.g.
    ``"sweep_a/3"``), so ids stay unique and readable across several sweeps.
    """
    root_paths = _as_paths(roots)
    missing = [str(r) for r in root_paths if not r.exists()]
    if missing:
        raise FileNotFoundError(f"run root(s) do not exist: {', '.join(missing)}")
    run_dirs = sorted({m.parent.resolve() for r in root_paths for m in r.rglob(METRICS)})
    if not run_dirs:
        raise FileNotFoundError(
            f"no run directories (folders holding {METRICS}) under {', '.join(map(str, root_paths))}"
        )
    base = Path(os.path.commonpath([r.resolve().parent for r in root_paths]))
    return [(d.relative_to(base).as_posix(), d) for d in run_dirs]


def _as_paths(roots: RootsArg) -> list[Path]:
    if isinstance(roots, str | os.PathLike):
        return [Path(roots)]
    paths = [Path(r) for r in roots]
    if not paths:
        raise ValueError("no run roots given")
    return paths


def read_metrics(path: str | Path) -> list[dict[str, Any]]:
    """The records of one metrics.jsonl in step order, deduplicated as the module docstring says."""
    path = Path(path)
    lines = path.read_text().splitlines()
    numbered = [(i + 1, line) for i, line in enumerate(lines) if line.strip()]
    kept: dict[int, dict[str, Any]] = {}
    previous_step = -1
    for position, (line_no, line) in enumerate(numbered):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            if position == len(numbered) - 1:
                warnings.warn(
                    f"{path}:{line_no}: skipping truncated last line (run killed mid-write?): {exc}",
                    stacklevel=2,
                )
                break
            raise MetricsFormatError(f"{path}:{line_no}: not valid JSON ({exc}): {line[:200]!r}") from exc
        step = _check_record(record, path, line_no)
        if step < previous_step:
            # A restart from an earlier checkpoint: later steps of the old attempt are abandoned.
            kept = {s: r for s, r in kept.items() if s < step}
        kept[step] = record
        previous_step = step
    return [kept[s] for s in sorted(kept)]


def counter_total(values: Iterable[float]) -> float:
    """The total of a cumulative counter over a run's records in step order, when a resumed attempt may have
    started it again from 0 (``eval_seconds`` in runs resumed before it was restored from the checkpoint):
    the sum of each attempt's last value."""
    values = list(values)
    return float(sum(a for a, b in zip(values, [*values[1:], 0.0]) if b < a))


def _check_record(record: Any, path: Path, line_no: int) -> int:
    where = f"{path}:{line_no}"
    if not isinstance(record, dict):
        raise MetricsFormatError(f"{where}: expected a JSON object, got {type(record).__name__}")
    if "step" not in record:
        raise MetricsFormatError(f"{where}: record has no 'step' key (keys: {sorted(record)})")
    step = record["step"]
    if isinstance(step, float) and step.is_integer():
        step = int(step)
    if isinstance(step, bool) or not isinstance(step, int) or step < 0:
        raise MetricsFormatError(f"{where}: 'step' must be an integer >= 0, got {record['step']!r}")
    record["step"] = step
    for key in ("time", "generated_tokens"):
        value = record.get(key)
        if value is None and step == 0:
            record[key] = 0.0
        elif not is_number(value):
            raise MetricsFormatError(f"{where}: step {step} needs a numeric {key!r}, got {value!r}")
    return step


def is_number(value: Any) -> bool:
    """An int or float that is not a bool (the values metrics.jsonl readers keep as metrics)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


_RUNTIME_ONLY = re.compile(r"\$\{(now|hydra):")


def read_config(run_dir: str | Path) -> dict[str, Any] | None:
    """The run's flattened Hydra config (dotted keys), or ``None`` when ``.hydra/config.yaml`` is absent.

    Interpolations are resolved where possible; one that needs Hydra's runtime (``${now:...}``,
    ``${hydra:...}``) keeps its raw text. Lists become JSON strings so that every value can be grouped on.
    """
    path = Path(run_dir) / CONFIG
    if not path.exists():
        return None
    try:
        cfg = OmegaConf.load(path)
    except yaml.YAMLError as exc:
        raise ValueError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(cfg, DictConfig):
        raise ValueError(f"{path}: expected a mapping at the top level, got a list")
    raw = OmegaConf.to_container(cfg, resolve=False)
    flat: dict[str, Any] = {}
    for key, raw_value in _flatten(raw):
        if isinstance(raw_value, str) and _RUNTIME_ONLY.search(raw_value):
            # ${now:...} would resolve to the time of reading, not of the run, once Hydra is imported
            flat[key] = raw_value
            continue
        try:
            value = OmegaConf.select(cfg, key, throw_on_resolution_failure=True)
        except Exception:  # any resolver failure (e.g. Hydra-only resolvers) keeps the text as written
            value = raw_value
        if isinstance(value, DictConfig | ListConfig):
            value = OmegaConf.to_container(value, resolve=False)
        flat[key] = _scalar(value)
    for weight in ("w_g", "w_s"):
        # runs made before validation refused it (issue #24): the TRL trainer let algorithm.options.<w>
        # override reward.<w>, so such a run trained with the former; label it by that
        if flat.get(f"algorithm.options.{weight}") is not None:
            flat[f"reward.{weight}"] = flat[f"algorithm.options.{weight}"]
    return flat


def _flatten(tree: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(tree, dict) and tree:
        out: list[tuple[str, Any]] = []
        for key, value in tree.items():
            out.extend(_flatten(value, f"{prefix}{key}."))
        return out
    return [(prefix[:-1], tree)]


def _scalar(value: Any) -> Any:
    if isinstance(value, list | dict):
        return json.dumps(value, sort_keys=True, default=str)
    return value


def read_run_json(run_dir: str | Path) -> dict[str, Any] | None:
    """The run's ``run.json`` (``format_version`` first: 1 where the file lacks it), or ``None`` when
    absent; ``RunFormatError`` for a version this reader does not know."""
    path = Path(run_dir) / RUN_INFO
    if not path.exists():
        return None
    try:
        info = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid JSON: {exc}") from exc
    if not isinstance(info, dict):
        raise ValueError(f"{path}: expected a JSON object, got {type(info).__name__}")
    version = info.get(FORMAT_KEY, 1)
    if isinstance(version, bool) or version not in KNOWN_VERSIONS:
        raise RunFormatError(
            f"{path}: {FORMAT_KEY}={version!r} is not a run-folder format this bot_repro reads "
            f"(it reads {list(KNOWN_VERSIONS)}; a run.json without the field is version 1): read it with the "
            "bot_repro that wrote it, or update bot_repro"
        )
    return {FORMAT_KEY: version, **info}


def read_run_info(run_dir: str | Path) -> dict[str, Any] | None:
    """The run.json fields flattened with a ``run.`` prefix, or ``None`` when the file is absent."""
    info = read_run_json(run_dir)
    if info is None:
        return None
    return {f"{RUN_INFO_PREFIX}{key}": _scalar(value) for key, value in _flatten(info)}
