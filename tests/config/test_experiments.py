"""Every experiment file composes with a valid report block; every figure's sweep expands to the sweep of
docs/method.md §6 and validates job by job, with and without debug=smoke; smoke mode really shrinks each job
(tiny model, 2 steps, one seed)."""

from __future__ import annotations

from collections import Counter

import pytest
from omegaconf import OmegaConf, open_dict

from bot_repro.config import validate
from bot_repro.config_schema import ConfigError
from bot_repro.experiment import spec
from bot_repro.experiment import sweep as fsweep
from bot_repro.experiment.run_table import CHOICE_PREFIX
from bot_repro.tasks.base import build_task
from tests.conftest import REPO

SLUGS = [n for n in spec.names() if spec.FIGURE_NAME.match(n)]
TRAINED = [s for s in SLUGS if s != "fig2_win_rate"]  # figure 2 judges figure 1's runs
# Jobs per figure with the default 3 seeds (docs/method.md §6): arms x seeds, counted by hand.
JOBS = {"fig1_compile_rate": 15, "fig3_model_families": 18, "fig4_reward_stack": 12,
        "fig5_aime_passk": 6, "fig6_aime_families": 18, "fig7_step_strategy": 9, "fig8_local_weight": 9,
        "fig9_step_window": 9, "fig10_vlm_line_reward": 12}  # fmt: skip
# (algorithm, reward source, hue value) of each figure's arms, as docs/method.md §6 describes them.
ARMS = {
    "fig1_compile_rate": {(a, "react", a) for a in ("grpo", "gspo", "dapo", "pure", "bot_grpo")},
    "fig4_reward_stack": {("grpo", "react", "react_grpo_global"), ("bot_grpo", "react", "react_bot"),
                          ("bot_grpo", "react", "react_bot_vlm"), ("bot_grpo", "react", "react_bot_static")},
    "fig5_aime_passk": {("grpo", "aime", "grpo"), ("bot_grpo", "aime", "bot_grpo")},
    "fig7_step_strategy": {("bot_grpo", "aime", r) for r in ("aime_bot", "aime_bot_context_aware", "aime_bot_independent")},
    "fig8_local_weight": {("bot_grpo", "aime", w) for w in (0.1, 0.5, 1.0)},
    "fig9_step_window": {("bot_grpo", "aime", w) for w in (1, 3, 5)},
    "fig10_vlm_line_reward": {("bot_grpo", "react", r) for r in
                              ("react_vlm_global", "react_vlm_1turn_w1", "react_vlm_1turn_w02", "react_vlm_2turn")},
}
FAMILY_SWEEPS = ("fig3_model_families", "fig6_aime_families")
FAMILIES = {("qwen2_5_3b", "qwen2"), ("smollm3_3b", "smollm3"), ("phi4_mini_reasoning", "phi3")}


def _jobs(slug: str, user: list[str]) -> list[list[str]]:
    base = fsweep.compose_experiment(slug, user)
    args = fsweep.job_overrides(slug, user)
    return fsweep.expand_jobs(base, args)


def _compose_job(job: list[str]):
    slug = next(o.split("=", 1)[1] for o in job if o.startswith("experiment="))
    return fsweep.compose_experiment(slug, job)


def _train_config(cfg):
    """The job's training config: what bot_repro.train sees (no hydra node)."""
    cfg = cfg.copy()
    with open_dict(cfg):
        del cfg["hydra"]
    return cfg


def _hue_value(cfg, column: str):
    if column.startswith(CHOICE_PREFIX):
        return cfg.hydra.runtime.choices[column[len(CHOICE_PREFIX):]]
    return OmegaConf.select(cfg, column)


@pytest.mark.parametrize("name", spec.names())
def test_every_experiment_composes_with_a_valid_report_block(name):
    exp = spec.load(name)
    assert exp.plot.panel_metrics and exp.cfg.experiment_name == name
    if spec.FIGURE_NAME.match(name):
        assert exp.figure == int(spec.FIGURE_NAME.match(name).group(1)) and exp.report.claim == f"C{exp.figure}"
        assert exp.report.shows and (REPO / "experiments" / name / "README.md").is_file(), name


def test_a_plan_with_a_bad_declared_test_fails_at_composition_naming_it():
    exp = spec.load("mini_demo")
    cfg = exp.cfg.copy()
    with open_dict(cfg):
        cfg.report.tests = [{"what": "x", "quantity": "final", "a": "bot_grpo", "b": "grpo", "better": "higher"}]
    with pytest.raises(ConfigError, match=r"report.tests of conf/experiment/mini_demo.yaml.*better='higher'; allowed: above, below"):
        spec.from_config("mini_demo", cfg)


def test_figures_are_numbered_one_to_ten_and_resolve_by_number():
    assert [spec.resolve(str(n)) for n in range(1, 11)] == SLUGS
    with pytest.raises(spec.UnknownNameError, match="unknown experiment '11'.*fig1_compile_rate"):
        spec.resolve("11")


@pytest.mark.parametrize("slug", TRAINED)
def test_full_sweep_composes_and_validates(slug):
    exp = spec.load(slug)
    jobs = _jobs(slug, [])
    assert len(jobs) == JOBS[slug]
    seeds = Counter(next(o for o in job if o.startswith("seed=")) for job in jobs)
    assert sorted(seeds) == ["seed=0", "seed=1", "seed=2"] and len(set(seeds.values())) == 1
    settings = None
    arms, families = set(), set()
    for job in [j for j in jobs if "seed=0" in j]:  # seeds do not change the composition
        cfg = _compose_job(job)
        settings = settings or exp.plot
        sections = validate(_train_config(cfg))
        assert cfg.model.hub_id, "full runs train the paper's hub models"
        assert cfg.judge.backend == "openai" and not cfg.smoke
        assert cfg.experiment_name == slug
        if cfg.task.name == "aime":
            assert cfg.trainer.learning_rate == pytest.approx(5e-7)  # docs/method.md §7
        arms.add((sections.algorithm.name, sections.reward.source, _hue_value(cfg, settings.hue)))
        families.add((cfg.model.name, cfg.model.family))
    if slug in ARMS:
        assert arms == ARMS[slug]
    if slug in FAMILY_SWEEPS:
        assert families == FAMILIES


@pytest.mark.parametrize("slug", TRAINED)
def test_smoke_sweep_is_one_seed_of_tiny_models_and_builds_task_and_reward(slug, tmp_path):
    full_jobs = _jobs(slug, [])
    jobs = _jobs(slug, ["debug=smoke"])
    assert len(jobs) * 3 == len(full_jobs)
    families = set()
    for job in jobs:
        cfg = _train_config(_compose_job(job))
        sections = validate(cfg)
        assert cfg.seed == 0 and cfg.smoke
        assert cfg.model.hub_id is None and cfg.model.dtype == "float32"
        assert cfg.judge.backend == "loopback"
        assert cfg.resources.device == "cpu"
        # the smoke shrink wins over the experiment (conf/train.yaml merges debug/ after experiment/)
        assert cfg.trainer.max_steps == 2 and cfg.trainer.max_completion_length == 24
        build_task(sections, judge=object(), run_dir=tmp_path)
        families.add((cfg.model.name, cfg.model.family))
    if slug in FAMILY_SWEEPS:  # smoke keeps each family: a tiny model of the same architecture, named so
        assert families == {(f"tiny_{name}", family) for name, family in FAMILIES}


def test_user_overrides_beat_smoke_mode():
    jobs = _jobs("fig5_aime_passk", ["debug=smoke", "seed=3,4", "judge=none"])
    assert sorted({o for j in jobs for o in j if o.startswith("seed=")}) == ["seed=3", "seed=4"]
    assert all(_compose_job(j).judge.backend == "none" for j in jobs[:1])


def test_launchers_and_resources_compose():
    for extra in (["cluster=joblib"], ["cluster=slurm", "resources=a100_80g"], ["resources=l40s_x2"]):
        cfg = fsweep.compose_experiment("fig1_compile_rate", extra)
        assert fsweep.expand_jobs(cfg, fsweep.job_overrides("fig1_compile_rate", extra))


def test_figure2_judges_figure1_runs():
    exp = spec.load("fig2_win_rate")
    assert not exp.trains and exp.pairwise[0] == "fig1_compile_rate"
    assert set(exp.pairwise[1].baselines) == {"grpo", "pure", "gspo", "dapo"} and exp.pairwise[1].reference == "bot_grpo"
    fig1 = {(a.split("=")[1]) for j in _jobs("fig1_compile_rate", []) for a in j if a.startswith("algorithm=")}
    assert {exp.pairwise[1].reference, *exp.pairwise[1].baselines} <= fig1  # every judged arm is trained by figure 1


def test_a_dry_run_validates_every_job_and_names_the_one_that_fails(capsys):
    from bot_repro.experiment.run import dry_run

    jobs = dry_run("mini_demo", [])
    out = capsys.readouterr().out
    assert len(jobs) == 9 and "mini_demo: 9 job(s), 630 training steps in all; valid" in out
    with pytest.raises(ConfigError, match=r"mini_demo, job 0 .*trainer.max_steps='x' is not allowed"):
        dry_run("mini_demo", ["trainer.max_steps=x"])


def test_the_real_study_on_one_gpu_is_a_valid_dry_run(capsys):
    from bot_repro.experiment.run import dry_run

    jobs = dry_run("real_study", ["resources=one_gpu"])
    out = capsys.readouterr().out
    assert len(jobs) >= 30 and out.count("[one_gpu: cuda, bf16, vLLM;") == len(jobs)
    assert f"real_study: {len(jobs)} job(s)" in out and "valid (dry run: nothing trained)" in out
