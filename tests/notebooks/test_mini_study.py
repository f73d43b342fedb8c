"""The CPU-study pipeline end to end at smoke scale: runs -> analyse() -> report -> notebook executes."""

from __future__ import annotations

import json
import os

import nbformat
from nbclient import NotebookClient

from bot_repro.study import analyse
from tests.conftest import REPO
from tests.integration.helpers import SMALL, run_inprocess


def test_study_report_and_notebook(tmp_path):
    sweep = tmp_path / "sweep"
    for algo in ("grpo", "bot_grpo"):
        for seed in (0, 1):
            run_inprocess([*SMALL, f"algorithm={algo}", f"seed={seed}", "trainer.max_steps=2"], sweep / f"{algo}_s{seed}")
    out = tmp_path / "report"
    summary = analyse("mini_demo", sweep, out, "test", wall_s=1.0)
    saved = json.loads((out / "summary.json").read_text())
    assert {g["label"] for g in saved["groups"]} == {"grpo", "bot_grpo"}
    assert all(g["n_seeds"] == 2 for g in saved["groups"])
    assert saved["meta"]["archived_runs"] == 4 and saved["meta"]["study_wall_seconds"] == 1.0
    assert (out / "mini_demo.png").stat().st_size > 0 and (out / "mini_demo.pdf").exists()
    assert "| bot_grpo |" in (out / "summary.md").read_text()
    assert summary["threshold"] == 0.8

    nb = nbformat.read(REPO / "notebooks" / "mini_study.ipynb", as_version=4)
    os.environ["BOT_REPRO_MINI_RESULTS"] = str(out)
    try:
        NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(REPO / "notebooks")}}).execute()
    finally:
        del os.environ["BOT_REPRO_MINI_RESULTS"]
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    assert "local rewards" in html and "rgba(" in html  # coloured token rewards were rendered
