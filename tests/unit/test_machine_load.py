"""The sweep's load record (``bot_repro.experiment.machine_load``): rows while the block runs, a busy
machine reads as busy, a second block appends, and the summary the report's meta carries."""

from __future__ import annotations

import csv
import sys
import time

import pytest

from bot_repro.experiment.machine_load import COLUMNS, LoadRecord, load_summary

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _rows(path) -> int:
    return max(0, len(path.read_text().splitlines()) - 1) if path.exists() else 0


def _until_rows(path, n: int, spin: bool) -> None:
    """Wait until the record has ``n`` rows (an event: a loaded machine delays the sampler's wake-ups),
    spinning (this process keeps a core busy) or sleeping; 60 s is only the bound that fails the test."""
    deadline = time.monotonic() + 60
    while _rows(path) < n:
        assert time.monotonic() < deadline, f"{path} has {_rows(path)} rows after 60 s, not {n}"
        if spin:
            until = time.monotonic() + 0.01
            while time.monotonic() < until:
                pass
        else:
            time.sleep(0.05)


def test_a_load_record_samples_while_its_block_runs_and_a_continued_sweep_appends(tmp_path):
    path = tmp_path / "load.csv"
    with LoadRecord(tmp_path, period_s=0.2):
        _until_rows(path, 3, spin=True)
    with path.open() as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == COLUMNS and len(rows) >= 3
    assert all(float(r["busy_cores"]) >= 0.5 for r in rows), rows
    with LoadRecord(tmp_path, period_s=0.2):
        _until_rows(path, len(rows) + 2, spin=False)
    lines = path.read_text().splitlines()
    assert lines.count(",".join(COLUMNS)) == 1 and len(lines) - 1 >= len(rows) + 2
    summary = load_summary(tmp_path / "load.csv")
    assert summary["samples"] == len(lines) - 1 and summary["mean_busy_cores"] > 0 and summary["max_load1"] >= 0


def test_no_record_is_no_summary(tmp_path):
    assert load_summary(tmp_path / "load.csv") is None
    (tmp_path / "load.csv").write_text(",".join(COLUMNS) + "\n")
    assert load_summary(tmp_path / "load.csv") is None
