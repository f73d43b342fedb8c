"""The AIME step format: parser spans, final answer, status and the format bonus."""

from __future__ import annotations

import pytest

from bot_repro.tasks.aime.tags import LOOSE, MALFORMED, PERFECT, extract_answer, last_boxed, parse_solution

GOOD = "<step 1> 3 + 4 = 7 </step 1>\n<step 2> 7 * 2 = 14 </step 2>\n<final> 14 </final>"

# (text, status, number of steps, final)
CASES = [
    (GOOD, PERFECT, 2, "14"),
    ("  \n" + GOOD + "\n\n", PERFECT, 2, "14"),  # whitespace around is fine
    ("<step 1>a</step>\n<final>5</final>", PERFECT, 1, "5"),  # </step> without number closes
    ("<step1>a</step1><final>5</final>", PERFECT, 1, "5"),  # no space in the tag
    ("<think>let me see <step 9></think>\n<step 1>a</step 1><final>5</final>", PERFECT, 1, "5"),
    ("Sure! " + GOOD, LOOSE, 2, "14"),  # text before the tags
    (GOOD + "\nHope this helps.", LOOSE, 2, "14"),  # text after the tags
    ("<step 1>a</step 1> and <step 2>b</step 2><final>1</final>", LOOSE, 2, "1"),  # text between
    ("<step 1>a</step 1><final>  </final>", LOOSE, 1, ""),  # empty final
    ("<step 1>a</step 1>", MALFORMED, 1, None),  # missing final
    ("<final>14</final>", MALFORMED, 0, "14"),  # missing steps
    ("the answer is 14", MALFORMED, 0, None),  # no tags at all
    ("", MALFORMED, 0, None),
    ("<step 1>a</step 1><step 3>b</step 3><final>1</final>", MALFORMED, 2, "1"),  # skipped number
    ("<step 2>a</step 2><final>1</final>", MALFORMED, 1, "1"),  # does not start at 1
    ("<step 1>a</step 1><step 1>b</step 1><final>1</final>", MALFORMED, 2, "1"),  # repeated number
    ("<step>a</step><final>1</final>", MALFORMED, 1, "1"),  # unnumbered step
    ("<step 1>a</step 2><final>1</final>", MALFORMED, 1, "1"),  # mismatched closing number
    ("<step 1>a<step 2>b</step 2></step 1><final>1</final>", MALFORMED, 2, "1"),  # nested
    ("<step 1>a</step 1><final>1", MALFORMED, 1, "1"),  # unclosed final
    ("<step 1>a<final>1</final>", MALFORMED, 1, "1"),  # unclosed step
    ("<step 1>a</step 1></step 1><final>1</final>", MALFORMED, 1, "1"),  # stray closing tag
    ("<step 1>a</step 1><final>1</final><final>2</final>", MALFORMED, 1, "1"),  # two finals
    ("<step 1>a</step 1><final>1</final><step 2>b</step 2>", MALFORMED, 2, "1"),  # step after final
    ("<step 1>a</final><final>1</final>", MALFORMED, 1, "1"),  # wrong closing kind
    ("<think>never closed <step 1>a</step 1><final>1</final>", MALFORMED, 0, None),
    ("<Step 1>a</Step 1><final>1</final>", MALFORMED, 0, "1"),  # upper case is text, not a tag
    ("<final 2>1</final>", MALFORMED, 0, "1"),
]


@pytest.mark.parametrize("text,status,n_steps,final", CASES)
def test_parse_cases(text, status, n_steps, final):
    parsed = parse_solution(text)
    assert parsed.status == status, parsed.problems
    assert len(parsed.steps) == n_steps
    assert parsed.final == final
    assert (parsed.problems == []) == (status == PERFECT)


def test_bonus_values():
    assert parse_solution(GOOD).bonus() == 0.2
    assert parse_solution("Sure! " + GOOD).bonus() == 0.0
    assert parse_solution("<step 1>a</step 1>").bonus() == -1.0
    assert parse_solution(GOOD).bonus(perfect=0.5, malformed=-2.0) == 0.5


def test_spans_cover_whole_blocks_in_original_text():
    text = "<think>x</think>\n" + GOOD
    parsed = parse_solution(text)
    first, second = parsed.steps
    assert text[first.start : first.end] == "<step 1> 3 + 4 = 7 </step 1>"
    assert text[second.start : second.end] == "<step 2> 7 * 2 = 14 </step 2>"
    assert (first.text, second.text) == ("3 + 4 = 7", "7 * 2 = 14")
    assert (first.number, second.number) == (1, 2)


def test_unclosed_step_runs_to_next_opening_tag():
    text = "<step 1>alpha<step 2>beta</step 2><final>3</final>"
    parsed = parse_solution(text)
    assert text[parsed.steps[0].start : parsed.steps[0].end] == "<step 1>alpha"
    assert parsed.steps[0].text == "alpha"


def test_problems_are_named():
    parsed = parse_solution("<step 1>a</step 1><step 3>b</step 3><final>1</final>")
    assert any("expected <step 2>, got <step 3>" in p for p in parsed.problems)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("so \\boxed{12} then \\boxed{\\frac{1}{2}}", "\\frac{1}{2}"),
        ("\\boxed{a{b}c}", "a{b}c"),
        ("\\boxed{unclosed", None),
        ("\\fbox{7}", "7"),
        ("nothing", None),
    ],
)
def test_last_boxed(text, expected):
    assert last_boxed(text) == expected


def test_extract_answer_prefers_final_and_falls_back_to_boxed():
    assert extract_answer(parse_solution(GOOD), GOOD) == "14"
    text = "I think \\boxed{25}."
    assert extract_answer(parse_solution(text), text) == "25"
    assert extract_answer(parse_solution(text), text, fallback_boxed=False) is None
    thinking_only = "<think>\\boxed{3}</think> no answer"
    assert extract_answer(parse_solution(thinking_only), thinking_only) is None


@pytest.mark.parametrize(
    "text", ["<" * 1000, "</step 99>" * 50, "<step 1>" * 200, "\x00\ud800<final>", "<step -1>"]
)
def test_garbage_never_raises(text):
    parsed = parse_solution(text)
    assert parsed.status in (PERFECT, LOOSE, MALFORMED)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("\\boxed{\\boxed{1}}", "1"),  # the box opened last
        ("\\boxed{unclosed \\boxed{5} and more", "5"),  # an unclosed box does not hide a later one
        ("\\boxed{5} \\boxed{unclosed", "5"),
        ("\\boxed {7}", "7"),  # whitespace before the brace
        ("}} \\boxed{8} }", "8"),  # stray closing braces
        ("\\boxed{" * 5 + "9}", "9"),
        ("\\boxed{" + "{" * 50 + "}" * 50 + "}", "{" * 50 + "}" * 50),
    ],
)
def test_last_boxed_edge_cases(text, expected):
    assert last_boxed(text) == expected


ADVERSARIAL = {
    # name: a 200 KB completion built to make a naive parser quadratic or worse
    "repeated_boxed": "\\boxed{" * 28_600,
    "boxed_then_nested_braces": "\\boxed{" + "{" * 200_000,
    "many_boxes_balanced_braces": "\\boxed{" * 1_000 + "{" * 96_000 + "}" * 96_000,
    "tag_then_whitespace": "<step" + " " * 200_000,
    "tag_digits_whitespace": "<step " + " " * 100_000 + "7" * 100_000,
    "opened_steps": "<step 1>" * 25_000,
    "stray_closing_tags": "</step 99>" * 20_000,
}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_completions_parse_in_linear_time(name):
    """Each of these took seconds to minutes before (``last_boxed`` rescanned from every unclosed
    box; ``<step\\s*\\d*\\s*>`` backtracked quadratically over whitespace); now about 0.1 s of CPU.
    CPU time, not the wall clock: a loaded machine stretches the wall clock (0.8 s measured beside the
    other sessions), not the work this bounds."""
    import time

    text = ADVERSARIAL[name]
    assert len(text) >= 190_000
    start = time.process_time()
    parsed = parse_solution(text)
    answer = extract_answer(parsed, text)
    assert time.process_time() - start < 1.0
    assert parsed.status == MALFORMED and answer is None and not parsed.timed_out


def test_parse_and_extraction_stop_at_their_deadline():
    text = "<step 1>a</step 1>" * 5_000 + "\\boxed{12}"
    parsed = parse_solution(text, timeout_s=0.0)
    assert parsed.timed_out and parsed.status == MALFORMED and parsed.final is None
    assert any("stopped after 0s" in p for p in parsed.problems)
    assert extract_answer(parsed, text) is None  # no boxed fallback after a timed-out parse
    untimed = parse_solution(text, timeout_s=None)
    assert not untimed.timed_out and len(untimed.steps) == 5_000
    assert extract_answer(untimed, text) == "12"
    assert extract_answer(untimed, text, timeout_s=0.0) is None
    assert last_boxed("\\boxed{3}", deadline=0.0) is None  # monotonic time is past 0
