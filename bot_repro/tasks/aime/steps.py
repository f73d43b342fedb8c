"""Step scores e_s of AIME solutions (docs/method.md §3): a step judge, a learned PRM, or an offline rule.

Every scorer maps (problem, steps, reference answer) to one score per step, bounded in [-1, 1]:

* ``JudgeStepScorer``: the judge client's ``step_judge(items, strategy)`` with one of the paper's
  three strategies (Fig. 7): ``error_propagation`` (default; after the first -1 later steps get
  0), ``context_aware`` (the judge sees its own earlier verdicts), ``independent``. Verdicts are
  clipped to {-1, 0, +1}; a verdict list of the wrong length scores that solution's steps 0 and
  says so in the returned failure.
* ``PrmStepScorer``: a learned process reward model loaded with transformers, following the
  Qwen2.5-Math-PRM convention: the solution is written as the assistant turn with a separator
  token (``<extra_0>``) after every step; the model's two-class logits at each separator give the
  positive-class probability p, and e_s = 2p - 1. A step whose separator was cut by
  ``max_length`` scores 0.
* ``RuleStepScorer``: offline, no model. It reads arithmetic claims "a op b = c" in a step: a
  false one gives the step -1, otherwise a true one gives +1, otherwise 0 (see ``arithmetic_claims``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from bot_repro.config_errors import ConfigError
from bot_repro.judges.types import StepJudgeInput

STRATEGIES = ("error_propagation", "context_aware", "independent")

# a number: optional minus, digits, optional decimals (no thousands separators)
_NUM = r"-?\d+(?:\.\d+)?"
_OPS = {
    "+": "+", "-": "-", "*": "*", "×": "*", "·": "*", "\\times": "*", "\\cdot": "*", "/": "/", "÷": "/", "\\div": "/",
}  # fmt: skip
_OP = "|".join(re.escape(op) for op in sorted(_OPS, key=len, reverse=True))
_CLAIM = re.compile(rf"({_NUM})\s*({_OP})\s*(\d+(?:\.\d+)?|\(\s*{_NUM}\s*\))\s*=\s*({_NUM})")
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
        claims.append(Claim(m.group(0), _claim_holds(float(a), op, float(b), c)))
    return claims


class RuleStepScorer:
    """-1 if a step holds a false arithmetic claim, +1 if it holds only true ones, 0 without claims."""

    def score(self, problems: list[str], steps: list[list[str]], answers: list[str]):
        scores = []
        for solution in steps:
            row = []
            for step in solution:
                claims = arithmetic_claims(step)
                row.append(0.0 if not claims else (-1.0 if any(not c.true for c in claims) else 1.0))
            scores.append(row)
        return scores, [None] * len(steps)


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
            verdict = list(verdict or [])
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
