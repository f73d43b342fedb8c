"""The grounded step rule (#34 item 2): true arithmetic on numbers that are neither the problem's nor
earlier grounded results scores as unsupported; grounded chains still score +1; hostile steps are
read in bounded time without raising."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from bot_repro import report_folder
from bot_repro.config_schema import ConfigError, build_options
from bot_repro.rewards import REWARD_SOURCES, RewardCfg
from bot_repro.tasks.aime.grounding import problem_numbers
from bot_repro.tasks.aime.steps import RuleOptions, RuleStepScorer, step_statuses
from bot_repro.tasks.aime.tags import parse_solution
from bot_repro.tasks.arith.data import make_problems

REPO = Path(__file__).resolve().parents[2]
HACKED = "runs/1_bot_grpo_s0/eval/step_000008/samples.jsonl"  # in results/real_small/runs.tar.xz


def arith_source(params: dict):
    """task=arith's reward source, as build_task makes it from conf/reward/arith_default.yaml's numbers."""
    section = build_options(RewardCfg, {"source": "arith", "w_g": 3.0, "w_s": 0.5, "window": 0, "params": params}, "reward")
    return REWARD_SOURCES["arith"](section, {})


def hacked_rows():
    """The committed BoT-GRPO step-8 held-out samples with their problems. The samples name only the
    row id: the run's task (conf/experiment/real_small.yaml: task=arith, seed 0, 256 train rows, so
    the test rows start at arith-0256) is regenerated to read the problem text."""
    problems = {r["id"]: r for r in make_problems(256 + 32 + 4, 0, "arith", "two_step")}
    rows = [json.loads(line) for line in (report_folder.unpack(REPO / "results/real_small").parent / HACKED).read_text().splitlines()]
    for row in rows:
        assert problems[row["id"]]["answer"] == row["gold"]  # the regenerated problem is the run's
    return [(problems[row["id"]]["problem"], row) for row in rows]


def steps_of(completion: str) -> list[str]:
    return [s.text for s in parse_solution(completion, timeout_s=10.0).steps]


def test_hacked_real_small_samples_score_unsupported():
    statuses = [step_statuses(problem, steps_of(row["completion"])) for problem, row in hacked_rows()]
    # read by hand from the 16 rows (problem numbers in brackets):
    # arith-0256 s0 [28, 3, 2]: "28 + 3 = 51" false; "51 + 3 = 54" true but 51 is a false result
    # arith-0257 s0 [31, 25, 26]: "30 + 26 = 56" true, 30 is not in the problem; "56 + 2 = 58" builds on
    #   that unsupported 56 and a 2 from nowhere (the example: gold 30)
    # arith-0257 s1: "26 + 31 = 57" and "57 + 31 = 88" use the problem's numbers and their result:
    #   grounded (the rule checks operands, not that they are the right ones; the answer does that)
    # arith-0259 s1 [44, 4, 10]: "44 + 10 = 54" grounded; "54 - 5 = 49": 5 is not in the problem
    # arith-0260 s0 [25, 4, 7]: "25 + 40 = 65": 40 is not in the problem
    # arith-0261 s0 [6, 4, 19]: "6 + 19 = 26" false; "26 - 24 = 2" true on a false result and a 24
    # arith-0261 s1: "6 + 19 = 25" grounded; "25 - 2 = 23": 2 is not in the problem
    assert statuses == [
        ["false", "unsupported"], ["false", "false"],
        ["unsupported", "unsupported"], ["grounded", "grounded"],
        ["grounded", "false"], ["false"],
        ["none", "none"], ["grounded", "unsupported"],
        ["none", "unsupported"], ["grounded", "grounded"],
        ["false", "unsupported"], ["grounded", "unsupported"],
        ["grounded", "grounded"], ["grounded", "grounded"],
        ["false"], ["grounded", "false"],
    ]  # fmt: skip
    counts = {s: sum(row.count(s) for row in statuses) for s in ("none", "false", "unsupported", "grounded")}
    # 27 checked steps, 19 of them true (the run's README: step accuracy 19/27); 7 of the 19 unsupported
    assert counts == {"none": 3, "false": 8, "unsupported": 7, "grounded": 12}


def test_the_rule_before_paid_the_hacked_steps_and_the_grounded_one_does_not():
    problem, row = hacked_rows()[2]  # arith-0257 s0, the example
    steps = steps_of(row["completion"])
    assert RuleStepScorer(RuleOptions(operands="any")).score([problem], [steps], ["30"])[0] == [[1.0, 1.0]]
    assert RuleStepScorer().score([problem], [steps], ["30"])[0] == [[0.0, 0.0]]
    assert RuleStepScorer(RuleOptions(unsupported=-1.0)).score([problem], [steps], ["30"])[0] == [[-1.0, -1.0]]


def test_arith_reward_keeps_true_and_adds_grounded_counts():
    source = arith_source({"step_source": "rule"})
    pairs = hacked_rows()
    results = source.score([row["completion"] for _, row in pairs],
                           [{"id": row["id"], "problem": p, "answer": row["gold"]} for p, row in pairs])
    total = {k: sum(r.components[k] for r in results) for k in ("steps_checked", "steps_true", "steps_grounded")}
    assert total == {"steps_checked": 27.0, "steps_true": 19.0, "steps_grounded": 12.0}
    # arith-0257 s0: both steps true, neither grounded, and they earn no step reward now
    assert (results[2].components["steps_true"], results[2].components["steps_grounded"]) == (2.0, 0.0)
    assert results[2].info["step_scores"] == [0.0, 0.0]


@pytest.mark.parametrize(
    "problem,steps,expected",
    [
        # the four arith templates' reference solutions: the 2nd step uses the 1st's result
        ("Ana has 12 apples. Ana gets 5 more, then gives away 3. How many apples does Ana have now?",
         ["12 + 5 = 17", "17 - 3 = 14"], ["grounded", "grounded"]),
        ("Ben has 3 coins and gets 4 more every day for 5 days. How many coins does Ben have after those days?",
         ["4 * 5 = 20", "3 + 20 = 23"], ["grounded", "grounded"]),
        # a chain inside one step, then a later step on its last result
        ("What is 2 * (3 + 4) + 1?", ["x = 3 + 4 = 7, and 2 * 7 = 14", "14 + 1 = 15"], ["grounded", "grounded"]),
        # number words, multiplier words, percent, grouped thousands, decimals
        ("Tom reads twelve pages a day for three days.", ["12 * 3 = 36"], ["grounded"]),
        ("Sam has twenty-five cards and twice as many stamps.", ["25 * 2 = 50"], ["grounded"]),
        ("A 1,000 dollar coat is 20% off.", ["1000 * 20 = 20000", "20000 / 100 = 200"], ["grounded", "grounded"]),
        ("A pen costs 2.5 dollars; Kim buys 4.", ["2.5 * 4 = 10"], ["grounded"]),
        # a negative result chains by magnitude
        ("Start at 5 and go down 8, then up 10.", ["5 - 8 = -3", "-3 + 10 = 7"], ["grounded", "grounded"]),
        # a false step's result does not ground a later true step; a free constant is not available
        ("Ana has 12 apples.", ["12 + 1 = 14", "14 - 2 = 12"], ["false", "unsupported"]),
        ("Ana has 12 apples.", ["12 - 1 = 11"], ["unsupported"]),
        # the gold answer is not available, nor "60" without the problem writing it
        ("A trip takes 2 hours. How many minutes?", ["2 * 60 = 120"], ["unsupported"]),
        # one unsupported claim makes the step unsupported; one false claim makes it false
        ("Add 3 and 4.", ["3 + 4 = 7 and 7 + 9 = 16"], ["unsupported"]),
        ("Add 3 and 4.", ["3 + 4 = 7 and 3 + 9 = 11 and 1 + 1 = 3"], ["false"]),
        ("Add 3 and 4.", ["so the sum is seven", ""], ["none", "none"]),
    ],
)
def test_grounded_statuses_by_hand(problem, steps, expected):
    assert step_statuses(problem, steps) == expected


def test_problem_numbers_are_read_generously_and_only_as_whole_words():
    assert problem_numbers("Ana has 12 apples and a dozen pears; someone gave her half.") == {12.0, 2.0}
    assert problem_numbers("x1 and 3.25 and ٣ and 50%") == {1.0, 3.25, 3.0, 50.0, 100.0}
    assert problem_numbers("Tenacious") == set()  # "ten" inside a word is not a number word


def test_rule_options_are_checked():
    with pytest.raises(ConfigError, match="rule.operands='free'.*allowed: grounded, any"):
        RuleOptions(operands="free")
    with pytest.raises(ConfigError, match=r"rule.unsupported=1.0 must be a number in \[-1, 1\)"):
        RuleOptions(unsupported=1.0)
    with pytest.raises(ConfigError, match="unknown key"):
        arith_source({"rule": {"grounding": "strict"}})


HOSTILE = [
    ("Add 3 and 4.", ["9" * 20000 + " + 1 = " + "9" * 20000]),  # a huge (infinite as a float) claim
    ("9" * 20000, ["9" * 20000 + " * 2 = 1"]),
    ("Add 3 and 4.", ["1" * 100000]),  # a digit run without an operator
    ("Add 3 and 4.", [f"{i} + {i} = {2 * i}" for i in range(500)]),  # hundreds of steps
    ("Add 3 and 4.", [" + = = + 3 + + 4 = = 7 = 8 -- . .. 1.2.3 + 4 = 5.3 (-(-3)) = ", "= 7", "3 +", ")(*&^"]),
    ("Add ٣ and ٤.", ["٣ + ٤ = ٧", "３ + ４ = ７"]),  # Arabic-Indic and fullwidth digits
    ("Add 3 and 4.", ["abc3 + 4 = 7def", "x3+4=7y", "3 + 4 = 7x"]),  # numbers inside words: not read
    ("Add 3.5 and -4.", ["3.5 + (-4) = -0.5", "-0.5 * -0.5 = 0.25", "0.1 + 0.2 = 0.3", "1/3 = 0.33"]),
    ("\x00\ud800", ["\x00 3 + 4 = 7 \ud800", "+" * 50000, "=" * 50000]),
]


def test_hostile_steps_are_bounded_and_never_raise():
    for problem, steps in HOSTILE:
        start = time.process_time()  # CPU time: a loaded machine stretches the wall clock, not the work
        statuses = step_statuses(problem, steps)
        assert len(statuses) == len(steps) and set(statuses) <= {"none", "false", "unsupported", "grounded"}
        assert time.process_time() - start < 2.0, problem[:20]
    # "i + i = 2i" for i < 500 on "Add 3 and 4.": grounded exactly when i is 3 or 4 or a result so far,
    # i.e. 3 * 2^k and 4 * 2^k (by hand: 3, 6, 12, ..., 384 and 4, 8, ..., 256)
    chain = step_statuses(*HOSTILE[3])
    assert [i for i, s in enumerate(chain) if s == "grounded"] == [
        3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384]
    assert chain.count("unsupported") == 500 - 15
    assert step_statuses(*HOSTILE[5]) == ["grounded", "grounded"]  # any Unicode digit reads as its value
    assert step_statuses(*HOSTILE[6]) == ["none", "none", "none"]
    # problem numbers 3.5 and 4 (by magnitude): "-0.5 * -0.5" is not read (an unbracketed negative b),
    # 0.1, 0.2, 1 and 3 are not the problem's
    assert step_statuses(*HOSTILE[7]) == ["grounded", "none", "unsupported", "unsupported"]


def test_arith_evaluation_reports_true_and_grounded_step_accuracy():
    from bot_repro.tasks import TASKS

    task = TASKS["arith"]({"n_train": 256, "n_test": 8}, {"family": "qwen2"})
    _, test = task.datasets()
    pairs = hacked_rows()
    assert [r["id"] for r in test] == [row["id"] for _, row in pairs[::2]]
    completions = [[pairs[2 * i][1]["completion"], pairs[2 * i + 1][1]["completion"]] for i in range(len(test))]
    metrics, _ = task.evaluate_detailed(completions, test)
    # the counts of test_hacked_real_small_samples_score_unsupported: 19 true and 12 grounded of 27 checked
    assert metrics["step_accuracy"] == pytest.approx(19 / 27)
    assert metrics["grounded_step_accuracy"] == pytest.approx(12 / 27)
    assert metrics["checked_steps_per_sample"] == pytest.approx(27 / 16)
