"""The AIME task (docs/method.md §4): prompts built from the problem sets, and held-out Pass@k.

Training rows come from ``source`` (AIME 1983-2024 by default; ``auto`` falls back to the packaged
smoke set when that cannot be loaded, see ``data``). The test rows are either a
deterministic 80/20 split of it or, when ``eval_set`` is given, that other set (AIME 2024 or
2025); then any training problem whose text also appears in the eval set, or whose year is in
``exclude_years``, is dropped so the test problems are never trained on.

``evaluate`` takes n completions per test row and returns Pass@k (unbiased estimator, mean over
problems) and format rates; ``evaluate_detailed`` also returns one record per sample (answer,
correctness, format status, failure reason) for the trainer to save next to the metrics.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot_repro.config_schema import ConfigError, build_options
from bot_repro.tasks.aime.answer import shared_checker
from bot_repro.tasks.aime.data import (
    AUTO,
    SKYWORK_SUFFIX,
    DataSpec,
    load_rows,
    parse_spec,
    problem_key,
    split_rows,
)
from bot_repro.tasks.aime.prompts import family_of, system_prompt
from bot_repro.tasks.aime.tags import MALFORMED, PERFECT, ParsedSolution, extract_answer, parse_solution
from bot_repro.tasks.base import TASKS, Task
from bot_repro.tasks.passk import mean_pass_at_k

log = logging.getLogger(__name__)


@dataclass
class AimeTaskParams:
    source: str = AUTO  # hub id, local .csv/.jsonl/.json/.parquet, "smoke", or "auto" (the hub set, else smoke)
    columns: dict[str, str] | None = None  # None: detect the layout (see data.py)
    hub_split: str = "train"
    strip_suffixes: list[str] = field(default_factory=lambda: [SKYWORK_SUFFIX])
    # None: split ``source``; else a file or hub id, or a mapping of DataSpec keys
    eval_set: str | dict[str, Any] | None = None
    exclude_years: list[int] = field(default_factory=list)  # training rows of these years are dropped
    split_seed: int = 0
    test_fraction: float = 0.2
    limit: int | None = None  # keep at most this many rows of each split (smoke runs)
    ks: list[int] = field(default_factory=lambda: [1, 2, 4])  # n per problem is the trainer's eval.n_samples
    answer_fallback_boxed: bool = True  # no <final> block: check the last \boxed{} instead
    system_prompt: str | None = None  # replaces the family's template
    check_workers: int = 2
    check_timeout_s: float = 10.0

    def __post_init__(self) -> None:
        self.ks = [int(k) for k in self.ks]
        if not self.ks or any(k < 1 for k in self.ks):
            raise ConfigError(f"ks={self.ks} must be a non-empty list of integers >= 1")
        if self.limit is not None and self.limit < 1:
            raise ConfigError(f"limit={self.limit} must be >= 1 or null")
        if not 0.0 < self.test_fraction < 1.0:
            raise ConfigError(f"test_fraction={self.test_fraction} must be in (0, 1)")
        if self.exclude_years and self.eval_set is None:
            raise ConfigError("exclude_years only applies with an eval_set (the split never mixes sets)")
        if self.check_workers < 1 or self.check_timeout_s <= 0:
            raise ConfigError(
                f"check_workers={self.check_workers} must be >= 1 and check_timeout_s={self.check_timeout_s} > 0"
            )


class AimeTask(Task):
    name = "aime"

    def __init__(self, params: AimeTaskParams, family: str):
        self.params = params
        self.family = family
        self.system_prompt = system_prompt(family, params.system_prompt)
        fields = {"source": params.source, "columns": params.columns, "hub_split": params.hub_split}
        self.source_spec = build_options(
            DataSpec, {**fields, "strip_suffixes": params.strip_suffixes}, "task.params"
        )
        self.eval_spec = (
            None if params.eval_set is None else parse_spec(params.eval_set, "task.params.eval_set")
        )
        self._cache: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None
        self._warned: set[tuple[tuple[int, ...], int]] = set()

    def _row(self, row: dict[str, Any]) -> dict[str, Any]:
        prompt = [
            {"role": "system", "content": self.system_prompt},
            {"role": "user", "content": row["problem"]},
        ]
        return {**row, "prompt": prompt}

    def datasets(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        if self._cache is None:
            p = self.params
            rows = load_rows(self.source_spec)
            if self.eval_spec is None:
                train, test = split_rows(rows, p.split_seed, p.test_fraction)
            else:
                test = load_rows(self.eval_spec)
                held_out = {problem_key(r["problem"]) for r in test}
                excluded = set(p.exclude_years)
                train = [
                    r for r in rows if problem_key(r["problem"]) not in held_out and r["year"] not in excluded
                ]
                if not train:
                    raise ConfigError(
                        f"no training rows left after removing the eval set {self.eval_spec.source!r}"
                    )
                train.sort(key=lambda r: r["id"])
            log.info(
                "aime data: %d problems from %s -> %d train, %d test (%d dropped as eval-set overlap or excluded year)",
                len(rows), self.source_spec.source, len(train), len(test),
                0 if self.eval_spec is None else len(rows) - len(train),
            )  # fmt: skip
            if p.limit is not None:
                train, test = train[: p.limit], test[: p.limit]
            self._cache = ([self._row(r) for r in train], [self._row(r) for r in test])
        return self._cache

    def read_answer(self, parsed: ParsedSolution, text: str) -> str | None:
        """The answer text of a completion, by AIME's rule (``tags.extract_answer``; the reward's too)."""
        return extract_answer(parsed, text, self.params.answer_fallback_boxed, timeout_s=self.params.check_timeout_s)

    def evaluate_detailed(
        self, completions: list[list[str]], rows: list[dict[str, Any]]
    ) -> tuple[dict[str, float], list[dict[str, Any]]]:
        """Metrics and one record per sample.

        Pass@k is reported for each k in ``ks`` that is <= the fewest completions of a row; larger
        k are left out with a warning (the trainer's ``eval.n_samples`` sets n; the paper uses 8).
        """
        if len(completions) != len(rows):
            raise ValueError(f"{len(completions)} completion lists for {len(rows)} rows")
        if not rows:
            raise ValueError("evaluation needs at least one row")
        n_min = min(len(samples) for samples in completions)
        ks = [k for k in self.params.ks if k <= n_min]
        skipped = [k for k in self.params.ks if k > n_min]
        if skipped and (tuple(skipped), n_min) not in self._warned:  # once per run, not every evaluation
            self._warned.add((tuple(skipped), n_min))
            log.warning("pass@k for k in %s left out: only %d completion(s) per problem", skipped, n_min)
        golds, preds, parsed_all, where = [], [], [], []
        for r, (row, samples) in enumerate(zip(rows, completions)):
            for s, text in enumerate(samples):
                text = text if isinstance(text, str) else ""
                parsed = parse_solution(text, timeout_s=self.params.check_timeout_s)
                parsed_all.append(parsed)
                golds.append(row["answer"])
                preds.append(self.read_answer(parsed, text))
                where.append((r, s, text))
        checks = shared_checker(self.params.check_workers, self.params.check_timeout_s).check(golds, preds)
        flags: list[list[bool]] = [[] for _ in rows]
        records = []
        for (r, s, text), parsed, pred, check in zip(where, parsed_all, preds, checks):
            flags[r].append(check.correct)
            records.append(
                {
                    "id": rows[r]["id"],
                    "sample": s,
                    "completion": text,
                    "answer": pred,
                    "gold": rows[r]["answer"],
                    "correct": check.correct,
                    "reason": check.reason,
                    "format": parsed.status,
                    "format_problems": parsed.problems,
                    "n_steps": len(parsed.steps),
                }
            )
        n = max(1, len(records))
        metrics = mean_pass_at_k(flags, ks) if ks else {}
        metrics["format_ok_rate"] = sum(p.status != MALFORMED for p in parsed_all) / n
        metrics["format_perfect_rate"] = sum(p.status == PERFECT for p in parsed_all) / n
        metrics["answer_found_rate"] = sum(bool(a) for a in preds) / n
        metrics["sample_accuracy"] = sum(rec["correct"] for rec in records) / n
        return metrics, records

    def evaluate(self, completions: list[list[str]], rows: list[dict[str, Any]]) -> dict[str, float]:
        """``pass@k`` for each k in ``ks``, ``format_ok_rate`` (no tag error), ``format_perfect_rate``,
        ``answer_found_rate`` and ``sample_accuracy``; all in [0, 1]."""
        return self.evaluate_detailed(completions, rows)[0]

    def evaluate_and_save(
        self, completions: list[list[str]], rows: list[dict[str, Any]], step_dir: str | Path
    ) -> dict[str, float]:
        """``evaluate`` that also writes ``samples.jsonl`` (one record per sample) and
        ``problems.jsonl`` (per problem: correct count out of n) into ``step_dir``."""
        metrics, records = self.evaluate_detailed(completions, rows)
        step_dir = Path(step_dir)
        write_jsonl(step_dir / "samples.jsonl", records)
        per_problem = [
            {"id": row["id"], "gold": row["answer"], "n": len(samples),
             "correct": sum(rec["correct"] for rec in records if rec["id"] == row["id"])}
            for row, samples in zip(rows, completions)
        ]  # fmt: skip
        write_jsonl(step_dir / "problems.jsonl", per_problem)
        return metrics

    def tokenizer_corpus(self) -> list[str]:
        """Texts a tiny test tokenizer is trained on: the prompt, problems and tagged examples."""
        train, _ = self.datasets()
        examples = [
            f"<step 1> {a} + {b} = {a + b} </step 1>\n<step 2> {a + b} * 2 = {2 * (a + b)} </step 2>\n"
            f"<final> {2 * (a + b)} </final>"
            for a, b in [(3, 4), (12, 30), (100, 250), (7, 8)]
        ]
        return [self.system_prompt] + [r["problem"] for r in train[:500]] + examples


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record) + "\n")


@TASKS.register("aime")
def make_aime_task(task_params: dict[str, Any], model_cfg: dict[str, Any]) -> AimeTask:
    """``task_params`` is the task config's ``params`` section (the whole ``{name, params}``
    section is accepted too); ``model_cfg["family"]`` picks the system prompt."""
    values = dict(task_params or {})
    if "params" in values and set(values) <= {"name", "params"}:
        values = dict(values["params"] or {})
    params = build_options(AimeTaskParams, values, "task.params")
    family = (model_cfg or {}).get("family")
    if not family:
        raise ConfigError("model.family is required by the aime task (it selects the system prompt)")
    if params.system_prompt is None:
        family_of(family)  # fail now on an unknown family
    return AimeTask(params, family)
