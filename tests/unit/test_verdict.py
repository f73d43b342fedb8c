"""The verdict rule's intervals (``bot_repro.analysis.verdict``): Newcombe's published values, the
bootstrap of a difference and of an interaction on hand-made seeds, and the rule's three words."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bot_repro.analysis.verdict import difference_ci, interaction_ci, newcombe_ci, ratio_ci, verdict


@pytest.mark.parametrize("counts,expected", [
    # Newcombe (1998), Statistics in Medicine 17:873-890, Table II, method 10 (score, no continuity correction)
    ((56, 70, 48, 80), (0.2, 0.0524, 0.3339)),
    ((9, 10, 3, 10), (0.6, 0.1705, 0.8090)),
])
def test_newcombe_interval_matches_the_published_values(counts, expected):
    d, low, high = newcombe_ci(*counts)
    assert d == pytest.approx(expected[0]) and low == pytest.approx(expected[1], abs=5e-5)
    assert high == pytest.approx(expected[2], abs=5e-5)


def test_newcombe_stays_informative_at_the_edges():
    d, low, high = newcombe_ci(8, 10, 0, 10)  # mini_sparse_15's collapse counts are of this kind
    assert d == 0.8 and 0 < low < 0.8 < high <= 1.0
    d, low, high = newcombe_ci(0, 10, 0, 10)
    assert d == 0 and low < 0 < high
    assert all(math.isnan(v) for v in newcombe_ci(1, 0, 0, 10))


def test_difference_of_arms_without_spread_is_exact_and_one_seed_gives_no_interval():
    assert difference_ci([0.9, 0.9, 0.9], [0.5, 0.5]) == (pytest.approx(0.4), pytest.approx(0.4), pytest.approx(0.4))
    d, low, high = difference_ci([0.9], [0.5, 0.6])
    assert d == pytest.approx(0.35) and math.isnan(low) and math.isnan(high)


def test_difference_interval_holds_the_difference_and_follows_the_seeds():
    a, b = [0.80, 0.85, 0.90, 0.82, 0.88], [0.60, 0.70, 0.65, 0.62, 0.68]
    d, low, high = difference_ci(a, b, seed=1)
    assert d == pytest.approx(np.mean(a) - np.mean(b)) and low < d < high and low > 0
    assert difference_ci(a, b, seed=1) == (d, low, high)  # seeded: the same interval every time
    d2, low2, high2 = difference_ci(b, a, seed=1)
    assert d2 == pytest.approx(-d) and high2 < 0  # swapping the arms flips the sign
    # the resample never mixes the arms: every resampled difference lies within [min a - max b, max a - min b]
    assert low >= min(a) - max(b) and high <= max(a) - min(b)


def test_interaction_is_the_difference_of_the_two_gains():
    sparse_bot, sparse_grpo = [0.5, 0.55, 0.6], [0.1, 0.15, 0.2]  # gain 0.4
    default_bot, default_grpo = [0.85, 0.9, 0.88], [0.8, 0.84, 0.82]  # gain about 0.057
    d, low, high = interaction_ci(sparse_bot, sparse_grpo, default_bot, default_grpo)
    gain = (np.mean(sparse_bot) - np.mean(sparse_grpo)) - (np.mean(default_bot) - np.mean(default_grpo))
    assert d == pytest.approx(gain) and low > 0 and verdict(low, high) == "supports"
    same = interaction_ci([1.0, 1.1], [0.0, 0.1], [1.0, 1.1], [0.0, 0.1])
    assert same[0] == pytest.approx(0.0) and same[1] < 0 < same[2]


def test_ratio_interval_is_the_ratio_of_means():
    r, low, high = ratio_ci([20, 22, 24], [40, 44, 48])
    assert r == pytest.approx(0.5) and low <= 0.5 <= high


@pytest.mark.parametrize("low,high,null,better,word", [
    (0.1, 0.3, 0.0, "above", "supports"),
    (-0.3, -0.1, 0.0, "above", "contradicts"),
    (-0.1, 0.3, 0.0, "above", "cannot decide"),
    (1.2, 1.9, 1.0, "above", "supports"),  # a speed-up ratio above 1
    (0.5, 0.9, 1.0, "below", "supports"),  # fewer steps to the threshold
    (math.nan, math.nan, 0.0, "above", "cannot decide"),
    (None, None, 0.0, "above", "cannot decide"),
])
def test_verdict_follows_where_the_interval_lies(low, high, null, better, word):
    assert verdict(low, high, null, better) == word


def test_verdict_refuses_an_unknown_side():
    with pytest.raises(ValueError, match="better='more'; allowed: above, below"):
        verdict(0.1, 0.2, better="more")
