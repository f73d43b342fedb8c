"""task=arith's strict answer format (#51 item 5): a right answer is a number alone in a closed final
block (``tags.strict_answer``), read by the same function in the reward (``correct`` and G) and in the
held-out evaluation (pass@k); real_study's five samples the old reading scored right are wrong, no other
of its 19,200 changes; hostile text is wrong without raising; AIME's (the paper's) rule, beside it,
still reads them."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from bot_repro import report_folder
from bot_repro.config_schema import ConfigError
from bot_repro.rewards import REWARD_SOURCES, RewardCfg
from bot_repro.tasks import TASKS
from bot_repro.tasks.aime.tags import parse_solution, strict_answer
from bot_repro.tasks.arith.data import make_problems
from bot_repro.trainer.monitors import batch_monitors

REPO = Path(__file__).resolve().parents[2]
ROW = {"id": "arith-0264", "answer": "15", "problem": "A box holds 3 pencils. Ana fills 7 boxes, then uses 6 of the pencils. How many pencils are left?"}
STEPS = "<step 1> 3 * 7 = 21 </step 1>\n<step 2> 21 - 6 = 15 </step 2>\n"
TIMEOUT = 7.0  # a checker of its own (shared_checker is keyed by workers and timeout): its pool is seen unused

# (what follows the steps, right?) with gold 15: the three, then the rule's edges
CASES = [
    ("<final> 21 - 6 = 15 </final>", False),  # an equation (real_study, 3 samples)
    ("<final> 15 </output>", False),  # closed by another tag: unclosed (real_study: "<final> 9 </output>")
    ("<final> 15 </outfits>", False),  # (real_study: "<final> 24 </outfits>")
    ("<final> 15 </final>", True),
    ("<final>15</final>", True),
    ("<final>\n 15 \n</final>", True),
    ("<final> +15 </final>", True),  # a sign is part of the integer
    ("<final> 015 </final>", True),  # so are leading zeros
    ("<final> 15 </final>\nDone.", True),  # text after the block: a format matter (bonus 0), not the answer's
    ("<final> 16 </final>", False),
    ("<final> -15 </final>", False),
    ("<final> 15 </final><final> 15 </final>", False),  # a second final block
    ("<final> 14 </final><final> 15 </final>", False),
    ("<final> 15", False),  # never closed
    ("<final> 15 </step 2>", False),  # closed by a step tag
    ("<final> 15 </final 1>", False),  # a numbered closing tag
    ("<final> 1<final> 15 </final>", False),  # nested
    ("<final> 15. </final>", False),
    ("<final> 15.0 </final>", False),
    ("<final> 1,5 </final>", False),
    ("<final> 15 pencils </final>", False),
    ("<final> \\boxed{15} </final>", False),
    ("<final> $15$ </final>", False),
    ("<final> **15** </final>", False),
    ("<final> 1 5 </final>", False),
    ("<final> \u0661\u0665 </final>", False),  # Arabic-Indic digits
    ("<final> \uff11\uff15 </final>", False),  # full-width digits
    ("<final> 15 or 16 </final>", False),
    ("The answer is \\boxed{15}.", False),  # no fallback
    ("", False),
]


def arith_reward():
    cfg = RewardCfg(source="arith", w_g=3.0, w_s=0.5, window=0, params={"check_timeout_s": TIMEOUT})
    return REWARD_SOURCES["arith"](cfg, {})


def arith_task(**params):
    return TASKS["arith"]({"check_timeout_s": TIMEOUT, **params}, {"family": "qwen2"})


def test_reward_and_evaluation_apply_the_same_strict_rule():
    texts = [STEPS + tail for tail, _ in CASES]
    expected = [right for _, right in CASES]
    reward = arith_reward()
    results = reward.score(texts, [ROW] * len(texts))
    by_reward = [r.components["correct"] == 1.0 for r in results]
    metrics, records = arith_task().evaluate_detailed([[t] for t in texts], [ROW] * len(texts))
    by_evaluation = [rec["correct"] for rec in records]
    assert by_reward == by_evaluation == expected, [c for c, r, e in zip(CASES, by_reward, expected) if r != e]
    assert metrics["pass@1"] == sum(expected) / len(expected)
    for res, right in zip(results, expected):  # G = 1[correct] + b_format / w_g
        assert res.global_score == pytest.approx(float(right) + res.components["format_bonus"] / 3.0)
    assert reward.inner.checker.pool is None  # plain integers are compared here: math-verify never ran


def test_the_equation_keeps_its_format_bonus_and_the_monitors_count_it():
    text = STEPS + "<final> 21 - 6 = 15 </final>"
    res = arith_reward().score([text], [ROW])[0]
    assert res.components["correct"] == 0.0 and res.components["format_perfect"] == 1.0
    assert res.components["format_bonus"] == 0.2 and res.components["steps_true"] == 2.0
    monitors = batch_monitors([res.global_score], [0.0], 1, [res], [text])
    assert monitors["monitor/format_only"] == 1.0 and monitors["monitor/true_steps_wrong_answer"] == 1.0


def test_real_study_samples_only_the_five_loose_ones_change():
    """Every held-out sample of results/real_study (30 runs x 5 evaluations x 128), re-scored by the
    arith evaluation: exactly the issue's five, scored right then, are wrong now; none flips the other way."""
    runs = report_folder.unpack(REPO / "results/real_study")
    problems = {r["id"]: r for r in make_problems(256 + 32, 0, "arith", "two_step")}  # the study's rows then
    task = arith_task()
    changed, total = [], 0
    for path in sorted(runs.glob("*/eval/step_*/samples.jsonl")):
        records = [json.loads(line) for line in path.read_text().splitlines()]
        total += len(records)
        for rec in records:
            answer = strict_answer(parse_solution(rec["completion"]))
            if (answer is not None and int(answer) == int(rec["gold"])) != rec["correct"]:
                changed.append((path.parent.parent.parent.name, rec))
    assert total == 19_200
    tails = sorted(rec["completion"].rsplit("\n", 1)[-1] for _, rec in changed)
    assert tails == ["<final> 21 - 6 = 15 </final>"] * 3 + ["<final> 24 </outfits>", "<final> 9 </output>"]
    assert all(rec["correct"] for _, rec in changed)  # each was scored right by the old reading
    # the reward and the evaluation agree on them (and on one whole evaluation file beside them)
    first = sorted(runs.glob("*/eval/step_*/samples.jsonl"))[0]
    sample = [rec for _, rec in changed] + [json.loads(line) for line in first.read_text().splitlines()]
    rows = [problems[rec["id"]] for rec in sample]
    assert all(row["answer"] == rec["gold"] for row, rec in zip(rows, sample))
    texts = [rec["completion"] for rec in sample]
    by_reward = [r.components["correct"] == 1.0 for r in arith_reward().score(texts, rows)]
    _, records = task.evaluate_detailed([[t] for t in texts], rows)
    assert by_reward == [rec["correct"] for rec in records]
    assert by_reward[:5] == [False] * 5 and any(by_reward[5:])


HOSTILE = {
    # name: a completion built to be slow, huge or odd; every one is wrong and none raises
    "huge_number": STEPS + "<final> " + "9" * 200_000 + " </final>",
    "long_number_then_gold": STEPS + "<final> 15" + "0" * 5_000 + " </final>",
    "nested_finals": STEPS + "<final>" * 30_000,
    "unclosed_final_whitespace": STEPS + "<final>" + " " * 200_000 + "15",
    "closing_tags_only": STEPS + "</final>" * 25_000,
    "many_signs": STEPS + "<final> " + "+" * 200_000 + "15 </final>",
    "surrogates_and_nul": STEPS + "<final> \x00\ud80015 </final>",
    "unicode_digits": STEPS + "<final> " + "\u0665" * 100_000 + " </final>",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_answers_are_wrong_without_raising(name):
    text = HOSTILE[name]
    start = time.monotonic()
    res = arith_reward().score([text], [ROW])[0]
    _, records = arith_task().evaluate_detailed([[text]], [ROW])
    assert time.monotonic() - start < 5.0  # linear: a 200 KB completion, both paths, on loaded cores
    assert res.components["correct"] == 0.0 and records[0]["correct"] is False


def test_arith_refuses_the_boxed_fallback_option():
    with pytest.raises(ConfigError, match="answer_fallback_boxed does not apply to source 'arith'"):
        REWARD_SOURCES["arith"](RewardCfg(source="arith", w_g=3.0, params={"answer_fallback_boxed": True}), {})


def test_aime_keeps_the_papers_reading_of_the_same_texts():
    """AIME's rule (``tags.extract_answer`` and math-verify), stated beside arith's: the first final
    block, closed or not, read leniently; the tags are paid apart (an unclosed final: b_format -1)."""
    cfg = RewardCfg(source="aime", w_g=3.0, w_s=0.5, window=0,
                    params={"step_source": "none", "check_workers": 1, "check_timeout_s": 20.0})
    tails = ["<final> 21 - 6 = 15 </final>", "<final> 15 </output>", "<final> 15. </final>", "\\boxed{15}",
             "<final> 15 or 16 </final>"]
    results = REWARD_SOURCES["aime"](cfg, {}).score([STEPS + t for t in tails], [ROW] * len(tails))
    assert [r.components["correct"] for r in results] == [1.0, 1.0, 1.0, 1.0, 0.0]  # a hedge stays wrong
    assert [r.components["format_bonus"] for r in results] == [0.2, -1.0, 0.2, -1.0, 0.2]
