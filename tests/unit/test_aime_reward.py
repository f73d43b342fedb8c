"""The AIME reward source: Eq. 8 through G and step spans, the window spread, the rule scorer, the
judge scorer (with a fake client) and config errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.judges.types import StepJudgeInput
from bot_repro.rewards import REWARD_SOURCES, RewardCfg
from bot_repro.rewards.mapper import local_token_rewards
from bot_repro.tasks.aime.reward import spread_steps
from bot_repro.tasks.aime.steps import arithmetic_claims

ROW = {"id": "r", "problem": "What is 2 * (3 + 4)?", "answer": "14"}
SOLUTION = "<step 1> 3 + 4 = 7 </step 1>\n<step 2> 2 * 7 = 15 </step 2>\n<step 3> so 14 </step 3>\n<final> 14 </final>"


def source(params: dict, w_g: float = 3.0, window: int = 1, judge=None):
    cfg = RewardCfg(source="aime", w_g=w_g, w_s=0.5, window=window, params=params)
    return REWARD_SOURCES["aime"](cfg, {"judge": judge, "run_dir": None, "seed": 0})


class FakeJudge:
    def __init__(self, verdicts):
        self.verdicts = verdicts
        self.calls: list[tuple[list[StepJudgeInput], str]] = []

    def step_judge(self, items, strategy):
        self.calls.append((items, strategy))
        return [self.verdicts(item) for item in items]


def test_spread_window_0_1_3():
    e = [1.0, 0.0, -1.0, 0.0]
    assert spread_steps(e, 0) == pytest.approx([0.25, 0.0, -0.25, 0.0])
    # w=1: phi = 1, 0.5 -> v_j = (sum_s e_s phi)/4
    assert spread_steps(e, 1) == pytest.approx([1 / 4, (0.5 - 0.5) / 4, -1 / 4, -0.5 / 4])
    # w=3: phi(d) = 1, .75, .5, .25
    assert spread_steps(e, 3) == pytest.approx(
        [(1 - 0.5) / 4, (0.75 - 0.75) / 4, (0.5 - 1) / 4, (0.25 - 0.75) / 4]
    )
    assert spread_steps([], 3) == []
    with pytest.raises(ValueError):
        spread_steps(e, -1)


@pytest.mark.parametrize("window", [1, 3, 5])
def test_spread_mass_of_an_interior_step(window):
    # one score e at the centre of a long solution spreads total mass e (1 + window) / |S|
    n, e = 21, -1.0
    scores = [0.0] * n
    scores[10] = e
    values = spread_steps(scores, window)
    assert sum(values) == pytest.approx(e * (1 + window) / n)
    assert sum(v != 0 for v in values) == 2 * window + 1


def test_rule_source_eq8_exactly():
    result = source({"step_source": "rule"}, w_g=3.0, window=1).score([SOLUTION], [ROW])[0]
    # correct and perfect tags: w_g G = 3 * 1 + 0.2 exactly
    assert 3.0 * result.global_score == pytest.approx(3.2)
    assert result.components == {"correct": 1.0, "format_bonus": 0.2, "step_score_mean": 0.0, "n_steps": 3.0}
    assert result.info["step_scores"] == [1.0, -1.0, 0.0]
    # e = [1, -1, 0], w = 1, |S| = 3
    assert [s.value for s in result.spans] == pytest.approx([(1 - 0.5) / 3, (0.5 - 1) / 3, -0.5 / 3])
    assert [SOLUTION[s.start : s.end][:8] for s in result.spans] == ["<step 1>", "<step 2>", "<step 3>"]
    assert result.info["failure"] is None


def test_spans_reach_tokens_through_the_mapper():
    result = source({"step_source": "rule"}, window=0).score([SOLUTION], [ROW])[0]
    # one "token" per character: tokens of step 2 get e_2/|S| = -1/3, the final block gets 0
    offsets = [(i, i + 1) for i in range(len(SOLUTION))]
    local = local_token_rewards(SOLUTION, offsets, result, window=0)
    assert local[SOLUTION.index("2 * 7")] == pytest.approx(-1 / 3)
    assert local[SOLUTION.index("3 + 4")] == pytest.approx(1 / 3)
    assert local[SOLUTION.index("<final>") + 2] == 0.0


def test_wrong_answer_and_bad_format():
    wrong = SOLUTION.replace("<final> 14 </final>", "<final> 15 </final>")
    loose = "Here you go.\n" + SOLUTION
    no_tags = "the answer is \\boxed{14}"
    r_wrong, r_loose, r_none = source({"step_source": "none"}, w_g=3.0).score(
        [wrong, loose, no_tags], [ROW] * 3
    )
    assert 3.0 * r_wrong.global_score == pytest.approx(0.2) and r_wrong.info["failure"] == "15 != 14"
    assert 3.0 * r_loose.global_score == pytest.approx(3.0)
    assert 3.0 * r_none.global_score == pytest.approx(3.0 - 1.0)  # boxed fallback is correct, tags missing
    assert r_wrong.spans == [] and r_none.spans == []  # step_source none: GRPO's reward


def test_untrusted_output_never_raises():
    junk = [None, "", "<step 1>" * 500, "\x00\ud800 <final>\\boxed{", "<final>" + "9" * 5000 + "</final>"]
    results = source({"step_source": "rule"}).score(junk, [ROW] * len(junk))
    assert [r.components["correct"] for r in results] == [0.0] * len(junk)
    assert all(r.info["failure"] for r in results)


def test_rows_without_gold_answer_are_a_harness_error():
    with pytest.raises(ValueError, match="without a gold 'answer'"):
        source({"step_source": "rule"}).score([SOLUTION], [{"id": "r7", "problem": "p"}])


def test_judge_scorer_inputs_and_verdicts():
    judge = FakeJudge(lambda item: [1, -1, 0][: len(item.steps)])
    src = source({"step_source": "judge", "strategy": "context_aware"}, window=0, judge=judge)
    no_steps = "\\boxed{14}"
    r1, r2 = src.score([SOLUTION, no_steps], [ROW, ROW])
    ((items, strategy),) = judge.calls
    assert strategy == "context_aware"
    assert len(items) == 1  # a solution without steps is not sent
    assert items[0].steps == ["3 + 4 = 7", "2 * 7 = 15", "so 14"]
    assert items[0].problem == ROW["problem"] and items[0].reference_answer == "14"
    assert [s.value for s in r1.spans] == pytest.approx([1 / 3, -1 / 3, 0.0])
    assert r2.spans == []


def test_judge_bad_verdicts_score_zero_with_reason():
    judge = FakeJudge(lambda item: [1])  # one verdict for three steps
    r = source({"step_source": "judge", "give_judge_reference": False}, judge=judge).score([SOLUTION], [ROW])[
        0
    ]
    assert judge.calls[0][0][0].reference_answer is None
    assert [s.value for s in r.spans] == [0.0, 0.0, 0.0]
    assert "1 verdicts for 3 steps" in r.info["step_failure"]
    clipped = source({"step_source": "judge"}, window=0, judge=FakeJudge(lambda item: [5, -7, 0]))
    assert [s.value for s in clipped.score([SOLUTION], [ROW])[0].spans] == pytest.approx([1 / 3, -1 / 3, 0.0])


def test_a_solution_whose_step_calls_failed_is_excluded_not_scored():
    """step_judge gives None for a solution without verdicts (no reply, or unreadable ones) and labels else."""
    judge = FakeJudge(lambda item: None if "15" in item.steps[1] else [0, 0, 0])
    other = SOLUTION.replace("2 * 7 = 15", "2 * 7 = 14")
    failed, unparsed = source({"step_source": "judge"}, judge=judge).score([SOLUTION, other], [ROW, ROW])
    assert (failed.excluded, unparsed.excluded) == ("judge_outage", None)
    assert "judge outage" in failed.info["step_failure"] and unparsed.info["step_failure"] is None


def test_max_steps_caps_scored_steps():
    r = source({"step_source": "rule", "max_steps": 2}, window=0).score([SOLUTION], [ROW])[0]
    assert len(r.spans) == 2 and r.components["n_steps"] == 3.0
    assert [s.value for s in r.spans] == pytest.approx([0.5, -0.5])  # |S| = 2 scored steps


@pytest.mark.parametrize(
    "step,expected",
    [
        ("3 + 4 = 7", [True]),
        ("so 3 + 4 = 8.", [False]),
        ("12 \\cdot 5 = 60 and 6 ÷ 2 = 3", [True, True]),
        ("3 \\times 4 = 13", [False]),
        ("10/3 = 3.33", [True]),
        ("10/3 = 3.4", [False]),
        ("7/0 = 0", [False]),
        ("3 + (-4) = -1", [True]),
        ("x = 3 + 4 = 7", [True]),
        ("2 + 3 * 4 = 14", []),  # part of a longer expression: not read
        ("2^3 + 1 = 9", []),
        ("5 - 3 = 2 + 0", []),
        ("7 - 3 = 4x", []),
        ("1,000 + 5 = 1,005", []),
        ("x -3 + 4 = 1", []),
        ("no numbers here", []),
    ],
)
def test_arithmetic_claims(step, expected):
    assert [c.true for c in arithmetic_claims(step)] == expected


@pytest.mark.parametrize(
    "cfg,match",
    [
        ({"w_g": 0.0}, "w_g"),
        ({"params": {"step_source": "oracle"}}, "step_source"),
        ({"params": {"step_sourse": "rule"}}, "unknown key"),
        ({"params": {"step_source": "judge"}}, "needs a judge"),
        ({"params": {"step_source": "rule", "max_steps": 0}}, "max_steps"),
        ({"params": {"step_source": "prm", "prm": {"loader": "magic"}}}, "prm.loader"),
    ],
)
def test_config_errors(cfg, match):
    full = {"source": "aime", "w_g": 3.0, "w_s": 0.5, "window": 3, "params": {"step_source": "rule"}} | cfg
    with pytest.raises(ConfigError, match=match):
        REWARD_SOURCES["aime"](RewardCfg(**full), {"judge": None})


def test_unknown_strategy_is_refused():
    with pytest.raises(ConfigError, match="strategy"):
        source({"step_source": "judge", "strategy": "vibes"}, judge=FakeJudge(lambda item: []))


@pytest.mark.parametrize("strategy", ["error_propagation", "context_aware", "independent"])
def test_with_the_loopback_judge_client(tmp_path, strategy):
    judges = pytest.importorskip("bot_repro.judges")
    client = judges.build_judge_client({"backend": "loopback", "cache": False, "max_retries": 0}, tmp_path)
    try:
        src = source({"step_source": "judge", "strategy": strategy}, window=0, judge=client)
        result = src.score([SOLUTION], [ROW])[0]
    finally:
        client.close()
    assert result.info["step_failure"] is None
    assert len(result.info["step_scores"]) == 3 and set(result.info["step_scores"]) <= {-1.0, 0.0, 1.0}
    assert [s.value for s in result.spans] == pytest.approx([e / 3 for e in result.info["step_scores"]])


def test_auto_step_source_is_the_judge_when_there_is_one_else_the_rule():
    judge = FakeJudge(lambda item: [-1] * len(item.steps))  # a judge that disagrees with the rule
    with_judge = source({"step_source": "auto"}, window=0, judge=judge).score([SOLUTION], [ROW])[0]
    without = source({"step_source": "auto"}, window=0).score([SOLUTION], [ROW])[0]
    assert with_judge.info["step_source"] == "judge" and with_judge.info["step_scores"] == [-1.0] * 3
    assert len(judge.calls) == 1
    assert without.info["step_source"] == "rule" and without.info["step_scores"] == [1.0, -1.0, 0.0]


def test_the_papers_stack_and_the_task_default_in_conf():
    """aime_bot (the figures' stack) asks for the judge; task=aime's default stack says auto."""
    from omegaconf import OmegaConf

    conf = Path(__file__).resolve().parents[2] / "conf" / "reward"
    assert OmegaConf.load(conf / "aime_bot.yaml").params.step_source == "judge"
    assert OmegaConf.load(conf / "aime_default.yaml").params.step_source == "auto"
