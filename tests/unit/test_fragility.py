"""Leave-2-seeds-out firmness (``bot_repro.analysis.fragility``): the subsets it tries, what it counts as a
change, and the fragile mark, on hand-counted cases and through the verdict rule itself."""

from __future__ import annotations

import pandas as pd
import pytest

from bot_repro.analysis import findings
from bot_repro.analysis.fragility import FRAGILE, Firmness, leave_out


def _by_min(x, y):  # a toy rule whose verdict is easy to count by hand
    return "supports" if x.size and y.size and x.min() > y.max() else "cannot decide"


def test_one_seed_that_sinks_the_verdict_changes_it_in_every_subset_that_drops_it():
    a = pd.Series([5.0, 5.0, 5.0, 0.0], index=[0, 1, 2, 3])  # seed 3 alone keeps a.min below b.max
    b = pd.Series([1.0, 1.0, 1.0, 1.0], index=[0, 1, 2, 3])
    firm = leave_out([a, b], _by_min, _by_min(a.to_numpy(), b.to_numpy()))
    assert (firm.changed, firm.subsets) == (3, 6)  # {0,3}, {1,3}, {2,3} of the C(4,2) = 6 pairs
    assert firm.share == 0.5 and firm.fragile and firm.text() == "50% of 6 (fragile)"


def test_a_verdict_no_pair_of_seeds_moves_is_firm():
    a, b = pd.Series([5.0] * 5, index=range(5)), pd.Series([1.0] * 5, index=range(5))
    firm = leave_out([a, b], _by_min, "supports")
    assert (firm.changed, firm.subsets) == (0, 10) and not firm.fragile and firm.text() == "0% of 10"


def test_a_seed_drops_all_its_runs_and_the_subsets_span_every_arms_seeds():
    a = pd.Series([5.0, 0.0, 5.0], index=[0, 0, 1])  # two runs of seed 0: one of them sinks the verdict
    b = pd.Series([1.0, 1.0], index=[1, 2])  # seed 2 only in b
    firm = leave_out([a, b], _by_min, "cannot decide")
    # pairs of {0, 1, 2}: {0,1} leaves a empty (cannot decide), {0,2} leaves a=[5], b=[1] (supports), {1,2}: a.min 0
    assert (firm.changed, firm.subsets) == (1, 3)


def test_too_few_seeds_say_so():
    firm = leave_out([pd.Series([1.0, 2.0], index=[0, 1])], lambda x: "supports", "supports")
    assert firm == Firmness(0, 0) and firm.text() == "n/a (fewer than 3 seeds)"


def test_through_the_verdict_rule_three_seeds_per_arm_are_always_fragile():
    a, b = pd.Series([0.80, 0.82, 0.84]), pd.Series([0.50, 0.52, 0.51])
    decide = lambda x, y: findings.judge("final", x, y)[3]  # noqa: E731
    assert decide(a, b) == "supports"
    firm = leave_out([a, b], decide, "supports")  # each subset leaves one seed per arm: no interval
    assert (firm.changed, firm.subsets) == (3, 3) and firm.fragile


def test_the_fragile_mark_is_strictly_above_the_share():
    assert not Firmness(1, 10).fragile and FRAGILE == 0.10 and Firmness(2, 10).fragile
    assert findings.judge("gain", [0.1, 0.2, 0.15, 0.12], None)[3] == "supports"
    point, low, high, word = findings.judge("gain", [0.1, -0.2, 0.15, 0.02], None)
    assert point == pytest.approx(0.0175) and low < 0 < high and word == "cannot decide"


def test_a_test_of_some_seeds_leaves_out_pairs_of_all_of_them():
    crossed = pd.Series([10.0, 12.0], index=[1, 4])  # steps to a threshold: 2 of 5 seeds crossed
    firm = leave_out([crossed], lambda x: "supports" if x.size == 2 else "cannot decide", "supports", seeds=range(5))
    assert (firm.changed, firm.subsets) == (7, 10)  # the 3 pairs of {0, 2, 3} keep both crossings
