"""The report folder's one format: every committed ``summary.json`` reads through ``bot_repro.report_folder``,
a document of another shape is refused with what is wrong, and a committed report redraws from its
committed runs (``python -m bot_repro.experiment report NAME``) with the numbers it was committed with."""

from __future__ import annotations

import json

import pytest

from bot_repro import report_folder
from bot_repro.experiment import run
from bot_repro.report_folder import ReportFormatError
from tests.conftest import REPO

COMMITTED = sorted(p.parent for p in (REPO / "results").rglob(report_folder.SUMMARY))


def test_there_are_committed_reports():
    names = {str(p.relative_to(REPO)) for p in COMMITTED}
    assert {"results/mini", "results/real_small", "results/mini_study/mini_baselines"} <= names


@pytest.mark.parametrize("folder", COMMITTED, ids=lambda p: str(p.relative_to(REPO)))
def test_every_committed_summary_reads_through_the_report_module(folder):
    doc = report_folder.read_summary(folder)
    assert doc["format_version"] == report_folder.FORMAT_VERSION and doc["summaries"]
    for summary in doc["summaries"]:
        assert summary["groups"] and summary["curves"], summary["metric"]
    assert (folder / report_folder.ARCHIVE).is_dir()  # it redraws from committed runs
    assert any((folder / f"{doc['meta']['experiment']}{s}").is_file() for s in report_folder.FIGURE_SUFFIXES)


@pytest.mark.parametrize("change,match", [
    (lambda d: d.pop("format_version"), r"format_version=None; this code reads \(1,\)"),
    (lambda d: d.update(format_version=2), r"format_version=2"),
    (lambda d: d["meta"].pop("experiment"), r"meta lacks experiment"),
    (lambda d: d.update(groups=[]), r"unknown key 'groups'; allowed: format_version, meta, summaries, step0"),
    (lambda d: d["summaries"][0].pop("metric"), r"summaries\[0\] lacks metric"),
    (lambda d: d.update(summaries={}), r"'summaries' must be a list"),
])
def test_a_summary_of_another_shape_is_refused(tmp_path, change, match):
    doc = json.loads((REPO / "results" / "mini" / report_folder.SUMMARY).read_text())
    change(doc)
    (tmp_path / report_folder.SUMMARY).write_text(json.dumps(doc))
    with pytest.raises(ReportFormatError, match=match):
        report_folder.read_summary(tmp_path)


def test_write_checks_before_writing(tmp_path):
    with pytest.raises(ReportFormatError, match="meta lacks"):
        report_folder.write_summary(tmp_path, {"command": "x"}, [])
    assert not (tmp_path / report_folder.SUMMARY).exists()


def _numbers(doc: dict) -> dict:
    """What a report measured: its summaries and step-0 record (the meta says when and where it was drawn)."""
    return {"summaries": doc["summaries"], "step0": doc.get("step0")}


@pytest.mark.parametrize("name,folder", [("mini_demo", "mini"), ("real_small", "real_small")])
def test_a_committed_report_redraws_from_its_committed_runs(tmp_path, name, folder):
    out = run.redraw(name, [], run.Roots(tmp_path / "runs"), "test", out=tmp_path / "report")
    committed, redrawn = report_folder.read_summary(REPO / "results" / folder), report_folder.read_summary(out)
    assert _numbers(redrawn) == _numbers(committed)
    assert redrawn["meta"]["command"].startswith(committed["meta"]["command"].split(" (re-analysed")[0])
    assert redrawn["meta"].get("wall_seconds") == committed["meta"].get("wall_seconds")
    assert (out / f"{name}.png").stat().st_size > 10_000
