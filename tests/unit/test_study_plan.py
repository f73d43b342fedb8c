"""Which experiments ``make study`` runs and which warm starts ``make warm-start`` rebuilds are read
from conf/experiment/ (``study.order``; one warm start per task + model config), and a study block
that says something impossible is refused with the key and what is allowed."""

from __future__ import annotations

import pytest
from omegaconf import OmegaConf

from bot_repro import study
from bot_repro.config_errors import ConfigError
from bot_repro.figures import report, sweep


def test_study_runs_the_ordered_experiments_reused_ones_first():
    configs = study.study_experiments()
    assert list(configs) == ["mini_baselines", "mini_same_global", "mini_sparse_15", "mini_sparse_15_floor",
                             "mini_sparse_05", "mini_sparse_05_floor"]
    for name, cfg in configs.items():
        reuse = (report.study_block(cfg, name).get("reuse") or {}).get("experiment")
        assert reuse is None or list(configs).index(reuse) < list(configs).index(name)
    # the demo and the two experiments beyond the study inherit mini_baselines' block but are not in it
    for name in ("mini_demo", "mini_signals", "mini_weighting"):
        assert report.study_block(sweep.compose_experiment(name), name).get("order") is None


def test_one_warm_start_per_task_and_model_config():
    configs = {study.DEMO: sweep.compose_experiment(study.DEMO), **study.study_experiments()}
    # mini_baselines and mini_same_global share the demo's task config; each sparse level has its own
    assert study.warm_start_experiments(configs) == ["mini_demo", "mini_sparse_15", "mini_sparse_05"]


@pytest.mark.parametrize("changed,order,match", [
    # mini_signals as if it had forgotten `order: null` under mini_baselines' block
    ("mini_signals", 1, r"mini_baselines.yaml and mini_signals.yaml both set study.order=1"),
    # mini_sparse_15 after mini_sparse_15_floor (order 4), which reuses its runs
    ("mini_sparse_15", 7, r"mini_sparse_15_floor.yaml \(study.order=4\) reuses mini_sparse_15's runs"),
])
def test_an_inherited_order_or_a_reuse_out_of_order_is_an_error(monkeypatch, changed, order, match):
    real = sweep.compose_experiment

    def compose(name, overrides=()):
        cfg = real(name, overrides)
        if name == changed:
            cfg.study.order = order
        return cfg

    monkeypatch.setattr(sweep, "compose_experiment", compose)
    with pytest.raises(ConfigError, match=match):
        study.study_experiments()


@pytest.mark.parametrize("block,match", [
    ({"order": 0}, r"study.order=0; allowed: a whole number >= 1"),
    ({"order": True}, r"study.order=True"),
    ({"extends": "latest"}, r"study.extends='latest'; allowed: committed, null"),
    ({"reuses": {}}, r"study.reuses is not a key; allowed: order, reuse"),
])
def test_bad_study_blocks_name_the_key(block, match):
    with pytest.raises(ConfigError, match=match):
        report.study_block(OmegaConf.create({"study": block}), "x")


def test_a_reused_sweep_is_the_same_studys_else_the_newest_from_the_same_policy(tmp_path):
    """`study --experiment X_floor` run after `study --experiment X` (two stamps) still reads X's runs."""
    import json

    def sweep(experiment, stamp, policy):
        path = tmp_path / "runs" / experiment / stamp / "sweep"
        path.mkdir(parents=True)
        (path / "policy.json").write_text(json.dumps({"policy_hash": policy}))
        return path

    older, newer = sweep("base", "2026-01-01_00-00-00", "p1"), sweep("base", "2026-01-02_00-00-00", "p1")
    sweep("base", "2026-01-03_00-00-00", "other")  # newest, but from another policy
    floor = sweep("floor", "2026-01-04_00-00-00", "p1")
    assert report.reused_sweep(floor, "base") == newer
    same_study = sweep("floor", "2026-01-01_00-00-00", "p1")
    assert report.reused_sweep(same_study, "base") == older  # one make study: its own stamp
    assert report.reused_sweep(sweep("floor", "2026-01-05_00-00-00", "p9"), "base") is None
    assert report.reused_sweep(tmp_path / "archive" / "runs", "base") is None  # an archive holds its copies
