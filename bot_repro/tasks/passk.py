"""The unbiased Pass@k estimator (docs/method.md §5), the one home every task's evaluation uses.

With n samples of which c are correct, Pass@k = 1 - C(n-c, k) / C(n, k): the chance that a
random k-subset of the n samples holds at least one correct one. The ratio of binomials is
computed as prod_{i=n-c+1}^{n} (1 - k/i), which never forms a large binomial coefficient.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def pass_at_k(n: int, c: int, k: int) -> float:
    """Pass@k of one problem with ``c`` correct out of ``n`` samples; k > n is an error."""
    if n < 1 or k < 1:
        raise ValueError(f"pass@k needs n >= 1 and k >= 1, got n={n}, k={k}")
    if not 0 <= c <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n, got c={c}, n={n}")
    if k > n:
        raise ValueError(f"pass@{k} is undefined with only n={n} samples (k must be <= n)")
    if n - c < k:  # every k-subset holds a correct sample
        return 1.0
    miss = 1.0  # C(n-c, k) / C(n, k), multiplied in order so every caller gets the same bits
    for i in range(n - c + 1, n + 1):
        miss *= 1.0 - k / i
    return 1.0 - miss


def mean_pass_at_k(correct: Iterable[Sequence[bool]], ks: Sequence[int]) -> dict[str, float]:
    """``{"pass@k": mean over problems}`` from each problem's per-sample correctness flags."""
    per_problem = [list(flags) for flags in correct]
    if not per_problem:
        raise ValueError("pass@k needs at least one problem")
    out = {}
    for k in ks:
        values = [pass_at_k(len(flags), sum(bool(f) for f in flags), k) for flags in per_problem]
        out[f"pass@{k}"] = sum(values) / len(values)
    return out
