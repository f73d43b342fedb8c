"""The verl integration (bot_repro.integrations.verl), from the main venv.

verl pins its own stack (transformers <5.11) and lives in ``.venv-verl`` (``make install-verl``);
``test_checks_inside_verl_venv`` runs ``verl_env/checks_verl.py`` there as a subprocess and skips,
naming the command, when that venv is absent. The other tests need no verl: the layers the plugin
uses import without TRL or Hydra, and the layout/grouping adapter gives the registry's numbers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from bot_repro.algorithms import ADVANTAGES
from bot_repro.config import validate
from bot_repro.config_schema import ConfigError
from bot_repro.integrations.verl.estimators import ESTIMATORS, make_estimator
from bot_repro.integrations.verl.layout import LayoutError, group_rows, pack_split, unpack_split
from bot_repro.integrations.verl.stack import build_source, compose_stack
from tests.conftest import compose

REPO = Path(__file__).resolve().parents[2]
VERL_PYTHON = REPO / ".venv-verl" / "bin" / "python"
CHECKS = Path(__file__).parent / "verl_env" / "checks_verl.py"

IMPORTS = """
import json, sys
import bot_repro.algorithms, bot_repro.rewards, bot_repro.tasks
from bot_repro.plugins import load_plugins
load_plugins()  # the task packages: mini, aime, react (their reward sources)
import bot_repro.trainer.token_reward
import bot_repro.integrations.verl.layout, bot_repro.integrations.verl.estimators, bot_repro.integrations.verl.stack
import bot_repro.config, bot_repro.integrations.verl.data  # the door verl's stack goes through
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("trl", "hydra") or m.startswith("transformers.trainer"))
print(json.dumps(bad))
"""


def test_reward_layers_import_without_trl_or_hydra():
    """What verl's env installs (algorithms, rewards, tasks, the mapper) pulls in neither TRL nor Hydra."""
    out = subprocess.run([sys.executable, "-c", IMPORTS], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def _rows(K: int, n_groups: int, seed: int):
    gen = torch.Generator().manual_seed(seed)
    B, T = K * n_groups, 9
    lengths = torch.randint(1, T + 1, (B,), generator=gen)
    mask = (torch.arange(T)[None, :] < lengths[:, None]).float()
    G = torch.randint(-1, 2, (B,), generator=gen).float()
    S = -(torch.rand(B, T, generator=gen) > 0.7).float() * mask
    return G, S, mask, lengths


@pytest.mark.parametrize("name", ESTIMATORS)
@pytest.mark.parametrize("K", [2, 4, 8])
def test_adapter_regroups_shuffled_rows_to_the_registry(name, K):
    w_g, w_s = 1.0, 0.2
    G, S, mask, lengths = _rows(K, n_groups=4, seed=K)
    expected = ADVANTAGES[name](G, S, mask, K, w_g=w_g, w_s=w_s)
    perm = torch.randperm(len(G), generator=torch.Generator().manual_seed(1))
    uids = np.array([f"g{i // K}" for i in range(len(G))], dtype=object)[perm.numpy()]
    tlr = torch.zeros(len(G), mask.shape[1] + 1)
    for j, i in enumerate(perm.tolist()):
        row = pack_split(w_g * float(G[i]), (w_s * S[i, : lengths[i]].double()).tolist())
        tlr[j, : len(row)] = torch.tensor(row)
    adv, ret = make_estimator(name)(tlr, mask[perm], index=uids, config={"bot_options": {}})
    torch.testing.assert_close(adv, expected[perm], atol=1e-6, rtol=1e-6)
    torch.testing.assert_close(ret, adv)


def test_layout_and_grouping_errors():
    mask = torch.ones(4, 3)
    with pytest.raises(LayoutError, match="split layout"):
        unpack_split(torch.zeros(4, 3), mask)
    g, s = unpack_split(torch.arange(16.0).view(4, 4), mask)
    assert g.tolist() == [0.0, 4.0, 8.0, 12.0] and s.shape == (4, 3)
    with pytest.raises(ValueError, match="uneven group sizes"):
        group_rows(["a", "a", "b", "c"], mask)
    with pytest.raises(ValueError, match="K >= 2"):
        group_rows(["a", "b", "c", "d"], mask)
    padded = torch.tensor([[1.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 0.0], [0.0, 0.0]])
    groups = group_rows(["x", "p", "x", "p", "p"], padded)  # "p": verl's padding rows, no valid token
    assert groups.K == 2 and groups.order.tolist() == [0, 2] and groups.skipped.tolist() == [1, 3, 4]


def test_verl_stack_goes_through_the_trl_door():
    """verl's reward stack is ``validate_stack``'s: the TRL run's sections, smoke mode's parts included, bad values refused."""
    overrides = ["task=react", "reward=react_bot", "judge=openai", "model=qwen2_5_3b"]
    stack = compose_stack(overrides)
    trl = validate(compose(overrides))
    assert (stack.model, stack.task, stack.reward, stack.judge, stack.seed) == (
        trl.model, trl.task, trl.reward, trl.judge, trl.seed)
    assert compose_stack(["task=aime", "debug=smoke"]).reward.params["step_source"] == "rule"
    with pytest.raises(ConfigError, match=r"reward.window=-1 is not allowed: expected an integer >= 0"):
        compose_stack(["reward.window=-1"])


def test_verl_builds_its_reward_through_build_task(tmp_path, monkeypatch):
    """``build_source`` checks the task's rows and asks ``Task.reward`` for the source, as the trainer does."""
    from bot_repro.tasks.mini.task import MiniTask

    stack = compose_stack(["task=mini", "task.params.n_train=8", "task.params.n_test=2"])
    asked = []
    original = MiniTask.reward
    monkeypatch.setattr(MiniTask, "reward", lambda self, cfg, ctx: asked.append(cfg) or original(self, cfg, ctx))
    source, judge = build_source(stack, tmp_path)
    assert judge is None and type(source).__name__ == "MiniReward"
    assert asked == [stack.reward]  # the typed section itself (its w_g, w_s and window)
    monkeypatch.setattr(MiniTask, "datasets", lambda self: ([{"id": "bad", "prompt": "not messages"}], []))
    with pytest.raises(ConfigError, match="train row 0 .id 'bad'. has no valid 'prompt'"):
        build_source(stack, tmp_path)


def test_checks_inside_verl_venv():
    if not VERL_PYTHON.exists():
        pytest.skip(f"{VERL_PYTHON.relative_to(REPO)} is absent: run `make install-verl` for verl's checks")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    cmd = [str(VERL_PYTHON), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--noconftest", "-W", "ignore",
           str(CHECKS.relative_to(REPO))]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, env=env, timeout=1500)
    tail = (out.stdout + out.stderr)[-6000:]
    assert out.returncode == 0, f"verl checks failed in .venv-verl:\n{tail}"
    assert " passed" in out.stdout and "skipped" not in out.stdout.splitlines()[-1], tail
