"""A new experiment is one yaml file: written into a temporary folder (``--conf-dir``), it runs in smoke mode
and is reported through ``python -m bot_repro.experiment``, as a user would, in subprocesses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot_repro import report_folder
from tests.conftest import REPO
from tests.integration.helpers import mini_experiment

# two algorithms on the mini task, one seed: the whole experiment in one file (with helpers.MINI_HEAD)
EXPERIMENT = """\
hydra:
  sweeper:
    params:
      algorithm: grpo,bot_grpo
      seed: 0
report:
  shows: GRPO vs BoT-GRPO, smoke
  plot:
    kind: curves
    metric: eval/success_rate
    hue: algorithm.name
    threshold: 0.5
    baseline: grpo
    title: "my probe"
"""


def _experiment(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot_repro.experiment", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=900)


def test_a_new_experiment_is_one_yaml_file(tmp_path: Path):
    common = mini_experiment(tmp_path, "my_probe", EXPERIMENT)
    listed = _experiment("list", *common)
    assert listed.returncode == 0 and "my_probe" in listed.stdout and "GRPO vs BoT-GRPO, smoke" in listed.stdout
    ran = _experiment("run", "my_probe", "debug=smoke", *common)
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-3000:]
    # the console, in a log (not a terminal): no job prints its steps or TRL's dictionaries, the bar is not
    # redrawn, and each finished run is one line (bot_repro.experiment.progress)
    console = ran.stdout + ran.stderr
    assert "{'" not in console and "\r" not in console and "run directory:" not in console
    assert not [line for line in console.splitlines() if line.startswith("step ")]
    finished = [line.split(" (runs")[0] for line in ran.stderr.splitlines() if ": completed, " in line]
    assert sorted(finished) == ["0_grpo_s0: completed, 2 steps", "1_bot_grpo_s0: completed, 2 steps"], console
    (report,) = sorted((tmp_path / "runs" / "my_probe").glob("*/report"))
    doc = report_folder.read_summary(report)
    assert doc["meta"]["experiment"] == "my_probe" and doc["meta"]["smoke"]
    assert {g["label"] for g in doc["summaries"][0]["groups"]} == {"grpo", "bot_grpo"}
    assert len(list(report_folder.unpack(report).glob("*/metrics.jsonl"))) == 2
    again = _experiment("report", "my_probe", "debug=smoke", "--out", str(tmp_path / "again"), *common)
    assert again.returncode == 0, again.stderr[-3000:]
    assert report_folder.read_summary(tmp_path / "again")["summaries"] == doc["summaries"]
    assert (tmp_path / "again" / "my_probe.png").stat().st_size > 10_000
