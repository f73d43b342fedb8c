"""The reward stack a verl run uses, composed from bot_repro's own Hydra configs (``conf/``).

A verl config names the stack with the same overrides a TRL run takes (``reward.bot.overrides:
[task=react, reward=react_bot, judge=openai]``); ``compose_stack`` composes ``conf/train.yaml`` with
them and keeps the sections the reward needs (reward, task, judge), resolved. So a verl run and a
TRL run with the same overrides score with the same reward source, weights and window, from one
set of files. Hydra's compose API is used (verl depends on hydra-core), never Hydra's app.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot_repro.config_errors import ConfigError

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


@dataclass
class Stack:
    """Resolved sections of one reward stack."""

    reward: dict[str, Any]
    task: dict[str, Any]
    judge: dict[str, Any] | None
    model: dict[str, Any] = field(default_factory=dict)
    seed: int = 0

    @property
    def w_g(self) -> float:
        return float(self.reward.get("w_g", 1.0))

    @property
    def w_s(self) -> float:
        return float(self.reward.get("w_s", 1.0))

    @property
    def window(self) -> int:
        return int(self.reward.get("window", 0) or 0)


def compose_stack(overrides: Sequence[str], seed: int = 0) -> Stack:
    """Compose ``conf/train.yaml`` with ``overrides`` and return its reward, task and judge sections."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from omegaconf import OmegaConf

    if GlobalHydra.instance().is_initialized():
        raise ConfigError(
            "compose_stack runs in verl's reward workers (Ray actors), outside a Hydra app; here Hydra is already "
            "initialised: compose the stack before (Stack(...)) and pass it to the reward manager"
        )
    with initialize_config_dir(config_dir=str(conf_dir()), version_base=None):
        cfg = compose(config_name="train", overrides=[*overrides, f"seed={seed}"])
    sections = {}
    for name in ("reward", "task", "judge", "model"):
        node = cfg.get(name)
        sections[name] = OmegaConf.to_container(node, resolve=True) if node is not None else None
    reward = dict(sections["reward"] or {})
    reward.pop("smoke", None)
    return Stack(reward=reward, task=sections["task"] or {}, judge=sections["judge"], model=sections["model"] or {},
                 seed=seed)


def stack_from_config(bot_cfg: Mapping[str, Any] | None) -> Stack:
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


def build_source(stack: Stack, run_dir: Path):
    """(reward source, judge client or None) for ``stack``, as the TRL trainer builds them."""
    from bot_repro.plugins import load_plugins
    from bot_repro.rewards import REWARD_SOURCES

    load_plugins()
    judge = None
    if stack.judge:
        from bot_repro.judges import build_judge_client

        judge = build_judge_client(dict(stack.judge), run_dir)
        if judge is not None:
            judge.check_credentials()
    source = REWARD_SOURCES[stack.reward["source"]](dict(stack.reward), {"judge": judge, "run_dir": run_dir,
                                                                         "seed": stack.seed})
    return source, judge
