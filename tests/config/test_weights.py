"""w_g, w_s and the window have one home, the reward section (issue #24, item 3): a second setting in
algorithm.options is refused naming both keys, every path reads the reward's values (TRL estimator
options, verl's stack, the aime source) and analysis labels a run by the weights it trained with."""

from __future__ import annotations

import dataclasses

import pytest
import yaml

from bot_repro.config import RewardCfg, validate
from bot_repro.config_errors import ConfigError
from bot_repro.rewards import REWARD_SOURCES
from bot_repro.run_folder import read_config
from tests.conftest import compose


@pytest.mark.parametrize("weight", ["w_g", "w_s"])
def test_a_weight_set_twice_is_refused_naming_both_keys(weight):
    with pytest.raises(ConfigError) as exc:
        validate(compose([f"+algorithm.options.{weight}=0.7", "reward=mini_progress", "debug=smoke"]))
    message = str(exc.value)
    reward_value = {"w_g": 1.0, "w_s": 0.3}[weight]
    assert f"algorithm.options.{weight}=0.7" in message and f"reward.{weight}={reward_value}" in message


def test_estimator_options_take_the_reward_weights():
    cfg = validate(compose(["task=aime", "reward=aime_bot", "algorithm=pure", "reward.w_s=0.1", "debug=smoke"]))
    opts = cfg.advantage_options()
    assert (opts["w_g"], opts["w_s"]) == (3.0, 0.1)
    assert {k: v for k, v in opts.items() if k not in ("w_g", "w_s")} == cfg.algorithm.options


def test_reward_section_defaults_are_the_schema_defaults():
    """A reward config that leaves out w_g, w_s or window gets RewardCfg's values on every path."""
    defaults = {f.name: f.default for f in dataclasses.fields(RewardCfg) if f.name in ("w_g", "w_s", "window")}
    cfg = validate(compose(["task=aime", "~reward.w_g", "~reward.w_s", "~reward.window", "debug=smoke"]))
    assert {k: getattr(cfg.reward, k) for k in defaults} == defaults
    source = REWARD_SOURCES["aime"]({**dataclasses.asdict(cfg.reward)}, {"judge": None})
    assert (source.w_g, source.window) == (defaults["w_g"], defaults["window"])


def test_aime_source_refuses_a_section_without_its_weights():
    with pytest.raises(ConfigError, match=r"got no reward \['w_g', 'window'\]: build it through build_task"):
        REWARD_SOURCES["aime"]({"source": "aime", "params": {"step_source": "rule"}}, {"judge": None})


def test_analysis_labels_an_old_run_by_the_weight_it_trained_with(tmp_path):
    """Runs made before the refusal let algorithm.options.w_s override reward.w_s on the TRL path."""
    for name, options in (("old", {"w_s": 0.9}), ("new", {})):
        run = tmp_path / name / ".hydra"
        run.mkdir(parents=True)
        config = {"algorithm": {"name": "bot_grpo", "options": options}, "reward": {"source": "mini", "w_s": 0.3}}
        (run / "config.yaml").write_text(yaml.safe_dump(config))
    assert read_config(tmp_path / "old")["reward.w_s"] == 0.9
    assert read_config(tmp_path / "new")["reward.w_s"] == 0.3
