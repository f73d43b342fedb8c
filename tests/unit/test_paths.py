"""No machine paths in what is published: ``bot_repro.paths`` rewrites absolute paths under known
roots, ``committed.make_portable`` applies it to a report folder (as ``publish`` does), and every
committed JSON file under results/ is free of absolute paths."""

from __future__ import annotations

import json

import pytest

from bot_repro import paths, report_folder
from bot_repro.analysis import committed
from tests.conftest import committed_texts

ROOTS = {"/work/main": "", "/home/u/.cache/bot_repro": paths.CACHE_LABEL}


@pytest.mark.parametrize("text,want", [
    ("/work/main/bot_repro/train.py -m experiment=e hydra.sweep.dir=/work/main/runs/e/sweep",
     "bot_repro/train.py -m experiment=e hydra.sweep.dir=runs/e/sweep"),
    ("/work/main", "."),
    ("cd /work/main && ls", "cd . && ls"),
    ("/work/mainline/x", "/work/mainline/x"),  # another folder that only starts like the root
    ("/home/u/.cache/bot_repro/warm/mini-1", "$BOT_REPRO_CACHE/warm/mini-1"),
    ("eval/success_rate", "eval/success_rate"),
    ("/opt/venv/lib/python3.11/site-packages/pytest/__main__.py -q", "site-packages/pytest/__main__.py -q"),
])
def test_portable_rewrites_paths_under_a_root_only(text, want):
    assert paths.portable(text, ROOTS) == want


def test_portable_walks_keys_values_and_lists_and_the_rest_is_found():
    doc = {"/work/main/runs/a": [{"p": "/work/main/x"}, 3, None], "url": "https://host/a", "other": "see /srv/x"}
    out = paths.portable(doc, ROOTS)
    assert out == {"runs/a": [{"p": "x"}, 3, None], "url": "https://host/a", "other": "see /srv/x"}
    assert paths.absolute_paths(out) == ["/srv/x"]
    assert paths.absolute_paths(doc) == ["/work/main/runs/a", "/work/main/x", "/srv/x"]
    with pytest.raises(ValueError, match="'/' is not a root"):
        paths.portable("/x", {"/": ""})


def test_make_portable_finds_the_checkout_that_ran_and_reports_what_is_left(tmp_path):
    run = tmp_path / "report" / "runs" / "0_grpo_s0"
    run.mkdir(parents=True)
    (run / "run.json").write_text(json.dumps(
        {"command": "/old/clone/bot_repro/train.py -m experiment=e hydra.sweep.dir=/old/clone/runs/e/1/sweep"}))
    (run.parent / "policy.json").write_text(json.dumps({"model_path": "/home/u/.cache/bot_repro/warm/mini-1"}))
    (run / "metrics.jsonl").write_text('{"note": "/old/clone/x"}\n')  # not a published text file: left as is
    (tmp_path / "report" / "summary.md").write_text("- sweep: /old/clone/runs/e/1/sweep\n")
    left = committed.make_portable(tmp_path / "report", {"/home/u/.cache/bot_repro": paths.CACHE_LABEL})
    assert left == {}
    assert json.loads((run / "run.json").read_text())["command"] == (
        "bot_repro/train.py -m experiment=e hydra.sweep.dir=runs/e/1/sweep")
    assert json.loads((run.parent / "policy.json").read_text())["model_path"] == "$BOT_REPRO_CACHE/warm/mini-1"
    assert (tmp_path / "report" / "summary.md").read_text() == "- sweep: runs/e/1/sweep\n"
    assert "/old/clone" in (run / "metrics.jsonl").read_text()
    (run.parent / "policy.json").write_text(json.dumps({"model_path": "/srv/elsewhere/policy"}))
    assert committed.make_portable(tmp_path / "report", {}) == {"runs/policy.json": ["/srv/elsewhere/policy"]}


def test_publish_refuses_a_report_with_a_path_it_cannot_make_relative(tmp_path):
    report = tmp_path / "report"
    report.mkdir()
    meta = {"command": "c", "git_sha": "s", "date": "d", "machine": "m", "experiment": "e", "sweep_dir": "/srv/runs/e"}
    report_folder.write_summary(report, meta, [])
    with pytest.raises(SystemExit, match="not published: .*summary.json: /srv/runs/e"):
        committed.publish(report, tmp_path / "dest")
    assert not (tmp_path / "dest").exists() and not list(tmp_path.glob(".dest*"))


def test_no_committed_json_holds_an_absolute_path():
    found = {}
    for path, text in committed_texts((".json",)):  # the run.json files in the reports' archives included
        left = paths.absolute_paths(json.loads(text))
        if left:
            found[path] = left[:2]
    assert not found, f"{len(found)} committed JSON file(s) hold absolute paths, e.g. {dict(list(found.items())[:3])}"


def test_publish_makes_the_archived_runs_portable_too(tmp_path):
    runs = tmp_path / "made" / "runs"
    (runs / "0_grpo_s0").mkdir(parents=True)
    (runs / "0_grpo_s0" / "run.json").write_text(json.dumps({"command": "/old/clone/bot_repro/train.py -m x=1"}))
    report = tmp_path / "report"
    meta = {"command": "c", "git_sha": "s", "date": "d", "machine": "m", "experiment": "e"}
    report_folder.write_summary(report, meta, [])
    report_folder.write_archive(runs, report / report_folder.ARCHIVE)
    dest = committed.publish(report, tmp_path / "dest")
    members = dict(report_folder.archive_members(dest / report_folder.ARCHIVE))
    assert json.loads(members["runs/0_grpo_s0/run.json"]) == {"command": "bot_repro/train.py -m x=1"}
    assert sorted(p.name for p in dest.iterdir()) == [report_folder.ARCHIVE, report_folder.SUMMARY]  # no runs/ left
    again = committed.publish(report, tmp_path / "again")  # the same runs: the same bytes
    assert (again / report_folder.ARCHIVE).read_bytes() == (dest / report_folder.ARCHIVE).read_bytes()
