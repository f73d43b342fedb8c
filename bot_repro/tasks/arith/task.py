"""The arith task and its reward source ``arith`` (AIME's prompts, parser, checker and Eq. 8).

``ArithTask`` is an ``AimeTask`` whose rows come from ``data.split_problems`` (at ``level``
one_step or two_step) instead of a file; its evaluation adds step metrics. ``shots`` worked
examples (further generated problems of the same level, never a training or held-out problem's
arithmetic, with their reference solutions in the step format, so a one_step prompt shows one-step solutions; the
system prompt is the same at both levels) go before each problem as earlier user / assistant turns of the chat: SmolLM2-135M ignores the format when it is only
described, and copies it from an earlier assistant turn (results/real_small/README.md). ``ArithReward`` is AIME's reward (default step scorer: the
arithmetic rule) plus components for the curves of ``experiment=real_small``: ``format_ok``,
``format_perfect``, ``steps_checked`` (steps holding an "a op b = c" claim), ``steps_true``
(those whose claims all hold) and ``steps_grounded`` (true, and every operand is the problem's or
an earlier grounded result: ``aime.grounding``); the pooled step accuracy of a batch is
``steps_true`` over ``steps_checked``, the grounded one ``steps_grounded`` over ``steps_checked``.
The three counts come from the rule's step classes whatever the step source. The reward's ``correct``
and the evaluation's pass@k read the answer by one rule, ``tags.strict_answer`` (#51): a number
alone in a closed ``<final>`` block, where AIME reads the paper's lenient way.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from bot_repro.config_schema import ConfigError, build_options
from bot_repro.rewards.base import REWARD_SOURCES, RewardCfg, RewardResult
from bot_repro.tasks.aime.reward import make_aime_reward
from bot_repro.tasks.aime.steps import STATUSES, step_statuses
from bot_repro.tasks.aime.tags import MALFORMED, PERFECT, ParsedSolution, parse_solution, strict_answer
from bot_repro.tasks.aime.task import AimeTask, AimeTaskParams
from bot_repro.tasks.arith.data import LEVELS, split_problems
from bot_repro.tasks.base import TASKS


@dataclass
class ArithTaskParams:
    n_train: int = 256
    n_test: int = 32
    seed: int = 0  # the problems are a function of it (not of the run's seed)
    level: str = "two_step"  # one_step | two_step (data.py); two_step is the problem set of earlier runs
    shots: int = 0  # worked examples of the same level, as earlier chat turns (see the module docstring)
    ks: list[int] = field(default_factory=lambda: [1, 2, 4])
    system_prompt: str | None = None  # null: the model family's AIME prompt (step format)
    check_workers: int = 1
    check_timeout_s: float = 10.0

    def __post_init__(self) -> None:
        if self.n_train < 1 or self.n_test < 1:
            raise ConfigError(f"n_train={self.n_train} and n_test={self.n_test} must both be >= 1")
        if self.shots < 0:
            raise ConfigError(f"shots={self.shots} must be >= 0")
        if self.level not in LEVELS:
            raise ConfigError(f"level={self.level!r} is unknown; allowed: {', '.join(LEVELS)}")


class ArithTask(AimeTask):
    name = "arith"

    def __init__(self, params: ArithTaskParams, family: str):
        aime = AimeTaskParams(source="smoke", ks=params.ks, system_prompt=params.system_prompt,
                              check_workers=params.check_workers, check_timeout_s=params.check_timeout_s)
        super().__init__(aime, family)
        self.arith = params
        self.examples: list[dict[str, Any]] = []  # the worked examples, set with the rows

    def datasets(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The first ``n_train`` generated problems, then ``n_test`` held-out ones and the ``shots``
        examples, none sharing arithmetic with a training problem or each other (``data.split_problems``)."""
        if self._cache is None:
            p = self.arith
            try:
                train, test, self.examples = split_problems(p.n_train, p.n_test, p.shots, p.seed, p.level)
            except ValueError as exc:
                raise ConfigError(f"task.params (arith): {exc}") from None
            self._cache = ([self._row(r) for r in train], [self._row(r) for r in test])
        return self._cache

    def _row(self, row: dict[str, Any]) -> dict[str, Any]:
        row = super()._row(row)
        turns = []
        for ex in self.examples:
            turns += [{"role": "user", "content": ex["problem"]}, {"role": "assistant", "content": solution_text(ex)}]
        return {**row, "prompt": row["prompt"][:1] + turns + row["prompt"][1:]}  # after the system turn

    def read_answer(self, parsed: ParsedSolution, text: str) -> str | None:
        """The answer by arith's strict rule, the reward's too: a number alone in a closed final block."""
        return strict_answer(parsed, text)

    def prompt_messages(self, row: dict[str, Any]) -> list[dict[str, str]]:
        """The chat messages of a run's prompt for the generated ``row``: system prompt, the worked
        examples (``shots``), the problem (the adapter's supervised data uses it: ``warm_start``)."""
        return self._row(row)["prompt"]

    def evaluate_detailed(self, completions, rows):
        """AIME's metrics plus ``step_accuracy`` (checked steps whose claims hold, pooled over
        samples; 0 when no step was checked), ``grounded_step_accuracy`` (checked steps that are
        true and grounded, pooled the same way) and ``checked_steps_per_sample``."""
        metrics, records = super().evaluate_detailed(completions, rows)
        problems = {row["id"]: str(row.get("problem", "")) for row in rows}
        counts = dict.fromkeys(STATUSES, 0)
        for rec in records:
            steps = parse_solution(rec["completion"], timeout_s=self.params.check_timeout_s).steps
            for status in step_statuses(problems[rec["id"]], [step.text for step in steps]):
                counts[status] += 1
        checked = counts["false"] + counts["unsupported"] + counts["grounded"]
        metrics["step_accuracy"] = (counts["unsupported"] + counts["grounded"]) / checked if checked else 0.0
        metrics["grounded_step_accuracy"] = counts["grounded"] / checked if checked else 0.0
        metrics["checked_steps_per_sample"] = checked / max(1, len(records))
        return metrics, records


def solution_text(row: dict[str, Any]) -> str:
    """A row's reference solution in the asked step format."""
    steps = "\n".join(f"<step {i}> {step} </step {i}>" for i, step in enumerate(row["steps"], 1))
    return f"{steps}\n<final> {row['answer']} </final>"


class ArithReward:
    """AIME's reward with the curve components of the arith task added (see the module doc)."""

    def __init__(self, inner):
        self.inner = inner
        self.timeout_s, self.max_steps = inner.params.check_timeout_s, inner.params.max_steps

    def score(self, completions: list[str], rows: list[dict[str, Any]]) -> list[RewardResult]:
        results = self.inner.score(completions, rows)
        for res, text, row in zip(results, completions, rows):
            status = res.info["format"]
            # the steps the inner reward scored: its spans are the step blocks, up to max_steps
            steps = parse_solution(text if isinstance(text, str) else "", timeout_s=self.timeout_s).steps
            classes = step_statuses(str(row.get("problem", "")), [s.text for s in steps[: self.max_steps]])
            res.components.update(
                format_ok=float(status != MALFORMED),
                format_perfect=float(status == PERFECT),
                steps_checked=float(sum(c != "none" for c in classes)),
                steps_true=float(sum(c in ("unsupported", "grounded") for c in classes)),
                steps_grounded=float(classes.count("grounded")),
            )
        return results


@REWARD_SOURCES.register("arith")
def make_arith_reward(reward: RewardCfg, context: dict[str, Any]) -> ArithReward:
    """``reward`` as for ``aime`` (its params); ``params.step_source`` defaults to ``rule``; the answer
    is read by the strict rule (``tags.strict_answer``), so ``answer_fallback_boxed`` does not apply."""
    if "answer_fallback_boxed" in reward.params:
        raise ConfigError("reward.params.answer_fallback_boxed does not apply to source 'arith': its answer is "
                          "a number alone in a closed <final> block (tags.strict_answer), with no \\boxed{} fallback")
    params = {"step_source": "rule", **reward.params}
    return ArithReward(make_aime_reward(replace(reward, params=params), context, answer_rule=strict_answer))


@TASKS.register("arith")
def make_arith_task(task_params: dict[str, Any], model_cfg: dict[str, Any]) -> ArithTask:
    params = build_options(ArithTaskParams, dict(task_params or {}), "task.params (arith)")
    family = (model_cfg or {}).get("family")
    if not family:
        raise ConfigError("model.family is required by the arith task (it selects the system prompt)")
    return ArithTask(params, family)
