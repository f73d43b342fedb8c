"""Benchmark of the advantage estimators on CPU against one elementwise add of the same size.

``run()`` times B = 64 rollouts (8 groups of K = 8) of T = 4096 tokens, float32 rewards and a
bool mask with ragged right padding: every registered estimator, and one ``a + b`` on [B, T]
tensors as the memory-bound yardstick; each is the median of CALLS calls after WARMUP warm-up
calls, taken in BLOCKS rounds (the median of the round medians is reported).
Target: ``bot_advantage_vs_elementwise_ratio <= 10``.

Two settings make the numbers measure the computation rather than the machine:
- one intra-op thread (``threads``): on shared cores an OpenMP region waits for a descheduled
  thread and single calls jump from ~0.03 ms to ~8 ms;
- on glibc, ``mallopt`` keeps freed memory in the process (``tune_allocator``): otherwise glibc
  returns the 1 MiB buffers of each call to the OS and faults them back in on the next call,
  which in a VM costs ~0.4 ms per buffer and swamps everything else. Estimators that hold two
  such buffers at once pay it, a lone ``a + b`` does not, so the ratio would measure page faults.

Usage: ``python -m bench.algorithms [out.json]`` from the repository root prints the JSON (and
writes it, after ``bench.header``'s header, when a path is given).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import json
import statistics
import sys
import time
from collections.abc import Callable

import torch

from bot_repro.algorithms import ADVANTAGES

B, T, GROUP_SIZE = 64, 4096, 8
BLOCKS, WARMUP, CALLS = 5, 5, 20
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc malloc.h


def _keep_freed_memory() -> bool:
    """Ask glibc to keep freed memory (no trimming, no mmap for large blocks); False when not glibc."""
    name = ctypes.util.find_library("c")
    if not sys.platform.startswith("linux") or name is None:
        return False
    libc = ctypes.CDLL(name)
    if not hasattr(libc, "mallopt"):
        return False
    return bool(libc.mallopt(_M_MMAP_THRESHOLD, 1 << 30)) and bool(libc.mallopt(_M_TRIM_THRESHOLD, 1 << 30))


def _block_medians(fns: dict[str, Callable[[], object]]) -> dict[str, float]:
    """Median ms per function: BLOCKS rounds, each timing every function for CALLS back-to-back
    calls after WARMUP calls (warm caches, as in a training step); the median over the rounds
    of the per-round medians.

    Rounds make a load spike from other processes on a shared machine hit one round of the
    yardstick and of the estimators alike, instead of whichever happened to be timing then.
    """
    per_round: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(BLOCKS):
        for name, fn in fns.items():
            for _ in range(WARMUP):
                fn()
            times = []
            for _ in range(CALLS):
                start = time.perf_counter()
                fn()
                times.append(time.perf_counter() - start)
            per_round[name].append(statistics.median(times))
    return {name: statistics.median(medians) * 1e3 for name, medians in per_round.items()}


def _inputs(seed: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    global_rewards = torch.randn(B, generator=gen)
    lengths = torch.randint(1, T + 1, (B,), generator=gen)
    mask = torch.arange(T).unsqueeze(0) < lengths.unsqueeze(1)
    local_rewards = torch.randn(B, T, generator=gen) * 0.1 * mask
    return global_rewards, local_rewards, mask


def run(threads: int = 1, tune_allocator: bool = True) -> dict:
    """Timings in ms (medians) and the BoT / add ratio; see the module docstring for the settings."""
    allocator_tuned = _keep_freed_memory() if tune_allocator else False
    previous_threads = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        global_rewards, local_rewards, mask = _inputs()
        other = torch.randn(B, T)
        results: dict[str, object] = {
            "shape": {"B": B, "T": T, "group_size": GROUP_SIZE, "dtype": "float32", "mask": "bool"},
            "torch": torch.__version__,
            "threads": threads,
            "allocator_tuned": allocator_tuned,
            "rounds": BLOCKS,
            "warmup": WARMUP,
            "calls": CALLS,
        }
        fns = {"elementwise_add": lambda: local_rewards + other}
        for name in sorted(ADVANTAGES):
            fns[name] = functools.partial(ADVANTAGES[name], global_rewards, local_rewards, mask, GROUP_SIZE,
                                          w_g=1.0, w_s=1.0)  # the weights do not change the work
        results.update({f"{name}_ms": ms for name, ms in _block_medians(fns).items()})
    finally:
        torch.set_num_threads(previous_threads)
    results["bot_advantage_ms"] = results["bot_grpo_ms"]
    results["bot_advantage_vs_elementwise_ratio"] = (
        results["bot_advantage_ms"] / results["elementwise_add_ms"]
    )
    return results


if __name__ == "__main__":
    from bench.header import bench_run, write

    with bench_run("algorithms") as header:
        results = run()
    print(json.dumps(results, indent=2))
    if len(sys.argv) > 1:
        write(sys.argv[1], header, results)
