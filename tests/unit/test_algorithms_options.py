"""Option validation, input checking and the registry API of the advantage estimators."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
import torch
import yaml

from bot_repro.algorithms import ADVANTAGES
from bot_repro.algorithms.advantages import (
    compute_advantages,
    option_label,
    register_advantage,
    validate_options,
)
from bot_repro.algorithms.core_algos import min_form_credit
from bot_repro.algorithms.options import CHOICE_LABELS, OPTION_CHECKS, choice
from bot_repro.config_schema import ConfigError

ALL = sorted(ADVANTAGES)  # from the registry: a new estimator is checked here without being listed
UNIT = {"w_g": 1.0, "w_s": 1.0}  # the reward weights, which every call passes (estimators have no default)
CONF = Path(__file__).resolve().parents[2] / "conf" / "algorithm"


def batch(B=4, T=3):
    mask = torch.ones(B, T, dtype=torch.bool)
    mask[0, 1:] = False
    return torch.arange(B, dtype=torch.float32), torch.linspace(-1, 1, B * T).view(B, T), mask


def test_every_estimator_has_its_config_and_the_common_options():
    """conf/algorithm/<name>.yaml exists exactly for the registered estimators, and names them."""
    assert sorted(p.stem for p in CONF.glob("*.yaml")) == ALL
    for path in CONF.glob("*.yaml"):
        assert yaml.safe_load(path.read_text())["name"] == path.stem
    for name in ALL:
        defaults = ADVANTAGES[name].option_defaults
        assert defaults["eps"] == 1e-6, name
        assert defaults["w_g"] is defaults["w_s"] is inspect.Parameter.empty, name  # RewardCfg is their home


@pytest.mark.parametrize("name", ALL)
def test_the_weights_must_be_passed(name):
    """No estimator has a w_g / w_s default of its own: a call without them names both and their home."""
    for options in ({}, {"w_g": 2.0}):
        with pytest.raises(ConfigError) as err:
            ADVANTAGES[name](*batch(), 2, **options)
        message = str(err.value)
        assert repr(name) in message and "reward.w_g" in message and "reward.w_s" in message
        assert ("'w_g', 'w_s'" in message) == (options == {}) and "'w_s'" in message


def test_documented_defaults():
    defaults = {name: ADVANTAGES[name].option_defaults for name in ALL}
    assert defaults["grpo"]["std"] == "population" and defaults["grpo"]["seq_reward"] == "global"
    assert defaults["dapo"]["seq_reward"] == "token_mean" and defaults["gspo"]["seq_reward"] == "token_mean"
    assert defaults["pure"]["temperature"] == 0.1 and defaults["pure"]["whiten"] is False
    assert defaults["pure"]["baseline"] == "token" and defaults["pure"]["std"] == "unbiased"
    assert defaults["ps_grpo"]["reduce"] == "mean"
    assert (defaults["bot_grpo"]["weighting"], defaults["bot_grpo"]["zero_std"]) == ("inverse_length", "zero")
    assert (defaults["bot_grpo"]["same_global"], defaults["bot_grpo"]["std_floor"]) == ("pooled", 0.5)


def test_unknown_option_names_it_and_lists_the_allowed_ones():
    with pytest.raises(ConfigError) as err:
        validate_options("bot_grpo", {"weighing": "uniform"})
    message = str(err.value)
    assert "'weighing'" in message and "bot_grpo" in message
    for allowed in ("w_g", "w_s", "eps", "std", "weighting", "zero_std"):
        assert allowed in message


@pytest.mark.parametrize(
    "name,options,fragments",
    [
        ("grpo", {"std": "foo"}, ["'foo'", "'std'", "'population'", "'unbiased'"]),
        ("gspo", {"seq_reward": "mean"}, ["'mean'", "'global'", "'token_mean'", "'token_sum'"]),
        ("bot_grpo", {"weighting": "length"}, ["'length'", "'inverse_length'", "'uniform'"]),
        ("bot_grpo", {"zero_std": "skip"}, ["'skip'", "'zero'", "'eps'", "'drop'"]),
        ("bot_grpo", {"same_global": "floor"}, ["'floor'", "'same_global'", "'pooled'", "'floor_std'", "'zero'"]),
        ("bot_grpo", {"std_floor": -0.1}, ["-0.1", "'std_floor'", ">= 0"]),
        ("ps_grpo", {"reduce": "max"}, ["'max'", "'mean'", "'sum'"]),
        ("pure", {"whiten": "yes"}, ["'yes'", "'whiten'", "true or false"]),
        ("pure", {"temperature": 0.0}, ["0.0", "'temperature'", "> 0"]),
        ("pure", {"baseline": "rollout"}, ["'rollout'", "'baseline'", "'token'", "'step'"]),
        ("pure", {"std": "sample"}, ["'sample'", "'std'", "'population'", "'unbiased'"]),
        ("grpo", {"eps": -1e-6}, ["-1e-06", "'eps'"]),
        ("grpo", {"w_g": True}, ["True", "'w_g'", "finite number"]),
        ("dr_grpo", {"w_s": float("nan")}, ["nan", "'w_s'"]),
        ("dapo", {"max_completion_length": 0}, ["0", "'max_completion_length'"]),
        ("dapo", {"overlong_buffer": 2.5}, ["2.5", "'overlong_buffer'", "integer"]),
        ("dapo", {"overlong_penalty": -1.0}, ["-1.0", "'overlong_penalty'"]),
        ("dapo", {"overlong_buffer": 4}, ["'overlong_buffer'=4", "'max_completion_length'"]),
        ("dapo", {"overlong_buffer": 9, "max_completion_length": 8}, ["9", "8", "0..8"]),
    ],
)
def test_invalid_option_values_name_the_value_and_what_is_allowed(name, options, fragments):
    options = {**UNIT, **options}
    with pytest.raises(ConfigError) as err:
        validate_options(name, options)
    for fragment in fragments:
        assert fragment in str(err.value)
    # direct calls validate too, before touching the tensors
    with pytest.raises(ConfigError):
        ADVANTAGES[name](*batch(), 2, **options)


def test_unknown_estimator_is_a_config_error_listing_the_names():
    with pytest.raises(ConfigError) as err:
        validate_options("bot", {})
    assert "'bot'" in str(err.value) and "bot_grpo" in str(err.value) and "ps_grpo" in str(err.value)
    with pytest.raises(ConfigError):
        compute_advantages("bot", *batch(), 2)


def test_compute_advantages_validates_then_matches_the_direct_call():
    G, S, mask = batch()
    expected = ADVANTAGES["ps_grpo"](G, S, mask, 2, reduce="sum", w_g=1.0, w_s=0.5)
    assert torch.equal(compute_advantages("ps_grpo", G, S, mask, 2, reduce="sum", w_g=1.0, w_s=0.5), expected)
    with pytest.raises(ConfigError, match="'reduce'"):
        compute_advantages("ps_grpo", G, S, mask, 2, reduce="median", **UNIT)


def test_valid_integer_and_null_values_are_accepted():
    validate_options("dapo", {"max_completion_length": None, "overlong_buffer": 0, "overlong_penalty": 0, **UNIT})
    validate_options("grpo", {"w_g": 3, "w_s": 0})


@pytest.mark.parametrize("name", ALL)
def test_group_layout_errors_name_B_and_K(name):
    G, S, mask = batch(B=6)
    with pytest.raises(ValueError, match=r"B=6.*K=4"):
        ADVANTAGES[name](G, S, mask, 4, **UNIT)
    with pytest.raises(ValueError, match=r"K=1.*K >= 2"):
        ADVANTAGES[name](G, S, mask, 1, **UNIT)
    with pytest.raises(TypeError, match="group_size"):
        ADVANTAGES[name](G, S, mask, 2.0, **UNIT)


@pytest.mark.parametrize("name", ALL)
def test_shape_errors_name_the_shapes(name):
    G, S, mask = batch()
    with pytest.raises(ValueError, match=r"mask shape \(4, 2\)"):
        ADVANTAGES[name](G, S, mask[:, :2], 2, **UNIT)
    with pytest.raises(ValueError, match=r"global_rewards.*\(4,\).*\(3,\)"):
        ADVANTAGES[name](G[:3], S, mask, 2, **UNIT)
    with pytest.raises(ValueError, match=r"\[B, T\]"):
        ADVANTAGES[name](G, S[0], mask[0], 2, **UNIT)
    with pytest.raises(TypeError, match="local_rewards must be a torch.Tensor, got list"):
        ADVANTAGES[name](G, S.tolist(), mask, 2, **UNIT)


@pytest.mark.parametrize("name", ALL)
def test_non_finite_rewards_fail_with_the_rows(name):
    G, S, mask = batch()
    bad_global = G.clone()
    bad_global[2] = float("nan")
    with pytest.raises(ValueError, match=r"global_rewards rows \[2\]"):
        ADVANTAGES[name](bad_global, S, mask, 2, **UNIT)
    bad_local = S.clone()
    bad_local[3, 1] = float("inf")
    if name in ("grpo", "dr_grpo"):  # the default sequence reward does not read local rewards
        assert torch.isfinite(ADVANTAGES[name](G, bad_local, mask, 2, **UNIT)).all()
    else:
        with pytest.raises(ValueError, match=r"local_rewards rows \[3\]"):
            ADVANTAGES[name](G, bad_local, mask, 2, **UNIT)


def test_min_form_credit_checks_its_options():
    with pytest.raises(ConfigError, match="'temperature'"):
        min_form_credit(torch.zeros(2, 3), torch.ones(2, 3, dtype=torch.bool), w_s=1.0, temperature=-0.1)
    with pytest.raises(ValueError, match=r"mask shape \(2, 2\)"):
        min_form_credit(torch.zeros(2, 3), torch.ones(2, 2, dtype=torch.bool), w_s=1.0)


# -- an option declared with its estimator -------------------------------------------------------------


@pytest.fixture
def registered():
    """Register estimators for one test, then remove them, so no other test sees them."""
    names: list[str] = []

    def register(name, body, **kw):
        names.append(name)
        return register_advantage(name, label=name.upper(), color="#123456", marker="o", **kw)(body)

    yield register
    for name in names:
        ADVANTAGES.pop(name, None)


def _body(batch, *, w_g: float, w_s: float, eps: float = 1e-6, tilt: str = "up"):
    return batch.zeros()


def test_an_option_declared_with_its_estimator_is_checked_and_labelled(registered):
    registered("tilted", _body, options={"tilt": choice(labels={"up": "tilted up", "down": "tilted down"})})
    weights = {"w_g": 1.0, "w_s": 1.0}
    validate_options("tilted", {"tilt": "down", "eps": 1e-3, **weights})
    with pytest.raises(ConfigError) as err:
        validate_options("tilted", {"tilt": "sideways", **weights})
    assert "'sideways'" in str(err.value) and "'tilt'" in str(err.value) and "'up', 'down'" in str(err.value)
    with pytest.raises(ConfigError, match="'eps'"):  # the shared checkers still apply
        ADVANTAGES["tilted"](*batch(), 2, eps=0.0, **weights)
    assert option_label("tilt", "down") == "tilted down" and option_label("tilt", "left") is None
    assert option_label("weighting", "uniform") == "uniform weighting"  # a shared one
    assert CHOICE_LABELS["weighting"]["inverse_length"] == "1/L_k weighting (paper)"
    assert "tilt" not in CHOICE_LABELS and "tilt" not in OPTION_CHECKS  # nothing leaks into options.py


def test_undeclared_shared_or_stray_option_checkers_are_refused(registered):
    with pytest.raises(TypeError, match=r"'untilted'.*without a checker: \['tilt'\].*options="):
        registered("untilted", _body)
    with pytest.raises(TypeError, match=r"shared checker.*\['std'\]"):
        registered("restd", _body, options={"tilt": choice("up"), "std": choice("population")})
    with pytest.raises(TypeError, match=r"lack: \['tlit'\]"):
        registered("typo", _body, options={"tilt": choice("up"), "tlit": choice("up")})
    registered("tilted", _body, options={"tilt": choice("up", "down")})
    with pytest.raises(TypeError, match=r"'tilt'.*'tilted' declares with another checker"):
        registered("tilted2", _body, options={"tilt": choice("up")})
    registered("tilted3", _body, options={"tilt": ADVANTAGES["tilted"].option_checks["tilt"]})  # reused
    assert "untilted" not in ADVANTAGES and "tilted3" in ADVANTAGES


def test_choice_needs_values_and_labels_only_for_them():
    assert choice("a", "b").values == ("a", "b") and choice(labels={"x": "X"}).values == ("x",)
    with pytest.raises(TypeError):
        choice()
    with pytest.raises(TypeError, match="'c'"):
        choice("a", labels={"c": "C"})
