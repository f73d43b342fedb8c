"""Figure 2's evaluation: ABBA pairwise win rate of a reference run against baseline runs over training.

Inputs are the held-out evaluations the React task saved during training
(``<run>/eval/step_NNNNNN/rollouts.jsonl`` with ``screens/*.png``; ``python -m bot_repro.experiment evaluate heldout``
writes the same layout for a checkpoint evaluated offline). For each seed, the reference run
(e.g. BoT-GRPO) and each baseline run of that seed are compared at every evaluation step both have:
prompt by prompt, rollout k of one against rollout k of the other, with the React task's
``win_rate`` (the pairwise judge, four ABBA-ordered calls, docs/method.md §5). A rollout that did not render
has no screenshot and loses to one that did (both missing: a tie with no judge call).

Results are written as run-like folders (``metrics.jsonl`` with ``pairwise/win_rate``,
``pairwise/tie_rate``, ``pairwise/n`` per step, ``.hydra/config.yaml`` naming the pair), so the
figure is drawn by the same loaders and bootstrap-over-seeds statistics as every other figure.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from bot_repro.analysis.load import load_run_table
from bot_repro.experiment.run_table import latest_per_cell
from bot_repro.run_folder import metrics_path, read_metrics, write_run_dir
from bot_repro.tasks.react.evaluation import win_rate as react_win_rate

log = logging.getLogger("bot_repro.experiment.pairwise")
STEP_PREFIX = "step_"


@dataclass
class PairwiseCfg:
    """``sweep.pairwise`` of an experiment config."""

    column: str = "algorithm.name"  # the config column naming a run's arm
    reference: str = "bot_grpo"
    baselines: list[str] = field(default_factory=lambda: ["grpo", "pure", "gspo", "dapo"])
    step_every: int = 0  # judge steps that are multiples of this and the last common one (0: every common step)
    max_prompts: int | None = None
    rollouts_per_prompt: int = 1

    def __post_init__(self) -> None:
        if self.step_every < 0:
            raise ValueError(f"step_every={self.step_every}; must be >= 0")
        if self.rollouts_per_prompt < 1:
            raise ValueError(f"rollouts_per_prompt={self.rollouts_per_prompt}; must be >= 1")
        if self.reference in self.baselines:
            raise ValueError(f"reference {self.reference!r} is also listed as a baseline")


def eval_steps(run_dir: Path) -> dict[int, Path]:
    """step -> evaluation folder holding rollouts.jsonl."""
    out = {}
    for folder in (Path(run_dir) / "eval").glob(f"{STEP_PREFIX}*"):
        if (folder / "rollouts.jsonl").is_file() and folder.name[len(STEP_PREFIX):].isdigit():
            out[int(folder.name[len(STEP_PREFIX):])] = folder
    return out


def read_rollouts(eval_dir: Path) -> dict[tuple[str, int], dict[str, Any]]:
    """(prompt id, rollout index) -> record with ``request`` and ``png`` (a path or None)."""
    out = {}
    with (Path(eval_dir) / "rollouts.jsonl").open(encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                key = (str(rec["id"]), int(rec["rollout"]))
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{eval_dir}/rollouts.jsonl:{line_no}: not a rollout record ({exc})") from exc
            shot = rec.get("screenshot")
            png = Path(eval_dir) / shot if shot else None
            out[key] = {"request": str(rec.get("request", "")), "png": png if png and png.is_file() else None}
    return out


def pair_inputs(dir_a: Path, dir_b: Path, max_prompts: int | None, rollouts_per_prompt: int):
    """(pngs_a, pngs_b, prompts) for the (prompt, rollout) pairs both evaluations hold, in prompt order."""
    a, b = read_rollouts(dir_a), read_rollouts(dir_b)
    prompt_ids = list(dict.fromkeys(pid for pid, _ in a if any(k[0] == pid for k in b)))
    if max_prompts is not None:
        prompt_ids = prompt_ids[:max_prompts]
    keys = [(pid, k) for pid in prompt_ids for k in range(rollouts_per_prompt) if (pid, k) in a and (pid, k) in b]
    return [a[k]["png"] for k in keys], [b[k]["png"] for k in keys], [a[k]["request"] for k in keys]


def _steps_to_judge(steps_a: dict[int, Path], steps_b: dict[int, Path], every: int) -> list[int]:
    common = sorted(set(steps_a) & set(steps_b))
    return [s for s in common if every == 0 or s % every == 0 or s == common[-1]]


def _clock(run_dir: Path) -> dict[int, tuple[float, float]]:
    """step -> (time, generated_tokens) of the reference run, so win rates can be drawn against either."""
    try:
        return {r["step"]: (float(r["time"]), float(r["generated_tokens"])) for r in read_metrics(metrics_path(run_dir))}
    except (OSError, ValueError):
        return {}


def compare_runs(ref_dir: Path, base_dir: Path, cfg: PairwiseCfg, judge, win_rate) -> list[dict[str, Any]]:
    """metrics.jsonl records of ``pairwise/*`` for every step both runs evaluated."""
    steps_a, steps_b = eval_steps(ref_dir), eval_steps(base_dir)
    clock = _clock(ref_dir)
    records = []
    for step in _steps_to_judge(steps_a, steps_b, cfg.step_every):
        pngs_a, pngs_b, prompts = pair_inputs(steps_a[step], steps_b[step], cfg.max_prompts, cfg.rollouts_per_prompt)
        if not prompts:
            log.warning("step %d: %s and %s share no evaluated prompt; skipped", step, ref_dir, base_dir)
            continue
        result = win_rate(pngs_a, pngs_b, prompts, judge)
        time, tokens = clock.get(step, (0.0, 0.0))
        records.append({"step": step, "time": time, "generated_tokens": tokens,
                        **{f"pairwise/{k}": float(v) for k, v in result.items()}})
    return records


def pair_runs(table: pd.DataFrame, cfg: PairwiseCfg) -> list[tuple[Any, str, Path, Path]]:
    """(seed, baseline, reference run dir, baseline run dir) for every seed that has both runs."""
    if cfg.column not in table.columns:
        raise ValueError(f"the runs have no config column {cfg.column!r}; columns: {sorted(table.columns)}")
    pairs = []
    for seed, part in table.groupby("seed", sort=True):
        runs = {str(v): Path(d) for v, d in zip(part[cfg.column], part["run_dir"])}
        if cfg.reference not in runs:
            continue
        pairs += [(seed, b, runs[cfg.reference], runs[b]) for b in cfg.baselines if b in runs]
    return pairs


def run_pairwise(source_root: Path, out_dir: Path, cfg: PairwiseCfg, judge, win_rate=None) -> list[Path]:
    """Compare every (reference, baseline) pair of runs under ``source_root``; one folder per pair
    under ``out_dir``. ``win_rate(pngs_a, pngs_b, prompts, judge)`` defaults to the React task's."""
    win_rate = win_rate or react_win_rate
    table = load_run_table(source_root)
    if "run.start_time" not in table.columns:
        table["run.start_time"] = None
    table = latest_per_cell(table, [cfg.column])
    pairs = pair_runs(table, cfg)
    if not pairs:
        found = sorted(map(str, table[cfg.column].dropna().unique())) if cfg.column in table else []
        raise ValueError(
            f"no seed under {source_root} has both a {cfg.reference!r} run and one of {cfg.baselines} "
            f"({cfg.column} values found: {found})"
        )
    written = []
    for seed, baseline, ref_dir, base_dir in pairs:
        records = compare_runs(ref_dir, base_dir, cfg, judge, win_rate)
        config = {"experiment_name": "pairwise", "seed": seed,
                  "pairwise": {"reference": cfg.reference, "baseline": baseline, "column": cfg.column,
                               "reference_run": str(ref_dir), "baseline_run": str(base_dir)}}
        written.append(write_run_dir(out_dir / f"{cfg.reference}_vs_{baseline}_s{seed}", config, records))
        log.info("pairwise %s vs %s seed %s: %d steps judged", cfg.reference, baseline, seed, len(records))
    return written
