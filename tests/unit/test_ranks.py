"""Which process of a run this is (bot_repro.ranks) and how many a resources preset starts."""

from __future__ import annotations

import os

import pytest

from bot_repro import ranks
from bot_repro.config import training_processes, validate
from bot_repro.config_schema import ConfigError
from tests.conftest import compose

LAUNCH_VARS = ("WORLD_SIZE", "RANK", "LOCAL_RANK", "LOCAL_WORLD_SIZE")


@pytest.fixture
def outside_a_launch(monkeypatch):
    for name in LAUNCH_VARS:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_one_process_outside_a_launch(outside_a_launch):
    assert (ranks.world_size(), ranks.rank(), ranks.local_rank(), ranks.local_world_size()) == (1, 0, 0, 1)
    assert ranks.is_main() and ranks.is_local_main()
    assert ranks.cpu_share() == len(os.sched_getaffinity(0))


def test_torchrun_variables(outside_a_launch):
    m = outside_a_launch
    for name, value in {"WORLD_SIZE": "4", "RANK": "3", "LOCAL_RANK": "1", "LOCAL_WORLD_SIZE": "2"}.items():
        m.setenv(name, value)
    assert not ranks.is_main() and not ranks.is_local_main()
    cores = len(os.sched_getaffinity(0))
    assert ranks.cpu_share() == max(1, cores // 2)  # 2 processes on this machine share its cores
    m.setenv("LOCAL_WORLD_SIZE", str(4 * cores))
    assert ranks.cpu_share() == 1  # never 0


@pytest.mark.parametrize(("preset", "processes", "per_device"), [("cpu", 1, 64), ("cpu_x2", 2, 32),
                                                                  ("a100_80g", 1, 64), ("a100_80g_x8", 8, 8),
                                                                  ("l40s_x2", 1, 64)])  # fmt: skip
def test_presets_train_in_their_number_of_processes(outside_a_launch, preset, processes, per_device):
    run_cfg = validate(compose([f"resources={preset}", "trainer=default"]))
    assert training_processes(run_cfg.resources) == processes
    assert run_cfg.batch == (per_device, 1)  # 8 prompts x 8 rollouts split over the processes


def test_a_launch_s_world_size_wins_and_a_bad_count_is_named(outside_a_launch):
    outside_a_launch.setenv("WORLD_SIZE", "4")
    assert validate(compose(["resources=cpu"])).batch[0] * 4 == 64
    outside_a_launch.delenv("WORLD_SIZE")
    with pytest.raises(ConfigError, match=r"resources.processes=0 is not allowed: expected an integer > 0"):
        validate(compose(["resources=cpu_x2", "resources.processes=0"]))
