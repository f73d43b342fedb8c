"""Golden values (docs/method.md §2 and issue #11, computed by hand) and defining properties of the advantage estimators."""

from __future__ import annotations

import pytest
import torch

from bot_repro.algorithms import ADVANTAGES
from bot_repro.algorithms.core_algos import min_form_credit

NORMALISED = ["grpo", "dapo", "gspo", "ps_grpo", "bot_grpo"]
UNIT = {"w_g": 1.0, "w_s": 1.0}  # the weights the hand-computed values take (estimators have no default)


def ragged(rows: list[list[float]], width: int | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """(values [B, T] zero-padded, mask [B, T] bool) from rows of different lengths."""
    width = width or max(len(r) for r in rows)
    values = torch.zeros(len(rows), width)
    mask = torch.zeros(len(rows), width, dtype=torch.bool)
    for k, row in enumerate(rows):
        values[k, : len(row)] = torch.tensor(row)
        mask[k, : len(row)] = True
    return values, mask


def valid_values(out: torch.Tensor, mask: torch.Tensor) -> list[list[float]]:
    return [out[k][mask[k]].tolist() for k in range(out.shape[0])]


def assert_rows(out, mask, expected, atol=1e-5):
    got = valid_values(out, mask)
    assert len(got) == len(expected)
    for row, exp in zip(got, expected):
        assert row == pytest.approx(exp, abs=atol)


def implied_stats(out, rewards, mask, eps=1e-6):
    """(mu, sigma) that A = (r - mu) / (sigma + eps) implies, from the tokens of one group with the
    smallest and largest reward (the statistics are read off the estimator's output)."""
    r, a = rewards[mask].double(), out[mask].double()
    lo, hi = int(r.argmin()), int(r.argmax())
    scale = (a[hi] - a[lo]) / (r[hi] - r[lo])  # 1 / (sigma + eps)
    return (r[hi] - a[hi] / scale).item(), (1.0 / scale - eps).item()


# -- golden vectors (docs/method.md §2) -----------------------------------------------------------------------

GOLDEN_R = [[1.0, 0.5], [0.5, 0.0, -0.5], [1.0, 1.0, 1.0, 1.0]]


def test_bot_golden_vector():
    S, mask = ragged(GOLDEN_R)
    G = torch.zeros(3)
    out = ADVANTAGES["bot_grpo"](G, S, mask, 3, **UNIT)
    assert_rows(out, mask, [[0.821993, -0.164399], [-0.164399, -1.150791, -2.137183], [0.821993] * 4])
    assert implied_stats(out, S, mask) == pytest.approx((0.583333, 0.506897), abs=1e-6)


def test_bot_golden_vector_unbiased_is_k_over_k_minus_1():
    # sigma^2 = 0.506897^2 * 3 / 2, not / (1 - sum_i w_i^2) (reliability weights would give 0.540)
    S, mask = ragged(GOLDEN_R)
    out = ADVANTAGES["bot_grpo"](torch.zeros(3), S, mask, 3, std="unbiased", **UNIT)
    assert_rows(out, mask, [[0.671155, -0.134231], [-0.134231, -0.939617, -1.745003], [0.671155] * 4])
    assert implied_stats(out, S, mask) == pytest.approx((0.583333, 0.620819), abs=1e-6)


def test_bot_uniform_weighting_is_the_unweighted_pool_and_differs_from_golden():
    S, mask = ragged(GOLDEN_R)
    G = torch.zeros(3)
    uniform = ADVANTAGES["bot_grpo"](G, S, mask, 3, weighting="uniform", **UNIT)
    assert implied_stats(uniform, S, mask) == pytest.approx((0.611111, 0.515201), abs=1e-6)
    expected = [[(v - 0.6111111) / (0.5152010 + 1e-6) for v in row] for row in GOLDEN_R]
    assert_rows(uniform, mask, expected)
    # dropping 1/L_k must be visible: the golden test above would fail on these values
    assert (uniform - ADVANTAGES["bot_grpo"](G, S, mask, 3, **UNIT)).abs().max() > 0.05


def test_bot_equals_grpo_population_when_rewards_are_global():
    _, mask = ragged([[0.0] * 2, [0.0] * 3, [0.0] * 4])
    G = torch.tensor([1.0, 0.0, 1.0])
    local = torch.zeros(3, 4)
    expected = [[0.707105] * 2, [-1.414211] * 3, [0.707105] * 4]
    assert_rows(ADVANTAGES["bot_grpo"](G, local, mask, 3, **UNIT), mask, expected)
    assert_rows(ADVANTAGES["grpo"](G, local, mask, 3, **UNIT), mask, expected)


def test_grpo_by_hand():
    G = torch.tensor([1.0, 2.0, 3.0, 4.0])
    local, mask = ragged([[0.0], [0.0] * 2, [0.0] * 3, [0.0] * 2])
    assert_rows(
        ADVANTAGES["grpo"](G, local, mask, 4, **UNIT),
        mask,
        [[-1.341640], [-0.447213] * 2, [0.447213] * 3, [1.341640] * 2],
    )
    unbiased = ADVANTAGES["grpo"](G, local, mask, 4, std="unbiased", **UNIT)
    assert_rows(unbiased, mask, [[-1.161894], [-0.387298] * 2, [0.387298] * 3, [1.161894] * 2])


def test_sequence_rewards_by_hand():
    G = torch.tensor([1.0, 0.0])
    S, mask = ragged([[0.5, -0.5], [1.0, 1.0, 1.0]])
    # token_mean: R = [1 + 0, 0 + 1] are equal, so exactly 0 (not eps-amplified rounding)
    assert torch.all(ADVANTAGES["grpo"](G, S, mask, 2, seq_reward="token_mean", **UNIT) == 0)
    # token_sum: R = [1, 3]: population std 1
    assert_rows(
        ADVANTAGES["grpo"](G, S, mask, 2, seq_reward="token_sum", **UNIT), mask,
        [[-0.999999] * 2, [0.999999] * 3],
    )
    dr_sum = ADVANTAGES["dr_grpo"](G, S, mask, 2, seq_reward="token_sum", **UNIT)
    assert_rows(dr_sum, mask, [[-1.0] * 2, [1.0] * 3])
    assert_rows(ADVANTAGES["dr_grpo"](G, S, mask, 2, **UNIT), mask, [[0.5] * 2, [-0.5] * 3])
    # equal rewards whose float64 mean is off by 1 ulp (0.7 * 0.3, three times) still give exactly 0
    equal = ADVANTAGES["grpo"](
        torch.full((3,), 0.7), torch.zeros(3, 2), torch.ones(3, 2, dtype=torch.bool), 3, w_g=0.3, w_s=1.0
    )
    assert torch.all(equal == 0)


def test_dapo_soft_overlong_punishment_by_hand():
    # L_max 10, L_cache 4: no penalty up to 6 tokens, -0.5 at 8, -1 at 10 and beyond
    _, mask = ragged([[0.0] * 5, [0.0] * 8, [0.0] * 10, [0.0] * 12])
    G, local = torch.zeros(4), torch.zeros(4, 12)
    out = ADVANTAGES["dapo"](G, local, mask, 4, max_completion_length=10, overlong_buffer=4, **UNIT)
    assert_rows(out, mask, [[1.507553] * 5, [0.301511] * 8, [-0.904532] * 10, [-0.904532] * 12])
    assert torch.all(ADVANTAGES["dapo"](G, local, mask, 4, **UNIT) == 0)  # no punishment unless configured


PURE_G = [1.0, 0.0, 1.0]
PURE_S = [[0.0, -1.0], [1.0, 0.0, -1.0], [0.0, 0.0, 0.0, 0.0]]
PURE_OPTIONS = {"w_g": 1.0, "w_s": 0.5, "temperature": 0.1}


def test_pure_golden_vector_token_baseline():
    """Issue #11's golden vector, by hand: p = 0.5 S, p* = softmax(-p / 0.1) p per rollout, the token
    baseline b_k = sum_{j != k} sum_t p*_j / sum_{j != k} L_j, VR = G - leave-one-out mean of G."""
    S, mask = ragged(PURE_S)
    G = torch.tensor(PURE_G)
    p_star = min_form_credit(S, mask, w_s=0.5, temperature=0.1)
    assert_rows(p_star, mask, [[0.0, -0.496654], [0.000023, 0.0, -0.496631], [0.0] * 4], atol=1e-6)
    out = ADVANTAGES["pure"](G, S, mask, 3, **PURE_OPTIONS)
    expected = [
        [0.145235, 0.074291],
        [-1.248282, -1.331080, -1.413856],
        [1.294610, 1.095957, 0.897305, 0.698652],
    ]
    assert_rows(out, mask, expected, atol=2e-6)
    # read b and VR back: A_t - A_{t+1} = p*_t - b before the last token; A_L = p*_L - b + VR
    b, vr = [], []
    for k, L in enumerate(mask.sum(-1).tolist()):
        b.append((p_star[k, 0] - (out[k, 0] - out[k, 1])).item())
        vr.append((out[k, L - 1] - p_star[k, L - 1] + b[-1]).item())
    assert b == pytest.approx([-0.070944, -0.082776, -0.198652], abs=2e-6)
    assert vr == pytest.approx([0.5, -1.0, 0.5], abs=2e-6)
    assert ADVANTAGES["pure"].option_defaults["baseline"] == "token"


def test_pure_step_baseline_is_the_mean_of_per_rollout_means():
    # b_k = mean_{j != k} (sum_t p*_j / L_j): rollout means -0.248327, -0.165536, 0
    S, mask = ragged(PURE_S)
    out = ADVANTAGES["pure"](torch.tensor(PURE_G), S, mask, 3, baseline="step", **PURE_OPTIONS)
    b = [(-0.165536 + 0.0) / 2, (-0.248327 + 0.0) / 2, (-0.248327 - 0.165536) / 2]
    p_star = [[0.0, -0.496654], [0.000023, 0.0, -0.496631], [0.0] * 4]
    vr = [0.5, -1.0, 0.5]
    expected = []
    for k in range(3):
        steps = [p - b[k] for p in p_star[k]]
        steps[-1] += vr[k]
        expected.append([sum(steps[t:]) for t in range(len(steps))])
    assert_rows(out, mask, expected, atol=3e-6)
    # the token baseline's golden values differ: the default is not the step baseline
    assert (out - ADVANTAGES["pure"](torch.tensor(PURE_G), S, mask, 3, **PURE_OPTIONS)).abs().max() > 0.05


def test_pure_whiten_bessel_by_default_population_as_switch():
    S, mask = ragged(PURE_S)
    G = torch.tensor(PURE_G)
    raw = ADVANTAGES["pure"](G, S, mask, 3, **PURE_OPTIONS)[mask].double()
    n = raw.numel()  # 9 tokens
    centred = raw - raw.mean()
    for std, dof in (("unbiased", n - 1), ("population", n)):
        whitened = ADVANTAGES["pure"](G, S, mask, 3, whiten=True, std=std, **PURE_OPTIONS)[mask].double()
        sd = (centred.square().sum() / dof).sqrt()
        torch.testing.assert_close(whitened, centred / (sd + 1e-6), rtol=1e-5, atol=1e-6)
    assert ADVANTAGES["pure"].option_defaults["std"] == "unbiased"


def test_pure_by_hand():
    # constant local rewards per row: uniform softmax, q = p / L
    G = torch.tensor([0.0, 1.0])
    S, mask = ragged([[-1.0, -1.0], [0.0, 0.0, 0.0]])
    # q0 = [-.5, -.5], q1 = 0; baselines b0 = 0, b1 = -.5; G terms -1 / +1 at the last token
    assert_rows(ADVANTAGES["pure"](G, S, mask, 2, **UNIT), mask, [[-2.0, -1.5], [2.5, 2.0, 1.5]])


def test_ps_grpo_by_hand():
    G = torch.zeros(2)
    S, mask = ragged([[1.0, 0.0], [0.0, -1.0]])
    n = 1.4142116  # 1 / (sqrt(0.5) + eps)
    assert_rows(ADVANTAGES["ps_grpo"](G, S, mask, 2, **UNIT), mask, [[n / 2, 0.0], [-n / 2, -n]])
    assert_rows(ADVANTAGES["ps_grpo"](G, S, mask, 2, reduce="sum", **UNIT), mask, [[n, 0.0], [-n, -n]])


# -- defining properties -----------------------------------------------------------------------


def random_batch(seed, n_groups=3, K=4, T=12, empty=False):
    gen = torch.Generator().manual_seed(seed)
    B = n_groups * K
    lengths = torch.randint(0 if empty else 1, T + 1, (B,), generator=gen)
    mask = torch.arange(T).unsqueeze(0) < lengths.unsqueeze(1)
    return torch.randn(B, generator=gen), torch.randn(B, T, generator=gen) * mask, mask


@pytest.mark.parametrize("std", ["population", "unbiased"])
@pytest.mark.parametrize("K", [2, 4, 8])
@pytest.mark.parametrize("seed", range(3))
def test_bot_with_zero_local_rewards_is_grpo(seed, K, std):
    """S = 0 (and any S constant over the group's tokens): BoT equals GRPO with the same std option,
    whatever the (ragged, non-empty) lengths."""
    G, _, mask = random_batch(seed, K=K, T=4 * K)
    assert len(set(mask.sum(-1).tolist())) > 2  # ragged
    local = torch.zeros_like(mask, dtype=torch.float32)
    bot = ADVANTAGES["bot_grpo"](G, local, mask, K, w_g=2.5, w_s=1.0, std=std)
    grpo = ADVANTAGES["grpo"](G, local, mask, K, w_g=2.5, w_s=1.0, std=std)
    torch.testing.assert_close(bot, grpo, rtol=1e-5, atol=1e-5)
    constant = torch.full_like(local, -0.3)
    bot_c = ADVANTAGES["bot_grpo"](G, constant, mask, K, w_g=2.5, w_s=0.5, std=std)
    torch.testing.assert_close(bot_c, grpo, rtol=1e-5, atol=1e-5)


def repeat_rollout(S, mask, k):
    """Rollout k's valid tokens written twice (the batch gets wider)."""
    L = int(mask[k].sum())
    wide = torch.zeros(S.shape[0], max(S.shape[1], 2 * L))
    wide_mask = torch.zeros_like(wide, dtype=torch.bool)
    wide[:, : S.shape[1]], wide_mask[:, : S.shape[1]] = S, mask
    wide[k, :L], wide[k, L : 2 * L] = S[k, :L], S[k, :L]
    wide_mask[k, : 2 * L] = True
    return wide, wide_mask


def test_bot_statistics_ignore_repeating_a_rollout_only_with_inverse_length():
    G, S, mask = random_batch(7, n_groups=1, K=4, T=6)
    wide, wide_mask = repeat_rollout(S, mask, k=2)
    for std in ("population", "unbiased"):
        out = ADVANTAGES["bot_grpo"](G, S, mask, 4, std=std, **UNIT)
        out_wide = ADVANTAGES["bot_grpo"](G, wide, wide_mask, 4, std=std, **UNIT)
        torch.testing.assert_close(out_wide[:, : S.shape[1]][mask], out[mask])
    uniform = ADVANTAGES["bot_grpo"](G, S, mask, 4, weighting="uniform", **UNIT)
    uniform_wide = ADVANTAGES["bot_grpo"](G, wide, wide_mask, 4, weighting="uniform", **UNIT)
    assert (uniform_wide[:, : S.shape[1]][mask] - uniform[mask]).abs().max() > 1e-3


@pytest.mark.parametrize("name", sorted(ADVANTAGES))
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float64])
def test_output_is_float32_with_exact_zeros_on_padding(name, dtype):
    G, S, mask = random_batch(3, empty=True)
    out = ADVANTAGES[name](G.to(dtype), S.to(dtype), mask, 4, **UNIT)
    assert out.dtype == torch.float32
    assert torch.all(out[~mask] == 0) and torch.all(out[mask.sum(-1) == 0] == 0)
    assert out[mask].abs().sum() > 0


@pytest.mark.parametrize("name", NORMALISED + ["dr_grpo"])
def test_invariant_to_a_constant_shift_of_all_rewards(name):
    G, S, mask = random_batch(11)
    shifted = ADVANTAGES[name](G + 5.0, S, mask, 4, **UNIT)
    torch.testing.assert_close(shifted, ADVANTAGES[name](G, S, mask, 4, **UNIT), rtol=1e-4, atol=1e-4)


def test_min_form_credit_tends_to_the_minimum_as_temperature_drops():
    gen = torch.Generator().manual_seed(5)
    p = torch.rand(6, 9, generator=gen) * 2 - 1
    mask = torch.ones(6, 9, dtype=torch.bool)
    mask[0, 5:] = False
    minimum = torch.where(mask, p, float("inf")).amin(-1)
    gaps = [
        (min_form_credit(p, mask, w_s=1.0, temperature=t).sum(-1) - minimum).abs().max().item()
        for t in (1.0, 0.1, 1e-3)
    ]
    assert gaps[0] > gaps[1] > gaps[2] and gaps[2] < 1e-3
    assert torch.all(min_form_credit(p, mask, w_s=1.0)[~mask] == 0)


def test_zero_std_groups_and_modes():
    # group 0: r = 3 * 0.3 + 0.1 * 0.7 on every token (ragged); group 1: one token differs by 2e-9;
    # group 2: no token at all; group 3: an ordinary group
    G = torch.tensor([0.3, 0.3, 0.0, 0.0, 0.0, 0.0, 0.2, 0.9])
    S, mask = ragged([[0.7] * 3, [0.7] * 6, [0.0], [2e-9], [0.5], [0.5], [0.1, 0.4], [0.2]], width=6)
    mask[4:6] = False
    # groups 0-2 count as zero std (the 2e-9 spread is below the 1e-8 tolerance): A = 0 exactly
    zero = ADVANTAGES["bot_grpo"](G, S, mask, 2, w_g=3.0, w_s=0.1)
    assert torch.all(zero[:6] == 0) and torch.all(zero[6:][mask[6:]] != 0)
    eps_mode = ADVANTAGES["bot_grpo"](G, S, mask, 2, zero_std="eps", **UNIT)
    assert torch.all(eps_mode[:2] == 0) and torch.all(eps_mode[4:6] == 0)
    assert eps_mode[2:4, 0].tolist() == pytest.approx([-1e-3, 1e-3], rel=1e-3)  # (r - mu) / eps
    zero = ADVANTAGES["bot_grpo"](G, S, mask, 2, **UNIT)
    assert torch.all(zero[:6] == 0) and zero[6:].abs().sum() > 0
    assert torch.equal(ADVANTAGES["bot_grpo"](G, S, mask, 2, zero_std="drop", **UNIT), zero)


def test_equal_rewards_give_exact_zeros_at_realistic_scale():
    # float32 means of 3.2 over thousands of tokens carry ~1e-7 rounding; the shift removes it
    B, T = 8, 4096
    G, local = torch.full((B,), 3.2), torch.full((B, T), -0.05)
    mask = torch.arange(T).unsqueeze(0) < torch.randint(
        1, T + 1, (B,), generator=torch.Generator().manual_seed(0)
    ).unsqueeze(1)
    for name in ADVANTAGES:
        if name != "pure":  # PURE is not normalised: equal rewards still get the min-form credit
            assert torch.all(ADVANTAGES[name](G, local, mask, 8, w_g=3.0, w_s=0.5) == 0), name


def test_empty_batches_return_zeros_of_the_right_shape():
    for name, fn in ADVANTAGES.items():
        no_tokens = fn(torch.zeros(4), torch.zeros(4, 0), torch.zeros(4, 0, dtype=torch.bool), 2, **UNIT)
        assert no_tokens.shape == (4, 0), name
        no_rows = fn(torch.zeros(0), torch.zeros(0, 5), torch.zeros(0, 5, dtype=torch.bool), 2, **UNIT)
        assert no_rows.shape == (0, 5), name


# -- same_global (beyond the paper): groups whose non-empty rollouts share one global reward ------


def _same_global_batch():
    # group 0: same G, tiny local spread (w_s = 0.1); group 1: G differs; group 2: G differs only
    # through an empty rollout, so it counts as same-G (empty rollouts are left out, as in mu, sigma)
    G = torch.tensor([1.0, 1.0, 1.0, 0.0, 1.0, 0.0])
    S, mask = ragged([[0.0, 1.0], [0.0], [0.0], [0.0, 0.0], [0.0, 1.0], []], width=2)
    return G, S, mask


def test_same_global_settings_by_hand():
    G, S, mask = _same_global_batch()
    run = lambda **o: ADVANTAGES["bot_grpo"](G, S, mask, 2, w_g=1.0, w_s=0.1, **o)  # noqa: E731
    # group 0: r = [1.0, 1.1], [1.0]; weights 1/4, 1/4, 1/2: mu = 1.025, sigma^2 = 0.001875
    sigma0 = 0.001875**0.5  # 0.0433013
    dev0 = [[-0.025, 0.075], [-0.025]]
    # group 1: r = [1.0], [0.0, 0.0]: mu = 0.5, sigma = 0.5; group 2: r = [1.0, 1.1]: mu 1.05, sigma 0.05
    g1 = [[0.5 / (0.5 + 1e-6)], [-0.5 / (0.5 + 1e-6)] * 2]
    pooled = [[d / (sigma0 + 1e-6) for d in row] for row in dev0] + g1 + [[-0.05 / 0.050001, 0.05 / 0.050001], []]
    assert_rows(run(), mask, pooled)
    assert_rows(run(same_global="pooled"), mask, pooled)
    assert valid_values(run(), mask)[0] == pytest.approx([-0.57734, 1.73203], abs=1e-4)  # the blow-up
    floored = [[d / 0.500001 for d in row] for row in dev0] + g1 + [[-0.05 / 0.500001, 0.05 / 0.500001], []]
    assert_rows(run(same_global="floor_std", std_floor=0.5), mask, floored)
    assert valid_values(run(same_global="floor_std"), mask)[0] == pytest.approx([-0.05, 0.15], abs=1e-5)
    assert_rows(run(same_global="zero"), mask, [[0.0, 0.0], [0.0]] + g1 + [[0.0, 0.0], []])


def _quantised_batch(seed, n_groups=12, K=4, T=7):
    gen = torch.Generator().manual_seed(seed)
    B = n_groups * K
    G = (torch.rand(B, generator=gen) < 0.5).float()
    G[: 4 * K] = G[: 4 * K : K].repeat_interleave(K)  # the first four groups: one G each
    S = torch.randn(B, T, generator=gen) * torch.rand(B, 1, generator=gen)  # some tiny spreads
    lengths = torch.randint(0, T + 1, (B,), generator=gen)
    mask = torch.arange(T)[None] < lengths[:, None]
    return G, S, mask, K


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("std", ["population", "unbiased"])
def test_same_global_properties(seed, std):
    from bot_repro.algorithms.batch import RewardBatch
    from bot_repro.algorithms.pooled import pooled_token_stats, same_global_groups

    G, S, mask, K = _quantised_batch(seed)
    opts = dict(w_g=1.0, w_s=0.2, std=std)
    pooled = ADVANTAGES["bot_grpo"](G, S, mask, K, **opts)
    batch = RewardBatch.from_inputs(G, S, mask, K)
    same = same_global_groups(batch).view(-1).repeat_interleave(K)  # [B]
    assert same[: 4 * K].all() and not same.all()  # both kinds of group are present
    sigma = pooled_token_stats(batch, 1.0, 0.2, weighting="inverse_length", std=std).sigma.view(-1)
    sigma = sigma.repeat_interleave(K)

    # zero: exactly 0 on same-G groups, other groups untouched (bit for bit)
    zero = ADVANTAGES["bot_grpo"](G, S, mask, K, same_global="zero", **opts)
    assert torch.all(zero[same] == 0) and torch.equal(zero[~same], pooled[~same])
    # floor_std: pooled wherever sigma >= floor or G differs; otherwise rescaled by (sigma+eps)/(floor+eps)
    floor = 0.3
    floored = ADVANTAGES["bot_grpo"](G, S, mask, K, same_global="floor_std", std_floor=floor, **opts)
    keep = ~same | (sigma >= floor)
    assert torch.equal(floored[keep], pooled[keep])
    low = same & (sigma < floor) & (sigma > 1e-8)
    assert low.any()
    scale = ((sigma[low] + 1e-6) / (floor + 1e-6))[:, None]
    torch.testing.assert_close(floored[low], pooled[low] * scale, rtol=1e-5, atol=1e-6)
    assert floored[low].abs().max() <= pooled[low].abs().max()  # a tiny spread is not blown up
    # a floor of 0 is the paper's formula
    assert torch.equal(ADVANTAGES["bot_grpo"](G, S, mask, K, same_global="floor_std", std_floor=0.0, **opts), pooled)
    assert torch.all(floored[~mask] == 0) and torch.all(zero[~mask] == 0)


def test_same_global_leaves_zero_std_groups_to_zero_std():
    G = torch.tensor([0.5, 0.5, 1.0, 0.0])
    S, mask = ragged([[0.2, 0.2], [0.2], [0.0], [0.0]])
    for setting in ("pooled", "floor_std", "zero"):
        out = ADVANTAGES["bot_grpo"](G, S, mask, 2, zero_std="eps", same_global=setting, **UNIT)
        assert torch.all(out[:2] == 0), setting  # deviations are exactly 0: (r - mu) / eps = 0
        assert out[2, 0] > 0 > out[3, 0]
