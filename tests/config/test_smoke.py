"""Smoke mode has one home, conf/debug/ (smoke.yaml, task/smoke_<task>.yaml, reward/smoke_<task>.yaml): a job of
``python -m bot_repro.experiment run <name> debug=smoke`` composes to the config that
``python -m bot_repro.train experiment=<name> debug=smoke <the job's sweep params>`` composes to."""

from __future__ import annotations

import pytest

from bot_repro.config import validate
from bot_repro.experiment import sweep as fsweep
from tests.conftest import REPO, compose


def _experiment_jobs(name: str) -> list[tuple[list[str], dict]]:
    """(the job's sweep params, its validated config) of every job, as the experiment command's dry run makes them."""
    cfg, args = fsweep.compose_jobs(name, ["debug=smoke"])
    keys = set(fsweep.swept_keys(cfg, args))
    out = []
    for job in fsweep.expand_jobs(cfg, args):
        composed = fsweep.compose_experiment(name, fsweep.merge_overrides(args, job))
        params = [o for o in job if o.split("=", 1)[0].lstrip("+~") in keys]
        out.append((params, validate(fsweep.without_hydra(composed)).composed))
    return out


@pytest.mark.parametrize("name", ["fig5_aime_passk", "fig7_step_strategy", "mini_demo"])
def test_a_smoke_job_composes_as_the_trainer_composes_it(name):
    jobs = _experiment_jobs(name)
    assert jobs
    for params, composed in jobs[:2]:
        trained = validate(compose([f"experiment={name}", "debug=smoke", *params])).composed
        assert composed == trained, params
        assert composed["smoke"] and composed["trainer"]["max_steps"] == 2  # the shrink is in both
        if composed["task"]["name"] == "aime":  # conf/debug/task/smoke_aime.yaml and reward/smoke_aime.yaml
            assert composed["task"]["params"]["source"] == "smoke" and composed["task"]["params"]["limit"] == 8
            assert composed["reward"]["params"]["step_source"] == "rule"
        else:
            assert composed["task"]["params"]["warm_start"] is False  # conf/debug/task/smoke_mini.yaml


def test_a_figure_smoke_sweep_is_one_seed_and_a_full_one_three():
    for overrides, seeds in ((["debug=smoke"], {"seed=0"}), ([], {"seed=0", "seed=1", "seed=2"})):
        cfg, args = fsweep.compose_jobs("fig5_aime_passk", overrides)
        assert {o for job in fsweep.expand_jobs(cfg, args) for o in job if o.startswith("seed=")} == seeds


@pytest.mark.parametrize("task", sorted(p.stem for p in (REPO / "conf" / "task").glob("*.yaml")))
def test_every_task_shrinks_in_smoke_mode_and_the_command_line_wins(task):
    """Each task has its smoke file (a task without one would train on its full data set in smoke runs),
    merged only under debug=smoke, under the command line's values."""
    assert (REPO / "conf" / "debug" / "task" / f"smoke_{task}.yaml").is_file()
    full = compose([f"task={task}"]).task.params
    smoke = compose([f"task={task}", "debug=smoke"]).task.params
    assert smoke != full
    key = "limit_test" if task == "react" else "limit" if task.startswith("aime") else "n_test"
    assert compose([f"task={task}", "debug=smoke", f"task.params.{key}=3"]).task.params[key] == 3
