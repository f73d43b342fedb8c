"""Benchmark of the advantage estimators on CPU against one elementwise add of the same size.

``run()`` times B = 64 rollouts (8 groups of K = 8) of T = 4096 tokens, float32 rewards, a bool
mask with ragged right padding: the median of >= 20 calls after warm-up for ``bot_grpo`` and
every registered estimator, and one ``a + b`` on [B, T] tensors as the memory-bound yardstick.
The target is ``bot_advantage_vs_elementwise_ratio <= 10``.

Usage: ``python bench/algorithms.py [out.json]`` prints the JSON (and writes it when a path is given).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable

import torch

from bot_repro.algorithms import ADVANTAGES

B, T, GROUP_SIZE = 64, 4096, 8
WARMUP, CALLS = 5, 30


def _median_ms(fn: Callable[[], object]) -> float:
    for _ in range(WARMUP):
        fn()
    times = []
    for _ in range(CALLS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def _inputs(seed: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    global_rewards = torch.randn(B, generator=gen)
    lengths = torch.randint(1, T + 1, (B,), generator=gen)
    mask = torch.arange(T).unsqueeze(0) < lengths.unsqueeze(1)
    local_rewards = torch.randn(B, T, generator=gen) * 0.1 * mask
    return global_rewards, local_rewards, mask


def run() -> dict:
    global_rewards, local_rewards, mask = _inputs()
    other = torch.randn(B, T)
    results: dict[str, object] = {
        "shape": {"B": B, "T": T, "group_size": GROUP_SIZE, "dtype": "float32", "mask": "bool"},
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "calls": CALLS,
    }
    results["elementwise_add_ms"] = _median_ms(lambda: local_rewards + other)
    for name in sorted(ADVANTAGES):
        fn = ADVANTAGES[name]
        results[f"{name}_ms"] = _median_ms(lambda fn=fn: fn(global_rewards, local_rewards, mask, GROUP_SIZE))
    results["bot_advantage_ms"] = results["bot_grpo_ms"]
    results["bot_advantage_vs_elementwise_ratio"] = (
        results["bot_advantage_ms"] / results["elementwise_add_ms"]
    )
    return results


if __name__ == "__main__":
    out = run()
    text = json.dumps(out, indent=2)
    print(text)
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as fh:
            fh.write(text + "\n")
