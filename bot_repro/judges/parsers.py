"""Parsers of judge replies, exact to the fixed reply fields and failure rules of docs/method.md §5.

Formats (field names are matched case-insensitively, markdown emphasis around them is ignored):

    SCORE: n                       first SCORE field wins; n clipped to [0, 10], then / 10
    JUSTIFICATION: ...
    LINE_ANALYSIS:                 followed by entries, one a line, or by NONE
    n: code | DESC: ... | IMPACT: -k
    NON_REACT_CODE                 code-judge sentinel (alone on a line, or as the SCORE value)
    VERDICT: +1 | 0 | -1           step judge, one label per call
    WINNER: A | B                  pairwise judge (a bare "A" or "B" reply is accepted too)

Failure rules: a missing or unparseable score gives ``ok=False``, score 0 and no lines (the judge
roles make that a failed verdict, excluded from training: ``bot_repro.judges.roles``). A line
entry is ignored when malformed, when its line number is outside the code shown to the judge,
or when its impact is not one of -1, -2, -3. Several entries for one line keep the worst; at
most the three worst lines are kept (ties: earlier line first).
"""

from __future__ import annotations

import functools
import re

from bot_repro.judges.types import CodeVerdict, LineImpact, ScreenshotVerdict

NON_REACT_SENTINEL = "NON_REACT_CODE"
MAX_LINES = 3
IMPACTS = (-1, -2, -3)

# role -> the regex of a well-formed reply in the formats above, for servers that constrain
# decoding to it (vLLM's ``structured_outputs``; judge.structured_outputs=true). Bounded lengths
# keep a constrained reply inside max_tokens; a reply cut short still fails to parse, as usual.
_SCORE_RE = r"SCORE: (10|[0-9])\nJUSTIFICATION: [^\n]{1,300}"
_LINES_RE = r"LINE_ANALYSIS:\n(NONE|([0-9]{1,4}: [^\n|]{0,120} \| DESC: [^\n|]{1,160} \| IMPACT: -[123]\n){1,3})"
_VERDICT_RE = r"VERDICT: (\+1|0|-1)"
REPLY_PATTERNS = {
    "code_score": f"({NON_REACT_SENTINEL}|{_SCORE_RE})",
    "code_lines": f"({NON_REACT_SENTINEL}|{_SCORE_RE}\\n{_LINES_RE})",
    "screenshot_global": _SCORE_RE,
    "screenshot_one_turn": f"{_SCORE_RE}\\n{_LINES_RE}",
    "screenshot_two_turn_score": _SCORE_RE,
    "screenshot_two_turn_lines": _LINES_RE,
    "pairwise": "WINNER: [AB]",
    "step_independent": _VERDICT_RE,
    "step_context_aware": _VERDICT_RE,
}

_DECOR = " \t*_`>#"
_FIELD = re.compile(r"^[\s>#*_`-]*(?P<name>SCORE|JUSTIFICATION|LINE_ANALYSIS|VERDICT|WINNER)[\s*_`]*:(?P<rest>.*)$",
                    re.IGNORECASE | re.MULTILINE)
# A number that is the whole token: "8", "7.5", "8.", "7/10" match; "1e3", "8a" do not.
_NUMBER = re.compile(r"^[+-]?\d+(?:\.\d+)?(?!\w)(?!\.\d)")
_ENTRY = re.compile(
    r"^\s*(?:[-*\u2022]\s+)?(?:line\s+)?(?P<line>[+-]?\d+)\s*:(?P<code>.*)\|\s*DESC\s*:(?P<desc>.*?)"
    r"\|\s*IMPACT\s*:\s*(?P<impact>[+-]?\d+(?:\.0+)?)\s*[*_`.]*\s*$",
    re.IGNORECASE,
)
# "A", "Screenshot B", "(A) because ...": the letter is upper-case unless it is the whole value,
# since a lower-case "a" inside prose is the article ("a tie"), not an answer.
_LETTER = re.compile(r"^(?:(?i:screenshot|image|option|response)\s+)?\(?(?P<x>[AB])\)?(?=[\s.,;:!)]|$)")


@functools.lru_cache(maxsize=256)  # one reply is read for several fields in a row
def _fields(reply: str) -> tuple[tuple[str, str, int, int], ...]:
    """(upper-case field name, rest of its line, start offset, end offset of its line) in reply order."""
    return tuple((m["name"].upper(), m["rest"], m.start(), m.end()) for m in _FIELD.finditer(reply))


def _field_value(reply: str, name: str) -> str | None:
    """The text after the first ``name:``; if that line is empty, the next non-empty line."""
    for field_name, rest, _, end in _fields(reply):
        if field_name != name:
            continue
        value = rest.strip(_DECOR)
        if value:
            return value
        for line in reply[end:].splitlines():
            if line.strip(_DECOR):
                return line.strip(_DECOR)
        return ""
    return None


def has_field(reply: str, name: str) -> bool:
    """The reply has a ``name:`` field (e.g. ``LINE_ANALYSIS``, whose value may be NONE)."""
    return any(field_name == name for field_name, *_ in _fields(reply))


def parse_score(reply: str) -> float | None:
    """The SCORE in [0, 1] (clipped from [0, 10]), or None when missing or unparseable."""
    value = _field_value(reply, "SCORE")
    if value is None:
        return None
    match = _NUMBER.match(value.lstrip("[(\"'"))
    if match is None:
        return None
    return min(10.0, max(0.0, float(match.group(0)))) / 10.0


def is_non_react(reply: str) -> bool:
    """The code judge's sentinel: alone on a line or as the SCORE value, not merely mentioned in prose."""
    if any(line.strip(_DECOR + ".\"'") == NON_REACT_SENTINEL for line in reply.splitlines()):
        return True
    score = _field_value(reply, "SCORE")
    return score is not None and score.strip(".\"'").upper().startswith(NON_REACT_SENTINEL)


def parse_lines(reply: str, n_lines: int) -> list[LineImpact]:
    """Entries of the LINE_ANALYSIS section that name a shown line (0 <= n < n_lines)."""
    section = _line_section(reply)
    if section is None:
        return []
    worst: dict[int, LineImpact] = {}
    for raw in section:
        match = _ENTRY.match(raw)
        if match is None:
            continue
        line = int(match["line"])
        impact = int(float(match["impact"]))
        if not 0 <= line < n_lines or impact not in IMPACTS:
            continue
        if line not in worst or impact < worst[line].impact:
            worst[line] = LineImpact(line=line, impact=impact, desc=match["desc"].strip())
    kept = sorted(worst.values(), key=lambda item: (item.impact, item.line))[:MAX_LINES]
    return sorted(kept, key=lambda item: item.line)


def _line_section(reply: str) -> list[str] | None:
    """Lines after the LINE_ANALYSIS field up to the next field; None if absent or NONE."""
    fields = _fields(reply)
    for i, (name, rest, _, end) in enumerate(fields):
        if name != "LINE_ANALYSIS":
            continue
        stop = fields[i + 1][2] if i + 1 < len(fields) else len(reply)
        body = [rest, *reply[end:stop].splitlines()]
        entries = [line for line in body if line.strip(_DECOR)]
        if entries and entries[0].strip(_DECOR + ".").upper() == "NONE":
            return None
        return entries
    return None


def parse_code_reply(reply: str, n_lines: int | None) -> CodeVerdict:
    """A code-judge reply; ``n_lines`` is the number of code lines shown, None for the score-only variant."""
    if is_non_react(reply):
        return CodeVerdict(score=0.0, non_react=True, ok=True, raw=reply)
    score = parse_score(reply)
    if score is None:
        return CodeVerdict(score=0.0, ok=False, raw=reply)
    lines = parse_lines(reply, n_lines) if n_lines is not None else []
    return CodeVerdict(score=score, lines=lines, ok=True, raw=reply)


def parse_screenshot_reply(reply: str, n_lines: int | None) -> ScreenshotVerdict:
    """A global-only (``n_lines=None``) or 1-turn (lines attributed) screenshot-judge reply."""
    score = parse_score(reply)
    if score is None:
        return ScreenshotVerdict(score=0.0, ok=False, raw=reply)
    lines = parse_lines(reply, n_lines) if n_lines is not None else []
    return ScreenshotVerdict(score=score, lines=lines, ok=True, raw=reply)


def parse_two_turn(turn1: str, turn2: str | None, n_lines: int) -> ScreenshotVerdict:
    """Score from turn 1 only; lines from turn 2 (any SCORE there is ignored: it cannot rescore)."""
    score = parse_score(turn1)
    if score is None:
        return ScreenshotVerdict(score=0.0, ok=False, raw=turn1)
    if turn2 is None:  # the line turn failed: the fixed score stands, without lines
        return ScreenshotVerdict(score=score, ok=True, raw=turn1)
    return ScreenshotVerdict(score=score, lines=parse_lines(turn2, n_lines), ok=True, raw=f"{turn1}\n---\n{turn2}")


def parse_verdict(reply: str) -> int | None:
    """A step label in {-1, 0, 1} from ``VERDICT: +1|0|-1``; None when missing or out of range."""
    value = _field_value(reply, "VERDICT")
    if value is None:
        return None
    match = _NUMBER.match(value)
    if match is None or float(match.group(0)) not in (-1.0, 0.0, 1.0):
        return None
    return int(float(match.group(0)))


def parse_winner(reply: str) -> str:
    """``"a"`` or ``"b"`` as labelled in the prompt, ``""`` when the reply names neither."""
    value = _field_value(reply, "WINNER")
    if value is None:  # no field: only a reply that is just the letter counts
        value = reply.strip(_DECOR + ".\n")
        if len(value) != 1:
            return ""
    bare = value.strip(_DECOR + ".!()[]\"'")
    if bare in ("A", "B", "a", "b"):
        return bare.lower()
    match = _LETTER.match(value)
    return "" if match is None else match["x"].lower()
