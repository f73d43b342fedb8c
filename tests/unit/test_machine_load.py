"""The sweep's load record (``bot_repro.experiment.machine_load``): rows while the block runs, a busy
machine reads as busy, a second block appends, and the summary the report's meta carries."""

from __future__ import annotations

import csv
import sys
import time

import pytest

from bot_repro.experiment.machine_load import COLUMNS, LoadRecord, load_summary

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_a_load_record_samples_while_its_block_runs_and_a_continued_sweep_appends(tmp_path):
    with LoadRecord(tmp_path, period_s=0.2):
        _spin(0.9)  # this process keeps at least one core busy
    with (tmp_path / "load.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == COLUMNS and len(rows) >= 3
    assert all(float(r["busy_cores"]) >= 0.5 for r in rows), rows
    with LoadRecord(tmp_path, period_s=0.2):
        time.sleep(0.5)
    lines = (tmp_path / "load.csv").read_text().splitlines()
    assert lines.count(",".join(COLUMNS)) == 1 and len(lines) - 1 >= len(rows) + 2
    summary = load_summary(tmp_path / "load.csv")
    assert summary["samples"] == len(lines) - 1 and summary["mean_busy_cores"] > 0 and summary["max_load1"] >= 0


def test_no_record_is_no_summary(tmp_path):
    assert load_summary(tmp_path / "load.csv") is None
    (tmp_path / "load.csv").write_text(",".join(COLUMNS) + "\n")
    assert load_summary(tmp_path / "load.csv") is None
