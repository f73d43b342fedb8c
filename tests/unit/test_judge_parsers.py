"""Judge reply parsers against the docs/method.md §5 formats and failure rules, on hand-written reply variants."""

from __future__ import annotations

import pytest

from bot_repro.judges.parsers import (
    parse_code_reply,
    parse_score,
    parse_screenshot_reply,
    parse_two_turn,
    parse_verdict,
    parse_winner,
)
from bot_repro.judges.prompts import code_lines, number_code

# (reply, expected score, expected ok) for the score field alone
SCORES = [
    ("SCORE: 7\nJUSTIFICATION: fine", 0.7, True),
    ("SCORE: 10", 1.0, True),
    ("SCORE: 0\nJUSTIFICATION: blank page", 0.0, True),
    ("SCORE: 15", 1.0, True),  # clipped to 10
    ("SCORE: -3", 0.0, True),  # clipped to 0
    ("SCORE: 7.5", 0.75, True),
    ("SCORE: 8/10", 0.8, True),
    ("SCORE: 7 out of 10", 0.7, True),
    ("SCORE: 8.", 0.8, True),
    ("Here is my review of the app.\n\nSCORE: 6\nJUSTIFICATION: ok\nThanks!", 0.6, True),
    ("**SCORE:** 9\n**JUSTIFICATION:** neat", 0.9, True),
    ("score: 4", 0.4, True),
    ("SCORE:\n\n5\nJUSTIFICATION: late value", 0.5, True),
    ("SCORE: 3\nJUSTIFICATION: x\nSCORE: 9", 0.3, True),  # the first SCORE field wins
    ("SCORE: [6]", 0.6, True),
    ("SCORE: seven", 0.0, False),
    ("SCORE: 1e3", 0.0, False),
    ("SCORE:", 0.0, False),
    ("JUSTIFICATION: looks fine, I would give it an 8", 0.0, False),
    ("", 0.0, False),
    ("My score: 8 is what I think", 0.0, False),  # "My score" is prose, not the field
    ("SCORES: 8", 0.0, False),
]


@pytest.mark.parametrize("reply,score,ok", SCORES)
def test_code_judge_score_variants(reply, score, ok):
    verdict = parse_code_reply(reply, n_lines=10)
    assert verdict.ok is ok
    assert verdict.score == pytest.approx(score)
    assert verdict.non_react is False
    assert verdict.raw == reply
    if not ok:
        assert verdict.lines == []


@pytest.mark.parametrize(
    "reply",
    ["NON_REACT_CODE", "SCORE: NON_REACT_CODE", "  `NON_REACT_CODE`.  ", "I cannot judge this.\n\n**NON_REACT_CODE**"],
)
def test_non_react_sentinel(reply):
    verdict = parse_code_reply(reply, n_lines=5)
    assert (verdict.non_react, verdict.ok, verdict.score, verdict.lines) == (True, True, 0.0, [])


def test_sentinel_mentioned_in_prose_is_not_the_sentinel():
    verdict = parse_code_reply("SCORE: 5\nJUSTIFICATION: this is not NON_REACT_CODE at all", n_lines=5)
    assert (verdict.non_react, verdict.score) == (False, 0.5)


def _lines(reply: str, n_lines: int = 10) -> list[tuple[int, int]]:
    return [(item.line, item.impact) for item in parse_code_reply(reply, n_lines).lines]


HEAD = "SCORE: 6\nJUSTIFICATION: mostly fine\nLINE_ANALYSIS:\n"

LINE_CASES = [
    (HEAD + "3: const a = 1; | DESC: unused | IMPACT: -1\n7: return <div> | DESC: unclosed tag | IMPACT: -3", [(3, -1), (7, -3)]),
    ("SCORE: 6\nLINE_ANALYSIS: NONE", []),
    (HEAD + "NONE", []),
    (HEAD + "None.", []),
    (HEAD + "10: x | DESC: past the end | IMPACT: -2\n9: y | DESC: last line | IMPACT: -2", [(9, -2)]),
    (HEAD + "-1: x | DESC: negative | IMPACT: -2", []),
    (HEAD + "3 const a | DESC: no colon | IMPACT: -1", []),
    (HEAD + "4: x | IMPACT: -1", []),  # no DESC
    (HEAD + "5: x | DESC: d | IMPACT: severe", []),
    (HEAD + "6: x | DESC: d | IMPACT: -5", []),  # impact outside {-1, -2, -3}
    (HEAD + "2: x | DESC: d | IMPACT: 2", []),  # positive impact
    (HEAD + "6: x | DESC: d | IMPACT: -5\n1: y | DESC: d | IMPACT: -2\ngarbage line", [(1, -2)]),
    # more than three: the three worst stay (ties: earlier line), reported in line order
    (HEAD + "".join(f"{ln}: c | DESC: d | IMPACT: {imp}\n" for ln, imp in [(0, -1), (1, -3), (2, -2), (4, -1), (5, -2)]),
     [(1, -3), (2, -2), (5, -2)]),
    (HEAD + "3: a | DESC: d | IMPACT: -1\n3: a | DESC: worse | IMPACT: -3", [(3, -3)]),  # one line: the worst
    (HEAD + "2: if (a || b) { | DESC: logic | IMPACT: -2", [(2, -2)]),  # pipes inside the code
    (HEAD + "- 4: x | DESC: bulleted | IMPACT: -1\nLine 5: y | DESC: prefixed | IMPACT: -1", [(4, -1), (5, -1)]),
    (HEAD + "8: x | DESC: d | IMPACT: -2.0", [(8, -2)]),
    # an entry-shaped JUSTIFICATION after the section is not part of it
    ("SCORE: 5\nLINE_ANALYSIS:\n1: a | DESC: d | IMPACT: -1\nJUSTIFICATION: 2: b | DESC: e | IMPACT: -2", [(1, -1)]),
    ("SCORE: 5\nJUSTIFICATION: no line section at all", []),
]


@pytest.mark.parametrize("reply,expected", LINE_CASES)
def test_line_analysis_variants(reply, expected):
    assert _lines(reply) == expected


def test_line_desc_is_kept():
    verdict = parse_code_reply(HEAD + "3: const a = 1; | DESC: unused variable | IMPACT: -1", n_lines=10)
    assert verdict.lines[0].desc == "unused variable"


def test_missing_score_drops_lines():
    verdict = parse_code_reply("LINE_ANALYSIS:\n1: a | DESC: d | IMPACT: -3", n_lines=10)
    assert (verdict.ok, verdict.score, verdict.lines) == (False, 0.0, [])


def test_score_only_variant_ignores_lines():
    verdict = parse_code_reply(HEAD + "3: a | DESC: d | IMPACT: -1", n_lines=None)
    assert (verdict.score, verdict.lines) == (0.6, [])


def test_empty_code_accepts_no_line():
    assert _lines(HEAD + "0: a | DESC: d | IMPACT: -1", n_lines=0) == []


def test_screenshot_global_and_one_turn():
    reply = "SCORE: 8\nJUSTIFICATION: nice\nLINE_ANALYSIS:\n2: x | DESC: d | IMPACT: -1"
    glob = parse_screenshot_reply(reply, None)
    assert (glob.ok, glob.score, glob.lines) == (True, 0.8, [])
    one = parse_screenshot_reply(reply, 3)
    assert [(x.line, x.impact) for x in one.lines] == [(2, -1)]
    bad = parse_screenshot_reply("The page is great!", 3)
    assert (bad.ok, bad.score, bad.lines) == (False, 0.0, [])


def test_two_turn_turn2_cannot_rescore():
    verdict = parse_two_turn("SCORE: 6\nJUSTIFICATION: ok", "SCORE: 10\nLINE_ANALYSIS:\n1: x | DESC: d | IMPACT: -2", 4)
    assert verdict.score == 0.6
    assert [(x.line, x.impact) for x in verdict.lines] == [(1, -2)]


def test_two_turn_failed_turn1_fails_even_if_turn2_scores():
    verdict = parse_two_turn("I like it", "SCORE: 9\nLINE_ANALYSIS:\n1: x | DESC: d | IMPACT: -2", 4)
    assert (verdict.ok, verdict.score, verdict.lines) == (False, 0.0, [])


def test_two_turn_failed_turn2_keeps_score():
    verdict = parse_two_turn("SCORE: 7", None, 4)
    assert (verdict.ok, verdict.score, verdict.lines) == (True, 0.7, [])


@pytest.mark.parametrize(
    "reply,label",
    [
        ("VERDICT: +1", 1),
        ("VERDICT: 1", 1),
        ("VERDICT: 0", 0),
        ("VERDICT: -1", -1),
        ("The step divides by zero.\nverdict: -1 because of that", -1),
        ("**VERDICT:** +1", 1),
        ("VERDICT: -1.0", -1),
        ("VERDICT: 2", None),
        ("VERDICT: 1.5", None),
        ("VERDICT: correct", None),
        ("The step is correct.", None),
        ("", None),
    ],
)
def test_step_verdicts(reply, label):
    assert parse_verdict(reply) == label


@pytest.mark.parametrize(
    "reply,winner",
    [
        ("WINNER: A", "a"),
        ("WINNER: B", "b"),
        ("B", "b"),
        ("**A**", "a"),
        ("winner: b", "b"),
        ("Both are decent, but the second is cleaner.\nWINNER: Screenshot B", "b"),
        ("WINNER: (A) because it renders the chart", "a"),
        ("WINNER: A/B", ""),
        ("WINNER: tie", ""),
        ("WINNER: a tie, honestly", ""),
        ("The winner is A", ""),
        ("", ""),
    ],
)
def test_pairwise_winner(reply, winner):
    assert parse_winner(reply) == winner


def test_number_code_is_zero_indexed_and_matches_line_split():
    code = "import React from 'react';\r\nconst A = () => <div/>;\n\nexport default A;\n"
    assert number_code(code) == "0: import React from 'react';\n1: const A = () => <div/>;\n2: \n3: export default A;"
    assert len(code_lines(code)) == 4
    assert number_code("") == "(empty)"


def test_parse_score_returns_fraction():
    assert parse_score("SCORE: 3") == pytest.approx(0.3)
    assert parse_score("nothing") is None
