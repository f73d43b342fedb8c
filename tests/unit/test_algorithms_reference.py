"""Every advantage estimator against a slow, obviously-correct loop reference on random inputs.

The references below are written from SPEC §2 and the estimator docstrings, independently of
the vectorised code: plain Python floats, one rollout and one token at a time. Inputs are
nested lists G[k], S[k][t], M[k][t] (truthy = valid token). The random batches cover ragged
lengths, right / left padding and holes in the mask, empty completions and all-empty groups,
K = 2, zero-variance groups, several groups, finite garbage in padded positions, and
bf16 / float64 / non-contiguous inputs.
"""

from __future__ import annotations

import math

import pytest
import torch

from bot_repro.algorithms import ADVANTAGES

ZERO_STD_TOL = 1e-8


def _valid(M, k):
    return [t for t, v in enumerate(M[k]) if v]


def _groups(B, K):
    return [list(range(g * K, (g + 1) * K)) for g in range(B // K)]


def _zeros(M):
    return [[0.0] * len(row) for row in M]


def _sequence_rewards(G, S, M, seq_reward, w_g, w_s):
    R = []
    for k in range(len(G)):
        vals = [S[k][t] for t in _valid(M, k)]
        if seq_reward == "global":
            R.append(w_g * G[k])
        elif seq_reward == "token_mean":
            R.append(w_g * G[k] + w_s * (sum(vals) / len(vals) if vals else 0.0))
        else:
            R.append(w_g * G[k] + w_s * sum(vals))
    return R


def _centre(R, K, scale, std, eps):
    A = []
    for rows in _groups(len(R), K):
        xs = [R[k] for k in rows]
        mean = sum(xs) / K
        var = sum((x - mean) ** 2 for x in xs) / (K - 1 if std == "unbiased" else K)
        for x in xs:
            A.append((x - mean) / (math.sqrt(var) + eps) if scale else x - mean)
    return A


def _broadcast(A, M):
    out = _zeros(M)
    for k in range(len(M)):
        for t in _valid(M, k):
            out[k][t] = A[k]
    return out


def grpo(G, S, M, K, w_g=1.0, w_s=1.0, eps=1e-6, std="population", seq_reward="global"):
    return _broadcast(_centre(_sequence_rewards(G, S, M, seq_reward, w_g, w_s), K, True, std, eps), M)


def dr_grpo(G, S, M, K, w_g=1.0, w_s=1.0, eps=1e-6, seq_reward="global"):
    return _broadcast(
        _centre(_sequence_rewards(G, S, M, seq_reward, w_g, w_s), K, False, "population", eps), M
    )


def dapo(
    G,
    S,
    M,
    K,
    w_g=1.0,
    w_s=1.0,
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
            L = len(_valid(M, k))
            if L > max_completion_length - overlong_buffer:
                frac = (max_completion_length - overlong_buffer - L) / overlong_buffer
                R[k] += overlong_penalty * max(-1.0, frac)
    return _broadcast(_centre(R, K, True, std, eps), M)


def gspo(G, S, M, K, w_g=1.0, w_s=1.0, eps=1e-6, std="population", seq_reward="token_mean"):
    return grpo(G, S, M, K, w_g=w_g, w_s=w_s, eps=eps, std=std, seq_reward=seq_reward)


def pooled_stats(G, S, M, rows, w_g, w_s, weighting, std):
    """(tokens [(k, t, r)], mu, sigma) of one group, weights as SPEC Eqs. 2-3."""
    tokens = [(k, t, w_g * G[k] + w_s * S[k][t]) for k in rows for t in _valid(M, k)]
    if not tokens:
        return tokens, 0.0, 0.0
    lengths = {k: len(_valid(M, k)) for k in rows}
    k_eff = sum(1 for k in rows if lengths[k] > 0)
    if weighting == "inverse_length":
        weights = [1.0 / (k_eff * lengths[k]) for k, _, _ in tokens]
    else:
        weights = [1.0 / len(tokens)] * len(tokens)
    mu = sum(w * r for w, (_, _, r) in zip(weights, tokens))
    var = sum(w * (r - mu) ** 2 for w, (_, _, r) in zip(weights, tokens))
    if std == "unbiased":
        denom = 1.0 - sum(w * w for w in weights)
        var = var / denom if denom > 0 else 0.0
    return tokens, mu, math.sqrt(var)


def bot_grpo(
    G, S, M, K, w_g=1.0, w_s=1.0, eps=1e-6, std="population", weighting="inverse_length", zero_std="zero"
):
    out = _zeros(M)
    for rows in _groups(len(G), K):
        tokens, mu, sigma = pooled_stats(G, S, M, rows, w_g, w_s, weighting, std)
        for k, t, r in tokens:
            if sigma > ZERO_STD_TOL:
                out[k][t] = (r - mu) / (sigma + eps)
            elif zero_std == "eps":
                out[k][t] = (r - mu) / eps
    return out


def ps_grpo(G, S, M, K, w_g=1.0, w_s=1.0, eps=1e-6, std="population", reduce="mean"):
    normalised = _zeros(M)
    for rows in _groups(len(G), K):
        tokens, mu, sigma = pooled_stats(G, S, M, rows, w_g, w_s, "uniform", std)
        for k, t, r in tokens:
            normalised[k][t] = (r - mu) / (sigma + eps)
    out = _zeros(M)
    for k in range(len(M)):
        valid = _valid(M, k)
        for i, t in enumerate(valid):
            later = [normalised[k][u] for u in valid[i:]]
            out[k][t] = sum(later) / len(later) if reduce == "mean" else sum(later)
    return out


def min_form_credit(S, M, w_s=1.0, temperature=0.1):
    q = _zeros(M)
    for k in range(len(M)):
        valid = _valid(M, k)
        if not valid:
            continue
        p = [w_s * S[k][t] for t in valid]
        top = max(-x / temperature for x in p)
        e = [math.exp(-x / temperature - top) for x in p]
        z = sum(e)
        for t, x, ex in zip(valid, p, e):
            q[k][t] = ex / z * x
    return q


def pure(G, S, M, K, w_g=1.0, w_s=1.0, eps=1e-6, temperature=0.1, whiten=False):
    q = min_form_credit(S, M, w_s, temperature)
    q_mean = [sum(q[k][t] for t in _valid(M, k)) / max(1, len(_valid(M, k))) for k in range(len(M))]
    out = _zeros(M)
    for rows in _groups(len(G), K):
        for k in rows:
            valid = _valid(M, k)
            if not valid:
                continue
            baseline = sum(q_mean[j] for j in rows if j != k) / (K - 1)
            g_base = sum(G[j] for j in rows if j != k) / (K - 1)
            step = {t: q[k][t] - baseline for t in valid}
            step[valid[-1]] += w_g * (G[k] - g_base)
            for i, t in enumerate(valid):
                out[k][t] = sum(step[u] for u in valid[i:])
    if whiten:
        vals = [out[k][t] for k in range(len(M)) for t in _valid(M, k)]
        if vals:
            mean = sum(vals) / len(vals)
            sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / len(vals))
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


# -- random batches ---------------------------------------------------------------------------

CASES = {
    # name: (seed, n_groups, K, T, layout, dtype)
    "right_K4": (0, 3, 4, 9, "right", torch.float32),
    "left_K2": (1, 4, 2, 7, "left", torch.float32),
    "holes_K3": (2, 2, 3, 8, "holes", torch.float32),
    "right_K8_long": (3, 2, 8, 40, "right", torch.float32),
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
    "pure": [{}, {"temperature": 1.0, "w_g": 2.0, "w_s": 0.5}, {"whiten": True, "temperature": 0.3}],
    "ps_grpo": [{}, {"reduce": "sum", "std": "unbiased"}, {"w_g": 3.0, "w_s": 0.5}],
    "bot_grpo": [
        {},
        {"weighting": "uniform", "std": "unbiased"},
        {"zero_std": "eps", "w_g": 3.0, "w_s": 0.5},
        {"std": "unbiased", "zero_std": "drop", "eps": 1e-4},
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

    out = ADVANTAGES[name](G, S, mask, K, **options)
    expected = torch.tensor(REFERENCES[name](*as_lists(G, S, mask), K, **options), dtype=torch.float64)

    assert out.dtype == torch.float32 and out.shape == S.shape
    assert torch.all(out[~mask] == 0)
    torch.testing.assert_close(out.double(), expected, rtol=2e-4, atol=2e-4)
    # the estimators work in place on their own buffers only
    assert torch.equal(G, G_before) and torch.equal(S, S_before) and torch.equal(mask, mask_before)


def test_reference_batches_exercise_the_edge_cases():
    """Guards the generator: a refactor must not silently drop the cases the comparison relies on."""
    G, S, mask = make_batch(*CASES["right_K4"])
    lengths = mask.sum(-1)
    assert lengths[1] == 0 and torch.all(lengths[8:12] == 0) and lengths.max() > lengths[lengths > 0].min()
    assert torch.all(S[4:8][mask[4:8]] == 0.7) and torch.all(S[~mask] > 700)


@pytest.mark.parametrize("mask_dtype", [torch.float32, torch.int64, torch.uint8])
@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_numeric_masks_match_bool_masks(name, mask_dtype):
    G, S, mask = make_batch(*CASES["holes_K3"])
    expected = ADVANTAGES[name](G, S, mask, 3)
    torch.testing.assert_close(ADVANTAGES[name](G, S, mask.to(mask_dtype), 3), expected, rtol=0, atol=0)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_cuda_matches_cpu(name):
    for case in ("right_K4", "left_K2", "holes_K3"):
        G, S, mask = make_batch(*CASES[case])
        K = CASES[case][2]
        expected = ADVANTAGES[name](G, S, mask, K)
        got = ADVANTAGES[name](G.cuda(), S.cuda(), mask.cuda(), K)
        assert got.device.type == "cuda" and torch.all(got[~mask.cuda()] == 0)
        torch.testing.assert_close(got.cpu(), expected, rtol=1e-4, atol=1e-4)
