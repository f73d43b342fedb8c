"""The React task (docs/method.md §4): rows from the prompt corpus, held-out compile rate and saved evaluations.

Registered as ``react``. ``task.params`` choose the data source, the split and the compile check
(``checks``, see ``CheckOptions``); the model family chooses the system prompt.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot_repro.config_schema import ConfigError, build_options
from bot_repro.rewards.base import RewardCfg
from bot_repro.tasks.base import TASKS, Task
from bot_repro.tasks.react.checker import CheckOptions, CheckOutcome, shared_checker
from bot_repro.tasks.react.corpus import load_records, split, system_prompt, to_row
from bot_repro.tasks.react.evaluation import compile_metrics, save_rollouts
from bot_repro.tasks.react.reward import ReactReward


@dataclass
class ReactTaskOptions:
    """``task.params``. source: builtin | jsonl | disk (datasets.save_to_disk) | hf (hub name)."""

    source: str = "builtin"
    path: str | None = None
    prompt_column: str | None = None  # default: "request" for builtin, else "prompt"
    category_column: str | None = "category"
    id_column: str = "id"
    hf_split: str = "train"
    hf_config: str | None = None
    test_fraction: float = 0.2
    split_seed: int = 0
    limit_train: int | None = None
    limit_test: int | None = None
    checks: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 0.0 < self.test_fraction < 1.0:
            raise ValueError(f"test_fraction={self.test_fraction!r}; must be in (0, 1)")


class ReactTask(Task):
    name = "react"

    def __init__(self, task_cfg: dict[str, Any], model_cfg: dict[str, Any]):
        """``task_cfg``: the ``task.params`` mapping (a whole ``{name, params}`` section is accepted too)."""
        params = dict(task_cfg or {})
        if "params" in params and set(params) <= {"name", "params", "smoke"}:
            params = dict(params["params"] or {})
        self.options = build_options(ReactTaskOptions, params, "task.params (react)")
        self.check_options = CheckOptions.from_dict(self.options.checks, "task.params.checks")
        if "family" not in (model_cfg or {}):
            raise ConfigError("the react task needs model.family (one of qwen2, smollm3, phi3) to pick its system prompt")
        self.family = str(model_cfg["family"])
        system_prompt(self.family)  # fail now on an unknown family
        self._rows: tuple[list, list] | None = None

    def datasets(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        if self._rows is None:
            o = self.options
            column = o.prompt_column or ("request" if o.source == "builtin" else "prompt")
            records = load_records(o.source, o.path, column, o.category_column, o.id_column, o.hf_split, o.hf_config)
            train, test = split(records, o.test_fraction, o.split_seed)
            train, test = train[: o.limit_train], test[: o.limit_test]
            self._rows = ([to_row(r, self.family) for r in train], [to_row(r, self.family) for r in test])
        return self._rows

    def check(self, completions: list[list[str]]) -> list[list[CheckOutcome]]:
        """Check n completions per row in one batch; same nesting as the input."""
        flat = [c for per_row in completions for c in per_row]
        outcomes = shared_checker(self.check_options).check(flat)
        nested, pos = [], 0
        for per_row in completions:
            nested.append(outcomes[pos: pos + len(per_row)])
            pos += len(per_row)
        return nested

    def evaluate(self, completions: list[list[str]], rows: list[dict[str, Any]]) -> dict[str, float]:
        if len(completions) != len(rows):
            raise ValueError(f"evaluate got {len(completions)} completion lists for {len(rows)} rows")
        return compile_metrics(self.check(completions))

    def evaluate_and_save(self, completions: list[list[str]], rows: list[dict[str, Any]], out_dir: str | Path,
                          reward=None, title: str = "React evaluation") -> dict[str, float]:
        """``evaluate`` plus rollouts.jsonl, screenshots and index.html under ``out_dir``.

        The reward breakdown comes from ``reward`` (a react reward source) when given, else from
        the judge-free static stack (compile failure, ESLint, compiler and ESLint lines).
        """
        if len(completions) != len(rows):
            raise ValueError(f"evaluate_and_save got {len(completions)} completion lists for {len(rows)} rows")
        if reward is None:
            static = {"code_judge": False, "code_judge_lines": False, "checks": dict(self.options.checks)}
            reward = ReactReward(RewardCfg(source="react", params=static), {"judge": None})
        outcomes = self.check(completions)
        rewards = [reward.score_outcomes(per_row, [row] * len(per_row)) for per_row, row in zip(outcomes, rows)]
        metrics = compile_metrics(outcomes)
        save_rollouts(Path(out_dir), completions, rows, outcomes, rewards, metrics, title)
        return metrics


@TASKS.register("react")
def make_react_task(task_cfg: dict[str, Any], model_cfg: dict[str, Any]) -> ReactTask:
    return ReactTask(task_cfg, model_cfg)
