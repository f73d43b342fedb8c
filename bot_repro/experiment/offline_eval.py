"""Offline evaluation of saved checkpoints: the held-out metric, and a pairwise comparison of two evaluations.

``evaluate_checkpoint`` rebuilds a run's task from the run's own ``.hydra/config.yaml`` (plus any
dotted overrides such as ``trainer.eval.n_samples=8``), loads ``checkpoints/checkpoint-N`` (model and
tokenizer, as the trainer saved them; a LoRA run's adapter on the run's own base model), samples the
held-out completions exactly as the in-training evaluation does (``bot_repro.trainer.callbacks.generate``)
and lets the task score and save them
(React: rollouts.jsonl, screenshots, gallery) under ``<run>/eval_offline/step_NNNNNN/``.
``compare_evaluations`` judges two such folders (or two ``eval/step_N`` folders) with the ABBA judge.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch
from omegaconf import OmegaConf
from peft import PeftModel
from transformers import AutoModelForCausalLM, AutoTokenizer

from bot_repro.config import validate
from bot_repro.config_schema import ConfigError
from bot_repro.experiment.pairwise import pair_inputs
from bot_repro.experiment.sweep import CONF_DIR
from bot_repro.judges import build_judge_client
from bot_repro.run_folder import config_path
from bot_repro.tasks.base import build_task
from bot_repro.tasks.react.evaluation import win_rate as react_win_rate
from bot_repro.trainer.build import load_model, resolve_model_path
from bot_repro.trainer.callbacks import generate

CHECKPOINT_PREFIX = "checkpoint-"
ADAPTER_CONFIG = "adapter_config.json"  # what a LoRA run's checkpoint holds instead of config.json


def _step_of(path: Path) -> int:
    return int(path.name[len(CHECKPOINT_PREFIX):])


def find_checkpoint(path: str | Path, step: int | None = None) -> tuple[Path, Path]:
    """(run dir, checkpoint dir) for a run dir (its last checkpoint, or ``checkpoint-<step>``) or a
    checkpoint dir inside ``<run>/checkpoints/``."""
    path = Path(path)
    if path.name.startswith(CHECKPOINT_PREFIX) and path.name[len(CHECKPOINT_PREFIX):].isdigit():
        run_dir, ckpt = path.parent.parent, path
    else:
        run_dir = path
        found = sorted((p for p in (path / "checkpoints").glob(f"{CHECKPOINT_PREFIX}*")
                        if p.name[len(CHECKPOINT_PREFIX):].isdigit()), key=_step_of)
        if step is not None:
            found = [p for p in found if _step_of(p) == step]
        if not found:
            kept = sorted(p.name for p in (path / "checkpoints").glob(f"{CHECKPOINT_PREFIX}*"))
            raise ConfigError(f"{path}: no checkpoint{'' if step is None else f' for step {step}'}; "
                              f"kept: {kept or 'none'} (trainer.save_steps / save_total_limit decide which are kept)")
        ckpt = found[-1]
    if not any((ckpt / f).is_file() for f in ("config.json", ADAPTER_CONFIG)):
        raise ConfigError(f"{ckpt} is not a saved model (no config.json) nor a LoRA adapter (no {ADAPTER_CONFIG})")
    if not config_path(run_dir).is_file():
        raise ConfigError(f"{run_dir} has no .hydra/config.yaml: cannot rebuild the run's task")
    return run_dir, ckpt


def evaluate_checkpoint(path: str | Path, step: int | None = None, overrides: Sequence[str] = (),
                        out_dir: str | Path | None = None) -> dict[str, Any]:
    """Held-out evaluation of one checkpoint; returns {run_dir, checkpoint, step, out_dir, metrics}."""
    run_dir, ckpt = find_checkpoint(path, step)
    cfg = OmegaConf.load(config_path(run_dir))
    try:
        cfg = OmegaConf.merge(cfg, OmegaConf.from_dotlist(list(overrides)))
    except Exception as exc:  # omegaconf raises several types for a malformed dotlist
        raise ConfigError(f"bad override(s) {list(overrides)}: {exc}") from exc
    run_cfg = validate(cfg)
    task, _ = build_task(run_cfg, with_reward=False)
    _, test_rows = task.datasets()
    ev = run_cfg.trainer.eval
    rows = test_rows[: ev.max_prompts] if ev.max_prompts else test_rows
    if not rows:
        raise ConfigError(f"the task of {run_dir} has no held-out rows")
    torch.manual_seed(int(cfg.seed))
    device = "cuda" if run_cfg.resources.device == "cuda" and torch.cuda.is_available() else "cpu"
    tok = AutoTokenizer.from_pretrained(ckpt)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    if (ckpt / ADAPTER_CONFIG).is_file():  # a LoRA run saves the adapter alone: the run's base model, then it
        _, base = load_model(run_cfg.model, resolve_model_path(run_cfg, task, int(cfg.seed)))
        model = PeftModel.from_pretrained(base, str(ckpt)).to(device)
    else:
        model = AutoModelForCausalLM.from_pretrained(ckpt, dtype=getattr(torch, run_cfg.model.dtype)).to(device)
    max_new = ev.max_new_tokens or run_cfg.trainer.max_completion_length
    completions = generate(model, tok, rows, ev, max_new, dict(run_cfg.model.chat_template_kwargs))
    ckpt_step = _step_of(ckpt)
    out = Path(out_dir) if out_dir else run_dir / "eval_offline" / f"step_{ckpt_step:06d}"
    metrics = task.evaluate_and_save(completions, rows, out)
    result = {"run_dir": str(run_dir), "checkpoint": str(ckpt), "step": ckpt_step, "out_dir": str(out),
              "metrics": {k: float(v) for k, v in metrics.items()}}
    (out / "offline_eval.json").write_text(json.dumps(result, indent=2) + "\n")
    return result


def load_judge_config(name: str) -> dict[str, Any]:
    """``conf/judge/<name>.yaml`` as a dict (the judge group of the training config)."""
    path = CONF_DIR / "judge" / f"{name}.yaml"
    if not path.is_file():
        valid = sorted(p.stem for p in (CONF_DIR / "judge").glob("*.yaml"))
        raise ConfigError(f"unknown judge config {name!r}; valid: {', '.join(valid)}")
    return OmegaConf.to_container(OmegaConf.load(path), resolve=True)  # type: ignore[return-value]


def compare_evaluations(dir_a: str | Path, dir_b: str | Path, judge_name: str, max_prompts: int | None = None,
                        rollouts_per_prompt: int = 1, win_rate=None) -> dict[str, float]:
    """Win and tie rate of evaluation A over evaluation B (two React evaluation folders)."""
    win_rate = win_rate or react_win_rate
    for d in (dir_a, dir_b):
        if not (Path(d) / "rollouts.jsonl").is_file():
            raise ConfigError(f"{d} has no rollouts.jsonl (a React evaluation folder: <run>/eval/step_N)")
    pngs_a, pngs_b, prompts = pair_inputs(Path(dir_a), Path(dir_b), max_prompts, rollouts_per_prompt)
    if not prompts:
        raise ConfigError(f"{dir_a} and {dir_b} share no evaluated prompt")
    judge = build_judge_client(load_judge_config(judge_name), Path(dir_a))
    if judge is None:
        raise ConfigError("pairwise comparison needs a judge; judge=none disables it")
    try:
        judge.check_credentials()
        return win_rate(pngs_a, pngs_b, prompts, judge)
    finally:
        judge.close()
