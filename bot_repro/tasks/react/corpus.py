"""React prompts: load (built-in corpus, any JSONL, a saved or hub dataset), split 80/20, chat rows.

A row is {"id", "prompt": chat messages, "request": the user's request, "category"}; the system
message depends on the model family (docs/method.md §7: Qwen2.5 plain, SmolLM3 with thinking disabled,
Phi-4-mini-reasoning thinking always on, so its answer comes after ``</think>``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from bot_repro.config_schema import ConfigError

BUILTIN = Path(__file__).with_name("data") / "prompts.jsonl"

_RULES = (
    "You are an expert front-end engineer. Answer the request with one complete single-file React app "
    "written in TypeScript (TSX) and styled with Tailwind CSS utility classes, inside one ```tsx code block. "
    "The file must `export default` the app component. Import only from react (and react-dom): no other "
    "packages, no CSS files, no images or data from the network; use made-up sample data instead. "
)
SYSTEM_PROMPTS = {
    "qwen2": _RULES + "Keep any explanation short and put it after the code block.",
    # SmolLM3 reads /no_think in the system prompt as "thinking off".
    "smollm3": _RULES + "Keep any explanation short and put it after the code block.\n/no_think",
    "gemma3": _RULES + "Keep any explanation short and put it after the code block.",
    # Phi-4-mini-reasoning always thinks; the code is taken from after </think>.
    "phi3": _RULES + "Think the design through first inside <think> and </think>, then give the final code block "
                     "after </think>.",
}


def system_prompt(family: str) -> str:
    if family not in SYSTEM_PROMPTS:
        raise ConfigError(f"unknown model family {family!r} for the react task; allowed: {', '.join(SYSTEM_PROMPTS)}")
    return SYSTEM_PROMPTS[family]


def _text_of(value: Any, where: str) -> str:
    """A request from a prompt cell: a string, or chat messages (the last user message)."""
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, list):
        users = [m.get("content") for m in value if isinstance(m, dict) and m.get("role") == "user"]
        if users and isinstance(users[-1], str) and users[-1].strip():
            return users[-1].strip()
    raise ConfigError(f"{where}: the prompt must be a non-empty string or chat messages with a user turn, "
                      f"got {str(value)[:80]!r}")


def load_records(source: str, path: str | None, prompt_column: str, category_column: str | None,
                 id_column: str, hf_split: str, hf_config: str | None) -> list[dict[str, str]]:
    """Records {"id", "request", "category"} from the configured source, in file order."""
    if source == "builtin":
        raw = _read_jsonl(BUILTIN)
    elif source == "jsonl":
        raw = _read_jsonl(Path(_need_path(path, source)))
    elif source in ("disk", "hf"):
        import datasets

        target = _need_path(path, source)
        ds = datasets.load_from_disk(target) if source == "disk" else datasets.load_dataset(
            target, hf_config, split=hf_split)
        if isinstance(ds, datasets.DatasetDict):
            if hf_split not in ds:
                raise ConfigError(f"dataset {target!r} has no split {hf_split!r}; splits: {', '.join(ds)}")
            ds = ds[hf_split]
        raw = [dict(r) for r in ds]
    else:
        raise ConfigError(f"unknown react data source {source!r}; allowed: builtin, jsonl, disk, hf")
    if not raw:
        raise ConfigError(f"react data source {source!r} ({path}) has no rows")
    records, seen = [], set()
    for n, r in enumerate(raw):
        where = f"react data row {n} ({source}: {path or BUILTIN.name})"
        if prompt_column not in r:
            raise ConfigError(f"{where}: no column {prompt_column!r}; columns: {', '.join(map(str, r))}")
        rid = str(r.get(id_column, f"row-{n}"))
        if rid in seen:
            raise ConfigError(f"{where}: duplicate id {rid!r}")
        seen.add(rid)
        category = str(r.get(category_column) or "uncategorised") if category_column else "uncategorised"
        records.append({"id": rid, "request": _text_of(r[prompt_column], where), "category": category})
    return records


def _need_path(path: str | None, source: str) -> str:
    if not path:
        raise ConfigError(f"react data source {source!r} needs params.path")
    return path


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise ConfigError(f"react prompt file {path} does not exist")
    rows = []
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ConfigError(f"{path}:{n}: not valid JSON ({exc.msg})") from exc
            if not isinstance(row, dict):
                raise ConfigError(f"{path}:{n}: each line must be a JSON object, got {type(row).__name__}")
            rows.append(row)
    return rows


def split(records: list[dict[str, str]], test_fraction: float, seed: int) -> tuple[list, list]:
    """Deterministic split: order by a hash of (seed, id); the first round(fraction * n) are test."""
    ranked = sorted(records, key=lambda r: hashlib.sha256(f"{seed}:{r['id']}".encode()).hexdigest())
    n_test = round(test_fraction * len(records))
    test_ids = {r["id"] for r in ranked[:n_test]}
    return [r for r in records if r["id"] not in test_ids], [r for r in records if r["id"] in test_ids]


def to_row(record: dict[str, str], family: str) -> dict[str, Any]:
    return {
        "id": record["id"],
        "prompt": [{"role": "system", "content": system_prompt(family)},
                   {"role": "user", "content": record["request"]}],
        "request": record["request"],
        "category": record["category"],
    }
