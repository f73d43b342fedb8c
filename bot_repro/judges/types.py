"""Inputs and verdicts of the four judge roles (docs/method.md §5); shared by rewards, tasks and evaluation.

Scores are already clipped to [0, 10] and divided by 10. A call with no reply, or with a reply that
cannot be read, gives a failed verdict: ``failed=True``, ``ok=False``, ``score=0.0``, no lines, and the
reason in ``error`` (docs/method.md §5): the rollout is excluded, never trained on that 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class LineImpact:
    """A line the judge blames: 0-indexed line of the code shown to it, impact in {-1, -2, -3}."""

    line: int
    impact: int
    desc: str = ""


@dataclass
class CodeJudgeInput:
    prompt: str
    code: str


@dataclass
class CodeVerdict:
    score: float  # in [0, 1]
    lines: list[LineImpact] = field(default_factory=list)
    non_react: bool = False  # the judge answered with the NON_REACT_CODE sentinel
    ok: bool = True
    raw: str = ""
    error: str = ""  # why ok is False: unparseable reply, failed call (after retries), ...
    failed: bool = False  # no reply, or one that cannot be read (not a verdict: the rollout must not train on it)


@dataclass
class ScreenshotInput:
    prompt: str
    png: bytes | None  # None when there is no screenshot
    code: str = ""  # shown (numbered) only to the 1-turn and 2-turn line variants


@dataclass
class ScreenshotVerdict:
    score: float  # in [0, 1]
    lines: list[LineImpact] = field(default_factory=list)
    ok: bool = True
    raw: str = ""
    error: str = ""  # why ok is False: no screenshot, unparseable reply, failed call, ...
    failed: bool = False  # a call gave no reply, or one that cannot be read (not a verdict: must not train)


@dataclass
class PairInput:
    prompt: str
    png_a: bytes | None
    png_b: bytes | None


@dataclass
class PairResult:
    win_a: float  # 1.0, 0.5 (2-2 tie) or 0.0, from four ABBA-ordered calls
    votes: list[str] = field(default_factory=list)  # the winner per call, as "a"/"b"/"" (failed)
    tie: bool = False
    ok: bool = True  # False when no call gave a vote (then win_a = 0.5, tie = True: no information)


@dataclass
class StepJudgeInput:
    problem: str
    steps: list[str]
    reference_answer: str | None = None
