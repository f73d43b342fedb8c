"""The report folder's one format: every committed ``summary.json`` reads through ``bot_repro.report_folder``,
a document of another shape is refused with what is wrong, a report's archive is one file whose bytes
depend only on the records it holds, and a committed report redraws from its archive
(``python -m bot_repro.experiment report NAME``) with the numbers and run names it was committed with."""

from __future__ import annotations

import csv
import json
import os
import tarfile

import pytest

from bot_repro import paths, report_folder
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
    assert (folder / report_folder.ARCHIVE).is_file()  # it redraws from its archived runs
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


@pytest.mark.parametrize("name,folder", [("mini_demo", "mini"), ("real_small", "real_small"), ("real_study", "real_study"),
                                       ("real_study_floor", "real_study_floor")])
def test_a_committed_report_redraws_from_its_committed_runs(tmp_path, name, folder):
    out = run.redraw(name, [], run.Roots(tmp_path / "runs"), "test", out=tmp_path / "report")
    committed, redrawn = report_folder.read_summary(REPO / "results" / folder), report_folder.read_summary(out)
    assert _numbers(redrawn) == _numbers(committed)
    assert redrawn["meta"]["command"].startswith(committed["meta"]["command"].split(" (re-analysed")[0])
    assert redrawn["meta"].get("wall_seconds") == committed["meta"].get("wall_seconds")
    assert (out / f"{name}.png").stat().st_size > 10_000
    for same in (report_folder.RUNS_TABLE, f"{name}.png"):  # byte for byte: only meta's command and date move
        assert (out / same).read_bytes() == (REPO / "results" / folder / same).read_bytes(), same


def _records(folder):
    (folder / "0_grpo_s0" / "eval" / "step_000001").mkdir(parents=True)
    (folder / "0_grpo_s0" / "metrics.jsonl").write_text('{"step": 1}\n')
    (folder / "0_grpo_s0" / "eval" / "step_000001" / "samples.jsonl").write_text('{"a": 1}\n')
    (folder / "policy.json").write_text('{"policy_hash": "p"}\n')
    return folder


def test_the_archive_depends_only_on_the_records(tmp_path):
    a, b = _records(tmp_path / "a" / "runs"), _records(tmp_path / "b" / "runs")
    os.utime(b / "policy.json", (1e9, 1e9))  # another time, another folder: the same bytes
    first = report_folder.write_archive(a, tmp_path / "a.tar.xz")
    assert first.read_bytes() == report_folder.write_archive(b, tmp_path / "b.tar.xz").read_bytes()
    with tarfile.open(first, "r:xz") as tar:
        members = tar.getmembers()
    assert [m.name for m in members] == ["runs/0_grpo_s0/eval/step_000001/samples.jsonl",
                                         "runs/0_grpo_s0/metrics.jsonl", "runs/policy.json"]
    assert {(m.mtime, m.uid, m.gid, m.uname, m.mode) for m in members} == {(0, 0, 0, "", 0o644)}
    (b / "policy.json").write_text('{"policy_hash": "q"}\n')
    assert report_folder.write_archive(b, tmp_path / "c.tar.xz").read_bytes() != first.read_bytes()


def test_an_unpacked_archive_reads_as_the_report_folder_it_came_from(tmp_path):
    report = tmp_path / "report"
    report_folder.write_archive(_records(tmp_path / "runs"), report / report_folder.ARCHIVE)
    runs = report_folder.unpack(report)
    assert runs.name == report_folder.RUNS and (runs / "0_grpo_s0" / "metrics.jsonl").read_text() == '{"step": 1}\n'
    assert report_folder.unpack(report) == runs and report_folder.run_root(report / report_folder.ARCHIVE) == runs
    assert report_folder.unpacked_from(runs) == report.resolve() and report_folder.run_root(tmp_path / "runs") == tmp_path / "runs"
    assert paths.relative(runs / "0_grpo_s0") == f"{report.resolve()}/runs/0_grpo_s0"  # published as the report's
    assert dict(report_folder.archive_members(report / report_folder.ARCHIVE))["runs/policy.json"] == b'{"policy_hash": "p"}\n'
    with pytest.raises(FileNotFoundError, match="has no runs.tar.xz"):
        report_folder.unpack(tmp_path)


def test_a_committed_report_names_its_runs_as_archived():
    runs = report_folder.unpack(REPO / "results" / "mini")
    with open(REPO / "results" / "mini" / report_folder.RUNS_TABLE, newline="") as f:
        table = list(csv.DictReader(f))
    assert {row["run_dir"] for row in table} == {f"results/mini/{row['run_id']}" for row in table}
    assert {f"runs/{p.parent.name}" for p in runs.glob("*/metrics.jsonl")} == {row["run_id"] for row in table}
    assert paths.relative(runs / "0_grpo_s0") == "results/mini/runs/0_grpo_s0"
