"""Held-out evaluation of the React task: compile rate, saved rollouts, gallery, pairwise win rate.

``compile_metrics`` turns checked rollouts into the figure metrics; ``save_rollouts`` writes
rollouts.jsonl (code, diagnostics, reward breakdown, line penalties), screenshots and the HTML
gallery; ``win_rate`` compares two checkpoints' screenshots with the ABBA pairwise judge.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot_repro.judges.types import PairInput
from bot_repro.rewards.base import RewardResult
from bot_repro.tasks.react.checker import CheckOutcome
from bot_repro.tasks.react.gallery import write_gallery


def compile_metrics(outcomes: list[list[CheckOutcome]]) -> dict[str, float]:
    """Metrics over n rollouts per test prompt (``outcomes[prompt][rollout]``).

    Rates are over all rollouts: ``blank_render_rate`` counts compiled rollouts whose screenshot
    shows nothing (so compile_rate - blank_render_rate compiled to something visible);
    ``console_error_rate`` those whose page logged at least one console error.
    """
    flat = [o for per_prompt in outcomes for o in per_prompt]
    if not flat:
        return {"compile_rate": 0.0, "n_rollouts": 0.0}
    n = len(flat)
    return {
        "compile_rate": sum(o.compiled for o in flat) / n,
        "compile_any_rate": sum(any(o.compiled for o in p) for p in outcomes) / max(len(outcomes), 1),
        "extract_rate": sum(o.extraction is not None for o in flat) / n,
        "static_pass_rate": sum(o.compiled or o.stage == "render" for o in flat) / n,
        "blank_render_rate": sum(bool(o.compiled and o.blank) for o in flat) / n,
        "console_error_rate": sum(bool(o.console) for o in flat) / n,
        "type_error_rate": sum(any(d.get("source") == "tsc" for d in o.compiler) for o in flat) / n,
        "eslint_errors_mean": sum(sum(m["severity"] != "warning" for m in o.eslint) for o in flat) / n,
        "blocked_requests_mean": sum(len(o.blocked) for o in flat) / n,
        "n_rollouts": float(n),
    }


def save_rollouts(out_dir: Path, completions: list[list[str]], rows: list[dict[str, Any]],
                  outcomes: list[list[CheckOutcome]], rewards: list[list[RewardResult]],
                  metrics: dict[str, float], title: str = "React evaluation") -> Path:
    """Write rollouts.jsonl, screens/*.png, metrics.json and index.html under ``out_dir``."""
    out_dir = Path(out_dir)
    (out_dir / "screens").mkdir(parents=True, exist_ok=True)
    records = []
    for p, (row, comps) in enumerate(zip(rows, completions)):
        for k, text in enumerate(comps):
            out, res = outcomes[p][k], rewards[p][k]
            key = f"{p:04d}_{k:02d}"
            shot = None
            if out.png is not None:
                shot = f"screens/{key}.png"
                (out_dir / shot).write_bytes(out.png)
            records.append({
                "key": key, "id": str(row.get("id")), "category": str(row.get("category", "")),
                "request": str(row.get("request", "")), "rollout": k, "response": text,
                "code": out.extraction.code if out.extraction else None, "screenshot": shot,
                **out.summary(), "global_score": res.global_score, "components": res.components,
                "line_penalties": {str(line): v for line, v in sorted(res.lines.items())},
                "judges": {k2: res.info[k2] for k2 in ("code_judge", "vlm_judge", "judge_error") if k2 in res.info},
            })
    with (out_dir / "rollouts.jsonl").open("w", encoding="utf-8") as f:
        for rec in records:
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    (out_dir / "metrics.json").write_text(json.dumps(metrics, indent=2), encoding="utf-8")
    return write_gallery(out_dir, records, metrics, title)


def _png(value: bytes | str | Path | None) -> bytes | None:
    if value is None or isinstance(value, bytes):
        return value
    path = Path(value)
    return path.read_bytes() if path.is_file() else None


def win_rate(pngs_a: list, pngs_b: list, prompts: list[str], judge) -> dict[str, float]:
    """Win rate of A over B with the ABBA pairwise judge (docs/method.md §5): ties count 0.5 each.

    Screenshots are bytes, paths or None (a checkpoint whose rollout did not render).
    """
    if not (len(pngs_a) == len(pngs_b) == len(prompts)):
        raise ValueError(f"win_rate needs equal lengths, got {len(pngs_a)}, {len(pngs_b)}, {len(prompts)}")
    if not prompts:
        return {"win_rate": 0.0, "tie_rate": 0.0, "n": 0.0}
    items = [PairInput(prompt=p, png_a=_png(a), png_b=_png(b)) for p, a, b in zip(prompts, pngs_a, pngs_b)]
    results = judge.pairwise_abba(items)
    n = len(results)
    return {"win_rate": sum(r.win_a for r in results) / n, "tie_rate": sum(r.tie for r in results) / n,
            "n": float(n)}
