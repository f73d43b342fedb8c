"""task=arith levels (#34 item 4): one_step and two_step problems, their gold answers recomputed here
from the numbers in each problem text with one hand-written formula per template, determinism by
seed, worked examples of the row's own level, and the default level left as the earlier problem set."""

from __future__ import annotations

import hashlib
import re

import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.tasks import TASKS
from bot_repro.tasks.aime.steps import arithmetic_claims, step_statuses
from bot_repro.tasks.arith.data import make_problems

# sha256 of the 288 problem texts of task=arith's defaults (train and held-out), joined by newlines, at main
# d074cc7 (before levels; before #51's split, which keeps the 256 training ones)
EARLIER_SHA256 = "6e9235f1f8ae14610883f51e7e4a5a1809f0049cfc29d9c42ade6947167f76c6"
# (pattern of the problem text, gold from its numbers): a template's sentence, by hand
ONE_STEP = [
    (r"has (\d+) \w+ and gets (\d+) more\. How many", lambda a, b: a + b),
    (r"has (\d+) \w+ and gives away (\d+)\. How many", lambda a, b: a - b),
    (r"A box holds (\d+) \w+\. \w+ fills (\d+) boxes\. How many", lambda a, b: a * b),
    (r"shares (\d+) \w+ equally among (\d+) friends\. How many", lambda total, friends: total // friends),
]
TWO_STEP = [
    (r"has (\d+) \w+\. \w+ gets (\d+) more, then gives away (\d+)\.", lambda a, b, c: a + b - c),
    (r"A box holds (\d+) \w+\. \w+ fills (\d+) boxes, then uses (\d+) of", lambda a, b, c: a * b - c),
    (r"has (\d+) \w+ and gets (\d+) more every day for (\d+) days\.", lambda a, b, c: a + b * c),
    (r"shares (\d+) \w+ equally among (\d+) friends\. Each friend then finds (\d+) more\.",
     lambda total, friends, c: total // friends + c),
]


def gold_by_hand(problem: str, templates) -> tuple[int, int]:
    """(template index, gold) of the one template whose sentence the problem matches."""
    hits = [(i, f(*map(int, m.groups()))) for i, (pat, f) in enumerate(templates) if (m := re.search(pat, problem))]
    assert len(hits) == 1, problem
    return hits[0]


@pytest.mark.parametrize("level,templates,n_steps", [("one_step", ONE_STEP, 1), ("two_step", TWO_STEP, 2)])
def test_levels_have_their_steps_and_gold_answers(level, templates, n_steps):
    rows = make_problems(300, 3, "t", level)
    seen = set()
    for row in rows:
        kind, gold = gold_by_hand(row["problem"], templates)
        seen.add(kind)
        assert row["answer"] == str(gold) and gold >= 0, row
        assert len(row["steps"]) == n_steps
        claims = [c for step in row["steps"] for c in arithmetic_claims(step)]
        assert len(claims) == n_steps and all(c.true for c in claims)
        assert claims[-1].result == gold  # the last step's result is the answer
        assert step_statuses(row["problem"], row["steps"]) == ["grounded"] * n_steps
        if level == "one_step" and kind == 3:  # division is exact
            total, friends = map(int, re.search(templates[3][0], row["problem"]).groups())
            assert total % friends == 0
    assert seen == {0, 1, 2, 3}  # every template occurs


def test_levels_are_deterministic_by_seed_and_differ_between_seeds():
    for level in ("one_step", "two_step"):
        assert make_problems(50, 7, "x", level) == make_problems(50, 7, "x", level)
        assert make_problems(50, 7, "x", level) != make_problems(50, 8, "x", level)
        assert len({r["problem"] for r in make_problems(200, 0, "x", level)}) == 200
    with pytest.raises(ValueError, match="level='three_step' is unknown; allowed: one_step, two_step"):
        make_problems(5, 0, "x", "three_step")


def test_default_level_is_the_problem_set_of_earlier_runs():
    earlier = make_problems(288, 0, "arith", "two_step")  # the generator still makes the same 288 texts
    assert hashlib.sha256("\n".join(r["problem"] for r in earlier).encode()).hexdigest() == EARLIER_SHA256
    train, test = TASKS["arith"]({}, {"family": "qwen2"}).datasets()
    assert [r["problem"] for r in train] == [r["problem"] for r in earlier[:256]]  # training unchanged
    # held out: the earlier 32 less arith-0265 (training arith-0152's sums, #51), then the next problem
    assert [r["id"] for r in test] == [r["id"] for r in earlier[256:] if r["id"] != "arith-0265"] + ["arith-0288"]
    assert test[0]["problem"] == (
        "Eli has 28 apples and gets 3 more every day for 2 days. How many apples does Eli have after those days?"
    )  # arith-0256, the first held-out row of results/real_small


def test_one_step_worked_examples_are_one_step():
    task = TASKS["arith"]({"level": "one_step", "shots": 2, "n_train": 10, "n_test": 4}, {"family": "qwen2"})
    _, test = task.datasets()
    shown = [m["content"] for m in test[0]["prompt"] if m["role"] == "assistant"]
    assert len(shown) == 2
    for text in shown:
        assert "<step 1>" in text and "<step 2>" not in text and "<final>" in text
    with pytest.raises(ConfigError, match="level='hard' is unknown; allowed: one_step, two_step"):
        TASKS["arith"]({"level": "hard"}, {"family": "qwen2"})

