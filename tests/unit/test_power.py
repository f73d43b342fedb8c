"""Seeds per arm (``bot_repro.analysis.power``) against Cohen's published table (Statistical Power Analysis for
the Behavioral Sciences, 1988, Table 2.4.1: two-sided alpha 0.05, power 0.80: n = 64, 26, 17 per group at
d = 0.5, 0.8, 1.0), the power curve's shape, the speed-up's log-scale form, and the verdict rule's own power."""

from __future__ import annotations

import math

import pytest

from bot_repro.analysis import power
from tests.conftest import REPO


@pytest.mark.parametrize("d,n", [(0.5, 64), (0.8, 26), (1.0, 17)])
def test_cohens_table(d, n):
    assert power.seeds_for_difference(d * 0.04, 0.04) == n  # only delta / sd matters
    assert power.t_power(n, d, 1.0) >= 0.8 > power.t_power(n - 1, d, 1.0)


def test_power_rises_with_seeds_and_falls_with_spread():
    assert power.t_power(8, 0.05, 0.02) > power.t_power(4, 0.05, 0.02) > power.t_power(4, 0.05, 0.04)
    assert power.t_power(10, 0.0 + 1e-12, 1.0) == pytest.approx(0.05, abs=1e-6)  # no effect: power is alpha


def test_a_speed_up_is_a_difference_of_logs():
    assert power.seeds_for_speedup(1.5, 0.3) == power.seeds_for_difference(math.log(1.5), 0.3)
    with pytest.raises(ValueError, match="ratio > 1"):
        power.seeds_for_speedup(0.9, 0.3)
    with pytest.raises(ValueError, match="delta != 0"):
        power.seeds_for_difference(0.0, 1.0)


def test_the_verdict_rules_power_is_near_the_t_tests():
    got = power.simulated_power(17, 1.0, 1.0, sims=200)
    assert 0.7 <= got <= 0.95  # the bootstrap interval is a little narrower than t's at 17 seeds


def test_a_study_is_sized_from_a_committed_baseline_and_not_from_one_that_did_not_learn():
    folder = REPO / "results" / "real_seeds"  # arith one_step: BoT-GRPO pooled's held-out pass@1 rose in every seed
    if not (folder / "runs.tar.xz").is_file():
        pytest.skip("results/real_seeds is not committed in this checkout")
    size = power.study_size(folder, "arith_bot_pooled")
    assert size["mean_gain"] > 0 and size["difference"] == pytest.approx(size["mean_gain"] / 2)
    assert size["seeds_for_difference"] == power.seeds_for_difference(size["difference"], size["final_sd"])
    assert size["seeds_per_arm"] == max(power.MIN_SEEDS, size["seeds_for_difference"], size["seeds_for_speedup"] or 0)
    with pytest.raises(ValueError, match="'arith_grpo' did not gain on eval/pass@1"):
        power.study_size(REPO / "results" / "real_study", "arith_grpo")  # real_study's GRPO ended where it began
