"""Which experiments ``make study`` runs (``conf/study.yaml``, an explicit ordered list) and which warm
starts ``make warm-start`` rebuilds (one per task + model config); a list that says something impossible
is refused with what is wrong; a report finds the runs its ``report.reads`` names by the other
experiment's name and the starting policy's hash, never by folder stamps."""

from __future__ import annotations

import json

import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.experiment import spec, sweep, warm_start
from bot_repro.experiment.report import reads_source

STUDY = ["mini_baselines", "mini_same_global", "mini_sparse_15", "mini_sparse_15_floor", "mini_sparse_05",
         "mini_sparse_05_floor"]


def test_study_runs_the_listed_experiments_read_ones_first():
    names = spec.study_list()
    assert names == STUDY
    for name in names:
        reads = spec.load(name).reads
        assert reads is None or names.index(reads.experiment) < names.index(name)


def test_one_warm_start_per_task_and_model_config():
    configs = {n: sweep.compose_experiment(n) for n in [warm_start.DEMO, *spec.study_list()]}
    # mini_baselines and mini_same_global share the demo's task config; each sparse level has its own
    assert warm_start.warm_start_experiments(configs) == ["mini_demo", "mini_sparse_15", "mini_sparse_05"]


@pytest.mark.parametrize("text,match", [
    ("experiments: [mini_sparse_15_floor, mini_sparse_15]", r"mini_sparse_15_floor reads mini_sparse_15's runs, so "
                                                           r"mini_sparse_15 must come before it"),
    ("experiments: [mini_baselines, mini_baselines]", r"mini_baselines is listed twice"),
    ("experiments: [mini_basline]", r"experiments\[0\]='mini_basline' is not an experiment file; known: .*mini_baselines"),
    ("experiments: []", r"'experiments' must be a non-empty list"),
    ("experiments: [mini_baselines]\norder: 1", r"unknown key 'order'; allowed: experiments"),
])
def test_a_bad_study_list_is_refused_with_what_is_wrong(tmp_path, text, match):
    path = tmp_path / "study.yaml"
    path.write_text(text + "\n")
    with pytest.raises(ConfigError, match=match):
        spec.study_list(path)


def test_reads_finds_the_newest_runs_of_that_experiment_from_the_same_policy(tmp_path, monkeypatch):
    """`run mini_sparse_15_floor` after `run mini_sparse_15` (two stamps) reads the latter's runs."""
    from bot_repro.analysis import committed

    monkeypatch.setattr(committed, "REPO", tmp_path)  # no committed archive of the read experiment here

    def make(experiment, stamp, policy):
        path = tmp_path / "runs" / experiment / stamp / "sweep"
        path.mkdir(parents=True)
        (path / "policy.json").write_text(json.dumps({"policy_hash": policy}))
        return path

    exp = spec.load("mini_sparse_15_floor")
    make("mini_sparse_15", "2026-01-01_00-00-00", "p1")
    newer = make("mini_sparse_15", "2026-01-02_00-00-00", "p1")
    make("mini_sparse_15", "2026-01-03_00-00-00", "other")  # newest, but from another policy
    floor = make("mini_sparse_15_floor", "2026-01-01_00-00-00", "p1")  # an older stamp than what it reads
    assert reads_source(exp, floor) == newer
    assert reads_source(exp, make("mini_sparse_15_floor", "2026-01-05_00-00-00", "p9")) is None
    assert reads_source(exp, tmp_path / "archive" / "runs") is None  # an archive holds its copies
