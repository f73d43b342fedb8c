"""The CPU-study pipeline end to end at smoke scale: runs -> the report path -> report folder -> notebook
executes, and the report is compared with, and published to, a committed folder (a temp one here)."""

from __future__ import annotations

import json
import os

import nbformat
import pytest
from nbclient import NotebookClient

from bot_repro import paths, report_folder
from bot_repro.algorithms import ADVANTAGES
from bot_repro.analysis import committed
from bot_repro.experiment import report as reporting
from bot_repro.experiment import run, spec
from tests.conftest import REPO
from tests.integration.helpers import SMALL, run_inprocess


def analyse(name, sweep, out, command, wall_s):
    """The report path as `python -m bot_repro.experiment run` ends: build, then write the report folder."""
    rep = reporting.build(spec.load(name), [sweep], command)
    reporting.write(rep, [sweep], out, extra_meta={"wall_seconds": wall_s} if wall_s is not None else None)
    doc = report_folder.read_summary(out)
    return {**doc["summaries"][0], **(doc.get("step0") or {}), "meta": doc["meta"]}


def test_study_report_and_notebook(tmp_path):
    sweep = tmp_path / "sweep"
    for algo in ("grpo", "bot_grpo"):
        for seed in (0, 1):
            run_inprocess([*SMALL, f"algorithm={algo}", f"seed={seed}", "trainer.max_steps=2"], sweep / f"{algo}_s{seed}")
    (sweep / "policy.json").write_text(json.dumps({"policy_hash": "abc123", "warm_start_steps": 40,
                                                   "warm_start_sampled_success": 0.3}))
    out = tmp_path / "report"
    saved = analyse("mini_demo", sweep, out, "test", wall_s=1.0)
    assert {g["label"] for g in saved["groups"]} == {"grpo", "bot_grpo"}
    assert all(g["n_seeds"] == 2 for g in saved["groups"])
    assert saved["meta"]["archived_runs"] == 4 and saved["meta"]["wall_seconds"] == 1.0
    assert (out / "mini_demo.png").stat().st_size > 0 and (out / "mini_demo.pdf").exists()
    assert f"| {ADVANTAGES['bot_grpo'].info.label} |" in (out / "summary.md").read_text()  # its display name
    assert saved["threshold"] == 0.8
    # the shared starting point (smoke eval: 2 samples, so pass@8 is null and pass@2 is given)
    assert saved["policy_hash"] == "abc123" and saved["step0"]["warm_start_steps"] == 40
    assert 0.0 <= saved["step0_success"] <= 1.0 and saved["step0"]["n_runs"] == 4
    assert saved["step0_pass@8"] is None and saved["step0"]["pass_k_measured"] == 2
    assert saved["step0_pass@2"] >= saved["step0_success"]
    assert 0.0 <= saved["step0_identical_group_share"] <= 1.0 and saved["step0"]["identical_group_share_runs"] == 4
    assert "step0_identical_group_share" in (out / "summary.md").read_text()
    assert (report_folder.unpack(out) / "policy.json").exists()  # re-analysing the archive keeps the hash

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


def test_report_compare_and_publish(tmp_path, monkeypatch, capsys):
    sweep = tmp_path / "sweep"
    for seed in (0, 1):
        run_inprocess([*SMALL, "algorithm=grpo", f"seed={seed}", "trainer.max_steps=2"], sweep / f"grpo_s{seed}")
    report = tmp_path / "runs" / "mini_demo" / "2026-01-01_00-00-00" / "report"
    new = analyse("mini_demo", sweep, report, "test", wall_s=1.0)

    # against itself: the step-0 lines say same, every quantity is consistent, the numbers identical
    lines = committed.compare(new, new)
    assert all(line.endswith("same") for line in lines[:4])
    assert [line for line in lines if line.startswith("grpo ")] and "INCONSISTENT" not in "\n".join(lines)
    assert lines[-1] == "exactly: identical numbers (hardware: the same)"
    assert new["meta"]["machines"][0]["hardware"]["cpu_capability"] and new["groups"][0]["collapsed"]["n_runs"] == 2
    # a committed report with a disjoint final value, another policy and another CPU
    other = json.loads(json.dumps(new))
    other["policy_hash"] = "other"
    other["meta"]["machines"][0]["hardware"]["cpu_model"] = "another CPU"
    g = other["groups"][0]["final"]
    g["mean"], g["ci_low"], g["ci_high"] = 2.0, 1.9, 2.1
    other["groups"].append({**other["groups"][0], "label": "bot_grpo"})
    lines = committed.compare(new, other)
    assert lines[0].startswith("policy_hash") and lines[0].endswith("differs")
    assert next(line for line in lines if line.startswith("grpo ") and " final " in line).endswith("INCONSISTENT")
    assert any(line.startswith("bot_grpo") and "only committed" in line for line in lines)
    assert lines[-2] == "statistically: INCONSISTENT with the committed run on grpo final"
    assert lines[-1] == "exactly: numbers differ, as they may: the hardware differs in cpu_model"
    g["ci_low"], g["ci_high"] = -1.0, 2.1  # overlapping intervals: consistent, though not identical
    assert committed.compare(new, other)[-2].startswith("statistically: consistent")
    assert committed.compare(new, None) == ["no committed summary to compare with"]

    # the demo prints the comparison with the committed folder, and publishing is a separate step
    committed_folder = tmp_path / "results" / "mini"
    monkeypatch.setattr(committed, "REPO", tmp_path)
    roots = run.Roots(tmp_path / "runs")
    assert committed.committed_dir("mini") == committed_folder and run.latest_report("mini_demo", roots) == report
    committed.print_comparison(report, "mini")
    assert "no committed summary" in capsys.readouterr().out and not committed_folder.exists()
    committed_folder.mkdir(parents=True)
    (committed_folder / "README.md").write_text("notes on the committed report")
    (committed_folder / "summary.md").write_text("stale")
    run.publish("mini_demo", roots)
    assert (committed_folder / "README.md").read_text() == "notes on the committed report"  # not the report's: kept
    assert (committed_folder / "summary.md").read_text() != "stale"  # the report's own files are replaced
    published = json.loads((committed_folder / "summary.json").read_text())
    # the same report, its paths made relative to the checkout the report sits in (here tmp_path)
    assert published == paths.portable(json.loads((report / "summary.json").read_text()), {str(tmp_path): ""})
    assert not paths.absolute_paths(published)
    assert (committed_folder / "mini_demo.png").exists() and (committed_folder / report_folder.ARCHIVE).is_file()
    assert "runs/grpo_s0/metrics.jsonl" in dict(report_folder.archive_members(committed_folder / report_folder.ARCHIVE))
    committed.print_comparison(report, "mini")
    printed = capsys.readouterr().out
    assert "grpo" in printed and "INCONSISTENT" not in printed and "publish" in printed
    elsewhere = tmp_path / "elsewhere"
    committed.publish(report, elsewhere)
    assert report_folder.read_summary(elsewhere)["meta"]["experiment"] == "mini_demo"
    with pytest.raises(SystemExit, match="one contains the other"):
        committed.publish(report, report / "inner")
    with pytest.raises(FileNotFoundError):
        committed.publish(tmp_path / "sweep", elsewhere)  # not a report folder


def test_study_reads_baseline_runs_and_relabels_grpo(tmp_path):
    """mini_signals runs only the broken arms; its report also reads mini_baselines' grpo and bot_grpo
    runs that start from the same policy (report.reads), shows GRPO under its own label (report.relabel),
    gives the speed-ups against it, lists the crossing seeds, and archives the read runs with the report."""
    policy = json.dumps({"policy_hash": "p-test"})
    base = tmp_path / "runs" / "mini_baselines" / "2026-01-01_00-00-00" / "sweep"
    for algo in ("grpo", "bot_grpo", "pure"):  # pure is not read
        run_inprocess([*SMALL, f"algorithm={algo}", "seed=0", "trainer.max_steps=1"], base / f"0_{algo}_s0")
    (base / "policy.json").write_text(policy)
    sweep = tmp_path / "runs" / "mini_signals" / "2026-01-02_00-00-00" / "sweep"  # another stamp: found by name + policy
    run_inprocess([*SMALL, "algorithm=bot_grpo", "reward=mini_penalty", "seed=0", "trainer.max_steps=1"],
                  sweep / "0_bot_grpo_s0")
    (sweep / "policy.json").write_text(policy)
    out = tmp_path / "report"
    saved = analyse("mini_signals", sweep, out, "test", wall_s=1.0)
    labels = {g["label"] for g in saved["groups"]}
    assert labels == {"grpo (G only)", "progress", "penalty"}
    assert saved["baseline"] == "grpo (G only)"
    assert all(g["speedup"] is not None for g in saved["groups"] if g["label"] != "grpo (G only)")
    assert all(set(g["crossed"]) == {"n_crossed", "n_runs", "seeds", "at_start"} and g["crossed"]["n_runs"] == 1
               for g in saved["groups"])
    assert saved["meta"]["reused_runs"] == {paths.relative(base): 2}
    assert saved["meta"]["archived_runs"] == 3
    assert sorted(p.name for p in report_folder.unpack(out).iterdir() if p.is_dir()) == [
        "0_bot_grpo_s0", "mini_baselines__0_bot_grpo_s0", "mini_baselines__0_grpo_s0"]
    # re-analysing the archive (which holds its copies) gives the same groups
    again = analyse("mini_signals", report_folder.unpack(out), tmp_path / "again", "test", wall_s=None)
    assert {g["label"] for g in again["groups"]} == labels
