"""The run folder's format: file names, the keys of ``metrics.jsonl`` and ``run.json``, the format version.

``FORMAT_VERSION`` is written into every ``run.json`` (``write.write_run_json``) and checked by every
reader (``read.read_run_json``); a ``run.json`` without it was written before the field existed and
reads as version 1 (the same layout). Change the version when a reader would misread old runs.

Private TRL 1.16 / transformers 5.23 names this module depends on (guarded by
tests/unit/test_trl_surface.py): the log keys in ``RENAME`` and ``VLLM_SAMPLING_KEYS``, which GRPOTrainer
writes into ``self._metrics[mode][...]`` and transformers' Trainer into ``logs[...]``.
"""

from __future__ import annotations

FORMAT_VERSION = 1
FORMAT_KEY = "format_version"
KNOWN_VERSIONS = (1,)

CONFIG = ".hydra/config.yaml"
METRICS = "metrics.jsonl"
RUN_INFO = "run.json"
CHECKPOINTS = "checkpoints"
ROLLOUTS = "rollouts"
EVAL = "eval"
LOCK = "run.lock"  # held while a run writes the folder; one JSON line per holder (``lock.RunLock``)

# every metrics.jsonl record's x-axes: required from step 1 on, 0 on step 0 when absent
X_COLUMNS = ("step", "time", "generated_tokens")

# TRL's log names -> the metrics.jsonl names (also applied to wandb histories, analysis/wandb_export.py)
RENAME = {
    "loss": "loss",
    "kl": "kl",
    "entropy": "entropy",
    "grad_norm": "grad_norm",
    "learning_rate": "learning_rate",
    "clip_ratio/region_mean": "clip_frac",
    "clip_ratio/low_mean": "clip_frac_low",
    "clip_ratio/high_mean": "clip_frac_high",
    "completions/mean_length": "completion_len_mean",
    "completions/max_length": "completion_len_max",
    "completions/clipped_ratio": "truncated_frac",
    "frac_reward_zero_std": "frac_zero_std_groups",
}
# the trainer's own statistics of the batch that trains (bot_repro/trainer/step_log.py)
BATCH_KEYS = ("reward_mean", "reward_std", "global_reward_mean", "local_reward_mean",
              "adv_mean", "adv_std", "adv_min", "adv_max")  # fmt: skip
# TRL's record of the vLLM engine against the trainer (use_vllm with vllm_importance_sampling_correction,
# which the trainer sets on; none on the transformers-generate path): mean and max |logp(vLLM) - logp(trainer)|
# over completion tokens, and the importance-sampling ratios' range. Kept under TRL's names ("sampling/").
VLLM_SAMPLING_KEYS = ("sampling/sampling_logp_difference/mean", "sampling/sampling_logp_difference/max",
                      "sampling/importance_sampling_ratio/min", "sampling/importance_sampling_ratio/mean",
                      "sampling/importance_sampling_ratio/max")  # fmt: skip
# the reward-hacking monitors of every training step (bot_repro/trainer/monitors.py, docs/method.md §3)
MONITOR_PREFIX = "monitor/"
# how far the policy moved from the run's start (bot_repro/trainer/drift.py, docs/runs.md): the relative L2
# distance of the weights after the step's update (also in step 0's record), the KL per completion token of
# the policy that sampled the step's rollouts from the starting one (k3 and k1 estimators, on those rollouts)
# and the seconds each measure took on the step
POLICY_PREFIX = "policy/"
WEIGHT_DELTA, KL_K3, KL_K1 = "policy/weight_delta", "policy/kl_start", "policy/kl_start_k1"
KL_SECONDS, DELTA_SECONDS = "policy/kl_seconds", "policy/delta_seconds"
# logged keys with these prefixes pass through under their own names (their "/std" twins are dropped)
PASSTHROUGH_PREFIXES = ("reward/", "dapo/", "judge/", "excluded/", "sampling/", MONITOR_PREFIX, POLICY_PREFIX)


def rollout_file(step: int) -> str:
    """The name of step ``step``'s saved rollouts inside ``rollouts/``."""
    return f"step_{step:06d}.jsonl"
