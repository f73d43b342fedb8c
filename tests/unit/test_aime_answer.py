"""AIME answer checking: normalisation, the math-verify process pool, hangs and crashes, and every
AIME 2024/2025 gold answer of ../shared/data/aime verifying against itself."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from bot_repro.tasks.aime.answer import AnswerChecker, normalise_integer, stated_numbers
from bot_repro.tasks.aime.tags import extract_answer, parse_solution
from tests.pool_checks import hanging_check

SHARED_AIME = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "aime"


@pytest.fixture(scope="module")
def checker():
    with AnswerChecker(workers=2, timeout_s=30.0) as c:
        yield c


@pytest.mark.parametrize(
    "text,value",
    [
        ("025", 25),
        ("336^\\circ", 336),
        ("336^{\\circ}", 336),
        ("336°", 336),
        ("$204$", 204),
        ("\\boxed{070}", 70),
        ("\\(42\\)", 42),
        ("\\text{ 7 }", 7),
        ("14.", 14),
        ("25.0", 25),
        ("1,000", 1000),
        ("-3", -3),
        ("\\$371", 371),  # escaped (currency) dollar
        ("$371", 371),
        ("\\$ 1,000", 1000),
        ("49^\\circ.", 49),
        (" 9 ", 9),
        (12, 12),
        (12.0, 12),
        ("\\frac{50}{2}", None),
        ("12.5", None),
        ("twelve", None),
        ("", None),
        (None, None),
        (True, None),
    ],
)
def test_normalise_integer(text, value):
    assert normalise_integer(text) == value


def test_integer_path_and_range(checker):
    golds = ["025", "25", "25", "999", "0", "336^\\circ", "7"]
    preds = ["25", "0025", "26", "1999", "000", "336", "-7"]
    got = [r.correct for r in checker.check(golds, preds)]
    assert got == [True, True, False, False, True, True, False]


def test_outside_range_is_wrong_even_if_equal_mod_1000(checker):
    result = checker.check(["25"], ["1025"])[0]
    assert not result.correct and "outside 0-999" in result.reason


def test_math_verify_path(checker):
    golds = ["25", "25", "25", "25", "204", "25"]
    preds = ["\\frac{50}{2}", "5^2", "\\frac{51}{2}", "\\sqrt{2}", "The answer is 204 minutes", "x+y"]
    got = [r.correct for r in checker.check(golds, preds)]
    assert got == [True, True, False, False, True, False]


def test_non_integer_value_is_wrong_with_reason(checker):
    result = checker.check(["1"], ["\\frac{3}{2}"])[0]
    assert not result.correct and "not an integer" in result.reason


def test_missing_answer_and_bad_gold(checker):
    none, empty, bad_gold = checker.check(["5", "5", "abc"], [None, "  ", "5"])
    assert not none.correct and none.reason == "no answer"
    assert not empty.correct
    assert not bad_gold.correct and "gold answer" in bad_gold.reason


def test_hanging_check_is_scored_wrong_and_batch_finishes():
    with AnswerChecker(workers=2, timeout_s=1.5, check_fn=hanging_check) as c:
        preds = ["v1", "hang", "v3", "v9", "5", "v6", "v7"]
        golds = [1, 2, 3, 4, 5, 6, 7]
        start = time.monotonic()
        results = c.check(golds, preds)
        assert time.monotonic() - start < 20
        assert [r.correct for r in results] == [True, False, True, False, True, True, True]
        assert "timed out" in results[1].reason
        assert c.timeouts == 1 and c.rebuilds == 1
        # the rebuilt pool keeps working
        assert [r.correct for r in c.check([8, 9], ["v8", "v0"])] == [True, False]


def test_crashing_worker_is_retried_then_scored_wrong():
    with AnswerChecker(workers=2, timeout_s=20, check_fn=hanging_check) as c:
        results = c.check([1, 2, 3], ["v1", "crash", "v3"])
        assert [r.correct for r in results] == [True, False, True]
        assert "crashed" in results[1].reason


def test_jobs_sharing_a_pool_with_a_crash_are_not_blamed_for_it():
    with AnswerChecker(workers=3, timeout_s=20, check_fn=hanging_check) as c:
        results = c.check([1, 2, 3, 4], ["slow-v1", "crash", "slow-v3", "slow-v4"])
        assert [r.correct for r in results] == [True, False, True, True], [r.reason for r in results]
        assert "crashed" in results[1].reason


def _check_in_this_process() -> tuple[list[bool], str | None, str | None]:
    import multiprocessing

    before = multiprocessing.get_start_method(allow_none=True)
    with AnswerChecker(workers=1, timeout_s=20, startup_timeout_s=60) as c:
        results = c.check([49, 49], ["\\frac{98}{2}", "\\frac{96}{2}"])  # both go to the pool
    return [r.correct for r in results], before, multiprocessing.get_start_method(allow_none=True)


def test_pool_starts_inside_a_loky_worker():
    """cluster=joblib runs each job in a loky worker, whose default start method is 'loky': the
    checker's spawned children used to die resolving it and the pool never started."""
    from joblib import Parallel, delayed

    # n_jobs=1 would run the job in this process
    (correct, before, after), = Parallel(n_jobs=2, backend="loky")(
        [delayed(_check_in_this_process)()]
    )
    assert before == "loky"  # the condition that broke the pool, so the test still tests it
    assert correct == [True, False]
    assert after == "loky"  # the worker's own default is left as it was


def test_a_loky_worker_that_used_the_shared_checker_still_exits(tmp_path):
    """The sweep hung after its last job: the loky worker joined the shared pool's live workers before
    any exit hook could shut the pool down. A script that leaves the shared checker open in a loky
    worker must exit, and so must the worker."""
    import subprocess
    import sys

    script = tmp_path / "job.py"
    script.write_text(
        "from joblib import Parallel, delayed\n"
        "from joblib.externals.loky import get_reusable_executor\n"
        "def job():\n"
        "    from bot_repro.tasks.aime.answer import shared_checker\n"
        "    return shared_checker(workers=1).check([49], ['\\\\frac{98}{2}'])[0].correct\n"
        "if __name__ == '__main__':\n"
        "    print(Parallel(n_jobs=2, backend='loky')([delayed(job)()]))\n"
        "    get_reusable_executor().shutdown(wait=True)  # what the launcher's process exit does\n"
        "    print('shut down')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["[True]", "shut", "down"]


def test_invalid_settings():
    with pytest.raises(ValueError):
        AnswerChecker(workers=0)
    with pytest.raises(ValueError):
        AnswerChecker(timeout_s=0)


def _gold_answers() -> list[tuple[str, str]]:
    if not SHARED_AIME.is_dir():
        pytest.skip(
            f"../shared/data/aime not present: {SHARED_AIME} holds the AIME 2024/2025 files used here"
        )
    import pandas as pd

    golds = []
    for name in ("skywork_or1_aime24.parquet", "skywork_or1_aime25.parquet"):
        df = pd.read_parquet(SHARED_AIME / name)
        golds += [(f"{name}:{i}", str(rm["ground_truth"])) for i, rm in enumerate(df["reward_model"])]
    with (SHARED_AIME / "qwen25math_aime24_test.jsonl").open() as f:
        golds += [(f"qwen:{r['id']}", str(r["answer"])) for r in map(json.loads, f)]
    assert len(golds) == 90
    return golds


def test_every_shared_gold_answer_verifies_against_itself(checker):
    golds = _gold_answers()
    assert "336^\\circ" in [g for _, g in golds] and "025" in [g for _, g in golds]
    texts_per_gold = []
    for _, gold in golds:
        n = normalise_integer(gold)
        assert n is not None and 0 <= n <= 999
        texts_per_gold.append(
            [
                f"So the result is \\boxed{{{gold}}}.",  # the raw gold, boxed, no tags
                f"<step 1> compute </step 1>\n<final> {n} </final>",
                f"<step 1> compute </step 1>\n<final>{n:03d}</final>",  # leading zeros
                f"<step 1> compute </step 1>\n<final>$\\boxed{{00{n}}}$</final>",
                f"<step 1> compute </step 1>\n<final>\\frac{{{2 * n}}}{{2}}</final>",  # through math-verify
            ]
        )
    wrong = [
        [
            f"<final>{(normalise_integer(g) + 1) % 1000}</final>",
            f"\\boxed{{{normalise_integer(g) + 1000}}}",
            f"<step 1> compute </step 1>\n<final>{(normalise_integer(g) + 1) % 1000} or {g}</final>",  # hedges
            f"<step 1> compute </step 1>\n<final>{g}, {(normalise_integer(g) + 7) % 1000}</final>",
        ]
        for _, g in golds
    ]
    pairs = [(gold, t, True) for (_, gold), texts in zip(golds, texts_per_gold) for t in texts]
    pairs += [(gold, t, False) for (_, gold), texts in zip(golds, wrong) for t in texts]
    preds = [extract_answer(parse_solution(t), t) for _, t, _ in pairs]
    results = checker.check([g for g, _, _ in pairs], preds)
    bad = [(g, t, r.reason) for (g, t, want), r in zip(pairs, results) if r.correct != want]
    assert not bad, bad[:5]


STEP = "<step 1> compute </step 1>\n"

# every one of these names two or more distinct numbers: wrong although the last one is the gold 49
HEDGES = [
    "<final> 50 or 49 </final>",
    "<final>48, 49</final>",
    "<final>1 2 3 4 49</final>",
    "<final>\\boxed{48} or \\boxed{49}</final>",
    "<final>$48$ or $49$</final>",
    "<final>x = 48 or x = 49</final>",
    "<final>48; 49</final>",
    "<final>-49 or 49</final>",
    "<final>49 \\quad 50</final>",
    "<final>The answer is 48 or maybe 49.</final>",
    "So either \\boxed{48 \\text{ or } 49}",  # the boxed fallback, no <final>
    "<final>336^\\circ or 49^\\circ</final>",
]

# one number in the usual formats: right for the gold 49 (the last three through math-verify)
SINGLES = [
    "<final>\\boxed{49}</final>",
    "<final>$49$</final>",
    "<final>49.</final>",
    "<final>\\$49</final>",
    "<final>$49</final>",
    "<final>49^\\circ</final>",
    "<final>049</final>",
    "<final>49 and 049</final>",  # the same number twice is not a hedge
    "I computed it: \\boxed{49}.",
    "<final>The answer is 49</final>",
    "<final>x = 49</final>",
    "<final>\\frac{98}{2}</final>",
]


@pytest.mark.parametrize("completion", HEDGES)
def test_hedged_answers_are_wrong(checker, completion):
    text = STEP + completion
    answer = extract_answer(parse_solution(text), text)
    assert len(stated_numbers(answer)) >= 2
    result = checker.check(["49"], [answer])[0]
    assert not result.correct and "a hedge" in result.reason, result.reason


@pytest.mark.parametrize("completion", SINGLES)
def test_single_answers_in_usual_formats_are_right(checker, completion):
    text = STEP + completion
    result = checker.check(["49"], [extract_answer(parse_solution(text), text)])[0]
    assert result.correct, result.reason


def test_escaped_dollar_scores_like_dollar(checker):
    preds = ["\\$371", "$371", "\\$ 371", "\\$372"]
    assert [r.correct for r in checker.check(["371"] * 4, preds)] == [True, True, True, False]


@pytest.mark.parametrize(
    "text,numbers",
    [
        ("\\frac{98}{2}", []),  # one expression
        ("7^2", []),
        ("48 - 49", []),  # a subtraction, not a sign
        ("2 \\cdot 3 = 6", ["6"]),
        ("1,000", ["1,000"]),
        ("12.5 or 13", ["12.5", "13"]),
        ("3 or -3", ["3", "-3"]),
        ("no number", []),
    ],
)
def test_stated_numbers(text, numbers):
    assert stated_numbers(text) == numbers


ADVERSARIAL = {
    "repeated_boxed": "\\boxed{" * 28_600,
    "final_of_repeated_boxed": STEP + "<final>" + "\\boxed{" * 28_600 + "</final>",
    "boxed_nested_braces": "\\boxed{" + "{" * 200_000,
    "final_nested_braces": STEP + "<final>\\boxed{" + "{" * 100_000 + "}" * 100_000 + "</final>",
    "unclosed_final_boxes": STEP + "<final>" + "\\boxed{49" * 22_500,
    "tag_whitespace_then_hedge": "<step" + " " * 200_000 + "<final>50 or 49</final>",
}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_200kb_completion_is_scored_wrong_within_2s(checker, name):
    """The whole answer path in the caller's process: parse, extract, check (each of these answers is
    too long or a hedge: refused before the pool). CPU time, not the wall clock: a loaded machine
    stretches the wall clock, not the work this bounds."""
    text = ADVERSARIAL[name]
    assert len(text) >= 190_000
    start = time.process_time()
    parsed = parse_solution(text)
    result = checker.check(["49"], [extract_answer(parsed, text)])[0]
    elapsed = time.process_time() - start
    assert not result.correct, result
    assert elapsed < 2.0, elapsed
