"""All ten ``make reproduce-figure-N ARGS=debug=smoke`` pipelines: sweep (a Hydra multirun inside the
figure CLI's process, one seed, tiny models, 2 steps, loopback judge) -> evaluation -> PNG; then
``make figures`` and the offline evaluation entry point on the same runs.

Runs and figures go to a temporary root (``--runs-root`` in ARGS), never to the checkout's runs/.
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

from bot_repro.figures import FIGURES, ordered, resolve
from tests.conftest import REPO

SLUGS = [spec.slug for spec in ordered()]


def _react_missing() -> str | None:
    from bot_repro.tasks.react.render import renderer_missing
    from bot_repro.tasks.react.workers import toolchain_missing

    return toolchain_missing() or renderer_missing()


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("figures_smoke")


def _make(target: str, args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "-f", "Makefile.figures", target, f"PY={sys.executable}", f"ARGS={args}"],
                          cwd=REPO, capture_output=True, text=True, timeout=timeout, env=dict(os.environ))


@pytest.mark.parametrize("slug", SLUGS)  # in figure order: figure 2 reads figure 1's runs
def test_make_reproduce_figure_smoke_leaves_a_png(slug, root):
    spec = FIGURES[slug]
    if spec.task == "react" and _react_missing():
        pytest.skip(f"React toolchain unavailable: {_react_missing()}")
    sweeps_before = set((root / spec.runs_slug).glob("*"))
    proc = _make(f"reproduce-figure-{spec.number}", f"debug=smoke logger.wandb_mode=disabled --runs-root {root}")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    png = root / "results" / slug / f"{slug}.png"
    assert str(png) in proc.stdout.splitlines()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    summary = json.loads((root / "results" / slug / "summary.json").read_text())
    assert summary["meta"]["figure"] == slug and summary["summaries"]
    runs = [d for d in (root / spec.runs_slug).glob("*/*") if (d / "run.json").is_file()]
    assert runs and all(json.loads((d / "run.json").read_text())["status"] == "completed" for d in runs)
    if spec.runs_of:  # figure 2 reused figure 1's complete sweep instead of training again
        assert set((root / spec.runs_slug).glob("*")) == sweeps_before
        pairs = list((root / slug).glob("*/*/metrics.jsonl"))
        assert len(pairs) == 4  # BoT-GRPO vs GRPO, PURE, GSPO, DAPO; one seed
        for path in pairs:
            records = [json.loads(line) for line in path.read_text().splitlines()]
            assert [r["step"] for r in records] == [0, 2]  # step_every 20 -> step 0 and the last common step
            assert all(0.0 <= r["pairwise/win_rate"] <= 1.0 for r in records)
    else:
        config = yaml.safe_load(next(iter(runs)).joinpath(".hydra", "config.yaml").read_text())
        assert config["smoke"] and config["model"]["hub_id"] is None and config["seed"] == 0


def test_make_figures_replots_every_figure_with_runs(root):
    """The targets pass N (the package owns N -> slug), CLUSTER and RESOURCES as overrides; a real `make figures`."""
    for spec in ordered():
        dry = subprocess.run(["make", "-s", "-n", "-f", "Makefile.figures", f"reproduce-figure-{spec.number}",
                              "ARGS=debug=smoke", "CLUSTER=slurm", "RESOURCES=a100_80g"],
                             cwd=REPO, capture_output=True, text=True, check=True)
        words = dry.stdout.split()
        assert words[-5:] == ["reproduce", str(spec.number), "cluster=slurm", "resources=a100_80g", "debug=smoke"]
        assert resolve(words[-4]) is spec
    bad = subprocess.run([sys.executable, "-m", "bot_repro.figures", "plot", "11"], cwd=REPO, capture_output=True,
                         text=True)
    assert bad.returncode != 0 and "unknown figure number 11; valid: 1 (fig1_compile_rate)" in bad.stderr
    before = {p: p.stat().st_mtime_ns for p in (root / "results").glob("*/*.png")}
    proc = _make("figures", f"debug=smoke --runs-root {root}")
    assert proc.returncode == 0, proc.stderr[-3000:]
    after = {p: p.stat().st_mtime_ns for p in (root / "results").glob("*/*.png")}
    assert before and set(after) == set(before) and all(after[p] > before[p] for p in before)


def test_offline_evaluation_of_a_smoke_checkpoint(root, capsys):
    from bot_repro.evaluate import main as evaluate_main

    run = next(d for d in sorted((root / "fig5_aime_passk").glob("*/*")) if (d / "checkpoints").is_dir())
    assert evaluate_main(["heldout", str(run), "trainer.eval.n_samples=4", "trainer.eval.max_prompts=2"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["step"] == 2 and set(result["metrics"]) >= {"pass@1", "pass@2", "pass@4"}
    samples = Path(result["out_dir"]) / "samples.jsonl"
    assert len(samples.read_text().splitlines()) == 2 * 4
    assert evaluate_main(["heldout", str(run), "--step", "7"]) == 2
    assert "no checkpoint for step 7" in capsys.readouterr().err


def test_offline_pairwise_between_two_saved_evaluations(root, capsys):
    if _react_missing():
        pytest.skip(f"React toolchain unavailable: {_react_missing()}")
    from bot_repro.evaluate import main as evaluate_main

    runs = {d.name.split("_", 1)[1]: d for d in (root / "fig1_compile_rate").glob("*/*") if (d / "eval").is_dir()}
    a, b = runs["bot_grpo_s0"] / "eval" / "step_000002", runs["grpo_s0"] / "eval" / "step_000002"
    assert evaluate_main(["pairwise", str(a), str(b), "--judge", "loopback"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert 0.0 <= result["win_rate"] <= 1.0 and result["n"] >= 1.0
