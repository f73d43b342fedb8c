"""The AIME solution format: `<step i>` ... `</step i>` blocks then one `<final>` ... `</final>`.

This module owns the parser (each step's character span and the final answer text) and the
format bonus b_format of Eq. 8 (docs/method.md §3). The grammar, exactly:

* An optional thinking region is skipped first: everything up to and including the first
  ``</think>`` (thinking models such as Phi-4-mini-reasoning write one; a chat template may open
  ``<think>`` inside the prompt, so only the closing tag is required). A ``<think>`` that is never
  closed is a tag error and the whole completion counts as thinking (no steps, no final).
* Tags are ``<step N>`` / ``</step N>`` (N a decimal number; ``</step>`` without a number also
  closes a step), ``<final>`` / ``</final>``. Tags are lower-case; ``<step1>`` (no space) is
  accepted as ``<step 1>``. Anything else, e.g. ``<Step 1>``, is plain text.
* Perfect format (bonus +0.2): one or more step blocks numbered 1, 2, 3, ... in order, then
  exactly one non-empty final block, with only whitespace outside the blocks.
* Tag error (bonus -1.0), the paper's "mismatched or missing tags": no step block, no final
  block, a second final block, a step after the final, misnumbered steps (first is not 1 or a
  number skipped or repeated), a step opened without a number, a tag opened inside another block
  (nesting), a closing tag that does not match the open block (``</step 2>`` closing
  ``<step 1>``), a closing tag with nothing open, or a block left unclosed.
* Otherwise (bonus 0): the tags are right but there is non-whitespace text outside the blocks,
  or the final block is empty.

Extraction is lenient so that a malformed completion still gets step-level signals: a block
left open runs to the next opening tag (or the end of the text), and every step block found is
returned in order. Spans cover the whole block, tags included, in completion-text characters.

Cost: every function here runs in the trainer's own process on untrusted model output, so each is
linear in the text length (the regular expressions use possessive quantifiers, so no backtracking;
``last_boxed`` matches braces with one stack) and each is also bounded in time: ``parse_solution``
and ``extract_answer`` stop after ``timeout_s`` (default ``EXTRACT_TIMEOUT_S``, the answer checker's
default deadline for one math-verify call, ``check_timeout_s`` of the task and the reward), and
then report no answer, so no completion can stall a training step.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

PERFECT, LOOSE, MALFORMED = "perfect", "loose", "malformed"
# the time one extraction step may take: AnswerChecker's default deadline (check_timeout_s)
EXTRACT_TIMEOUT_S = 10.0

# possessive quantifiers: "<step" followed by 100 KB of spaces would otherwise backtrack quadratically
TAG = re.compile(r"<(/?)(step|final)\s*+(\d*+)\s*+>")
_BOX_OR_BRACE = re.compile(r"\\(?:boxed|fbox)\s*+\{|[{}]")
THINK_OPEN, THINK_CLOSE = "<think>", "</think>"
STRICT_NUMBER = re.compile(r"[+-]?[0-9]++")  # strict_answer's number: ASCII digits only (\d would take "١٥")


@dataclass
class Step:
    number: int | None  # the number written in the opening tag; None when it had none
    start: int  # span of the whole block, tags included: [start, end)
    end: int
    text: str  # the block's content, stripped


@dataclass
class ParsedSolution:
    steps: list[Step]
    final: str | None  # content of the first final block (stripped); None when there is none
    status: str  # PERFECT | LOOSE | MALFORMED
    problems: list[str] = field(default_factory=list)  # why the format is not perfect
    body_start: int = 0  # where the text after the thinking region starts
    timed_out: bool = False  # parsing stopped at its deadline: no answer is read from the text
    n_finals: int = 0  # final blocks found
    final_closed: bool = False  # the first final block ends at its own closing tag ``</final>``

    def bonus(self, perfect: float = 0.2, malformed: float = -1.0) -> float:
        """b_format: ``perfect`` for PERFECT, ``malformed`` for MALFORMED, 0 otherwise."""
        return {PERFECT: perfect, MALFORMED: malformed}.get(self.status, 0.0)


# a task's answer rule: the answer text a parsed completion (and its text) gives, or None
AnswerRule = Callable[[ParsedSolution, str], "str | None"]


@dataclass
class _Open:
    kind: str  # "step" | "final"
    number: int | None
    start: int  # the opening tag's start
    content_start: int


def _thinking_end(text: str) -> tuple[int, str | None]:
    """Where the body starts after a thinking region, and a problem if the region is unclosed."""
    close = text.find(THINK_CLOSE)
    if close >= 0:
        return close + len(THINK_CLOSE), None
    if THINK_OPEN in text:
        return len(text), "unclosed <think>"
    return 0, None


class _Parser:
    def __init__(self, text: str, body_start: int):
        self.text = text
        self.steps: list[Step] = []
        self.finals: list[str] = []
        self.final_closed: list[bool] = []  # per final block: ended by ``</final>`` (not by another tag or the end)
        self.problems: list[str] = []
        self.outside_text = False
        self.open: _Open | None = None
        self.expected_step = 1
        self.cursor = body_start  # end of the last block or tag consumed outside any block

    def _close(self, end: int, content_end: int, own_tag: bool = False) -> None:
        block = self.open
        assert block is not None
        content = self.text[block.content_start : content_end].strip()
        if block.kind == "step":
            self.steps.append(Step(block.number, block.start, end, content))
        else:
            self.finals.append(content)
            self.final_closed.append(own_tag)
        self.open = None
        self.cursor = end

    def _note_outside(self, upto: int) -> None:
        if self.text[self.cursor : upto].strip():
            self.outside_text = True

    def _open(self, m: re.Match, kind: str, number: int | None) -> None:
        if kind == "step":
            if number is None:
                self.problems.append(f"<step> without a number at char {m.start()}")
            elif number != self.expected_step:
                self.problems.append(
                    f"misnumbered step: expected <step {self.expected_step}>, got <step {number}>"
                )
            if self.finals:
                self.problems.append("step after <final>")
            if number is not None:
                self.expected_step = number + 1
        else:
            if self.finals:
                self.problems.append("more than one <final>")
        self.open = _Open(kind, number, m.start(), m.end())

    def feed(self, m: re.Match) -> None:
        closing, kind, digits = m.group(1) == "/", m.group(2), m.group(3)
        number = int(digits) if digits else None
        if kind == "final" and digits:
            self.problems.append(f"numbered final tag {m.group(0)!r}")
        if closing:
            if self.open is None:
                self.problems.append(f"{m.group(0)} with no open block")
                self._note_outside(m.start())
                self.cursor = m.end()
                return
            if self.open.kind != kind or (
                kind == "step" and number is not None and number != self.open.number
            ):
                opened = (
                    f"<{self.open.kind}{'' if self.open.number is None else ' ' + str(self.open.number)}>"
                )
                self.problems.append(f"{m.group(0)} does not close {opened}")
            self._close(m.end(), m.start(), own_tag=self.open.kind == kind == "final" and not digits)
            return
        if self.open is not None:
            self.problems.append(f"{m.group(0)} opened inside <{self.open.kind}> (nested or unclosed)")
            self._close(m.start(), m.start())
        else:
            self._note_outside(m.start())
        self._open(m, kind, number)

    def finish(self) -> None:
        if self.open is not None:
            self.problems.append(f"unclosed <{self.open.kind}>")
            self._close(len(self.text), len(self.text))
        else:
            self._note_outside(len(self.text))
        if not self.steps:
            self.problems.append("no <step> block")
        if not self.finals:
            self.problems.append("no <final> block")


def _deadline(timeout_s: float | None) -> float:
    return float("inf") if timeout_s is None else time.monotonic() + timeout_s


def parse_solution(text: str, timeout_s: float | None = EXTRACT_TIMEOUT_S) -> ParsedSolution:
    """Parse a completion into steps, the final answer text and a format status (never raises).

    Linear in ``len(text)``. Past ``timeout_s`` seconds (None: no limit) parsing stops: the steps
    found so far are kept, the status is MALFORMED with the reason, there is no final answer and
    ``timed_out`` is set (``extract_answer`` then reads nothing either).
    """
    deadline = _deadline(timeout_s)
    body_start, think_problem = _thinking_end(text)
    parser = _Parser(text, body_start)
    if think_problem:
        parser.problems.append(think_problem)
    for m in TAG.finditer(text, body_start):
        if time.monotonic() > deadline:
            steps = parser.steps
            problem = f"format check stopped after {timeout_s:g}s ({len(text)} characters)"
            return ParsedSolution(steps, None, MALFORMED, [*parser.problems, problem], body_start, timed_out=True)
        parser.feed(m)
    parser.finish()
    final = parser.finals[0] if parser.finals else None
    if parser.problems:
        status = MALFORMED
    elif parser.outside_text or not final:
        status = LOOSE
        if parser.outside_text:
            parser.problems.append("text outside the tags")
        if not final:
            parser.problems.append("empty <final>")
    else:
        status = PERFECT
    return ParsedSolution(parser.steps, final, status, parser.problems, body_start,
                          n_finals=len(parser.finals), final_closed=bool(parser.final_closed and parser.final_closed[0]))


def last_boxed(text: str, deadline: float = float("inf")) -> str | None:
    """Content of the last ``\\boxed{...}`` (or ``\\fbox{...}``) with balanced braces, else None.

    "Last" is the box opened last among those that close. One pass with a stack of open braces
    (linear in ``len(text)``, however many boxes stay unclosed); None as well when the
    ``time.monotonic()`` ``deadline`` passes first.
    """
    open_braces: list[int] = []  # per open brace: where its content starts if it opens a box, else -1
    best_start, best_end = -1, -1
    for i, m in enumerate(_BOX_OR_BRACE.finditer(text)):
        if not i & 1023 and time.monotonic() > deadline:
            return None
        if m.group() == "}":
            if open_braces:
                start = open_braces.pop()
                if start > best_start:
                    best_start, best_end = start, m.start()
        else:
            open_braces.append(m.end() if m.group() != "{" else -1)
    return text[best_start:best_end] if best_start >= 0 else None


def extract_answer(
    parsed: ParsedSolution, text: str, fallback_boxed: bool = True, timeout_s: float | None = EXTRACT_TIMEOUT_S
) -> str | None:
    """task=aime's answer rule, the paper's: the answer text to check is the first final block's
    content (closed or not), else (if allowed) the last boxed answer; ``AnswerChecker`` then reads
    its value leniently (``answer.py``: "$204$", "\\boxed{70}", "x = 49", "1,000" and, through
    math-verify, "21 - 6 = 15" are read as one integer; two numbers are a hedge, wrong). AIME keeps
    it: models of the paper's size write LaTeX answers that a number-alone rule would score wrong
    though right, and Eq. 8 pays the tags apart (b_format -1 for an unclosed or mismatched final).
    task=arith's rule is ``strict_answer``.

    The fallback reads only the body after any thinking region, so a draft inside ``<think>``
    never counts as the answer; it gives up (None) after ``timeout_s`` seconds. A parse that timed
    out has no answer.
    """
    if parsed.final:
        return parsed.final
    if fallback_boxed and not parsed.timed_out:
        return last_boxed(text[parsed.body_start :], _deadline(timeout_s))
    return None


def strict_answer(parsed: ParsedSolution, text: str = "") -> str | None:
    """task=arith's answer rule [ours, #51]: a right answer is a number alone in a closed final block.

    The answer is the content of the completion's one ``<final>`` block (after any thinking region)
    when that block ends at its own ``</final>`` tag and its content, whitespace stripped, is an
    integer in ASCII digits with an optional sign (``[+-]?[0-9]+``: "15", "-3", "+15", "015");
    otherwise there is none and the sample is wrong. Not answers: an equation or expression
    ("21 - 6 = 15"), a final block closed by another tag or by nothing ("<final> 9 </output>",
    "<final> 24 </outfits>"), a second final block, "15." (a period), "15.0", "1,000", "15 apples",
    "\\boxed{15}", "$15$", "**15**", digits of other scripts ("١٥", "１５"), and any ``\\boxed{}``
    outside the block (no fallback). The arith reward's ``correct`` (and so G) and its held-out
    evaluation both read the answer with this function; ``AnswerChecker`` then compares the integer
    with the gold one (never through math-verify; outside 0-999 is wrong). ``text`` is unused: the
    signature is ``extract_answer``'s. One regular expression over the parsed content: linear time.
    """
    if parsed.timed_out or parsed.n_finals != 1 or not parsed.final_closed or parsed.final is None:
        return None
    return parsed.final if STRICT_NUMBER.fullmatch(parsed.final) else None
