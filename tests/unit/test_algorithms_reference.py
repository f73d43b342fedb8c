"""Every advantage estimator against references computed independently of its implementation.

Two kinds of reference, neither derived from the vectorised code in ``bot_repro.algorithms``:

1. Per-group plain-Python loops written from the formulas of docs/method.md §2 (and the papers they cite),
   one group, rollout and token at a time, with the ``statistics`` module for means and
   variances (exactly rounded ``fsum``-based means, ``pvariance`` / ``variance`` for the
   population / Bessel-corrected ones). They follow each formula as written, e.g. BoT's
   mu = (1/K) sum_k (1/L_k) sum_t r as a mean of per-rollout means, not as the token-weight
   vector the code uses. Inputs are nested lists G[k], S[k][t], M[k][t] (truthy = valid token).
   The random batches cover ragged lengths with K in {2, 3, 4, 8}, right / left padding and holes
   in the mask, empty completions and all-empty groups, zero-variance groups, several groups,
   finite garbage in padded positions, and bf16 / float64 / non-contiguous inputs.
2. Ports of the reference implementations' own code, kept as close to their text as the
   different inputs allow (each function names its source file and commit):
   verl's ``compute_grpo_outcome_advantage`` (grpo, gspo, dapo; dr_grpo via
   ``norm_adv_by_std_in_grpo=False``) and DAPO's soft overlong reward from verl's DAPO reward
   manager; PURE's RLOO process-reward baselines (``--reward_baseline token`` / ``step``) and its
   min-form weighting from CJReinforce/PURE, and the ``masked_whiten`` of PURE's verl branch.
   bot_grpo and ps_grpo have no public reference implementation: the golden vectors of docs/method.md §2 and the
   loops of (1) check them.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict

import numpy as np
import pytest
import torch

from bot_repro.algorithms import ADVANTAGES

ZERO_STD_TOL = 1e-8
UNIT = {"w_g": 1.0, "w_s": 1.0}  # the weights of a case that sets neither (estimators have no default)


def _valid(M, k):
    return [t for t, v in enumerate(M[k]) if v]


def _groups(B, K):
    return [list(range(g * K, (g + 1) * K)) for g in range(B // K)]


def _zeros(M):
    return [[0.0] * len(row) for row in M]


def _std(xs, std):
    """Population or Bessel-corrected std of a sample (0 for a sample too small to have one)."""
    if std == "unbiased":
        return statistics.stdev(xs) if len(xs) > 1 else 0.0
    return statistics.pstdev(xs) if xs else 0.0


# -- (1) loop references from the formulas ----------------------------------------------------


def _sequence_rewards(G, S, M, seq_reward, w_g, w_s):
    R = []
    for k in range(len(G)):
        vals = [S[k][t] for t in _valid(M, k)]
        if seq_reward == "global":
            R.append(w_g * G[k])
        elif seq_reward == "token_mean":
            R.append(w_g * G[k] + w_s * (statistics.fmean(vals) if vals else 0.0))
        else:
            R.append(w_g * G[k] + w_s * math.fsum(vals))
    return R


def _centre(R, K, scale, std, eps):
    """GRPO (Eq. 1): (R_k - mean_j R_j) / (std_j R_j + eps) over the K rollouts of each group."""
    A = []
    for rows in _groups(len(R), K):
        xs = [R[k] for k in rows]
        mean = statistics.fmean(xs)
        sd = _std(xs, std)
        A.extend((x - mean) / (sd + eps) if scale else x - mean for x in xs)
    return A


def _broadcast(A, M):
    out = _zeros(M)
    for k in range(len(M)):
        for t in _valid(M, k):
            out[k][t] = A[k]
    return out


def grpo(G, S, M, K, w_g, w_s, eps=1e-6, std="population", seq_reward="global"):
    return _broadcast(_centre(_sequence_rewards(G, S, M, seq_reward, w_g, w_s), K, True, std, eps), M)


def dr_grpo(G, S, M, K, w_g, w_s, eps=1e-6, seq_reward="global"):
    return _broadcast(
        _centre(_sequence_rewards(G, S, M, seq_reward, w_g, w_s), K, False, "population", eps), M
    )


def _dapo_length_reward(L, L_max, L_cache):
    """DAPO paper Eq. 13, piecewise as written."""
    if L <= L_max - L_cache:
        return 0.0
    if L <= L_max:
        return ((L_max - L_cache) - L) / L_cache
    return -1.0


def dapo(
    G,
    S,
    M,
    K,
    w_g,
    w_s,
    eps=1e-6,
    std="population",
    seq_reward="token_mean",
    max_completion_length=None,
    overlong_buffer=0,
    overlong_penalty=1.0,
):
    R = _sequence_rewards(G, S, M, seq_reward, w_g, w_s)
    if max_completion_length is not None and overlong_buffer > 0:
        for k in range(len(R)):
            R[k] += overlong_penalty * _dapo_length_reward(len(_valid(M, k)), max_completion_length, overlong_buffer)
    return _broadcast(_centre(R, K, True, std, eps), M)


def gspo(G, S, M, K, w_g, w_s, eps=1e-6, std="population", seq_reward="token_mean"):
    return grpo(G, S, M, K, w_g=w_g, w_s=w_s, eps=eps, std=std, seq_reward=seq_reward)


def bot_stats(G, S, M, rows, w_g, w_s, weighting, std):
    """(mu, sigma) of one group: Eqs. 2-3 (docs/method.md §2) for inverse_length, the plain pool for uniform."""
    rollouts = [[w_g * G[k] + w_s * S[k][t] for t in _valid(M, k)] for k in rows]
    rollouts = [r for r in rollouts if r]  # empty completions are left out
    if not rollouts:
        return 0.0, 0.0
    if weighting == "inverse_length":
        # mu = (1/K) sum_k (1/L_k) sum_t r_{k,t};  sigma^2 = (1/K) sum_k (1/L_k) sum_t (r_{k,t} - mu)^2
        mu = statistics.fmean(statistics.fmean(r) for r in rollouts)
        var = statistics.fmean(statistics.fmean((x - mu) ** 2 for x in r) for r in rollouts)
        n = len(rollouts)  # the rollouts are the samples: unbiased = x K/(K-1), as GRPO's
        if std == "unbiased":
            var = var * n / (n - 1) if n > 1 else 0.0
        return mu, math.sqrt(var)
    pool = [x for r in rollouts for x in r]
    return statistics.fmean(pool), _std(pool, std)


def bot_grpo(
    G, S, M, K, w_g, w_s, eps=1e-6, std="population", weighting="inverse_length", zero_std="zero",
    same_global="pooled", std_floor=0.5,
):
    out = _zeros(M)
    for rows in _groups(len(G), K):
        mu, sigma = bot_stats(G, S, M, rows, w_g, w_s, weighting, std)
        # same-G: one global reward among the rollouts that have tokens
        same = len({G[k] for k in rows if _valid(M, k)}) <= 1
        for k in rows:
            for t in _valid(M, k):
                r = w_g * G[k] + w_s * S[k][t]
                if sigma > ZERO_STD_TOL:
                    if same and same_global == "zero":
                        continue
                    floor = std_floor if same and same_global == "floor_std" else 0.0
                    out[k][t] = (r - mu) / (max(sigma, floor) + eps)
                elif zero_std == "eps":
                    out[k][t] = (r - mu) / eps
    return out


def ps_grpo(G, S, M, K, w_g, w_s, eps=1e-6, std="population", reduce="mean"):
    """DeepSeekMath process supervision, every token a step: normalise all step rewards of the
    group by their plain mean / std, then combine the normalised rewards of the steps >= t."""
    out = _zeros(M)
    for rows in _groups(len(G), K):
        pool = [w_g * G[k] + w_s * S[k][t] for k in rows for t in _valid(M, k)]
        if not pool:
            continue
        mu, sd = statistics.fmean(pool), _std(pool, std)
        for k in rows:
            valid = _valid(M, k)
            normalised = [(w_g * G[k] + w_s * S[k][t] - mu) / (sd + eps) for t in valid]
            for i, t in enumerate(valid):
                later = normalised[i:]
                out[k][t] = statistics.fmean(later) if reduce == "mean" else math.fsum(later)
    return out


def min_form_credit(S, M, w_s, temperature=0.1):
    """q_t = softmax_t(-p_t / T) p_t over the valid tokens of each rollout, p = w_s S."""
    q = _zeros(M)
    for k in range(len(M)):
        valid = _valid(M, k)
        if not valid:
            continue
        p = [w_s * S[k][t] for t in valid]
        top = max(-x / temperature for x in p)
        e = [math.exp(-x / temperature - top) for x in p]
        z = math.fsum(e)
        for t, x, ex in zip(valid, p, e):
            q[k][t] = ex / z * x
    return q


def pure(G, S, M, K, w_g, w_s, eps=1e-6, temperature=0.1, baseline="token", whiten=False, std="unbiased"):
    """PURE as its train_pure.sh runs it (RLOO), every token a step, written from its formula:
    b_k (token) = sum_{j != k} sum_t q_{j,t} / sum_{j != k} L_j, the other rollouts' tokens pooled;
    b_k (step) = mean_{j != k} of rollout j's mean q per step. VR_k = G_k - mean_{j != k} G_j at the
    last token, A = return to go; whiten over all valid tokens of the batch."""
    q = min_form_credit(S, M, w_s, temperature)
    out = _zeros(M)
    for rows in _groups(len(G), K):
        for k in rows:
            valid = _valid(M, k)
            if not valid:
                continue
            others = [j for j in rows if j != k]
            if baseline == "token":
                tokens = [q[j][t] for j in others for t in _valid(M, j)]
                b = statistics.fmean(tokens) if tokens else 0.0
            else:
                b = statistics.fmean(
                    statistics.fmean(q[j][t] for t in _valid(M, j)) if _valid(M, j) else 0.0 for j in others
                )
            vr = G[k] - statistics.fmean(G[j] for j in others)
            step = {t: q[k][t] - b for t in valid}
            step[valid[-1]] += w_g * vr
            for i, t in enumerate(valid):
                out[k][t] = math.fsum(step[u] for u in valid[i:])
    if whiten:
        vals = [out[k][t] for k in range(len(M)) for t in _valid(M, k)]
        if vals:
            mean, sd = statistics.fmean(vals), _std(vals, std)
            for k in range(len(M)):
                for t in _valid(M, k):
                    out[k][t] = (out[k][t] - mean) / (sd + eps)
    return out


REFERENCES = {
    "grpo": grpo,
    "dr_grpo": dr_grpo,
    "dapo": dapo,
    "gspo": gspo,
    "pure": pure,
    "ps_grpo": ps_grpo,
    "bot_grpo": bot_grpo,
}


def test_every_registered_estimator_has_a_reference():
    assert sorted(REFERENCES) == sorted(ADVANTAGES)


# -- random batches ---------------------------------------------------------------------------

CASES = {
    # name: (seed, n_groups, K, T, layout, dtype)
    "right_K4": (0, 3, 4, 9, "right", torch.float32),
    "left_K2": (1, 4, 2, 7, "left", torch.float32),
    "holes_K3": (2, 2, 3, 8, "holes", torch.float32),
    "right_K8_long": (3, 2, 8, 40, "right", torch.float32),
    "left_K8": (7, 3, 8, 12, "left", torch.float32),
    "holes_K4": (8, 3, 4, 10, "holes", torch.float32),
    "bf16_K4": (4, 2, 4, 10, "right", torch.bfloat16),
    "f64_K2_holes": (5, 3, 2, 6, "holes", torch.float64),
    "noncontiguous_K3": (6, 2, 3, 9, "right", "strided"),
}

OPTIONS = {
    "grpo": [
        {},
        {"std": "unbiased", "seq_reward": "token_mean", "w_g": 2.0, "w_s": 0.5},
        {"seq_reward": "token_sum"},
    ],
    "dr_grpo": [{}, {"seq_reward": "token_mean", "w_s": 0.3}, {"seq_reward": "token_sum", "w_g": 0.5}],
    "dapo": [
        {},
        {"max_completion_length": 6, "overlong_buffer": 3, "overlong_penalty": 0.5, "std": "unbiased"},
        {"seq_reward": "global", "max_completion_length": 8, "overlong_buffer": 8},
    ],
    "gspo": [{}, {"seq_reward": "global", "eps": 1e-3}, {"seq_reward": "token_sum", "w_g": 3.0, "w_s": 0.5}],
    "pure": [
        {},
        {"temperature": 1.0, "w_g": 2.0, "w_s": 0.5},
        {"baseline": "step"},
        {"baseline": "step", "temperature": 0.5, "w_s": 2.0},
        {"whiten": True, "temperature": 0.3},
        {"whiten": True, "std": "population", "baseline": "step"},
    ],
    "ps_grpo": [{}, {"reduce": "sum", "std": "unbiased"}, {"w_g": 3.0, "w_s": 0.5}],
    "bot_grpo": [
        {},
        {"std": "unbiased"},
        {"weighting": "uniform", "std": "unbiased"},
        {"weighting": "uniform"},
        {"zero_std": "eps", "w_g": 3.0, "w_s": 0.5},
        {"std": "unbiased", "zero_std": "drop", "eps": 1e-4},
        {"same_global": "zero"},
        {"same_global": "floor_std", "std_floor": 0.05, "std": "unbiased"},
    ],
}


def make_batch(seed, n_groups, K, T, layout, dtype):
    """(G [B], S [B, T], mask [B, T] bool) with the edge cases listed in the module docstring."""
    gen = torch.Generator().manual_seed(seed)
    B = n_groups * K
    G = torch.randint(0, 3, (B,), generator=gen).float() / 2 + torch.randn(B, generator=gen) * 0.1
    S = torch.randn(B, T, generator=gen) * 0.5
    lengths = torch.randint(0, T + 1, (B,), generator=gen)
    lengths[1] = 0  # an empty completion in the first group
    if n_groups > 2:
        lengths[2 * K : 3 * K] = 0  # a group without any token
    positions = torch.arange(T).unsqueeze(0)
    if layout == "right":
        mask = positions < lengths.unsqueeze(1)
    elif layout == "left":
        mask = positions >= (T - lengths).unsqueeze(1)
    else:
        mask = (torch.rand(B, T, generator=gen) < 0.7) & (lengths > 0).unsqueeze(1)
    # a zero-variance group: equal global rewards and one constant local value on every token
    G[K : 2 * K] = 0.3
    S[K : 2 * K] = 0.7
    S = torch.where(mask, S, 777.0 + torch.randn(B, T, generator=gen))  # finite garbage in padding
    if dtype == "strided":
        wide = torch.zeros(B, 2 * T)
        wide[:, ::2] = S
        S = wide[:, ::2]
        assert not S.is_contiguous()
    else:
        G, S = G.to(dtype), S.to(dtype)
    return G, S, mask


def as_lists(G, S, mask):
    # the reference sees exactly the values the estimator gets (after bf16 rounding)
    return G.double().tolist(), S.double().tolist(), mask.tolist()


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize(
    "name,options", [(name, opts) for name, variants in OPTIONS.items() for opts in variants]
)
def test_estimator_matches_loop_reference(name, options, case):
    seed, n_groups, K, T, layout, dtype = CASES[case]
    G, S, mask = make_batch(seed, n_groups, K, T, layout, dtype)
    G_before, S_before, mask_before = G.clone(), S.clone(), mask.clone()
    options = {**UNIT, **options}

    out = ADVANTAGES[name](G, S, mask, K, **options)
    expected = torch.tensor(REFERENCES[name](*as_lists(G, S, mask), K, **options), dtype=torch.float64)

    assert out.dtype == torch.float32 and out.shape == S.shape
    assert torch.all(out[~mask] == 0)
    torch.testing.assert_close(out.double(), expected, rtol=2e-4, atol=2e-4)
    # the estimators work in place on their own buffers only
    assert torch.equal(G, G_before) and torch.equal(S, S_before) and torch.equal(mask, mask_before)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize(
    "options",
    [{"same_global": "zero"}, {"same_global": "floor_std", "std_floor": 0.3},
     {"same_global": "floor_std", "std_floor": 0.8, "weighting": "uniform", "w_s": 0.2}, {"w_s": 0.2}],
)
def test_bot_same_global_matches_loop_reference_on_binary_rewards(options, case):
    """Binary G, as on the mini task and AIME: many groups share one global reward."""
    seed, n_groups, K, T, layout, dtype = CASES[case]
    G, S, mask = make_batch(seed, n_groups, K, T, layout, dtype)
    G = (G > 0.5).to(G.dtype)
    G[:K] = 1.0  # at least one same-G group with tokens
    options = {**UNIT, **options}
    out = ADVANTAGES["bot_grpo"](G, S, mask, K, **options)
    expected = torch.tensor(bot_grpo(*as_lists(G, S, mask), K, **options), dtype=torch.float64)
    torch.testing.assert_close(out.double(), expected, rtol=2e-4, atol=2e-4)


def test_reference_batches_exercise_the_edge_cases():
    """Guards the generator: a refactor must not silently drop the cases the comparison relies on."""
    G, S, mask = make_batch(*CASES["right_K4"])
    lengths = mask.sum(-1)
    assert lengths[1] == 0 and torch.all(lengths[8:12] == 0) and lengths.max() > lengths[lengths > 0].min()
    assert torch.all(S[4:8][mask[4:8]] == 0.7) and torch.all(S[~mask] > 700)
    assert {CASES[c][2] for c in CASES} >= {2, 4, 8}


@pytest.mark.parametrize("case", ["right_K4", "left_K8", "holes_K3"])
def test_options_that_must_differ_do_differ_on_ragged_batches(case):
    """The comparisons above can tell the switches apart: on ragged lengths with K > 2, the token
    and step baselines of PURE, and BoT's two std options, give different advantages."""
    seed, n_groups, K, T, layout, dtype = CASES[case]
    G, S, mask = make_batch(seed, n_groups, K, T, layout, dtype)
    pure_fn, bot_fn = ADVANTAGES["pure"], ADVANTAGES["bot_grpo"]
    pure_gap = pure_fn(G, S, mask, K, **UNIT) - pure_fn(G, S, mask, K, baseline="step", **UNIT)
    assert pure_gap.abs().max() > 1e-2
    bot_gap = bot_fn(G, S, mask, K, **UNIT) - bot_fn(G, S, mask, K, std="unbiased", **UNIT)
    assert bot_gap.abs().max() > 1e-2


@pytest.mark.parametrize("mask_dtype", [torch.float32, torch.int64, torch.uint8])
@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_numeric_masks_match_bool_masks(name, mask_dtype):
    G, S, mask = make_batch(*CASES["holes_K3"])
    expected = ADVANTAGES[name](G, S, mask, 3, **UNIT)
    got = ADVANTAGES[name](G, S, mask.to(mask_dtype), 3, **UNIT)
    torch.testing.assert_close(got, expected, rtol=0, atol=0)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_cuda_matches_cpu(name):
    for case in ("right_K4", "left_K2", "holes_K3", "left_K8"):
        G, S, mask = make_batch(*CASES[case])
        K = CASES[case][2]
        expected = ADVANTAGES[name](G, S, mask, K, **UNIT)
        got = ADVANTAGES[name](G.cuda(), S.cuda(), mask.cuda(), K, **UNIT)
        assert got.device.type == "cuda" and torch.all(got[~mask.cuda()] == 0)
        torch.testing.assert_close(got.cpu(), expected, rtol=1e-4, atol=1e-4)


# -- (2) ports of the reference implementations ----------------------------------------------


def verl_compute_grpo_outcome_advantage(
    token_level_rewards: torch.Tensor,
    response_mask: torch.Tensor,
    index: np.ndarray,
    epsilon: float = 1e-6,
    norm_adv_by_std_in_grpo: bool = True,
):
    """verl's GRPO advantage, body verbatim.

    Source: volcengine/verl, verl/trainer/ppo/core_algos.py, ``compute_grpo_outcome_advantage``
    (commit b178a3cd56f58b2d502255daba591e92833930a7); only the unused ``config`` argument and the
    second return value are dropped. ``torch.std`` is Bessel-corrected: our ``std="unbiased"``.
    """
    scores = token_level_rewards.sum(dim=-1)

    id2score = defaultdict(list)
    id2mean = {}
    id2std = {}

    with torch.no_grad():
        bsz = scores.shape[0]
        for i in range(bsz):
            id2score[index[i]].append(scores[i])
        for idx in id2score:
            if len(id2score[idx]) == 1:
                id2mean[idx] = torch.tensor(0.0)
                id2std[idx] = torch.tensor(1.0)
            elif len(id2score[idx]) > 1:
                scores_tensor = torch.stack(id2score[idx])
                id2mean[idx] = torch.mean(scores_tensor)
                id2std[idx] = torch.std(scores_tensor)
            else:
                raise ValueError(f"no score in prompt index: {idx}")
        for i in range(bsz):
            if norm_adv_by_std_in_grpo:
                scores[i] = (scores[i] - id2mean[index[i]]) / (id2std[index[i]] + epsilon)
            else:
                scores[i] = scores[i] - id2mean[index[i]]
        scores = scores.unsqueeze(-1) * response_mask

    return scores


def verl_dapo_overlong_reward(valid_response_length: int, max_resp_len: int, overlong_buffer_len: int,
                              overlong_penalty_factor: float) -> float:  # fmt: skip
    """DAPO's soft overlong punishment as verl's DAPO reward manager adds it to the score.

    Source: volcengine/verl, verl/workers/reward_manager/dapo.py, ``DAPORewardManager.__call__``
    (commit b178a3cd56f58b2d502255daba591e92833930a7), the ``overlong_buffer_cfg.enable`` branch.
    """
    expected_len = max_resp_len - overlong_buffer_len
    exceed_len = valid_response_length - expected_len
    overlong_reward = min(-exceed_len / overlong_buffer_len * overlong_penalty_factor, 0)
    return overlong_reward


def verl_token_level_rewards(G, S, mask, *, w_g, w_s, seq_reward, overlong=None):
    """verl's input: token-level rewards whose row sum is the sequence reward, the score (plus any
    overlong reward) at the last response token as verl's reward managers place it."""
    B, T = S.shape
    rewards = torch.zeros(B, T)
    L = mask.sum(-1)
    for i in range(B):
        n = int(L[i])
        if seq_reward == "token_sum":
            rewards[i, :n] = w_s * S[i, :n]
        elif seq_reward == "token_mean":
            rewards[i, :n] = w_s * S[i, :n] / n
        score = w_g * float(G[i])
        if overlong is not None:
            score += verl_dapo_overlong_reward(n, *overlong)
        rewards[i, n - 1] += score
    return rewards


def verl_batch(seed, n_groups, K, T):
    """Right-padded, non-empty completions of ragged lengths (verl has no empty responses) and no
    zero-variance group (verl divides float32 rounding noise by eps there; ours gives exact zeros)."""
    gen = torch.Generator().manual_seed(seed)
    B = n_groups * K
    G = torch.rand(B, generator=gen)
    S = torch.randn(B, T, generator=gen) * 0.5
    lengths = torch.randint(1, T + 1, (B,), generator=gen)
    lengths[0], lengths[1] = 1, T
    mask = torch.arange(T).unsqueeze(0) < lengths.unsqueeze(1)
    return G, S * mask, mask


VERL_CASES = [(10, 3, 2, 7), (11, 2, 4, 11), (12, 2, 8, 16), (13, 4, 8, 5)]  # (seed, n_groups, K, T)

VERL_OPTIONS = [
    # (our estimator, its options, verl's norm_adv_by_std_in_grpo, DAPO overlong (L_max, L_cache, factor))
    ("grpo", {"std": "unbiased"}, True, None),
    ("grpo", {"std": "unbiased", "seq_reward": "token_sum", "w_g": 2.0, "w_s": 0.5}, True, None),
    ("gspo", {"std": "unbiased", "w_s": 0.3}, True, None),
    ("dr_grpo", {}, False, None),
    ("dr_grpo", {"seq_reward": "token_mean", "w_s": 0.7}, False, None),
    ("dapo", {"std": "unbiased"}, True, None),
    ("dapo", {"std": "unbiased", "max_completion_length": 16, "overlong_buffer": 6, "overlong_penalty": 0.5},
     True, (16, 6, 0.5)),  # fmt: skip
    ("dapo", {"std": "unbiased", "seq_reward": "global", "max_completion_length": 8, "overlong_buffer": 8},
     True, (8, 8, 1.0)),  # fmt: skip
]


@pytest.mark.parametrize("case", VERL_CASES)
@pytest.mark.parametrize("name,options,norm_by_std,overlong", VERL_OPTIONS)
def test_sequence_estimators_match_verl(name, options, norm_by_std, overlong, case):
    seed, n_groups, K, T = case
    G, S, mask = verl_batch(seed, n_groups, K, T)
    if overlong is not None and overlong[0] < T:
        mask[:, overlong[0]:] = False  # verl's responses never exceed max_resp_len
        S = S * mask
    defaults = ADVANTAGES[name].option_defaults
    options = {**UNIT, **options}
    w_g, w_s = options["w_g"], options["w_s"]
    seq_reward = options.get("seq_reward", defaults["seq_reward"])
    rewards = verl_token_level_rewards(G, S, mask, w_g=w_g, w_s=w_s, seq_reward=seq_reward, overlong=overlong)
    index = np.repeat(np.array([f"uid-{g}" for g in range(n_groups)], dtype=object), K)
    expected = verl_compute_grpo_outcome_advantage(rewards, mask.float(), index, 1e-6, norm_by_std)
    torch.testing.assert_close(ADVANTAGES[name](G, S, mask, K, **options), expected, rtol=1e-5, atol=1e-5)


def pure_min_form_weighting(process_reward: torch.Tensor, reward_mask: torch.Tensor, temperature=0.1):
    """PURE's min-form credit, from the step-level process rewards on.

    Source: CJReinforce/PURE, openrlhf/utils/utils.py, ``turn_process_reward_logits_to_reward``
    (commit 41f9363), the ``not disable_weighted_reward`` branch after the PRM logits have become
    ``process_reward`` (here given directly: p = w_s S).
    """
    process_reward = process_reward.masked_fill(~reward_mask, 0)
    weight = torch.softmax(
        -process_reward.masked_fill(~reward_mask, float("inf")) / temperature,
        dim=-1,
    )
    process_reward = weight * process_reward
    return process_reward


def pure_rloo_returns(process_rewards, action_masks, solveds, n_samples_per_prompt, reward_baseline,
                      verifiable_reward_coef=1.0):  # fmt: skip
    """PURE's RLOO rewards and returns, every token a step.

    Source: CJReinforce/PURE, openrlhf/trainer/ppo_utils/experience_maker.py (commit 41f9363),
    ``NaiveExperienceMaker.process_experiences`` from "calculate: PR - PR_baseline + coef * (VR -
    VR_baseline)" on, then the return of ``make_experience_list`` (``reward.fliplr().cumsum(dim=1)
    .fliplr()``, KL coefficient 0). With every token a step, ``reward_masks`` = ``score_masks`` =
    the action mask, ``num_steps`` = ``response_lengths`` = L and ``num_tokens_per_steps`` = 1.
    PURE's verifiable reward is ``solveds - 1``; the leave-one-out baseline cancels the -1, so G is
    passed as ``solveds`` unchanged.
    """
    args_n = n_samples_per_prompt
    num_data = solveds.numel()
    reward_masks = score_masks = action_masks
    num_steps = response_lengths = action_masks.sum(-1).to(process_rewards.dtype)
    num_tokens_per_steps = torch.ones_like(process_rewards)

    process_rewards = process_rewards.reshape(-1, args_n, process_rewards.size(1))
    outcome_rewards = process_rewards.sum(-1)
    # average reward per step as baseline
    if reward_baseline == "step":
        num_steps = num_steps.reshape(-1, args_n)
        reward_masks = reward_masks.reshape(-1, args_n, reward_masks.size(1))

        average_process_reward = outcome_rewards / num_steps
        process_reward_baseline = (average_process_reward.sum(-1, keepdim=True) - average_process_reward) / (
            args_n - 1
        )

        process_rewards = (process_rewards - process_reward_baseline.unsqueeze(-1)).masked_fill(~reward_masks, 0)
        process_rewards = process_rewards.reshape(num_data, -1)
    # (avg. reward per token) * (num of tokens of corresponding step) as baseline
    else:
        response_lengths = response_lengths.reshape(-1, args_n)
        average_reward_per_token = (outcome_rewards.sum(-1, keepdim=True) - outcome_rewards) / (
            response_lengths.sum(-1, keepdim=True) - response_lengths
        )

        process_rewards = process_rewards.reshape(num_data, -1)
        average_reward_per_token = average_reward_per_token.flatten()

        for i in range(num_data):
            process_rewards[i, reward_masks[i]] -= average_reward_per_token[i] * num_tokens_per_steps[i, score_masks[i]]

    # verifier reward
    verifier_reward = solveds
    verifier_reward = verifier_reward.reshape(-1, args_n)
    verifier_reward_baseline = (verifier_reward.sum(-1, keepdim=True) - verifier_reward) / (args_n - 1)
    verifier_reward = verifier_reward - verifier_reward_baseline
    verifier_reward = verifier_reward.flatten()

    # add verifier reward to the last step
    eos_indices = action_masks.size(1) - 1 - action_masks.long().fliplr().argmax(1)
    process_rewards[torch.arange(num_data), eos_indices] += verifier_reward * verifiable_reward_coef

    returns = process_rewards.fliplr().cumsum(dim=1).fliplr()
    return returns


def pure_verl_masked_whiten(values, mask, shift_mean=True):
    """Source: CJReinforce/PURE, branch ``verl``, verl/utils/torch_functional.py: ``masked_mean``,
    ``masked_var`` (unbiased=True: Bessel's correction) and ``masked_whiten``, inlined."""
    mean = (values * mask).sum() / mask.sum()
    centered_values = values - mean
    variance = (centered_values**2 * mask).sum() / mask.sum()
    mask_sum = mask.sum()
    bessel_correction = mask_sum / (mask_sum - 1)
    var = variance * bessel_correction
    whitened = (values - mean) * torch.rsqrt(var + 1e-8)
    if not shift_mean:
        whitened += mean
    return whitened


@pytest.mark.parametrize("case", VERL_CASES)
@pytest.mark.parametrize("baseline", ["token", "step"])
@pytest.mark.parametrize("w_g,w_s,temperature", [(1.0, 1.0, 0.1), (2.0, 0.5, 0.1), (1.0, 2.0, 0.7)])
def test_pure_matches_pure_code(case, baseline, w_g, w_s, temperature):
    seed, n_groups, K, T = case
    G, S, mask = verl_batch(seed, n_groups, K, T)
    q = pure_min_form_weighting(w_s * S.double(), mask, temperature)
    returns = pure_rloo_returns(q, mask, G.double(), K, baseline, verifiable_reward_coef=w_g) * mask
    options = {"w_g": w_g, "w_s": w_s, "temperature": temperature, "baseline": baseline}
    out = ADVANTAGES["pure"](G, S, mask, K, **options)
    torch.testing.assert_close(out.double(), returns, rtol=1e-5, atol=1e-5)
    whitened = pure_verl_masked_whiten(returns, mask.double()) * mask
    out = ADVANTAGES["pure"](G, S, mask, K, whiten=True, **options)
    torch.testing.assert_close(out.double(), whitened, rtol=1e-4, atol=1e-4)
