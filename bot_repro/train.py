"""Entry point: ``python -m bot_repro.train algorithm=bot_grpo task=mini ...`` (Hydra).

Thin by design: validate the composed config, build the run (``bot_repro.trainer.build``),
train, and record provenance. ``resume=true`` with ``hydra.run.dir=<run dir>`` continues a
killed run from its last checkpoint (``bot_repro.trainer.run_dir.ResumeState``).
"""

from __future__ import annotations

import dataclasses
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import hydra
from hydra.core.hydra_config import HydraConfig
from hydra.types import RunMode
from omegaconf import DictConfig, OmegaConf

from bot_repro import sizes
from bot_repro.config import RunConfig, check_device, training_processes, validate
from bot_repro.config_schema import ConfigError
from bot_repro.judges import preflight
from bot_repro.models import lora
from bot_repro.models import preflight as model_preflight
from bot_repro.models.gguf import GgufUnavailableError
from bot_repro.ranks import is_main
from bot_repro.registry import UnknownNameError
from bot_repro.rewards.base import JUDGE_OUTAGE
from bot_repro.run_folder import RunFolderBusy, config_path, read_metrics, run_json_path, status
from bot_repro.run_folder.schema import METRICS
from bot_repro.tasks.base import build_task
from bot_repro.trainer import console, distributed
from bot_repro.trainer.build import ModelUnavailableError, build_trainer
from bot_repro.trainer.distributed import RanksFailed
from bot_repro.trainer.outage import JudgeOutageStop, excluded_note
from bot_repro.trainer.run_dir import (
    ResumeState,
    RunRecord,
    check_folder,
    check_resume_config,
    discard_new_folder,
    on_termination,
    refuse,
)
from bot_repro.trainer.vllm_engine import VllmEngineError


def resources_given(overrides: Sequence[str]) -> bool:
    """The command line chose ``resources=`` (so a hub model on the CPU preset is what was asked for)."""
    return any(o.split("=", 1)[0].lstrip("+~") == "resources" for o in overrides)


def check_resources(run_cfg: RunConfig, resources_explicit: bool, here: bool = True) -> None:
    """Refuse a hub-size model on the CPU preset unless ``resources_explicit``, and a CUDA preset
    where no GPU is (``here``: the run executes on this machine, not on a cluster node)."""
    res, m = run_cfg.resources, run_cfg.model
    check_device(res.name, res.device, None if m.cpu_sized else m.hub_id, resources_explicit, here)


def check_model(run_cfg: RunConfig) -> tuple[RunConfig, model_preflight.Preflight | None]:
    """The model's facts checked from its tokenizer and config files (``bot_repro.models.preflight``),
    before any conversion, generation or folder; return the config with ``model.prompt_format``
    resolved, and the check (None for a hub model not downloaded yet: the trainer resolves the
    format when it loads the tokenizer)."""
    m = run_cfg.model
    try:
        facts = model_preflight.model_facts(m)
        config = lora.model_config(m) if m.lora.enabled else None
    except GgufUnavailableError as exc:
        raise ModelUnavailableError(str(exc)) from None
    if config is not None:  # LoRA's target modules and starting adapter against the model's modules, weightless
        lora.check_modules(m.lora, lora.meta_module_shapes(config), m.name)
    if facts is None:
        return run_cfg, None
    rows = []
    if facts.context_length is not None:  # the task's rows (prompts only: no reward, no judge)
        train_rows, test_rows = build_task(run_cfg, with_reward=False)[0].datasets()
        rows = train_rows + test_rows
    checked = model_preflight.check(m, facts, rows, run_cfg.trainer.max_completion_length)
    composed = {**run_cfg.composed, "model": {**run_cfg.composed["model"], "prompt_format": checked.prompt_format}}
    return dataclasses.replace(run_cfg, model=dataclasses.replace(m, prompt_format=checked.prompt_format),
                               composed=composed), checked


def run(cfg: DictConfig, run_dir: Path, resources_explicit: bool = True, launch_args=None,
        sweep_job: bool = False) -> Path:
    """Train one configuration into ``run_dir``; return the run directory.

    ``resources_explicit``: the user chose ``resources=`` (so a hub model on the CPU preset is
    what they asked for); the CLI passes whether the override was given. ``launch_args``: the
    command line's config overrides, with which a preset of several training processes is
    relaunched through torchrun (``bot_repro.trainer.distributed.launch``). ``sweep_job``: one job of
    a multirun, which prints only warnings and errors (its sweep's runner reports each finished run).
    """
    say = is_main() and not sweep_job  # this process prints the run's folder, format and steps
    if sweep_job:
        console.hide_library_bars()
    run_cfg = validate(cfg)  # before anything expensive, and before any folder exists
    check_resources(run_cfg, resources_explicit)
    run_cfg, model_check = check_model(run_cfg)
    if run_cfg.judge is not None:
        preflight(run_cfg.judge)  # a missing API key is a config error, not a half-made run
    check_folder(run_dir, bool(cfg.resume))  # not a finished run's unless resuming (a live run's: own, below)
    if cfg.resume:
        check_resume_config(run_dir, cfg)
        # the same config on a finished run (a continued sweep's): kept as it is
        if status(run_dir) == "completed" and not cfg.get("resume_allow_changes"):
            if say:
                print(f"run directory: {run_dir} (completed earlier; kept)", flush=True)
            return run_dir
    processes = training_processes(run_cfg.resources)
    if processes > 1 and not distributed.launched() and launch_args is None:
        raise ConfigError(f"resources={run_cfg.resources.name} trains in {processes} processes: start it from the command "
                          "line (python -m bot_repro.train ..., which launches them) or under torchrun")
    lock = distributed.own(run_dir, processes)  # held until the run ends: a second run on the folder is refused
    try:
        if processes > 1 and not distributed.launched():
            code = distributed.launch(processes, run_dir, launch_args)
            if code != 0:
                raise RanksFailed(f"the {processes} training processes ended with exit code {code}; see their output "
                                  f"above and {run_json_path(run_dir)}")
            return run_dir
        return _train(cfg, run_cfg, run_dir, model_check, say, sweep_job)
    finally:
        if lock is not None:
            lock.release()


def _train(cfg: DictConfig, run_cfg: RunConfig, run_dir: Path, model_check: model_preflight.Preflight | None, say: bool,
           sweep_job: bool) -> Path:
    """The training of ``run``, in this process, once the run folder is this run's."""
    distributed.barrier()  # every rank has checked the folder before the first one writes to it
    if is_main():
        saved = config_path(run_dir)
        if not saved.exists():  # Hydra's CLI writes it; in-process callers (tests, notebooks) get it here
            saved.parent.mkdir(parents=True, exist_ok=True)
            OmegaConf.save(cfg, saved)  # as Hydra saves it
    if say:
        print(f"run directory: {run_dir}", flush=True)
        for line in [model_check.line, *model_check.notes] if model_check else []:
            print(line, flush=True)
    state = ResumeState(run_dir, resume=bool(cfg.resume))
    if state.checkpoint is not None and state.step >= run_cfg.trainer.max_steps:
        print(f"run directory: {run_dir} already has {state.step} of {run_cfg.trainer.max_steps} steps; "
              "nothing to resume (raise trainer.max_steps with resume_allow_changes=true to train on)", flush=True)
        return run_dir
    record = RunRecord(run_dir, run_cfg.seed, resumed_from=str(state.checkpoint) if state.checkpoint else None)
    record.data["prompt_format"] = run_cfg.model.prompt_format  # written with the record's next update
    size_sources = sizes.from_hydra()  # which file set each size ({} when composed without Hydra's app)
    if size_sources:
        record.data["sizes"] = size_sources
        if say:
            print(sizes.line(size_sources), flush=True)
    judge = None
    try:
        with on_termination():
            trainer, metrics, judge = build_trainer(run_cfg, run_dir, time.time(), step_lines=not sweep_job)
            if run_cfg.model.lora.enabled:
                record.data["lora"] = lora.describe(run_cfg.model.lora, trainer.model)
            state.attach(trainer, metrics)
            trainer.train(resume_from_checkpoint=str(state.checkpoint) if state.checkpoint else None)
    except JudgeOutageStop as exc:
        record.finish("failed", error=str(exc), stopped_for=JUDGE_OUTAGE)
        raise
    except BaseException as exc:
        record.finish(RunRecord.status_for(exc), error=distributed.describe(exc))
        raise
    finally:
        if judge is not None:
            judge.close()
    # too many rollouts without a score: "degraded", exit code 4 (main), never a silent "completed"
    degraded = excluded_note(read_metrics(run_dir / METRICS), run_cfg.trainer.max_excluded_share) if is_main() else None
    record.finish("degraded" if degraded else "completed", error=degraded, steps=trainer.state.global_step,
                  generated_tokens=trainer.generated_tokens, generation=trainer.generation_info())
    if degraded:
        print(f"run directory: {run_dir} (DEGRADED, {trainer.state.global_step} steps): {degraded}", file=sys.stderr,
              flush=True)
    elif say:
        print(f"run directory: {run_dir} (completed, {trainer.state.global_step} steps)", flush=True)
    return run_dir


def resume_command(overrides: Sequence[str], run_dir: Path) -> str:
    """The command that resumes the run in ``run_dir`` started with ``overrides``."""
    kept = [o for o in overrides if o.split("=", 1)[0].lstrip("+~") not in ("hydra.run.dir", "resume")]
    return " ".join(["python -m bot_repro.train", *kept, f"hydra.run.dir={run_dir}", "resume=true"])


@hydra.main(version_base="1.3", config_path="../conf", config_name="train")
def main(cfg: DictConfig) -> None:
    hc = HydraConfig.get()
    if distributed.launched():
        distributed.die_with_launcher()
    run_dir = distributed.shared_run_dir(Path(hc.runtime.output_dir))  # one folder for all ranks
    try:
        run(cfg, run_dir, resources_explicit=resources_given(hc.overrides.task), launch_args=list(hc.overrides.task),
            sweep_job=hc.mode == RunMode.MULTIRUN)
        if is_main() and status(run_dir) == "degraded":  # run.json and the line printed say why
            sys.exit(4)
    except RanksFailed as exc:
        print(f"run failed: {exc}", file=sys.stderr)
        sys.exit(1)
    except JudgeOutageStop as exc:
        if is_main():
            print(f"run stopped: {exc}. Once the judge answers, resume with:\n  "
                  f"{resume_command(list(hc.overrides.task), run_dir)}", file=sys.stderr)
        sys.exit(3)
    except (ConfigError, UnknownNameError, ModelUnavailableError, VllmEngineError, RunFolderBusy) as exc:
        if not is_main():  # rank 0 reports it and tidies the folder
            sys.exit(2)
        if cfg.resume and hc.output_subdir:  # the refused attempt's own config folder goes; the run's stays
            shutil.rmtree(run_dir / hc.output_subdir, ignore_errors=True)
        discard_new_folder(run_dir)  # and the folders its Hydra made, if nothing else is in them
        refuse("model not available" if isinstance(exc, ModelUnavailableError | VllmEngineError)
               else "run folder in use" if isinstance(exc, RunFolderBusy) else "config error", exc)


if __name__ == "__main__":
    main()
