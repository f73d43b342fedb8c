"""An experiment's sweep: compose its experiment config, expand its jobs, run it as a Hydra multirun.

The sweep itself (``hydra.sweeper.params``) lives in the experiment config, and what smoke mode
changes in conf/debug/ (``debug=smoke`` is one more override, read by each job's composition exactly as
``bot_repro.train`` reads it); this module only assembles the command line
``bot_repro.train -m experiment=<slug> [user overrides] hydra.sweep.dir=...`` and runs it, in this
process (the default: imports and the React check workers are paid once) or in a child process. Command-line overrides win, so a user's ``seed=0,1`` beats smoke mode's ``seed=0``. The
launcher is whatever ``cluster=`` selects (basic, joblib, submitit Slurm): the multirun blocks until
every job has finished either way.

Private Hydra 1.3.8 name this module depends on (guarded by tests/unit/test_trl_surface.py):
``hydra._internal.core_plugins.basic_sweeper.BasicSweeper.split_arguments(overrides, max_batch_size)``,
which expands a sweep into jobs exactly as ``-m`` does (``expand_jobs``).
"""

from __future__ import annotations

import datetime as dt
import logging
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import hydra
from hydra import compose, initialize_config_dir
from hydra._internal.core_plugins.basic_sweeper import BasicSweeper
from hydra.core.global_hydra import GlobalHydra
from hydra.core.override_parser.overrides_parser import OverridesParser
from hydra.core.override_parser.types import Override
from hydra.errors import OverrideParseException
from omegaconf import DictConfig, ListConfig, OmegaConf, open_dict

from bot_repro import train
from bot_repro.paths import REPO
from bot_repro.run_folder import OVERRIDES, config_path, read_overrides, status
from bot_repro.trainer.run_dir import config_changes

CONF_DIR = REPO / "conf"


class ExperimentError(RuntimeError):
    """An experiment cannot be run, evaluated or reported; the message says why and what to do."""


def parse_overrides(overrides: Sequence[str]) -> list[Override]:
    try:
        return OverridesParser.create().parse_overrides(list(overrides))
    except OverrideParseException as exc:
        raise ExperimentError(f"cannot parse Hydra override(s) {list(overrides)}: {exc}") from exc


def _key(override: Override) -> str:
    return override.get_key_element().lstrip("+~")


def merge_overrides(*groups: Sequence[str]) -> list[str]:
    """Concatenate override lists; for a key given twice only the last occurrence is kept."""
    lines = [line for group in groups for line in group]
    parsed = parse_overrides(lines)
    last = {_key(o): i for i, o in enumerate(parsed)}
    return [line for i, (line, o) in enumerate(zip(lines, parsed)) if last[_key(o)] == i]


def is_smoke(overrides: Sequence[str]) -> bool:
    """True when the overrides select ``debug=smoke``."""
    return any(_key(o) == "debug" and not o.is_sweep_override() and o.value() == "smoke"
               for o in parse_overrides(overrides))  # fmt: skip


def compose_experiment(slug: str, overrides: Sequence[str] = ()) -> DictConfig:
    """The composed config (with its ``hydra`` node) of experiment ``slug``; sweep overrides
    (``a=1,2``) are left out since one config cannot hold several values."""
    searched = any(o.startswith("hydra.searchpath=") for o in overrides)  # another folder of experiment files
    if not searched and not (CONF_DIR / "experiment" / f"{slug}.yaml").is_file():
        raise ExperimentError(f"no experiment config conf/experiment/{slug}.yaml")
    single = [o.input_line for o in parse_overrides(overrides) if not o.is_sweep_override()]
    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose("train", overrides=merge_overrides([f"experiment={slug}"], single), return_hydra_config=True)


def without_hydra(cfg: DictConfig) -> DictConfig:
    """A copy of a composed config without its ``hydra`` node: what ``bot_repro.train`` validates."""
    cfg = cfg.copy()
    with open_dict(cfg):
        del cfg["hydra"]
    return cfg


def job_overrides(slug: str, overrides: Sequence[str]) -> list[str]:
    """The multirun's command-line overrides: the experiment, then the user's."""
    return merge_overrides([f"experiment={slug}"], overrides)


def compose_jobs(slug: str, overrides: Sequence[str]) -> tuple[DictConfig, list[str]]:
    """(the sweep's composed config, its command-line overrides ``job_overrides``)."""
    return compose_experiment(slug, overrides), job_overrides(slug, overrides)


def swept_keys(cfg: DictConfig, overrides: Sequence[str]) -> list[str]:
    """Keys that vary between the sweep's jobs (sweeper params and sweep-valued overrides)."""
    params = OmegaConf.select(cfg, "hydra.sweeper.params") or {}
    keys = [str(k).lstrip("+~") for k in params]
    keys += [_key(o) for o in parse_overrides(overrides) if o.is_sweep_override()]
    return list(dict.fromkeys(keys))


def expand_jobs(cfg: DictConfig, overrides: Sequence[str]) -> list[list[str]]:
    """Every job's override list, expanded exactly as Hydra's basic sweeper does."""
    params = OmegaConf.select(cfg, "hydra.sweeper.params") or {}
    lines = [f"{k}={v}" for k, v in params.items()] + list(overrides)
    batches = BasicSweeper.split_arguments(parse_overrides(lines), None)
    return [list(job) for job in batches[0]] if batches else [[]]


def job_key(job: Sequence[str], keys: Sequence[str]) -> frozenset[str]:
    """The part of a job's overrides that identifies it within the sweep."""
    wanted = set(keys)
    return frozenset(f"{_key(o)}={o.get_value_element_as_str()}" for o in parse_overrides(job) if _key(o) in wanted)


def completed_jobs(root: Path, keys: Sequence[str]) -> set[frozenset[str]]:
    """Job keys of the runs under ``root`` whose run.json says completed (or degraded: finished, with too
    many rollouts excluded)."""
    done: set[frozenset[str]] = set()
    if not root.exists():
        return done
    for overrides_file in root.rglob(OVERRIDES):  # a job Hydra started, whether or not it logged a step
        run_dir = overrides_file.parent.parent
        job = read_overrides(run_dir)
        # a run killed before its record is not complete; a degraded one ran to its end (it said so, exit 4)
        if job is not None and status(run_dir) in ("completed", "degraded"):
            done.add(job_key(job, keys))
    return done


def missing_jobs(cfg: DictConfig, overrides: Sequence[str], root: Path) -> list[list[str]]:
    """Jobs of the sweep without a completed run under ``root``."""
    keys = swept_keys(cfg, overrides)
    done = completed_jobs(root, keys)
    return [job for job in expand_jobs(cfg, overrides) if job_key(job, keys) not in done]


def job_changes(slug: str, args: Sequence[str], run_dir: Path) -> list[str]:
    """Config keys whose values differ between the run in ``run_dir`` (its saved ``.hydra/config.yaml``)
    and the config its job composes to today (``args`` + its recorded overrides), as resume compares them."""
    job = read_overrides(run_dir)
    saved = config_path(run_dir)
    if job is None or not saved.is_file():
        return ["<no recorded config>"]
    now = OmegaConf.to_container(without_hydra(compose_experiment(slug, merge_overrides(args, job))))
    return [key for key, _, _ in config_changes(OmegaConf.to_container(OmegaConf.load(saved)), now)]


def unfinished_sweep(slug: str, args: Sequence[str], root: Path, report_name: str) -> tuple[Path | None, str]:
    """The newest stamp under ``root`` whose sweep has no report yet (it was stopped) and whose every run
    was made with the config its job composes to today, so its finished runs can be kept; (None, why not)."""
    stamps = sorted(p.parent for p in root.glob("*/sweep")) if root.is_dir() else []
    if not stamps:
        return None, "no earlier sweep"
    stamp = stamps[-1]
    if (stamp / report_name).exists():
        return None, f"the newest sweep {stamp.name} is finished (it has a report)"
    for overrides_file in sorted((stamp / "sweep").rglob(OVERRIDES)):
        run_dir = overrides_file.parent.parent
        changed = job_changes(slug, args, run_dir)
        if changed:
            return None, f"{run_dir} was made with another config ({', '.join(changed[:5])} differ)"
    return stamp, ""


def new_sweep_dir(root: Path) -> Path:
    """A fresh, timestamped sweep folder under ``root`` (never reused: old sweeps stay readable)."""
    stamp = dt.datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    path, n = root / stamp, 1
    while path.exists():
        path, n = root / f"{stamp}_{n}", n + 1
    return path


def run_multirun(args: Sequence[str], sweep_dir: Path, in_process: bool = True, log: Path | None = None) -> None:
    """``bot_repro.train -m <args> hydra.sweep.dir=<sweep_dir>``; raises ExperimentError when it fails.

    ``log`` (child process only): the file that takes the jobs' output instead of the terminal."""
    argv = ["-m", *args, f"hydra.sweep.dir={sweep_dir}"]
    if not in_process:
        cmd = [sys.executable, "-m", "bot_repro.train", *argv]
        if log is None:
            proc = subprocess.run(cmd, cwd=REPO)
        else:
            log.parent.mkdir(parents=True, exist_ok=True)
            with log.open("w") as f:
                proc = subprocess.run(cmd, cwd=REPO, stdout=f, stderr=subprocess.STDOUT)
        if proc.returncode != 0:
            raise ExperimentError(f"the sweep failed (exit {proc.returncode}); job logs are under {sweep_dir}")
        return
    # The same task function as `python -m bot_repro.train`, with the config folder given by absolute
    # path (hydra.main resolves a relative one against the caller's module, which differs in-process).
    task = hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="train")(train.main.__wrapped__)
    saved, root = sys.argv, logging.getLogger()
    saved_logging = (root.level, root.handlers[:])  # Hydra reconfigures logging for each job
    sys.argv = [str(Path(train.__file__)), *argv]
    GlobalHydra.instance().clear()
    try:
        task()
    except SystemExit as exc:  # hydra.main exits on a failed job or a config error
        if exc.code not in (0, None):
            raise ExperimentError(f"the sweep failed (exit {exc.code}); job logs are under {sweep_dir}") from exc
    finally:
        sys.argv = saved
        root.setLevel(saved_logging[0])
        root.handlers[:] = saved_logging[1]
        GlobalHydra.instance().clear()


def resolved(cfg: DictConfig, key: str) -> Any:
    """A value of the composed config as plain Python (lists and dicts included)."""
    node = OmegaConf.select(cfg, key)
    return OmegaConf.to_container(node, resolve=True) if isinstance(node, DictConfig | ListConfig) else node
