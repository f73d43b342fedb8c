"""Helpers for integration tests: compose + run in-process, a reward source with variance, and a
new experiment file on the mini task (``mini_experiment``).

The tiny random policy never solves the mini task, so sequence-level methods (GRPO, GSPO, DAPO)
would see zero reward variance and no gradient; ``test_variance`` scores text features instead.
"""

from __future__ import annotations

import contextlib
import gc
import os
from pathlib import Path

from bot_repro.rewards.base import REWARD_SOURCES, RewardResult, SpanReward

SMALL = [
    "debug=smoke",
    "task.params.warm_start=false",
    "task.params.n_train=64",
    "task.params.n_test=8",
]


class VarianceReward:
    """G = (sum of character codes mod 97) / 96 (ties are rare); local: -0.5 on every 'a' character."""

    window = 1

    def score(self, completions, rows):
        out = []
        for text in completions:
            g = (sum(map(ord, text)) % 97) / 96.0
            r = RewardResult(global_score=g, components={"lt": float(text.count("<"))})
            r.spans = [SpanReward(i, i + 1, -0.5) for i, ch in enumerate(text) if ch == "a"]
            out.append(r)
        return out


class NaNReward:
    window = 0

    def score(self, completions, rows):
        return [RewardResult(global_score=float("nan") if i == 1 else 0.0) for i in range(len(completions))]


if "test_variance" not in REWARD_SOURCES:
    REWARD_SOURCES.register("test_variance")(lambda cfg, ctx: VarianceReward())
    REWARD_SOURCES.register("test_nan")(lambda cfg, ctx: NaNReward())


def run_inprocess(overrides: list[str], run_dir: Path):
    from bot_repro.train import run
    from tests.conftest import compose

    cfg = compose(overrides)
    return run(cfg, Path(run_dir))


@contextlib.contextmanager
def colocated_engine_scope():
    """Around an in-process trainer with TRL's colocated vLLM engine (drop the trainer inside): undo what the
    engine leaves in this process. TRL sets RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT and opens
    a process group on that port: left behind, every later subprocess would inherit them and its accelerate
    state would try to listen on the same port (EADDRINUSE). vLLM's CPU worker also replaces
    torch.set_num_threads with a no-op once it has bound its threads (every later test's thread setting would
    silently do nothing). Both are restored."""
    import torch

    env, set_threads, threads = dict(os.environ), torch.set_num_threads, torch.get_num_threads()
    try:
        yield
    finally:
        gc.collect()
        import torch.distributed as dist
        from accelerate.state import AcceleratorState, PartialState
        from vllm.distributed.parallel_state import cleanup_dist_env_and_memory

        cleanup_dist_env_and_memory()
        if dist.is_initialized():
            dist.destroy_process_group()
        AcceleratorState._reset_state(reset_partial_state=True)
        PartialState._reset_state()
        os.environ.clear()
        os.environ.update(env)
        torch.set_num_threads = set_threads
        torch.set_num_threads(threads)


MINI_HEAD = """\
# @package _global_
defaults:
  - override /model: mini_qwen2
  - override /task: mini
  - override /reward: mini_progress
  - override /trainer: mini
logger: {wandb_mode: disabled, progress_bar: false}
"""


def mini_experiment(tmp_path: Path, name: str, body: str) -> list[str]:
    """Write ``<tmp_path>/conf/experiment/<name>.yaml``, as a user would: the mini task's groups, a quiet
    logger, ``experiment_name`` and ``body`` (its sweep and ``report:`` block); return the experiment
    command's ``--conf-dir`` and ``--runs-root`` (``<tmp_path>/runs``) arguments."""
    folder = tmp_path / "conf" / "experiment"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.yaml").write_text(f"{MINI_HEAD}experiment_name: {name}\n{body}")
    return ["--conf-dir", str(tmp_path / "conf"), "--runs-root", str(tmp_path / "runs")]
