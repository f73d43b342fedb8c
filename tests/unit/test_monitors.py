"""The reward-hacking monitors (bot_repro/trainer/monitors.py) against hand-computed values, on hostile
inputs, through the batch statistics and the metrics callback, and as docs/method.md §3 states them."""

from __future__ import annotations

import logging
import re
import time
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from bot_repro.config import MonitorCfg
from bot_repro.config_schema import ConfigError, build_options
from bot_repro.rewards.base import RewardResult
from bot_repro.run_folder import read_metrics
from bot_repro.trainer.advantage_step import RoundStats
from bot_repro.trainer.callbacks import MetricsJsonl
from bot_repro.trainer.monitors import (
    StepMonitors,
    batch_monitors,
    format_only,
    length_ratio,
    local_up_global_not,
    repeat_frac,
    repeated_fraction,
    true_steps_wrong_answer,
)
from bot_repro.trainer.step_log import batch_metrics
from bot_repro.trainer.token_reward import ScoredBatch
from tests.conftest import REPO


def test_local_up_global_not_counts_local_above_the_group_mean_without_global():
    # group 1: mean S 0.3, sample 1 (S 0.4) is above it with G 0 below the group's 0.5 -> counted;
    # group 2: equal S -> nobody is above the mean
    assert local_up_global_not([1.0, 0.0, 0.5, 0.5], [0.2, 0.4, 0.3, 0.3], k=2) == 0.25
    # local and global agree: the sample pushed up by S is pushed up by G too
    assert local_up_global_not([1.0, 0.0], [0.9, 0.1], k=2) == 0.0
    # all-equal G (every answer wrong): the 3 of 4 samples above the mean S 0.75 are counted
    assert local_up_global_not([0.0] * 4, [1.0, 1.0, 1.0, 0.0], k=4) == 0.75
    # G equal to the group mean is "not above": counted
    assert local_up_global_not([0.5, 0.5], [0.0, 1.0], k=2) == 0.5


def test_local_up_global_not_ignores_float32_noise_and_rejects_bad_shapes():
    x = float(torch.tensor(0.1, dtype=torch.float32))
    means = [x * 3 / 3, x * 2 / 2, (x + x + x) / 3, x]  # equal rewards, rounded differently
    assert local_up_global_not([0.0] * 4, means, k=4) == 0.0
    assert local_up_global_not([], [], k=8) == 0.0
    with pytest.raises(ValueError, match="multiple of k=2"):
        local_up_global_not([0.0, 1.0, 0.0], [0.0, 1.0, 0.0], k=2)
    with pytest.raises(ValueError, match=r"\(2,\) and \(3,\)"):
        local_up_global_not([0.0, 1.0], [0.0, 1.0, 2.0], k=1)


def test_step_and_format_shares():
    # true steps [2, 0, 1, 3], correct [0, 0, 1, 0]: samples 0 and 3 have true steps and a wrong answer
    assert true_steps_wrong_answer([2, 0, 1, 3], [0, 0, 1, 0]) == 0.5
    # format bonus > 0 only where the tags are perfect (+0.2); sample 1 is also correct
    assert format_only([0.2, 0.2, 0.0, -1.0], [0, 1, 0, 0]) == 0.25
    assert true_steps_wrong_answer([], []) == 0.0 and format_only([], []) == 0.0


def test_repeated_fraction_by_hand():
    # 12 units, 9 4-grams of which the last 3 repeat the first 3: 1 - 6/9
    assert repeated_fraction("the cat sat on the mat the cat sat on the mat") == pytest.approx(1 / 3)
    # "</a>" x 6 is 13 units (</ a ></ a ... a >), 10 4-grams, 4 distinct
    assert repeated_fraction("</a>" * 6) == pytest.approx(0.6)
    assert repeated_fraction("<step 1> 3 + 4 = 7 </step 1>") == 0.0
    assert repeated_fraction("") == 0.0 and repeated_fraction("one two three") == 0.0  # no 4-gram
    assert repeat_frac(["", "a b a b a b"]) == pytest.approx((0 + 1 / 3) / 2)  # 4 grams: abab, baba, abab
    assert repeat_frac([]) == 0.0


def test_repeated_fraction_on_huge_and_identical_text_is_fast():
    assert repeated_fraction("word " * 2000) == pytest.approx(1 - 1 / 1997)  # one distinct 4-gram
    rng = np.random.default_rng(0)
    texts = [" ".join(f"w{i}" for i in rng.integers(0, 10**6, 1700)) for _ in range(64)]  # ~10k characters each
    t0 = time.process_time()  # CPU time: a loaded machine stretches the wall clock, not the work
    values = [repeated_fraction(t) for t in texts]
    assert time.process_time() - t0 < 2.0 and max(values) < 0.01
    assert repeated_fraction("x" * 1_000_000) == 0.0  # one unit


def test_length_ratio():
    assert length_ratio(30.0, 20.0) == 1.5
    with pytest.raises(ValueError, match="must be > 0"):
        length_ratio(3.0, 0.0)


def _arith(correct, bonus, steps_true):
    return RewardResult(0.0, components={"correct": correct, "format_bonus": bonus, "steps_true": steps_true})


def test_batch_monitors_by_task():
    arith = [_arith(0.0, 0.2, 2.0), _arith(1.0, 0.2, 2.0), _arith(0.0, 0.0, 0.0), _arith(0.0, -1.0, 1.0)]
    out = batch_monitors([0.0, 1.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.2], 2, arith, ["a b a b a b", "", "", ""])
    assert out == pytest.approx({"monitor/local_up_global_not": 0.25, "monitor/repeat_frac": 1 / 12,
                                 "monitor/true_steps_wrong_answer": 0.5, "monitor/format_only": 0.25})
    # aime: no steps_true component; the steps its scorer scored positive count
    aime = [RewardResult(0.0, components={"correct": 0.0, "format_bonus": 0.2}, info={"step_scores": [1.0, -1.0]}),
            RewardResult(0.0, components={"correct": 0.0, "format_bonus": 0.0}, info={"step_scores": [0.0, -1.0]})]
    out = batch_monitors([0.0, 0.0], [0.0, 0.0], 2, aime, ["", ""])
    assert out["monitor/true_steps_wrong_answer"] == 0.5 and out["monitor/format_only"] == 0.5
    # mini (and react): no answer-correct or format component, so those keys are absent, not 0
    mini = [RewardResult(1.0, components={"success": 1.0}), RewardResult(0.0, components={"success": 0.0})]
    assert set(batch_monitors([1.0, 0.0], [0.0, 0.0], 2, mini, ["", ""])) == {
        "monitor/local_up_global_not", "monitor/repeat_frac"}


def test_batch_metrics_add_the_monitors_and_keep_the_other_keys():
    g = torch.tensor([1.0, 0.0, 0.5, 0.5])
    s = torch.tensor([[0.2, 0.4, 9.0], [0.6, 0.0, 0.0], [1.0, 9.0, 9.0], [1.0, 1.0, 9.0]])
    m = torch.tensor([[1, 1, 0], [1, 0, 0], [1, 0, 0], [1, 1, 0]], dtype=torch.float32)
    scored = ScoredBatch([0.0] * 4, [], [RewardResult(0.0, components={"x": float(i)}) for i in range(4)], [""] * 4)
    out = batch_metrics(RoundStats(g, s, m, torch.zeros(4, 3)), scored, 2, w_g=1.0, w_s=1.0)
    # mean S per row over valid tokens: 0.3, 0.6 (G 0: counted), 1.0, 1.0
    assert out["monitor/local_up_global_not"] == 0.25 and out["monitor/repeat_frac"] == 0.0
    assert out["local_reward_mean"] == pytest.approx(0.725) and out["reward/x"] == 1.5
    assert "monitor/format_only" not in out


def test_step_monitors_warn_once_per_crossing():
    mon = StepMonitors(MonitorCfg(format_only=0.5, length_ratio_high=2.0, length_ratio_low=0.5))
    seen = []
    for step, length, share in [(1, 20, 0.6), (2, 50, 0.7), (3, 60, 0.2), (4, 30, 0.9), (5, 45, 0.9), (6, 8, 0.9)]:
        extra, warnings = mon.observe({"step": step, "completion_len_mean": length, "monitor/format_only": share})
        seen.append((extra["monitor/length_ratio"], [w.split(" = ")[0] for w in warnings]))
    assert seen == [
        (1.0, ["step 1: monitor/format_only"]),
        (2.5, ["step 2: monitor/length_ratio"]),
        (3.0, []),  # both still past their thresholds: no repeat
        (1.5, ["step 4: monitor/format_only"]),  # format_only came back at step 3; length at step 4
        (2.25, ["step 5: monitor/length_ratio"]),
        (0.4, ["step 6: monitor/length_ratio"]),  # below length_ratio_low: an alarm of its own
    ]
    assert mon.observe({"step": 7})[1] == [] and mon.observe({"step": 7})[0] == {}  # a step without a batch
    _, warnings = StepMonitors().observe({"step": 1, "completion_len_mean": 5, "monitor/repeat_frac": 0.75})
    assert warnings == ["step 1: monitor/repeat_frac = 0.750 is above trainer.monitors.repeat_frac=0.5 "
                        "(reward-hacking monitor, docs/method.md §3); warned once until it comes back"]


def test_step_monitors_low_length_and_resume_reference():
    mon = StepMonitors()
    mon.resume([{"step": 0, "eval/x": 1.0}, {"step": 1, "completion_len_mean": 10.0}, {"step": 2, "completion_len_mean": 99}])
    extra, warnings = mon.observe({"step": 3, "completion_len_mean": 4.0})
    assert extra == {"monitor/length_ratio": 0.4}
    assert warnings and "below trainer.monitors.length_ratio_low=0.5" in warnings[0]


def test_thresholds_are_checked_options():
    assert build_options(MonitorCfg, {"format_only": 0.3}, "trainer.monitors").format_only == 0.3
    with pytest.raises(ConfigError, match=r"unknown key\(s\) \['formt_only'\] in trainer.monitors"):
        build_options(MonitorCfg, {"formt_only": 0.3}, "trainer.monitors")
    with pytest.raises(ConfigError, match=r"trainer.monitors.repeat_frac=1.5 is not allowed: expected a number in \[0, 1\]"):
        build_options(MonitorCfg, {"repeat_frac": 1.5}, "trainer.monitors")
    with pytest.raises(ConfigError, match="length_ratio_high=0.9"):
        build_options(MonitorCfg, {"length_ratio_high": 0.9}, "trainer.monitors")


def test_config_takes_monitor_thresholds():
    from bot_repro.config import validate
    from tests.conftest import compose

    cfg = validate(compose(["debug=smoke", "+trainer.monitors.format_only=0.3"]))
    assert cfg.trainer.monitors == MonitorCfg(format_only=0.3)
    with pytest.raises(ConfigError, match="formt_only"):
        validate(compose(["debug=smoke", "+trainer.monitors.formt_only=0.3"]))


def test_metrics_callback_writes_the_ratio_and_logs_one_warning(tmp_path, caplog):
    path = tmp_path / "metrics.jsonl"
    cb = MetricsJsonl(path, SimpleNamespace(generated_tokens=0), config={"trainer": {"monitors": {"format_only": 0.1}}})
    state = SimpleNamespace(global_step=0, is_world_process_zero=True)
    cb.on_train_begin(None, state, None)
    with caplog.at_level(logging.WARNING, logger="bot_repro.trainer.callbacks"):
        for step, length in [(1, 10.0), (2, 15.0)]:
            state.global_step = step
            cb.on_log(None, state, None, logs={"completions/mean_length": length, "monitor/format_only": 0.25})
    recs = read_metrics(path)
    assert [(r["monitor/length_ratio"], r["monitor/format_only"]) for r in recs] == [(1.0, 0.25), (1.5, 0.25)]
    lines = [r for r in caplog.records if "monitor/" in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelname == "WARNING" and "format_only=0.1" in lines[0].getMessage()
    # a resumed attempt takes its reference from the steps already in the file
    again = MetricsJsonl(path, SimpleNamespace(generated_tokens=0))
    again.on_train_begin(None, SimpleNamespace(global_step=2, is_world_process_zero=True), None)
    assert again.monitors.reference == 10.0


def test_method_doc_states_every_threshold_and_its_default():
    doc = (REPO / "docs" / "method.md").read_text()
    section = doc.split("**Reward-hacking monitors**", 1)[1].split("\n## ", 1)[0]
    documented = dict(re.findall(r"`trainer\.monitors\.(\w+)`\s+\*\*([\d.]+)\*\*", section))
    defaults = {name: str(value) for name, value in vars(MonitorCfg()).items()}
    assert documented == defaults
