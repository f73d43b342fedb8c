"""All ten ``make reproduce-figure-N ARGS=debug=smoke`` pipelines: sweep (a Hydra multirun inside the
experiment command's process, one seed, tiny models, 2 steps, loopback judge) -> evaluation -> report
folder with its PNG; then ``make figures`` and the offline evaluation entry point on the same runs.

Runs and reports go to a temporary root (``--runs-root`` in ARGS), never to the checkout's runs/.
React figures (1-4, 10) need the React toolchain (scripts/install_react_deps.sh; CI installs it) and
skip without it; figure 2 reads figure 1's runs, so the figures run in order.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bot_repro import report_folder
from bot_repro.experiment import spec
from tests.conftest import REPO

SLUGS = [n for n in spec.names() if spec.FIGURE_NAME.match(n)]


def _react_missing() -> str | None:
    from bot_repro.tasks.react.render import renderer_missing
    from bot_repro.tasks.react.workers import toolchain_missing

    return toolchain_missing() or renderer_missing()


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("figures_smoke")


def _make(target: str, args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run(["make", target, f"PY={sys.executable}", f"ARGS={args}", "VENV=.venv"],
                          cwd=REPO, capture_output=True, text=True, timeout=timeout, env=dict(os.environ))


def _reports(root: Path, slug: str) -> list[Path]:
    return sorted((root / slug).glob("*/report"))


@pytest.mark.parametrize("slug", SLUGS)  # in figure order: figure 2 judges figure 1's runs
def test_make_reproduce_figure_smoke_leaves_a_report(slug, root):
    exp = spec.load(slug)
    if exp.cfg.task.name == "react" and _react_missing():
        pytest.skip(f"React toolchain unavailable: {_react_missing()}")
    fig1_before = sorted((root / "fig1_compile_rate").glob("*"))
    proc = _make(f"reproduce-figure-{exp.figure}", f"debug=smoke logger.wandb_mode=disabled --runs-root {root}")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    (report,) = _reports(root, slug)
    png = report / f"{slug}.png"
    assert str(png) in proc.stdout.splitlines()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    summary = report_folder.read_summary(report)
    assert summary["meta"]["figure"] == exp.figure and summary["meta"]["experiment"] == slug and summary["summaries"]
    if exp.pairwise:  # figure 2 judged figure 1's complete sweep instead of training again
        assert sorted((root / "fig1_compile_rate").glob("*")) == fig1_before
        pairs = list((root / slug).glob("*/sweep/*/metrics.jsonl"))
        assert len(pairs) == 4  # BoT-GRPO vs GRPO, PURE, GSPO, DAPO; one seed
        for path in pairs:
            records = [json.loads(line) for line in path.read_text().splitlines()]
            assert [r["step"] for r in records] == [0, 2]  # step_every 20 -> step 0 and the last common one
            assert all(0.0 <= r["pairwise/win_rate"] <= 1.0 for r in records)
        return
    runs = [d for d in (root / slug).glob("*/sweep/*") if (d / "run.json").is_file()]
    assert runs and all(json.loads((d / "run.json").read_text())["status"] == "completed" for d in runs)
    assert len(list(report_folder.unpack(report).glob("*/metrics.jsonl"))) == len(runs)  # the report archives its runs
    config = yaml.safe_load(next(iter(runs)).joinpath(".hydra", "config.yaml").read_text())
    assert config["smoke"] and config["model"]["hub_id"] is None and config["seed"] == 0


def test_make_figures_redraws_every_figure_with_runs(root):
    before = {r for slug in SLUGS for r in _reports(root, slug)}
    proc = _make("figures", f"debug=smoke --runs-root {root}")
    assert proc.returncode == 0, proc.stderr[-3000:]
    after = {r for slug in SLUGS for r in _reports(root, slug)}
    new = after - before
    assert before and {r.parents[1].name for r in new} == {r.parents[1].name for r in before}  # one new report each
    assert all((r / f"{r.parents[1].name}.png").stat().st_size > 10_000 for r in new)


def test_offline_evaluation_of_a_smoke_checkpoint(root, capsys):
    from bot_repro.experiment.cli import main as experiment_main

    run = next(d for d in sorted((root / "fig5_aime_passk").glob("*/sweep/*")) if (d / "checkpoints").is_dir())
    assert experiment_main(["evaluate", "heldout", str(run), "trainer.eval.n_samples=4", "trainer.eval.max_prompts=2"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["step"] == 2 and set(result["metrics"]) >= {"pass@1", "pass@2", "pass@4"}
    samples = Path(result["out_dir"]) / "samples.jsonl"
    assert len(samples.read_text().splitlines()) == 2 * 4
    assert experiment_main(["evaluate", "heldout", str(run), "--step", "7"]) == 2
    assert "no checkpoint for step 7" in capsys.readouterr().err


def test_offline_pairwise_between_two_saved_evaluations(root, capsys):
    if _react_missing():
        pytest.skip(f"React toolchain unavailable: {_react_missing()}")
    from bot_repro.experiment.cli import main as experiment_main

    runs = {d.name.split("_", 1)[1]: d for d in (root / "fig1_compile_rate").glob("*/sweep/*") if (d / "eval").is_dir()}
    a, b = runs["bot_grpo_s0"] / "eval" / "step_000002", runs["grpo_s0"] / "eval" / "step_000002"
    assert experiment_main(["evaluate", "pairwise", str(a), str(b), "--judge", "loopback"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert 0.0 <= result["win_rate"] <= 1.0 and result["n"] >= 1.0
