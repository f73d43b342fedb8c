"""Entry point: ``python -m bot_repro.train algorithm=bot_grpo task=mini ...`` (Hydra).

Thin by design: validate the composed config, build the run (``bot_repro.trainer.build``),
train, and record provenance. ``resume=true`` with ``hydra.run.dir=<run dir>`` continues a
killed run from its last checkpoint.
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf

from bot_repro.config import apply_smoke, validate
from bot_repro.config_errors import ConfigError
from bot_repro.registry import UnknownNameError

log = logging.getLogger("bot_repro.train")


def run(cfg: DictConfig, run_dir: Path) -> Path:
    """Train one configuration into ``run_dir``; return the run directory."""
    cfg = apply_smoke(cfg)
    sections = validate(cfg)  # before anything expensive
    from bot_repro.trainer.build import build_trainer
    from bot_repro.trainer.run_dir import (
        RunRecord,
        last_checkpoint,
        load_counters,
        save_counters,
        truncate_metrics,
    )

    run_dir.mkdir(parents=True, exist_ok=True)
    saved = run_dir / ".hydra" / "config.yaml"
    if not saved.exists():  # Hydra's CLI writes it; in-process callers (tests, notebooks) get it here
        saved.parent.mkdir(exist_ok=True)
        OmegaConf.save(cfg, saved)
    metrics_path = run_dir / "metrics.jsonl"
    checkpoint = last_checkpoint(run_dir) if cfg.resume else None
    if not cfg.resume and metrics_path.exists() and metrics_path.stat().st_size > 0:
        raise ConfigError(f"{run_dir} already holds a run; pass resume=true to continue it or choose another run dir")
    if cfg.resume and checkpoint is None:
        log.warning("resume=true but %s has no checkpoint: starting from scratch", run_dir)
        metrics_path.unlink(missing_ok=True)
    record = RunRecord(run_dir, int(cfg.seed), resumed_from=str(checkpoint) if checkpoint else None)
    start = time.time()
    try:
        trainer, metrics, judge = build_trainer(cfg, sections, run_dir, start)
        if checkpoint is not None:
            step = int(checkpoint.name.split("-")[1])
            truncate_metrics(metrics_path, step)
            counters = load_counters(checkpoint)
            trainer.generated_tokens = counters.get("generated_tokens", 0)
            metrics.start = start - counters.get("elapsed_s", 0.0)
        _save_counters_on_checkpoint(trainer, metrics, save_counters)
        trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
        if judge is not None:
            judge.close()
    except BaseException as exc:
        record.finish("failed", error=f"{type(exc).__name__}: {exc}")
        raise
    record.finish("completed", steps=trainer.state.global_step, generated_tokens=trainer.generated_tokens)
    return run_dir


def _save_counters_on_checkpoint(trainer, metrics, save_counters) -> None:
    """Persist counters TRL does not know about next to each checkpoint."""
    from transformers import TrainerCallback

    class _Counters(TrainerCallback):
        def on_save(self, args, state, control, **kw):
            ckpt = Path(args.output_dir) / f"checkpoint-{state.global_step}"
            if ckpt.exists() and state.is_world_process_zero:
                save_counters(
                    ckpt, {"generated_tokens": trainer.generated_tokens, "elapsed_s": time.time() - metrics.start - metrics.eval_seconds}
                )

    trainer.add_callback(_Counters())


@hydra.main(version_base="1.3", config_path="../conf", config_name="train")
def main(cfg: DictConfig) -> None:
    run_dir = Path(HydraConfig.get().runtime.output_dir)
    try:
        run(cfg, run_dir)
    except (ConfigError, UnknownNameError) as exc:
        print(f"config error: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
