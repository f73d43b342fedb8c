"""Both notebooks run top to bottom (nbclient) on real smoke-run outputs and show what they promise.

The runs: two 2-step AIME smoke runs (GRPO and BoT-GRPO) for the curves notebook, and, when the React
toolchain is installed (CI installs it), a React smoke run plus one held-out evaluation of a valid
component of ours, so the rollouts notebook has a real screenshot to show.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tests.conftest import REPO
from tests.integration.helpers import run_inprocess

NOTEBOOKS = REPO / "notebooks"


def _react_missing() -> str | None:
    from bot_repro.tasks.react.render import renderer_missing
    from bot_repro.tasks.react.workers import toolchain_missing

    return toolchain_missing() or renderer_missing()


@pytest.fixture(scope="module")
def aime_runs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("nb_runs")
    for alg, reward in (("grpo", "aime_global"), ("bot_grpo", "aime_rule")):
        run_inprocess(["task=aime", f"algorithm={alg}", f"reward={reward}", "debug=smoke", "logger.wandb_mode=disabled"],
                      root / alg)
    return root


def _execute(name: str, monkeypatch, **env: str):
    for key, value in env.items():
        monkeypatch.setenv(key, value)  # the kernel inherits this process's environment
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    return nb


def _texts(nb) -> str:
    out = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            out.append(o.get("text", ""))
            out += [str(v) for k, v in o.get("data", {}).items() if k in ("text/plain", "text/html")]
    return "\n".join(out)


def _images(nb) -> int:
    return sum("image/png" in o.get("data", {}) for c in nb.cells for o in c.get("outputs", []))


def test_inspect_curves_on_smoke_runs(aime_runs, monkeypatch):
    """By default the task's headline metric (Pass@1 for AIME), not the first eval/ column found."""
    monkeypatch.delenv("BOT_REPRO_METRIC", raising=False)
    nb = _execute("inspect_curves.ipynb", monkeypatch, BOT_REPRO_RUNS=str(aime_runs))
    text = _texts(nb)
    assert "2 run(s) under" in text and "plotting 'eval/pass@1'" in text
    listed = next(line for line in text.splitlines() if line.startswith("metrics: ")).split(": ", 1)[1].split(", ")
    first_eval = next(m for m in listed if m.startswith("eval/"))
    assert first_eval != "eval/pass@1" and "eval/pass@1" in listed  # the old default would have picked another
    assert "bot_grpo" in text and "grpo" in text  # the final-value table names both groups
    assert _images(nb) == 1


def test_inspect_curves_plots_the_metric_asked_for(aime_runs, monkeypatch):
    nb = _execute("inspect_curves.ipynb", monkeypatch, BOT_REPRO_RUNS=str(aime_runs),
                  BOT_REPRO_METRIC="eval/format_ok_rate")
    assert "plotting 'eval/format_ok_rate'" in _texts(nb) and _images(nb) == 1


def test_rollouts_notebook_on_an_aime_run(aime_runs, monkeypatch):
    run = aime_runs / "bot_grpo"
    nb = _execute("rollouts.ipynb", monkeypatch, BOT_REPRO_RUN_DIR=str(run), BOT_REPRO_STEP="1")
    text = _texts(nb)
    assert "steps with saved rollouts: [1, 2]" in text and "evaluation steps: [0, 2]" in text
    assert "global reward" in text and "title=\"r=" in text  # the token-reward view
    assert "no screenshots at this step" in text
    assert _images(nb) == 1  # the reward/advantage plot


def test_rollouts_notebook_shows_react_screenshots(tmp_path, monkeypatch):
    missing = _react_missing()
    if missing:
        pytest.skip(f"React toolchain unavailable: {missing}")
    from bot_repro.tasks import TASKS

    run = tmp_path / "react"
    run_inprocess(["task=react", "reward=react_static_only", "debug=smoke", "logger.wandb_mode=disabled"], run)
    task = TASKS["react"]({"name": "react", "params": {"limit_test": 1}}, {"family": "qwen2"})
    _, rows = task.datasets()
    code = (REPO / "tests" / "data" / "react_components" / "counter.tsx").read_text()
    metrics = task.evaluate_and_save([[f"Here it is:\n\n```tsx\n{code}```\n"]], rows, run / "eval" / "step_000003")
    assert metrics["compile_rate"] == 1.0
    nb = _execute("rollouts.ipynb", monkeypatch, BOT_REPRO_RUN_DIR=str(run))
    text = _texts(nb)
    assert "evaluation steps: [0, 2, 3]" in text and "0000_00.png" in text and "gallery:" in text
    assert _images(nb) == 2  # the reward plot and the screenshot
