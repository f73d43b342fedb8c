"""The reward stack a verl run uses, composed from bot_repro's own Hydra configs (``conf/``).

A verl config names the stack with the same overrides a TRL run takes (``reward.bot.overrides:
[task=react, reward=react_bot, judge=openai]``); ``compose_stack`` composes ``conf/train.yaml`` with
them and checks it through the TRL path's door (``bot_repro.config.validate_stack``: names,
keys, types, ranges), keeping the sections the reward needs (model, task, reward, judge, seed) typed;
the reward source is built by ``build_task``. So a verl run and a TRL run with the same overrides
score with the same reward source, weights and window, from one set of files and one set of
defaults. Hydra's compose API is used (verl depends on hydra-core), never Hydra's app.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bot_repro.config import StackConfig, validate_stack
from bot_repro.config_schema import ConfigError
from bot_repro.judges import JudgeClient
from bot_repro.tasks.base import build_task

CONF_ENV = "BOT_REPRO_CONF"


def conf_dir() -> Path:
    """bot_repro's ``conf/`` (``$BOT_REPRO_CONF`` or the checkout this package was installed from)."""
    path = Path(os.environ.get(CONF_ENV) or Path(__file__).resolve().parents[3] / "conf")
    if not (path / "train.yaml").is_file():
        raise ConfigError(
            f"bot_repro's conf/ not found at {path} (no train.yaml): install bot_repro editable from its checkout "
            f"(make install-verl) or set {CONF_ENV}=<checkout>/conf on every node"
        )
    return path


def compose_stack(overrides: Sequence[str], seed: int = 0) -> StackConfig:
    """Compose ``conf/train.yaml`` with ``overrides`` and return its checked reward stack (model, task,
    reward, judge, seed) through ``bot_repro.config.validate_stack``, the TRL path's door."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    if GlobalHydra.instance().is_initialized():
        raise ConfigError(
            "compose_stack runs in verl's reward workers (Ray actors), outside a Hydra app; here Hydra is already "
            "initialised: compose the stack before (validate_stack) and pass it to the reward manager"
        )
    with initialize_config_dir(config_dir=str(conf_dir()), version_base=None):
        cfg = compose(config_name="train", overrides=[*overrides, f"seed={seed}"])
    return validate_stack(cfg)


def stack_from_config(bot_cfg: Mapping[str, Any] | None) -> StackConfig:
    """The stack named by verl's ``reward.bot`` section: ``{overrides: [...], seed: 0}``."""
    if not bot_cfg or not bot_cfg.get("overrides"):
        raise ConfigError(
            "the 'bot_token' reward manager needs reward.bot.overrides, the bot_repro config overrides that name "
            "the reward stack, e.g. [task=react, reward=react_bot, judge=openai] (see conf/verl/*.yaml)"
        )
    unknown = sorted(set(bot_cfg) - {"overrides", "seed", "run_dir", "batch_wait_s", "max_batch"})
    if unknown:
        raise ConfigError(f"unknown key(s) {unknown} in reward.bot; allowed: overrides, seed, run_dir, batch_wait_s, "
                          "max_batch")
    return compose_stack(list(bot_cfg["overrides"]), seed=int(bot_cfg.get("seed", 0)))


def build_source(stack: StackConfig, run_dir: Path):
    """(reward source, judge client or None) for ``stack``, built as the TRL trainer builds them:
    ``build_task`` (the task's rows checked, then ``Task.reward``)."""
    judge = JudgeClient(stack.judge, run_dir) if stack.judge is not None else None
    try:
        if judge is not None:
            judge.check_credentials()
        _, source = build_task(stack, judge=judge, run_dir=run_dir, seed=stack.seed)
    except BaseException:
        if judge is not None:  # the caller never sees it: close its HTTP session here
            judge.close()
        raise
    return source, judge
