"""Step scores e_s of AIME solutions (docs/method.md §3): a step judge, a learned PRM, or an offline rule.

Every scorer maps (problem, steps, reference answer) to one score per step, bounded in [-1, 1]:

* ``JudgeStepScorer``: the judge client's ``step_judge(items, strategy)`` with one of the paper's
  three strategies (Fig. 7): ``error_propagation`` (default; after the first -1 later steps get
  0), ``context_aware`` (the judge sees its own earlier verdicts), ``independent``. Verdicts are
  clipped to {-1, 0, +1}; a verdict list of the wrong length scores that solution's steps 0 and
  says so in the returned failure. A solution whose judge calls gave no reply gets an ``Outage``
  failure: the reward excludes it from training instead of scoring its steps.
* ``PrmStepScorer``: a learned process reward model loaded with transformers, following the
  Qwen2.5-Math-PRM convention: the solution is written as the assistant turn with a separator
  token (``<extra_0>``) after every step; the model's two-class logits at each separator give the
  positive-class probability p, and e_s = 2p - 1. A step whose separator was cut by
  ``max_length`` scores 0.
* ``RuleStepScorer``: offline, no model. It reads arithmetic claims "a op b = c" in a step
  (``arithmetic_claims``) and classes the step (``step_statuses``): ``false`` (a claim does not
  hold) -1; ``grounded`` (every claim holds and uses only the problem's numbers or earlier grounded
  results, see ``grounding``) +1; ``unsupported`` (every claim holds, one uses other numbers)
  ``RuleOptions.unsupported`` (default 0); ``none`` (no claim) 0. ``RuleOptions.operands=any`` is the
  ungrounded rule of before (every true step +1).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from bot_repro.config_schema import ConfigError
from bot_repro.judges.types import StepJudgeInput
from bot_repro.tasks.aime.grounding import grounded_flags, problem_numbers

STRATEGIES = ("error_propagation", "context_aware", "independent")

# a number: optional minus, digits, optional decimals (no thousands separators)
_NUM = r"-?\d+(?:\.\d+)?"
_OPS = {
    "+": "+", "-": "-", "*": "*", "×": "*", "·": "*", "\\times": "*", "\\cdot": "*", "/": "/", "÷": "/", "\\div": "/",
}  # fmt: skip
_OP = "|".join(re.escape(op) for op in sorted(_OPS, key=len, reverse=True))
_CLAIM = re.compile(rf"(?<![\d.])({_NUM})\s*({_OP})\s*(\d+(?:\.\d+)?|\(\s*{_NUM}\s*\))\s*=\s*({_NUM})")
# (the look-behind keeps finditer from restarting inside a digit run: linear time on long numerals,
# and such a start is skipped below anyway)
# a claim is only read when it is not part of a longer expression: what sits right before ``a``
# or right after ``c`` must not continue the expression
_TOUCHING_BAD = re.compile(r"[\w.,)\]}^!]$")  # directly before a, no space between
_BEFORE_BAD = re.compile(
    r"(?:[\d)\]}+\-*/×·÷^]|\\times|\\cdot|\\div)$"
)  # last thing before a, spaces skipped
_AFTER_BAD = re.compile(r"^(?:\s*[+\-*/×·÷^(%!]|\s*\\(?:times|cdot|div|frac|%)|,\d|[A-Za-z_])")


@dataclass
class Claim:
    text: str
    true: bool
    operands: tuple[float, float] = (math.nan, math.nan)  # a and b
    result: float = math.nan  # c as written


def _claim_holds(a: float, op: str, b: float, c: str) -> bool:
    if op == "/" and b == 0:
        return False
    value = {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else math.nan}[op]
    decimals = len(c.split(".")[1]) if "." in c else 0
    if decimals == 0:
        return abs(value - float(c)) <= 1e-9 * max(1.0, abs(value))
    # a decimal result counts when it is the value rounded to the decimals written
    return abs(value - float(c)) <= 0.5 * 10.0**-decimals + 1e-12


def arithmetic_claims(step: str) -> list[Claim]:
    """The claims "a op b = c" of a step, with a, b, c numbers and op one of + - * / × · ÷ \\times
    \\cdot \\div (b may be a parenthesised negative number).

    Integer results must be exact; a decimal result c with d decimals is true when |a op b - c| <=
    0.5 * 10^-d (a correctly rounded value). Division by zero is false. A match is skipped when it
    is part of a longer expression: ``a`` directly touched by a letter, digit, "_", ".", ",", ")",
    "]", "}", "^" or "!", or (spaces skipped) preceded by a digit, a closing bracket or an operator;
    ``c`` followed by an operator, "%", "^", "(", a letter or ",digit"; a negative ``a`` after a
    word ("x -3 + 4 = 1"). So "2 + 3 * 4 = 14" reads nothing (no precedence guessing), while
    "x = 3 + 4 = 7" reads 3 + 4 = 7.
    """
    claims = []
    for m in _CLAIM.finditer(step):
        before = step[: m.start()]
        if _TOUCHING_BAD.search(before) or _BEFORE_BAD.search(before.rstrip()):
            continue
        if m.group(1).startswith("-") and re.search(r"\w$", before.rstrip()):
            continue  # "x -3 + 4": the minus is a binary operator of a longer expression
        if _AFTER_BAD.match(step[m.end() :]):
            continue
        a, op, b, c = m.group(1), _OPS[m.group(2)], m.group(3).strip("() "), m.group(4)
        x, y = float(a), float(b)
        claims.append(Claim(m.group(0), _claim_holds(x, op, y, c), (x, y), float(c)))
    return claims


STATUSES = ("none", "false", "unsupported", "grounded")  # of a step, for the rule scorer
OPERANDS = ("grounded", "any")


@dataclass
class RuleOptions:
    """``reward.params.rule`` (step_source=rule)."""

    operands: str = "grounded"  # grounded: true steps on other numbers score ``unsupported``; any: +1 (the old rule)
    unsupported: float = 0.0  # score of a true but unsupported step: no credit and no penalty, as the judge's 0

    def __post_init__(self) -> None:
        if self.operands not in OPERANDS:
            raise ConfigError(f"rule.operands={self.operands!r} is unknown; allowed: {', '.join(OPERANDS)}")
        if not isinstance(self.unsupported, int | float) or not -1.0 <= self.unsupported < 1.0:
            raise ConfigError(
                f"rule.unsupported={self.unsupported!r} must be a number in [-1, 1): an unsupported step "
                "must pay less than a grounded one (+1)"
            )


def step_statuses(problem: str, steps: list[str]) -> list[str]:
    """One of ``STATUSES`` per step: ``none`` without claims, ``false`` if a claim does not hold,
    else ``grounded`` if every claim is grounded (``grounding.grounded_flags``), else ``unsupported``."""
    claims = [arithmetic_claims(step) for step in steps]
    flags = grounded_flags(problem_numbers(problem), claims)
    statuses = []
    for step_claims, step_flags in zip(claims, flags):
        if not step_claims:
            statuses.append("none")
        elif not all(c.true for c in step_claims):
            statuses.append("false")
        else:
            statuses.append("grounded" if all(step_flags) else "unsupported")
    return statuses


class RuleStepScorer:
    """Step scores from ``step_statuses``: false -1, grounded +1, unsupported ``options.unsupported``
    (+1 with ``operands=any``), none 0."""

    def __init__(self, options: RuleOptions | None = None):
        self.options = options or RuleOptions()
        unsupported = 1.0 if self.options.operands == "any" else float(self.options.unsupported)
        self.values = {"none": 0.0, "false": -1.0, "unsupported": unsupported, "grounded": 1.0}

    def score(self, problems: list[str], steps: list[list[str]], answers: list[str]):
        scores = [[self.values[s] for s in step_statuses(p, solution)] for p, solution in zip(problems, steps)]
        return scores, [None] * len(steps)


class Outage(str):
    """A step failure that is a judge outage (no reply), not a verdict: the rollout must not train."""


class JudgeStepScorer:
    """Asks the run's judge client for step verdicts in {-1, 0, +1}."""

    def __init__(self, judge: Any, strategy: str, give_reference: bool):
        if judge is None:
            raise ConfigError(
                "reward params step_source=judge needs a judge: set judge=<backend> (judge=loopback for a "
                "local fake) or use step_source=rule|prm|none"
            )
        if strategy not in STRATEGIES:
            raise ConfigError(
                f"step judge strategy {strategy!r} is unknown; allowed: {', '.join(STRATEGIES)}"
            )
        self.judge, self.strategy, self.give_reference = judge, strategy, give_reference

    def score(self, problems: list[str], steps: list[list[str]], answers: list[str]):
        todo = [i for i, s in enumerate(steps) if s]
        items = [
            StepJudgeInput(problems[i], steps[i], answers[i] if self.give_reference else None) for i in todo
        ]
        verdicts = self.judge.step_judge(items, self.strategy) if items else []
        if len(verdicts) != len(items):
            raise RuntimeError(
                f"step judge returned {len(verdicts)} verdict lists for {len(items)} solutions"
            )
        scores: list[list[float]] = [[] for _ in steps]
        failures: list[str | None] = [None] * len(steps)
        for i, verdict in zip(todo, verdicts):
            if verdict is None:
                scores[i] = [0.0] * len(steps[i])  # placeholders: the rollout is excluded
                failures[i] = Outage("step judge call gave no reply (judge outage)")
                continue
            verdict = list(verdict)
            if len(verdict) != len(steps[i]):
                scores[i] = [0.0] * len(steps[i])
                failures[i] = f"step judge gave {len(verdict)} verdicts for {len(steps[i])} steps"
                continue
            try:
                scores[i] = [float(max(-1, min(1, int(v)))) for v in verdict]
            except (TypeError, ValueError):
                scores[i] = [0.0] * len(steps[i])
                failures[i] = f"step judge verdicts {verdict!r} are not integers"
        return scores, failures


@dataclass
class PrmOptions:
    model: str = "Qwen/Qwen2.5-Math-PRM-7B"  # hub id or local directory
    # remote: AutoModel with trust_remote_code (the Qwen2.5-Math-PRM checkpoints);
    # token_classification: AutoModelForTokenClassification with 2 labels
    loader: str = "remote"
    separator: str = "<extra_0>"
    system_prompt: str = "Please reason step by step, and put your final answer within \\boxed{}."
    positive_label: int = 1
    device: str = "auto"  # auto (cuda when available) | cpu | cuda | cuda:N
    dtype: str = "auto"  # auto (bfloat16 on cuda, float32 on cpu) | float32 | bfloat16 | float16
    batch_size: int = 4
    max_length: int = 4096

    def __post_init__(self) -> None:
        if self.loader not in ("remote", "token_classification"):
            raise ConfigError(f"prm.loader={self.loader!r}; allowed: remote, token_classification")
        if self.dtype not in ("auto", "float32", "bfloat16", "float16"):
            raise ConfigError(f"prm.dtype={self.dtype!r}; allowed: auto, float32, bfloat16, float16")
        if self.batch_size < 1 or self.max_length < 8:
            raise ConfigError(f"prm.batch_size={self.batch_size} must be >= 1 and prm.max_length >= 8")


class PrmStepScorer:
    """A learned PRM: e_s = 2 p(positive | separator after step s) - 1."""

    def __init__(self, options: PrmOptions):
        import torch
        from transformers import AutoModel, AutoModelForTokenClassification, AutoTokenizer

        self.options = options
        device = options.device
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        dtype_name = (
            options.dtype
            if options.dtype != "auto"
            else ("bfloat16" if device.startswith("cuda") else "float32")
        )
        remote = options.loader == "remote"
        self.tokenizer = AutoTokenizer.from_pretrained(options.model, trust_remote_code=remote)
        self.sep_id = self.tokenizer.convert_tokens_to_ids(options.separator)
        if self.sep_id is None or self.sep_id == self.tokenizer.unk_token_id:
            raise ConfigError(f"PRM tokenizer of {options.model!r} has no single token {options.separator!r}")
        if not self.tokenizer.chat_template:
            raise ConfigError(f"PRM tokenizer of {options.model!r} has no chat template")
        if self.tokenizer.pad_token_id is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        cls = AutoModel if remote else AutoModelForTokenClassification
        kwargs = {"trust_remote_code": True} if remote else {}
        self.model = (
            cls.from_pretrained(options.model, dtype=getattr(torch, dtype_name), **kwargs).to(device).eval()
        )
        self.device = device

    def _text(self, problem: str, steps: list[str]) -> str:
        sep = self.options.separator
        # a separator written by the policy itself would add a phantom step
        answer = "".join(step.replace(sep, "") + sep for step in steps)
        messages = [
            {"role": "system", "content": self.options.system_prompt},
            {"role": "user", "content": problem},
            {"role": "assistant", "content": answer},
        ]
        return self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=False)

    def score(self, problems: list[str], steps: list[list[str]], answers: list[str]):
        import torch

        scores: list[list[float]] = [[0.0] * len(s) for s in steps]
        failures: list[str | None] = [None] * len(steps)
        todo = [i for i, s in enumerate(steps) if s]
        for start in range(0, len(todo), self.options.batch_size):
            chunk = todo[start : start + self.options.batch_size]
            texts = [self._text(problems[i], steps[i]) for i in chunk]
            enc = self.tokenizer(
                texts, return_tensors="pt", padding=True, truncation=True,
                max_length=self.options.max_length, add_special_tokens=False,
            )  # fmt: skip
            enc = {k: v.to(self.device) for k, v in enc.items()}
            with torch.no_grad():
                out = self.model(**enc)
            logits = out.logits if hasattr(out, "logits") else out[0]
            probs = torch.softmax(logits.float(), dim=-1)[..., self.options.positive_label]
            for row, i in enumerate(chunk):
                positions = (enc["input_ids"][row] == self.sep_id).nonzero(as_tuple=True)[0]
                values = (2.0 * probs[row, positions] - 1.0).tolist()[: len(steps[i])]
                scores[i][: len(values)] = values
                if len(values) < len(steps[i]):
                    failures[i] = f"PRM input truncated: {len(steps[i]) - len(values)} step(s) unscored"
        return scores, failures
