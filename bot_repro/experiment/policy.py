"""The starting policy an experiment's runs share: built once before the sweep, and identified.

``prepare`` builds the tiny random-init model and the task's warm start (when the config has one)
before parallel jobs would race to, and returns what identifies the policy: its path, weights hash
(``bot_repro.models.fingerprint.policy_hash``), supervised steps and sampled success. The runner writes
it to the sweep's ``policy.json`` (``bot_repro.report_folder``), where reports find it.
"""

from __future__ import annotations

import json
from pathlib import Path

from omegaconf import DictConfig
from tqdm import tqdm

from bot_repro import paths
from bot_repro.config import validate
from bot_repro.experiment import sweep
from bot_repro.models.fingerprint import policy_hash
from bot_repro.tasks.base import build_task
from bot_repro.trainer.build import resolve_model_path

WARM_START_RECORD = "warm_start.json"  # written by the task's warm start next to the weights


def prepare(cfg: DictConfig) -> dict:
    """Build the starting policy of ``cfg`` (a composed experiment config) and return (and print) its
    identity (module docstring); the last two values are None without a warm start."""
    run_cfg = validate(sweep.without_hydra(cfg))
    task, _ = build_task(run_cfg, with_reward=False)
    bar = None

    def progress(step: int, total: int) -> None:
        nonlocal bar
        # a terminal only (disable=None): in a log, the warm start's own lines say how far it is
        bar = bar or tqdm(total=total, desc="warm start", unit="step", dynamic_ncols=True, disable=None)
        bar.n = step
        bar.refresh()

    try:
        path = Path(resolve_model_path(run_cfg, task, run_cfg.seed, progress))
    finally:
        if bar is not None:
            bar.close()
    # relative to the repository (a shipped policy) or $BOT_REPRO_CACHE/ (one trained here)
    info = {"model_path": paths.relative(path), "policy_hash": None, "warm_start_steps": None,
            "warm_start_sampled_success": None}
    record = path / WARM_START_RECORD
    ws = json.loads(record.read_text()) if record.exists() else {}
    if path.is_dir():
        info["policy_hash"] = ws.get("policy_hash") or policy_hash(path)
    info["warm_start_steps"], info["warm_start_sampled_success"] = ws.get("steps"), ws.get("final_sampled_success")
    if ws:
        print(f"warm-started policy {info['policy_hash']}: {ws['steps']} supervised steps, "
              f"sampled success {ws['final_sampled_success']:.3f}")
    else:
        print(f"starting policy {info['policy_hash']} (no warm start): {path}")
    return info
