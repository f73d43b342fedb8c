"""Values are checked at the door (issue #26): each typed field's type and range, before any folder,
model or warm start, with an error that names the key, the value and what is allowed; the door is
``validate`` alone and its result is typed all the way through."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest
from omegaconf import open_dict

from bot_repro import config
from bot_repro.config import EvalCfg, RunConfig, StackConfig, TrainerCfg, validate, validate_stack
from bot_repro.config_schema import (
    POSITIVE,
    PROBABILITY,
    RULE,
    ConfigError,
    at_least,
    build_options,
    check_value,
    checked,
    one_of,
)
from bot_repro.train import run
from tests.conftest import compose

SCHEMAS = [config.ModelCfg, config.AlgorithmCfg, config.DynamicSampling, config.TaskCfg,
           config.RewardCfg, EvalCfg, TrainerCfg, config.DriftCfg, config.LoggerCfg, config.ResourcesCfg]

# (overrides, the message's key=value, what it says is allowed)
BAD = [
    (["trainer.max_steps=abc"], "trainer.max_steps='abc'", "an integer (> 0)"),
    (["trainer.max_steps=0"], "trainer.max_steps=0", "an integer > 0"),
    (["trainer.max_steps=2.5"], "trainer.max_steps=2.5", "an integer"),
    (["trainer.learning_rate=0"], "trainer.learning_rate=0", "a number > 0"),
    (["trainer.learning_rate=fast"], "trainer.learning_rate='fast'", "a number"),
    (["trainer.top_p=1.5"], "trainer.top_p=1.5", "a number in (0, 1]"),
    (["trainer.temperature=-1"], "trainer.temperature=-1", "> 0"),
    (["trainer.max_completion_length=-5"], "trainer.max_completion_length=-5", "an integer > 0"),
    (["trainer.num_generations=1"], "trainer.num_generations=1", ">= 2 (group-relative"),
    (["trainer.per_device_train_batch_size=0"], "trainer.per_device_train_batch_size=0", "> 0"),
    (["trainer.lr_scheduler_type=cosin"], "trainer.lr_scheduler_type='cosin'", "one of linear, cosine"),
    (["trainer.eval.n_samples=0"], "trainer.eval.n_samples=0", "an integer > 0"),
    (["trainer.eval.every=-1"], "trainer.eval.every=-1", ">= 0"),
    (["trainer.eval.max_prompts=many"], "trainer.eval.max_prompts='many'", "an integer or null"),
    (["+trainer.eval.evry=3"], "unknown key(s) ['evry'] in trainer.eval", "every"),
    (["trainer.warmup_steps=-1"], "trainer.warmup_steps=-1", ">= 0"),
    (["+trainer.drift.kl_every=-1"], "trainer.drift.kl_every=-1", "an integer >= 0"),
    (["+trainer.drift.kl_share=0"], "trainer.drift.kl_share=0", "a number in (0, 1]"),
    (["+trainer.drift.enabled=sometimes"], "trainer.drift.enabled='sometimes'", "true or false"),
    (["+trainer.drift.kl_evry=2"], "unknown key(s) ['kl_evry'] in trainer.drift", "kl_every"),
    (["reward.w_s=-0.1"], "reward.w_s=-0.1", "a number >= 0"),
    (["reward.w_g=heavy"], "reward.w_g='heavy'", "a number"),
    (["reward.window=1.5"], "reward.window=1.5", "an integer (>= 0)"),
    (["task=aime", "reward.window=-1"], "reward.window=-1", "an integer >= 0"),
    (["model.dtype=float8"], "model.dtype='float8'", "one of float32, float16, bfloat16"),
    (["+model.trust_remote_code=yes please"], "model.trust_remote_code='yes please'", "true or false"),
    (["resources.device=tpu"], "resources.device='tpu'", "one of cpu, cuda"),
    (["+resources.vllm_gpu_memory_utilization=1.5"], "resources.vllm_gpu_memory_utilization=1.5", "(0, 1]"),
    (["resources.torch_threads=0"], "resources.torch_threads=0", "> 0"),
    (["logger.progress_bar=maybe"], "logger.progress_bar='maybe'", "true or false"),
    (["logger.wandb_mode=sometimes"], "logger.wandb_mode='sometimes'", "one of offline, online, disabled"),
    (["seed=-1"], "seed=-1", "an integer >= 0"),
    (["seed=abc"], "seed='abc'", "an integer"),
    (["resume=maybe"], "resume='maybe'", "true or false"),
    (["algorithm.dynamic_sampling.max_rounds=0"], "algorithm.dynamic_sampling.max_rounds=0", "> 0"),
    (["task.params.max_open=abc"], "max_open='abc'", "an integer"),  # the task's own schema, via its factory
    (["+algorithm.options.w_s=0.5"], "algorithm.options.w_s=0.5 and reward.w_s=0.3", "set reward.w_s"),
]


@pytest.mark.parametrize(("overrides", "names", "allowed"), BAD, ids=[" ".join(o) for o, _, _ in BAD])
def test_bad_value_is_refused_before_any_folder_or_model(overrides, names, allowed, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("BOT_REPRO_CACHE", str(cache))
    run_dir = tmp_path / "runs" / "r"
    with pytest.raises(ConfigError) as exc:
        run(compose([*overrides, "debug=smoke"]), run_dir)
    assert names in str(exc.value) and allowed in str(exc.value), str(exc.value)
    assert not (tmp_path / "runs").exists() and not cache.exists()  # no folder, no tiny model, no warm start


def test_schema_defaults_pass_their_own_checks():
    for schema in SCHEMAS:
        required = {f.name: "x" for f in dataclasses.fields(schema)
                    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
        obj = build_options(schema, required, schema.__name__)
        values = {f.name: getattr(obj, f.name) for f in dataclasses.fields(schema)}
        hints = typing.get_type_hints(schema)
        for f in dataclasses.fields(schema):
            if not dataclasses.is_dataclass(hints[f.name]):
                check_value(values[f.name], hints[f.name], f"{schema.__name__}.{f.name}", f.metadata.get(RULE))


def test_every_numeric_field_has_a_range():
    """A count, length, rate or probability that takes any number is a hole this issue closes."""
    free = []
    for schema in SCHEMAS:
        hints = typing.get_type_hints(schema)
        for f in dataclasses.fields(schema):
            numeric = {int, float} & set(typing.get_args(hints[f.name]) or (hints[f.name],))
            if numeric and RULE not in f.metadata:
                free.append(f"{schema.__name__}.{f.name}")
    assert free == []


@dataclasses.dataclass
class _Schema:
    count: int = checked(3, POSITIVE)
    share: float | None = checked(None, PROBABILITY)
    rounds: int = checked(1, at_least(1))
    mode: str = checked("a", one_of("a", "b"))
    weights: dict[str, float] = dataclasses.field(default_factory=dict)
    names: list[str] = dataclasses.field(default_factory=list)
    pair: tuple[int, int] = (0, 0)
    either: str | dict[str, Any] | None = None
    anything: Any = None


@pytest.mark.parametrize(("values", "message"), [
    ({"count": "abc"}, "s.count='abc' is not allowed: expected an integer (> 0)"),
    ({"count": True}, "s.count=True is not allowed: expected an integer (> 0)"),
    ({"count": 0}, "s.count=0 is not allowed: expected an integer > 0"),
    ({"share": 1.5}, "s.share=1.5 is not allowed: expected a number in [0, 1]"),
    ({"share": "half"}, "s.share='half' is not allowed: expected a number or null (in [0, 1])"),
    ({"rounds": 0}, "s.rounds=0 is not allowed: expected an integer >= 1"),
    ({"mode": "c"}, "s.mode='c' is not allowed: expected one of a, b"),
    ({"weights": {"x": "heavy"}}, "s.weights.x='heavy' is not allowed: expected a number"),
    ({"weights": [1.0]}, "s.weights=[1.0] is not allowed: expected a mapping"),
    ({"names": ["a", 2]}, "s.names[1]=2 is not allowed: expected a string"),
    ({"pair": [1]}, "s.pair=[1] is not allowed: expected a list"),
    ({"either": 3}, "s.either=3 is not allowed: expected a string or a mapping or null"),
])
def test_type_and_range_messages(values, message):
    with pytest.raises(ConfigError) as exc:
        build_options(_Schema, values, "s")
    assert str(exc.value) == message


def test_good_values_pass_unchanged():
    values = {"count": 2, "share": 1, "rounds": 5, "mode": "b", "weights": {"x": 1}, "names": ["a"],
              "pair": (1, 2), "either": {"k": [1]}, "anything": object}
    assert dataclasses.asdict(build_options(_Schema, values, "s")) == values  # an int is a number; nothing coerced
    assert build_options(_Schema, {"share": None}, "s").share is None


def test_validate_is_the_one_door_and_typed():
    """``validate`` is the one door (study.prepare, train, offline eval all call it alone); its result is a
    typed object down to ``trainer.eval``, smoke mode's per-task parts (conf/debug/) included."""
    cfg = validate(compose(["task=aime", "debug=smoke"]))
    assert isinstance(cfg, RunConfig) and isinstance(cfg, StackConfig)
    assert cfg.reward.params["step_source"] == "rule"  # conf/debug/reward/smoke_aime.yaml
    assert cfg.task.params["source"] == "smoke"  # conf/debug/task/smoke_aime.yaml
    assert isinstance(cfg.trainer.eval, EvalCfg) and cfg.trainer.eval.n_samples == 2
    assert cfg.batch == (4, 1) and cfg.composed["reward"]["params"]["step_source"] == "rule"
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.seed = 1  # type: ignore[misc]
    assert not hasattr(config, "apply_smoke")  # no second door to forget
    stack = validate_stack(compose(["task=aime", "debug=smoke"]))
    assert type(stack) is StackConfig
    assert (stack.model, stack.task, stack.reward, stack.judge, stack.seed) == (
        cfg.model, cfg.task, cfg.reward, cfg.judge, cfg.seed)


def test_a_config_saved_with_the_old_smoke_blocks_validates_as_it_trained():
    """Configs saved before smoke mode moved to conf/debug/ carry task/reward ``smoke`` blocks: merged for
    a smoke run (offline evaluation of an archived one), dropped otherwise."""
    for smoke in (True, False):
        cfg = compose(["task=aime", "reward=aime_bot"])
        with open_dict(cfg):
            cfg.smoke = smoke
            cfg.task.smoke = {"source": "smoke", "limit": 8}
            cfg.reward.smoke = {"params": {"step_source": "rule"}}
        run_cfg = validate(cfg)
        assert (run_cfg.task.params["limit"], run_cfg.reward.params["step_source"]) == ((8, "rule") if smoke else (None, "judge"))
        assert "smoke" not in run_cfg.composed["task"] and "smoke" not in run_cfg.composed["reward"]


def test_policy_prepare_goes_through_the_door(tmp_path, monkeypatch):
    """The starting policy's preparation once validated without smoke mode's task part, so under debug=smoke
    it warm-started a policy that the smoke runs (warm_start false) never used."""
    from bot_repro.experiment.policy import prepare
    from bot_repro.experiment.sweep import compose_experiment

    monkeypatch.setenv("BOT_REPRO_CACHE", str(tmp_path))
    info = prepare(compose_experiment("mini_demo", ["debug=smoke"]))
    assert info["warm_start_steps"] is None and info["policy_hash"]
    assert not (tmp_path / "warm").exists()
