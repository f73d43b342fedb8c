"""The private TRL / transformers names bot_trainer.py depends on (listed in its docstring).

Each check fails when an upgrade renames or reshapes one, so the upgrade is reviewed instead of
silently changing training: the pins in pyproject.toml say which release these were read from.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import transformers
import trl
from transformers import Trainer
from trl import GRPOTrainer

from bot_repro.trainer import bot_trainer

PYPROJECT = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()


def _pinned(name: str) -> str:
    match = re.search(rf'"{name}==([^"]+)"', PYPROJECT)
    assert match, f"{name} is not pinned exactly in pyproject.toml"
    return match.group(1)


def test_installed_versions_are_the_pinned_ones():
    assert trl.__version__ == _pinned("trl")
    assert transformers.__version__ == _pinned("transformers")


def test_generate_and_score_completions_signature_and_outputs():
    fn = GRPOTrainer._generate_and_score_completions
    assert list(inspect.signature(fn).parameters) == ["self", "inputs"]
    src = inspect.getsource(fn)
    for key in ('"completion_ids"', '"completion_mask"', '"advantages"'):
        assert key in src, f"TRL's _generate_and_score_completions no longer returns {key}"


def test_metrics_store_shape():
    src = inspect.getsource(GRPOTrainer.__init__)
    assert 'self._metrics = {"train": defaultdict(list), "eval": defaultdict(list)}' in src


def test_reward_functions_get_log_metric():
    src = inspect.getsource(GRPOTrainer._calculate_rewards)
    assert 'reward_kwargs["log_metric"] = self._log_metric' in src


def test_load_warning_hook():
    fn = Trainer._issue_warnings_after_load
    assert list(inspect.signature(fn).parameters) == ["self", "load_result"]
    assert "There were missing keys in the checkpoint model loaded" in inspect.getsource(fn)


def test_docstring_lists_every_guarded_name():
    doc = bot_trainer.__doc__
    for name in ("_generate_and_score_completions", "_metrics", "_calculate_rewards", "_issue_warnings_after_load"):
        assert name in doc, name
