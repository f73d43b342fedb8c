"""Where a run's sizes come from: which config file (or the command line) set each size.

A run's sizes are the batch, rollout, generation and length keys of ``SIZES``. Hydra merges the files
that may set them in one order, later winning (conf/train.yaml's defaults list; docs/runs.md "Sizes"):

  trainer/<trainer> < sizing/<model>_<resources> < experiment/<name> < debug/<name> < +arm=<arm> < command line

Hydra keeps no per-key provenance, so ``sources`` reads the chosen files themselves (each with the
same-group files its ``defaults`` names first) and names, per size, the last layer that sets it. The
trainer prints the result in one line at start (``line``) and keeps it in run.json (``sizes``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from hydra.core.hydra_config import HydraConfig
from omegaconf import OmegaConf

from bot_repro.paths import REPO

SIZES = (
    "trainer.prompts_per_step", "trainer.num_generations", "trainer.rollouts_per_step",
    "trainer.per_device_train_batch_size", "trainer.gradient_accumulation_steps", "trainer.max_completion_length",
    "trainer.eval.n_samples", "trainer.eval.max_prompts", "trainer.eval.batch_size", "trainer.eval.max_new_tokens",
)  # fmt: skip
LAYERS = ("trainer", "sizing", "experiment", "debug", "arm")  # the merge order (conf/train.yaml), later wins
COMMAND_LINE = "command line"
UNSET = "schema default"  # no file sets it: bot_repro.config.TrainerCfg's default


def _find(group: str, name: str, conf_dirs: Sequence[Path]) -> Path | None:
    for conf in conf_dirs:
        path = conf / group / f"{name}.yaml"
        if path.is_file():
            return path
    return None


def _files(group: str, name: str, conf_dirs: Sequence[Path]) -> list[Path]:
    """The file of ``group``/``name`` after the same-group files its ``defaults`` list names (merged first)."""
    path = _find(group, name, conf_dirs)
    if path is None:
        return []
    bases = [d for d in OmegaConf.load(path).get("defaults") or [] if isinstance(d, str) and d != "_self_"]
    return [p for base in bases for p in _files(group, base, conf_dirs)] + [path]


def _sets(path: Path, group: str) -> set[str]:
    """The sizes a config file sets (a file of the trainer group holds the trainer section itself)."""
    global_package = path.read_text().startswith("# @package _global_")
    node = OmegaConf.load(path)
    node = node if global_package or group != "trainer" else OmegaConf.create({"trainer": node})
    return {key for key in SIZES if OmegaConf.select(node, key, default="<absent>") != "<absent>"}


def _shown(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def sources(choices: Mapping[str, str | None], overrides: Sequence[str], conf_dirs: Sequence[Path]) -> dict[str, str]:
    """Each size of ``SIZES`` -> the file that set it (relative to the repository), ``COMMAND_LINE`` or ``UNSET``.

    ``choices``: the composition's group choices (Hydra's ``runtime.choices``); ``overrides``: the command
    line's; ``conf_dirs``: the config folders in Hydra's search order."""
    out = dict.fromkeys(SIZES, UNSET)
    for group in LAYERS:
        name = choices.get(group)
        for path in _files(group, name, conf_dirs) if name else []:
            out.update(dict.fromkeys(_sets(path, group), _shown(path)))
    given = {o.split("=", 1)[0].lstrip("+~") for o in overrides}
    out.update({key: COMMAND_LINE for key in SIZES if key in given or key.rsplit(".", 1)[0] in given})
    return out


def from_hydra() -> dict[str, str]:
    """``sources`` of the run Hydra composed in this process; {} for a config composed without Hydra's app."""
    if not HydraConfig.initialized():
        return {}
    hc = HydraConfig.get()
    dirs = [Path(s.path) for s in hc.runtime.config_sources if s.schema == "file"]
    return sources(hc.runtime.choices, list(hc.overrides.task), dirs)


def line(sizes: Mapping[str, str]) -> str:
    """One line: each source with the sizes it set, the one that set most first."""
    by_source: dict[str, list[str]] = {}
    for key, source in sizes.items():
        by_source.setdefault(source, []).append(key.removeprefix("trainer."))
    parts = sorted(by_source.items(), key=lambda item: -len(item[1]))
    return "sizes from " + "; ".join(f"{source} ({', '.join(keys)})" for source, keys in parts)
