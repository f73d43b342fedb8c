"""Every option of every config group composes and validates; bad configs fail before any model loads."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot_repro.algorithms import ADVANTAGES
from bot_repro.config import check_batch, validate
from bot_repro.config_schema import ConfigError
from bot_repro.registry import UnknownNameError
from tests.conftest import REPO, compose

GROUPS = ["model", "algorithm", "task", "reward", "trainer", "logger", "judge", "resources", "cluster"]


def _options(group):
    return sorted(p.stem for p in (REPO / "conf" / group).glob("*.yaml"))


@pytest.mark.parametrize("group", GROUPS)
def test_every_group_option_composes_and_validates(group):
    for option in _options(group):
        overrides = [f"{group}={option}"]
        if group == "reward":  # a reward belongs to its task
            task = option.split("_")[0]
            overrides.append(f"task={task}")
        if group == "resources":  # smoke's 2 x 2 rollouts do not split over a preset's 8 processes
            overrides.append("trainer.prompts_per_step=8")
        validate(compose([*overrides, "debug=smoke"]))


@pytest.mark.parametrize(
    "overrides, error, match",
    [
        (["algorithm.name=grpoo"], UnknownNameError, "unknown algorithm 'grpoo'; valid names: bot_grpo, dapo"),
        (["task.name=nope"], UnknownNameError, "unknown task 'nope'; valid names: .*mini"),
        (["reward.source=nope"], UnknownNameError, "unknown reward source 'nope'"),
        (["+trainer.lerning_rate=1"], ConfigError, r"unknown key\(s\) \['lerning_rate'\] in trainer; allowed keys: .*learning_rate"),
        (["+model.dtpye=float16"], ConfigError, r"\['dtpye'\] in model"),
        (["+algorithm.options.wieghting=uniform"], ConfigError, "wieghting"),
        (["algorithm.options.weighting=harmonic"], ConfigError, "harmonic"),
        (["+algorithm.trl.epsilom=0.1"], ConfigError, "unknown GRPOConfig field"),
        (["trainer.num_generations=1"], ConfigError, "num_generations=1"),
        (["trainer.prompts_per_step=3", "trainer.per_device_train_batch_size=5"], ConfigError,
         r"prompts_per_step \(3\) x trainer.num_generations \(8\) = 24 .* per_device_train_batch_size \(5\)"),
        (["logger.wandb_mode=sometimes"], ConfigError, "offline, online, disabled"),
        (["+task.params.n_trian=3"], ConfigError, "n_trian"),
    ],
)
def test_bad_configs_fail_with_names(overrides, error, match):
    cfg = compose(overrides)
    with pytest.raises(error, match=match):
        validate(cfg)
        # task/reward params are validated by their factories (still before the model)
        from omegaconf import OmegaConf

        from bot_repro.config_schema import build_options
        from bot_repro.rewards import REWARD_SOURCES, RewardCfg
        from bot_repro.tasks import TASKS

        TASKS[cfg.task.name](dict(cfg.task.params), dict(cfg.model))
        section = build_options(RewardCfg, OmegaConf.to_container(cfg.reward, resolve=True), "reward")
        REWARD_SOURCES[section.source](section, {"seed": 0})


def test_check_batch_suggests_a_valid_setting():
    from bot_repro.config import TrainerCfg

    with pytest.raises(ConfigError) as exc:
        check_batch(TrainerCfg(prompts_per_step=8, num_generations=8, gradient_accumulation_steps=3))
    assert "gradient_accumulation_steps (3)" in str(exc.value)
    assert check_batch(TrainerCfg(prompts_per_step=8, num_generations=8, gradient_accumulation_steps=4)) == (16, 4)


def test_check_batch_derives_the_unset_one():
    from bot_repro.config import TrainerCfg

    assert check_batch(TrainerCfg(prompts_per_step=8, num_generations=8)) == (64, 1)  # the whole step at once
    assert check_batch(TrainerCfg(prompts_per_step=8, num_generations=8, per_device_train_batch_size=4)) == (4, 16)
    assert check_batch(TrainerCfg(prompts_per_step=8, num_generations=8, per_device_train_batch_size=8), 2) == (8, 4)
    for per_device in (3, 128):  # does not divide 64; more than a step holds
        with pytest.raises(ConfigError, match=rf"per_device_train_batch_size \({per_device}\).*\(derived\)"):
            check_batch(TrainerCfg(prompts_per_step=8, num_generations=8, per_device_train_batch_size=per_device))


def test_sizing_files_name_a_model_and_a_resources_option_and_apply_only_there():
    """conf/train.yaml picks sizing/<model>_<resources>; a file whose name matches no pair would never apply."""
    from omegaconf import OmegaConf

    pairs = {f"{m}_{r}": (m, r) for m in _options("model") for r in _options("resources")}
    sizing = _options("sizing")
    assert sizing and set(sizing) <= set(pairs), sorted(set(sizing) - set(pairs))
    paper = OmegaConf.load(REPO / "conf" / "trainer" / "default.yaml")
    for name in sizing:
        model, resources = pairs[name]
        sized = compose([f"model={model}", f"resources={resources}"])
        elsewhere = compose([f"model={model}", f"resources={resources}", "~sizing"]).trainer
        assert OmegaConf.to_container(elsewhere) == OmegaConf.to_container(paper)  # ~sizing: paper sizes
        assert OmegaConf.to_container(sized.trainer) != OmegaConf.to_container(paper)
        validate(sized)


def test_a_real_model_on_cpu_gets_cpu_sizes_and_the_command_line_wins():
    cfg = compose(["model=smollm2_135m", "task=aime"])
    assert (cfg.trainer.prompts_per_step, cfg.trainer.num_generations, cfg.trainer.per_device_train_batch_size) == (2, 4, 4)
    assert validate(cfg).batch == (4, 2)  # one group per backward pass
    wider = compose(["model=smollm2_135m", "trainer.num_generations=8"]).trainer
    assert (wider.num_generations, wider.per_device_train_batch_size) == (8, 8)
    assert compose(["model=smollm2_135m", "resources=a100_80g"]).trainer.prompts_per_step == 8  # GPU: paper sizes
    assert compose(["model=qwen2_5_3b"]).trainer.prompts_per_step == 8


def test_cli_rejects_unknown_algorithm_before_loading_anything(tmp_path):
    import subprocess
    import sys

    cache = tmp_path / "cache"
    env = {**os.environ, "BOT_REPRO_CACHE": str(cache)}
    out = subprocess.run(
        [sys.executable, "-m", "bot_repro.train", "algorithm.name=bot_grop", f"hydra.run.dir={tmp_path / 'r'}"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 2
    assert f"unknown algorithm 'bot_grop'; valid names: {', '.join(sorted(ADVANTAGES))}" in out.stderr
    assert not Path(cache).exists()  # no tiny model was built, nothing was loaded
    # and a misspelt group option is Hydra's own clear error
    out = subprocess.run(
        [sys.executable, "-m", "bot_repro.train", "algorithm=bot_grop", f"hydra.run.dir={tmp_path / 'r2'}"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode != 0 and "bot_grpo" in out.stderr
