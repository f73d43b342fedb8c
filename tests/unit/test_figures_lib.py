"""Figure library pieces on hand-made run folders: job bookkeeping, run loading, pairwise, drawing."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
import yaml
from matplotlib.collections import PathCollection

from bot_repro.analysis.synthetic import curve_records, run_config, run_info, write_run_dir
from bot_repro.experiment import sweep
from bot_repro.experiment.pairwise import PairwiseCfg, pair_inputs, run_pairwise
from bot_repro.experiment.run_table import load_figure_runs
from bot_repro.judges.types import PairResult
from bot_repro.plots.figures import PlotCfg, draw, draw_and_save, plot_config


def _hydra_files(run_dir: Path, overrides: list[str], choices: dict[str, str]) -> None:
    (run_dir / ".hydra").mkdir(parents=True, exist_ok=True)
    (run_dir / ".hydra" / "overrides.yaml").write_text(yaml.safe_dump(overrides))
    (run_dir / ".hydra" / "hydra.yaml").write_text(
        yaml.safe_dump({"hydra": {"runtime": {"choices": {**choices, "hydra/launcher": "basic"}}}})
    )


# -- sweep bookkeeping -------------------------------------------------------------------------------


def test_merge_overrides_keeps_the_last_value_per_key():
    assert sweep.merge_overrides(["seed=0", "judge=loopback"], ["+arm=a", "seed=1,2"], ["judge=none"]) == [
        "+arm=a", "seed=1,2", "judge=none"]
    assert sweep.is_smoke(["a=1", "debug=smoke"]) and not sweep.is_smoke(["debug=null"])


def test_missing_jobs_counts_only_completed_runs_of_the_swept_keys(tmp_path):
    cfg = sweep.compose_experiment("fig5_aime_passk")  # +arm: aime_grpo,aime_bot x seed: 0,1,2
    args = sweep.job_overrides("fig5_aime_passk", [])
    assert len(sweep.missing_jobs(cfg, args, tmp_path)) == 6
    for arm, seed, status in [("aime_grpo", 0, "completed"), ("aime_bot", 0, "completed"), ("aime_bot", 1, "failed")]:
        run = write_run_dir(tmp_path / "s" / f"{arm}_{seed}", None, None, run_info(seed, status))
        # a run of another experiment (figure 1 vs 2) with extra overrides still fills its cell
        _hydra_files(run, [f"seed={seed}", f"+arm={arm}", "experiment=other", "debug=smoke"], {})
    missing = sweep.missing_jobs(cfg, args, tmp_path)
    keys = sweep.swept_keys(cfg, args)
    assert sorted(sorted(sweep.job_key(j, keys)) for j in missing) == sorted(
        [["arm=aime_bot", "seed=1"], ["arm=aime_grpo", "seed=1"], ["arm=aime_bot", "seed=2"], ["arm=aime_grpo", "seed=2"]]
    )


def test_subprocess_multirun_runs_the_trainer_cli(tmp_path, monkeypatch):
    calls = []

    def fake_run(cmd, cwd):
        calls.append((cmd, cwd))
        return type("P", (), {"returncode": 1 if "fail=1" in cmd else 0})()

    monkeypatch.setattr(sweep.subprocess, "run", fake_run)
    sweep.run_multirun(["experiment=fig5_aime_passk", "debug=smoke"], tmp_path / "s", in_process=False)
    assert calls[0][0][1:] == ["-m", "bot_repro.train", "-m", "experiment=fig5_aime_passk", "debug=smoke",
                               f"hydra.sweep.dir={tmp_path / 's'}"]
    with pytest.raises(sweep.ExperimentError, match="the sweep failed"):
        sweep.run_multirun(["fail=1"], tmp_path / "s", in_process=False)


def test_new_sweep_dirs_never_collide(tmp_path):
    first = sweep.new_sweep_dir(tmp_path)
    first.mkdir()
    assert sweep.new_sweep_dir(tmp_path) != first


# -- run loading ---------------------------------------------------------------------------------------


def test_choice_columns_and_newer_run_wins(tmp_path):
    for name, start, value in [("old", "2026-01-01T00:00:00", 0.1), ("new", "2026-02-01T00:00:00", 0.9)]:
        run = write_run_dir(tmp_path / name, run_config("bot_grpo", 0), curve_records([1, 2], {"eval/x": [value, value]}),
                            {**run_info(0), "start_time": start})
        _hydra_files(run, ["seed=0"], {"reward": "react_vlm_2turn"})
    other = write_run_dir(tmp_path / "other", run_config("bot_grpo", 1), curve_records([1], {"eval/x": [0.5]}), run_info(1))
    _hydra_files(other, ["seed=1"], {"reward": "react_vlm_2turn"})
    with pytest.warns(UserWarning, match="older run"):
        frame = load_figure_runs(tmp_path, ["choice.reward"])
    assert set(frame["choice.reward"]) == {"react_vlm_2turn"}
    by_seed = frame.groupby("seed")["value"].max().to_dict()
    assert by_seed == {0: 0.9, 1: 0.5}


# -- pairwise ------------------------------------------------------------------------------------------


class RenderedWins:
    """Stand-in pairwise judge: a screenshot beats a missing one, the larger PNG beats the smaller."""

    def __init__(self):
        self.calls = 0

    def pairwise_abba(self, items):
        self.calls += len(items)
        out = []
        for it in items:
            a, b = len(it.png_a or b""), len(it.png_b or b"")
            out.append(PairResult(win_a=1.0 if a > b else 0.0 if b > a else 0.5, tie=a == b))
        return out


def _react_run(root: Path, alg: str, seed: int, steps: list[int], sizes: list[list[int | None]]) -> Path:
    """A run whose evaluation at each step saved one screenshot of ``sizes[i][prompt]`` bytes (None: no render)."""
    run = write_run_dir(root / f"{alg}_s{seed}", run_config(alg, seed),
                        curve_records(steps, {"eval/compile_rate": [0.5] * len(steps)}), run_info(seed))
    for step, per_prompt in zip(steps, sizes):
        folder = run / "eval" / f"step_{step:06d}"
        (folder / "screens").mkdir(parents=True)
        with (folder / "rollouts.jsonl").open("w") as f:
            for p, size in enumerate(per_prompt):
                shot = None
                if size is not None:
                    shot = f"screens/{p:04d}_00.png"
                    (folder / shot).write_bytes(b"x" * size)
                f.write(json.dumps({"id": f"p{p}", "rollout": 0, "request": f"make app {p}", "screenshot": shot}) + "\n")
    return run


def test_pairwise_win_rates_per_seed_and_step(tmp_path):
    runs = tmp_path / "runs"
    _react_run(runs, "bot_grpo", 0, [0, 5, 10], [[10, 10], [10, None], [30, 30]])
    _react_run(runs, "grpo", 0, [0, 5, 10], [[10, 10], [20, 20], [10, None]])
    _react_run(runs, "gspo", 0, [0, 10], [[None, None], [40, 40]])
    _react_run(runs, "bot_grpo", 1, [0, 10], [[10, 10], [10, 10]])  # seed 1 has no baseline: no pair
    judge = RenderedWins()
    out = run_pairwise(runs, tmp_path / "pairs", PairwiseCfg(baselines=["grpo", "gspo", "dapo"], step_every=10), judge)
    assert sorted(p.name for p in out) == ["bot_grpo_vs_grpo_s0", "bot_grpo_vs_gspo_s0"]
    grpo = [json.loads(x) for x in (tmp_path / "pairs" / "bot_grpo_vs_grpo_s0" / "metrics.jsonl").read_text().splitlines()]
    # step 5 is not a multiple of 10 and not the last common step: skipped
    assert [r["step"] for r in grpo] == [0, 10]
    assert [r["pairwise/win_rate"] for r in grpo] == [0.5, 1.0] and [r["pairwise/tie_rate"] for r in grpo] == [1.0, 0.0]
    assert grpo[1]["time"] == 100.0  # the reference run's clock at step 10 (curve_records: 10 s per step)
    gspo = [json.loads(x) for x in (tmp_path / "pairs" / "bot_grpo_vs_gspo_s0" / "metrics.jsonl").read_text().splitlines()]
    assert [(r["step"], r["pairwise/win_rate"]) for r in gspo] == [(0, 1.0), (10, 0.0)]
    assert judge.calls == 8
    cfg = yaml.safe_load((tmp_path / "pairs" / "bot_grpo_vs_gspo_s0" / ".hydra" / "config.yaml").read_text())
    assert cfg["pairwise"]["baseline"] == "gspo" and cfg["seed"] == 0


def test_pair_inputs_caps_prompts_and_rollouts(tmp_path):
    a = _react_run(tmp_path / "a", "x", 0, [0], [[1, 2, 3]]) / "eval" / "step_000000"
    b = _react_run(tmp_path / "b", "y", 0, [0], [[4, None, 6]]) / "eval" / "step_000000"
    pngs_a, pngs_b, prompts = pair_inputs(a, b, max_prompts=2, rollouts_per_prompt=3)
    assert prompts == ["make app 0", "make app 1"]
    assert [p.name for p in pngs_a] == ["0000_00.png", "0001_00.png"] and pngs_b[1] is None


def test_pairwise_needs_a_reference_and_a_baseline(tmp_path):
    _react_run(tmp_path, "grpo", 0, [0], [[1]])
    with pytest.raises(ValueError, match="no seed .* has both a 'bot_grpo' run"):
        run_pairwise(tmp_path, tmp_path / "out", PairwiseCfg(), RenderedWins())


# -- drawing -------------------------------------------------------------------------------------------


def _curves(root: Path, groups: dict[str, list[list[float]]], metric: str = "eval/compile_rate") -> None:
    for alg, per_seed in groups.items():
        for seed, ys in enumerate(per_seed):
            write_run_dir(root / f"{alg}_{seed}", run_config(alg, seed),
                          curve_records(range(len(ys)), {metric: ys}), run_info(seed))


def _frame(root: Path, cfg: PlotCfg):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_figure_runs(root, cfg.columns)


def test_drop_bars_are_the_mean_smoothed_peak_to_final_drop(tmp_path):
    # EMA(0.5) of [0, 1, 1, 0] = 0, .5, .75, .375 -> drop .375; of [0, 1, 1, 1] -> rising, drop 0
    _curves(tmp_path, {"bot_grpo": [[0, 1, 1, 0], [0, 1, 1, 1]], "grpo": [[0, 0, 0, 0]]})
    cfg = plot_config({"kind": "curves_drop", "metric": "eval/compile_rate", "labels": {"grpo": "baseline"},
                       "paper": {"claim": "C10", "drop": {"bot_grpo": 0.2, "dapo": 0.5}}}, "plot")
    fig = draw(_frame(tmp_path, cfg), cfg)
    bars = fig.axes[1].patches
    assert [round(b.get_height(), 6) for b in bars] == [0.1875, 0.0]
    assert [t.get_text() for t in fig.axes[1].get_xticklabels()] == ["BoT-GRPO", "baseline"]
    stars = fig.axes[1].collections[-1].get_offsets()
    assert stars.tolist() == [[0.0, 0.2]]  # dapo has no bar, so no paper star


def test_curves_with_panels_paper_marks_and_missing_metric(tmp_path):
    _curves(tmp_path, {"grpo": [[0.1, 0.2, 0.3]], "bot_grpo": [[0.2, 0.5, 0.9]]})
    cfg = plot_config({"kind": "metric_panels", "metrics": ["eval/compile_rate", "eval/pass@4"], "ylim": [0, 1],
                       "labels": {"eval/compile_rate": "Compile"},
                       "paper": {"eval/compile_rate": {"final": {"bot_grpo": [0.8, 0.9]}, "points": {"grpo": [[1, 0.5]]}},
                                 "eval/pass@4": {"band": [0.2, 0.3]}}}, "plot")
    paths = draw_and_save(_frame(tmp_path, cfg), cfg, tmp_path / "out" / "fig")
    assert [p.suffix for p in paths] == [".png", ".pdf"] and paths[0].read_bytes()[:4] == b"\x89PNG"
    fig = draw(_frame(tmp_path, cfg), cfg)
    left, right = fig.axes
    assert left.get_title() == "Compile" and left.get_ylim() == (0.0, 1.0)
    labels = left.get_legend_handles_labels()[1] + right.get_legend_handles_labels()[1]
    assert {"BoT-GRPO", "GRPO", "paper, 1 seed", "paper range, 1 seed"} <= set(labels)
    stars = [c for c in left.collections if isinstance(c, PathCollection)]
    assert sorted(tuple(np.round(c.get_offsets()[0], 6)) for c in stars) == [(1.0, 0.5), (2.0, 0.85)]  # the range is drawn at its middle on the last step
    assert any("no data" in t.get_text() for t in right.texts)


def test_rates_on_their_data_range_each_panel_its_own(tmp_path):
    _curves(tmp_path, {"grpo": [[0.30, 0.32, 0.35]], "bot_grpo": [[0.31, 0.33, 0.36]]})
    cfg = plot_config({"kind": "metric_panels", "metrics": ["eval/compile_rate", "eval/pass@4"], "rates": "data"}, "plot")
    left, right = draw(_frame(tmp_path, cfg), cfg).axes
    low, high = left.get_ylim()
    drawn = np.concatenate([line.get_ydata() for line in left.lines if len(line.get_ydata())])
    assert 0.0 < low <= drawn.min() and drawn.max() <= high < 1.0 and high - low < 0.1  # the curves fill the panel
    assert right.get_ylim() == (0.0, 1.0) or right.texts  # a panel with no data keeps its own range
    with pytest.raises(ValueError, match="rates='zoom'; allowed: unit, data"):
        plot_config({"kind": "curves", "metric": "m", "rates": "zoom"}, "plot")


@pytest.mark.parametrize("raw, match", [
    ({"kind": "bars", "metric": "m"}, "kind='bars'"),
    ({"kind": "curves"}, "needs `metric`"),
    ({"kind": "curves", "metric": "m", "colour": "red"}, r"unknown key\(s\) \['colour'\]"),
    ({"kind": "curves", "metric": "m", "paper": {"band": [1]}}, "band must be"),
    ({"kind": "metric_panels", "metrics": ["a"], "thresholds": {"b": 0.5}}, r"thresholds names \['b'\]"),
])
def test_bad_plot_blocks_fail_with_the_reason(raw, match):
    from bot_repro.config_schema import ConfigError

    with pytest.raises(ConfigError, match=match):
        cfg = plot_config(raw, "plot.x")
        cfg.paper_for(None)


def test_a_metric_panel_has_its_own_threshold_else_the_common_one():
    cfg = plot_config({"kind": "metric_panels", "metrics": ["eval/pass@1", "eval/pass@4", "monitor/x"],
                       "threshold": 0.6, "thresholds": {"eval/pass@1": 0.3}}, "plot.x")
    assert [cfg.threshold_for(m) for m in cfg.panel_metrics] == [0.3, 0.6, 0.6]


def test_nan_free_summary_numbers_are_plain_json(tmp_path):
    from omegaconf import OmegaConf

    from bot_repro import report_folder
    from bot_repro.experiment import report, spec

    _curves(tmp_path / "runs", {"grpo": [[0.1, 0.5, 0.9], [0.2, 0.6, 0.9]], "bot_grpo": [[0.5, 0.9, 0.9], [0.6, 0.9, 0.95]]})
    block = {"kind": "curves", "metric": "eval/compile_rate", "threshold": 0.8, "baseline": "grpo"}
    exp = spec.from_config("fig1_compile_rate", OmegaConf.create({"report": {"figure": 1, "claim": "C1", "plot": block}}))
    rep = report.build(exp, [tmp_path / "runs"], "cmd")
    report.write(rep, [tmp_path / "runs"], tmp_path / "res")
    summary = report_folder.read_summary(tmp_path / "res")  # the one reader: format_version and shape checked
    assert summary["meta"]["command"] == "cmd" and summary["meta"]["machines"]  # the report path's provenance
    assert summary["meta"]["figure"] == 1 and summary["meta"]["archived_runs"] == 4
    assert len(list(report_folder.unpack(tmp_path / "res").glob("*/metrics.jsonl"))) == 4  # redrawable from its archive
    groups = {g["label"]: g for g in summary["summaries"][0]["groups"]}
    # EMA(.5) crossing of 0.8: bot [.5,.7,.8] -> step 2, [.6,.75,.85] -> step 2; grpo never
    assert groups["bot_grpo"]["to_threshold"]["step"]["mean"] == 2.0
    assert groups["grpo"]["to_threshold"]["step"]["mean"] is None
    assert "| BoT-GRPO | 2 | 0.550 [0.500, 0.600] | 0.925 [0.900, 0.950] | 0.375 [0.350, 0.400] |" in (tmp_path / "res" / "summary.md").read_text()
    curves = {c["group"]["algorithm.name"]: c["points"] for c in summary["summaries"][0]["curves"]}
    assert [[s, pytest.approx(m), n] for s, m, n in curves["grpo"]] == [[0, 0.15, 2], [1, 0.55, 2], [2, 0.9, 2]]  # unsmoothed means


def test_full_runs_refuse_the_cpu_preset_before_training(tmp_path, monkeypatch):
    from bot_repro.config_schema import ConfigError
    from bot_repro.experiment import run

    monkeypatch.setattr(sweep, "run_multirun", lambda *a, **k: pytest.fail("must not start the sweep"))
    roots = run.Roots.default(False, tmp_path / "runs")
    with pytest.raises(sweep.ExperimentError, match="RESOURCES=a100_80g"):
        run.run("fig5_aime_passk", [], roots, "cmd")
    with pytest.raises(ConfigError, match=r"unknown key\(s\) \['colour'\] in report.plot of conf/experiment/fig5_aime_passk"):
        run.run("fig5_aime_passk", ["+report.plot.colour=red"], roots, "cmd")


def test_pairwise_through_the_real_judge_client_on_loopback_http(tmp_path):
    """Figure 2's path end to end: run folders -> React win_rate -> JudgeClient (HTTP, ABBA) -> results."""
    from bot_repro.judges import build_judge_client
    from tests.judge_server import http_cfg, running_server

    def larger_image_wins(request):
        sizes = [p["size"] for m in request["messages"] for p in m["content"] if p["type"] == "image"]
        return "WINNER: " + ("A" if sizes[0] > sizes[1] else "B")

    runs = tmp_path / "runs"
    _react_run(runs, "bot_grpo", 0, [0, 2], [[5, 9], [50, 50]])
    _react_run(runs, "dapo", 0, [0, 2], [[7, 7], [10, 10]])
    with running_server(larger_image_wins) as server:
        judge = build_judge_client(http_cfg(server, tmp_path), tmp_path)
        try:
            run_pairwise(runs, tmp_path / "pairs", PairwiseCfg(baselines=["dapo"]), judge)
        finally:
            judge.close()
        assert len(server.requests) == 4 * 4  # two steps x two prompts x four ABBA calls
    records = [json.loads(x) for x in (tmp_path / "pairs" / "bot_grpo_vs_dapo_s0" / "metrics.jsonl").read_text().splitlines()]
    # step 0: prompt 0 loses (5 < 7), prompt 1 wins (9 > 7) -> 0.5, no ties; step 2: both win
    assert [(r["step"], r["pairwise/win_rate"], r["pairwise/tie_rate"]) for r in records] == [(0, 0.5, 0.0), (2, 1.0, 0.0)]


@pytest.mark.parametrize("overrides", [["resources=cpu"], ["debug=smoke"]])
def test_training_composes_the_sweep_once_and_each_job_once(tmp_path, monkeypatch, overrides):
    """The sweep once, in smoke mode too (what smoke mode changes is in conf/debug/, not extra overrides), then
    each job once: every job is validated, and its steps counted, before any trains."""
    from bot_repro.experiment import run, spec

    calls = []
    real = sweep.compose_experiment
    monkeypatch.setattr(sweep, "compose_experiment", lambda slug, o=(): calls.append((slug, tuple(o))) or real(slug, o))
    monkeypatch.setattr(sweep, "run_multirun", lambda *a, **k: None)
    exp = spec.load("fig5_aime_passk", overrides)
    cfg, args = sweep.compose_jobs(exp.name, overrides)
    jobs = sweep.expand_jobs(cfg, args)
    calls.clear()
    run.train(exp, overrides, tmp_path / "sweep", in_process=True)
    assert len(jobs) > 1 and len(calls) == 1 + len(jobs) and {slug for slug, _ in calls} == {"fig5_aime_passk"}
    assert len(set(calls[1:])) == len(jobs)  # each job's own overrides, once
