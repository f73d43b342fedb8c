"""Pass@k (``bot_repro.tasks.passk``, the one estimator the mini and AIME tasks share): the stable
product form against brute-force enumeration of k-subsets, hand values and the refused inputs."""

from __future__ import annotations

import itertools
import random
from math import comb

import pytest

from bot_repro.tasks.passk import mean_pass_at_k, pass_at_k


def brute_force(n: int, c: int, k: int) -> float:
    samples = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    return sum(any(samples[i] for i in s) for s in subsets) / len(subsets)


def test_matches_enumeration_on_random_small_cases():
    rng = random.Random(0)
    for _ in range(200):
        n = rng.randint(1, 10)
        c = rng.randint(0, n)
        k = rng.randint(1, n)
        assert pass_at_k(n, c, k) == pytest.approx(brute_force(n, c, k), abs=1e-12), (n, c, k)


@pytest.mark.parametrize("n,k", [(1, 1), (8, 1), (8, 4), (8, 8)])
def test_edges_c_zero_and_c_n(n, k):
    assert pass_at_k(n, 0, k) == 0.0
    assert pass_at_k(n, n, k) == 1.0


def test_k_equals_n_is_any_correct():
    assert pass_at_k(8, 1, 8) == 1.0
    assert pass_at_k(8, 0, 8) == 0.0


def test_hand_values():
    assert pass_at_k(8, 1, 1) == pytest.approx(1 / 8)
    assert pass_at_k(4, 1, 2) == pytest.approx(1 - 3 / 6)
    assert pass_at_k(8, 2, 4) == pytest.approx(1 - comb(6, 4) / comb(8, 4))


def test_stable_for_large_n():
    # C(2000, 1000) overflows a float; the product form does not form it
    value = pass_at_k(2000, 3, 1000)
    assert value == pytest.approx(1 - (1000 * 999 * 998) / (2000 * 1999 * 1998), rel=1e-12)


@pytest.mark.parametrize("n,c,k", [(4, 1, 5), (0, 0, 1), (4, 5, 1), (4, -1, 1), (4, 1, 0)])
def test_invalid_arguments(n, c, k):
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


def test_mean_over_problems():
    flags = [[True, False, False, False], [False] * 4]
    out = mean_pass_at_k(flags, [1, 2, 4])
    assert out == pytest.approx({"pass@1": 0.125, "pass@2": 0.25, "pass@4": 0.5})


def test_mean_matches_enumeration_and_both_tasks_use_it():
    rng = random.Random(1)
    flags = [[rng.random() < 0.3 for _ in range(6)] for _ in range(12)]
    out = mean_pass_at_k(flags, [1, 3, 6])
    for k in (1, 3, 6):
        want = sum(brute_force(6, sum(f), k) for f in flags) / len(flags)
        assert out[f"pass@{k}"] == pytest.approx(want, abs=1e-12)
    from bot_repro.tasks.aime import task as aime_task
    from bot_repro.tasks.mini import task as mini_task

    assert aime_task.mean_pass_at_k is mean_pass_at_k and mini_task.mean_pass_at_k is mean_pass_at_k


def test_mean_needs_a_problem():
    with pytest.raises(ValueError, match="at least one problem"):
        mean_pass_at_k([], [1])
