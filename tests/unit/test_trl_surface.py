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


# ---- names outside bot_trainer.py (#24 item 8): each module's docstring lists its own ----------------


def _trl_metric_keys() -> set[str]:
    """Keys GRPOTrainer writes into ``self._metrics[mode][...]`` or transformers' Trainer into ``logs[...]``."""
    trl_src = inspect.getsource(GRPOTrainer)
    hf_src = inspect.getsource(Trainer)
    keys = set(re.findall(r'_metrics\[mode\]\["([^"]+)"\]', trl_src))
    keys |= set(re.findall(r'logs\["([^"]+)"\]', hf_src))
    return keys


def test_renamed_log_keys_are_still_logged():
    from bot_repro.run_folder.schema import RENAME

    logged = _trl_metric_keys()
    missing = sorted(k for k in RENAME if k not in logged)
    assert not missing, f"TRL/transformers no longer log {missing}: run_folder.schema.RENAME reads them"


def test_reward_kwargs_added_by_trl_are_the_listed_ones():
    from bot_repro.trainer.token_reward import _TRL_KWARGS

    src = inspect.getsource(GRPOTrainer._calculate_rewards)
    added = set(re.findall(r'(?<!\w)reward_kwargs\["([^"]+)"\]\s*=', src))
    assert added == set(_TRL_KWARGS), f"TRL now adds reward kwargs {sorted(added)}; token_reward lists {sorted(_TRL_KWARGS)}"


def test_basic_sweeper_split_arguments_expands_as_the_sweep_expects():
    from hydra._internal.core_plugins.basic_sweeper import BasicSweeper
    from hydra.core.override_parser.overrides_parser import OverridesParser

    assert list(inspect.signature(BasicSweeper.split_arguments).parameters) == ["overrides", "max_batch_size"]
    parsed = OverridesParser.create().parse_overrides(["seed=0,1", "algorithm=grpo,bot_grpo", "trainer.max_steps=2"])
    batches = BasicSweeper.split_arguments(parsed, None)
    assert len(batches) == 1 and len(batches[0]) == 4
    assert ["seed=0", "algorithm=grpo", "trainer.max_steps=2"] in batches[0]


def test_module_docstrings_list_their_private_names():
    from bot_repro.figures import sweep
    from bot_repro.run_folder import schema
    from bot_repro.trainer import token_reward

    assert "BasicSweeper.split_arguments" in sweep.__doc__
    assert "_calculate_rewards" in token_reward.__doc__
    assert "RENAME" in schema.__doc__ and "_metrics" in schema.__doc__
