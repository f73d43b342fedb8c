"""w_g, w_s and the window have one home, the reward section (issue #24, item 3; issue #32, item 4): a
second setting in algorithm.options is refused naming both keys, every path reads the reward's values
(TRL estimator options, verl's stack, the reward sources), the window has one default (``RewardCfg``'s),
sources get the section typed, and analysis labels a run by the weights it trained with."""

from __future__ import annotations

import ast
import dataclasses

import pytest
import yaml

from bot_repro.config import RewardCfg, validate
from bot_repro.config_schema import ConfigError, build_options
from bot_repro.rewards import REWARD_SOURCES
from bot_repro.run_folder import read_config
from bot_repro.tasks.base import build_task
from tests.conftest import REPO, compose

# each task's default reward stack and the window its conf/reward yaml sets (by hand, from the files)
TASK_WINDOWS = {"mini": 1, "react": 3, "aime": 3, "arith": 0}


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
    assert defaults == {"w_g": 1.0, "w_s": 1.0, "window": 3}
    cfg = validate(compose(["task=aime", "~reward.w_g", "~reward.w_s", "~reward.window", "debug=smoke"]))
    assert {k: getattr(cfg.reward, k) for k in defaults} == defaults
    _, source = build_task(cfg)
    assert (source.w_g, source.window) == (defaults["w_g"], defaults["window"])
    opts = cfg.advantage_options()
    assert (opts["w_g"], opts["w_s"]) == (defaults["w_g"], defaults["w_s"])


def _source_window(source) -> int | None:
    """The window a source spreads its own values with (mini: tag units, aime/arith: steps); None for
    a source that leaves the spreading of its lines to the mapper (react)."""
    return getattr(getattr(source, "inner", source), "window", None)


@pytest.mark.parametrize("task", sorted(TASK_WINDOWS))
@pytest.mark.parametrize("explicit", [True, False], ids=["yaml", "no_window"])
def test_every_task_reads_the_one_window(task, explicit):
    """Each task's default stack runs with its yaml's window, and without one with RewardCfg's default:
    no source, and no route beside the section, has a window of its own."""
    reward = ["reward=react_static_only"] if task == "react" else []  # the default stack needs a judge
    cfg = validate(compose([f"task={task}", *reward, "debug=smoke", *([] if explicit else ["~reward.window"])]))
    expected = TASK_WINDOWS[task] if explicit else RewardCfg.window
    assert cfg.reward.window == expected  # what the mapper spreads lines with (trainer/build.py, verl)
    _, source = build_task(cfg)
    assert _source_window(source) == (None if task == "react" else expected)


def _window_defaults(path) -> list[str]:
    """Where ``path`` gives a window a value of its own: a parameter or field ``*window*`` with a default,
    a name ``*window*`` bound to a literal, or ``.get("window", x)`` / ``getattr(x, "window", y)``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.arguments):
            named = node.posonlyargs + node.args
            pairs = list(zip(named[len(named) - len(node.defaults):], node.defaults))
            pairs += [(a, d) for a, d in zip(node.kwonlyargs, node.kw_defaults) if d is not None]
            found += [f"{path.name}:{a.lineno} parameter" for a, _ in pairs if "window" in a.arg]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            found += [f"{path.name}:{node.lineno} field"] if "window" in node.target.id.lower() else []
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            found += [f"{path.name}:{node.lineno} constant" for n in names if "window" in n.lower()]
        elif isinstance(node, ast.Call) and len(node.args) >= 2 and isinstance(node.args[-2], ast.Constant):
            is_lookup = isinstance(node.func, ast.Attribute) and node.func.attr == "get" or (
                isinstance(node.func, ast.Name) and node.func.id == "getattr")
            found += [f"{path.name}:{node.lineno} lookup"] if is_lookup and node.args[-2].value == "window" else []
    return found


def test_the_window_default_is_written_once():
    """RewardCfg.window is the only window default in the code that scores rollouts (a second one,
    e.g. a source's ``.get("window", 1)``, would make the window depend on the route)."""
    packages = ["rewards", "tasks", "trainer", "integrations", "algorithms", "config.py"]
    files = sorted(f for p in packages for f in ((REPO / "bot_repro" / p).rglob("*.py") if "." not in p
                                                 else [REPO / "bot_repro" / p]))
    found = [hit for f in files for hit in _window_defaults(f)]
    assert len(found) == 1 and found[0].startswith("base.py:") and "field" in found[0], found


def test_an_unknown_reward_key_names_it_and_the_allowed_ones():
    with pytest.raises(ConfigError) as err:
        validate(compose(["+reward.windw=2", "debug=smoke"]))
    assert "['windw'] in reward" in str(err.value)
    assert "allowed keys: source, w_g, w_s, window, params" in str(err.value)


@pytest.mark.parametrize("key,value,expected", [("window", "3", "an integer (>= 0)"), ("window", 2.0, "an integer"),
                                                ("w_s", "heavy", "a number"), ("w_g", -1.0, "a number >= 0"),
                                                ("params", [1], "a mapping")])
def test_a_reward_value_of_the_wrong_type_names_it(key, value, expected):
    with pytest.raises(ConfigError) as err:
        build_options(RewardCfg, {"source": "mini", key: value}, "reward")
    assert f"reward.{key}={value!r} is not allowed: expected {expected}" in str(err.value)


def test_sources_get_the_section_typed(monkeypatch):
    cfg = validate(compose(["task=mini", "debug=smoke"]))
    seen, factory = [], REWARD_SOURCES["mini"]
    monkeypatch.setitem(REWARD_SOURCES, "mini", lambda section, context: seen.append(section) or factory(section, context))
    build_task(cfg)
    assert len(seen) == 1 and isinstance(seen[0], RewardCfg) and seen[0].window == 1 and seen[0].w_s == 0.3


def test_analysis_labels_an_old_run_by_the_weight_it_trained_with(tmp_path):
    """Runs made before the refusal let algorithm.options.w_s override reward.w_s on the TRL path."""
    for name, options in (("old", {"w_s": 0.9}), ("new", {})):
        run = tmp_path / name / ".hydra"
        run.mkdir(parents=True)
        config = {"algorithm": {"name": "bot_grpo", "options": options}, "reward": {"source": "mini", "w_s": 0.3}}
        (run / "config.yaml").write_text(yaml.safe_dump(config))
    assert read_config(tmp_path / "old")["reward.w_s"] == 0.9
    assert read_config(tmp_path / "new")["reward.w_s"] == 0.3
