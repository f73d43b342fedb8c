"""task=arith (experiment=real_small's task): generated problems, worked-example turns, and its reward."""

from __future__ import annotations

import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.rewards import REWARD_SOURCES, RewardCfg
from bot_repro.tasks import TASKS
from bot_repro.tasks.aime.steps import arithmetic_claims
from bot_repro.tasks.arith.task import solution_text


def task(**params):
    return TASKS["arith"](params, {"family": "qwen2"})


def test_reference_solutions_hold_and_score_perfectly():
    train, test = task(n_train=40, n_test=8).datasets()
    rows = train + test
    assert len({r["problem"] for r in rows}) == 48
    for row in rows:
        claims = [c for step in row["steps"] for c in arithmetic_claims(step)]
        assert len(claims) == 2 and all(c.true for c in claims), row
    source = REWARD_SOURCES["arith"](RewardCfg(source="arith", w_g=3.0, w_s=0.5, window=0), {})
    results = source.score([solution_text(r) for r in rows], rows)
    assert all(r.components["correct"] == 1.0 and r.components["format_perfect"] == 1.0 for r in results)
    assert all(r.components["steps_checked"] == 2.0 == r.components["steps_true"] for r in results)
    wrong = source.score(["<step 1> 2 + 2 = 5 </step 1>\n<final> 5 </final>"], rows[:1])[0]
    assert wrong.components["steps_checked"] == 1.0 and wrong.components["steps_true"] == 0.0


def test_shots_are_earlier_turns_and_leave_the_rows_unchanged():
    plain_train, plain_test = task(n_train=20, n_test=5).datasets()
    t = task(n_train=20, n_test=5, shots=3)
    train, test = t.datasets()
    assert [r["problem"] for r in train] == [r["problem"] for r in plain_train]
    assert [r["problem"] for r in test] == [r["problem"] for r in plain_test]
    assert len(t.examples) == 3
    sums = {tuple(r["steps"]) for r in train + test}
    assert not sums & {tuple(ex["steps"]) for ex in t.examples}  # no example asks a training or test problem's sums
    prompt = test[0]["prompt"]
    assert [m["role"] for m in prompt] == ["system"] + ["user", "assistant"] * 3 + ["user"]
    assert prompt[-1]["content"] == test[0]["problem"]
    assert prompt[2]["content"] == solution_text(t.examples[0]) and "<final>" in prompt[2]["content"]
    assert [m["role"] for m in plain_test[0]["prompt"]] == ["system", "user"]


def test_bad_params_are_refused():
    with pytest.raises(ConfigError, match="shots=-1"):
        task(shots=-1)
    with pytest.raises(ConfigError, match="n_train=0"):
        task(n_train=0)
