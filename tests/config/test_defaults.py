"""A default lives in one place: where a group's default YAML and the schema dataclass both give a
value for a key, they agree (so reading either tells the truth about what a run uses)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml

from bot_repro.config import EvalCfg, LoggerCfg, ResourcesCfg, TrainerCfg
from bot_repro.tasks.aime.task import AimeTaskParams
from bot_repro.tasks.mini.task import MiniParams
from bot_repro.tasks.react.task import ReactTaskOptions

CONF = Path(__file__).resolve().parents[2] / "conf"


def _defaults(schema) -> dict:
    out = {}
    for f in dataclasses.fields(schema):
        if f.default is not dataclasses.MISSING:
            out[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            out[f.name] = f.default_factory()
    return out


def _node(path: str, key: str | None):
    node = yaml.safe_load((CONF / path).read_text()) or {}
    return node.get(key) or {} if key else node


CASES = [
    ("trainer/default.yaml", None, TrainerCfg),
    ("trainer/default.yaml", "eval", EvalCfg),
    ("logger/default.yaml", None, LoggerCfg),
    ("resources/cpu.yaml", None, ResourcesCfg),
    ("task/mini.yaml", "params", MiniParams),
    ("task/aime.yaml", "params", AimeTaskParams),
    ("task/react.yaml", "params", ReactTaskOptions),
]


@pytest.mark.parametrize(("path", "key", "schema"), CASES, ids=[f"{p}:{k or ''}" for p, k, _ in CASES])
def test_default_yaml_agrees_with_schema(path, key, schema):
    defaults = _defaults(schema)
    node = _node(path, key)
    assert set(node) & set(defaults), f"{path} shares no key with {schema.__name__}"
    differ = {k: (v, defaults[k]) for k, v in node.items()
              if k in defaults and isinstance(defaults[k], (int, float, str, bool, type(None))) and v != defaults[k]}
    assert not differ, f"{path} and {schema.__name__} disagree (yaml, dataclass): {differ}"
