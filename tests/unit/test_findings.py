"""results/FINDINGS.md (``bot_repro.analysis.findings``): the committed file is what the findings
command writes from the committed reports, byte for byte; the row logic gives each verdict word on
hand-made per-seed values; a report that is not committed gives "not yet run" and, once it is, fills
the row in; the claim table's paper column is docs/method.md's text."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from bot_repro import report_folder
from bot_repro.analysis import findings
from bot_repro.analysis.claims import BENCH_HEADER, CLAIMS, Claim, Comparison, declared_test, planned
from bot_repro.analysis.speed import speed_section
from bot_repro.experiment.cli import main
from tests.conftest import REPO


def test_committed_findings_are_what_the_command_writes(tmp_path):
    out = tmp_path / "FINDINGS.md"
    assert main(["findings", "--out", str(out)]) == 0
    assert out.read_bytes() == (REPO / "results" / "FINDINGS.md").read_bytes(), \
        "results/FINDINGS.md is stale: run `make findings` and commit it"


@pytest.mark.parametrize("quantity,a,b,better,word", [
    ("final", [0.80, 0.82, 0.84], [0.50, 0.52, 0.51], "above", "supports"),
    ("final", [0.80, 0.82, 0.84], [0.50, 0.52, 0.51], "below", "contradicts"),
    ("final", [0.50, 0.80, 0.60], [0.55, 0.70, 0.65], "above", "cannot decide"),
    ("final", [0.90], [0.50, 0.52], "above", "cannot decide"),  # one seed: no interval
    ("steps", [60.0, 62.0, 61.0], [40.0, 42.0, 41.0], "below", "contradicts"),
    ("speedup", [40.0, 42.0, 41.0], [60.0, 62.0, 61.0], "above", "supports"),  # a crosses sooner: b / a > 1
    ("drop", [0.30, 0.25, 0.35], [0.01, 0.02, 0.00], "above", "supports"),
    ("collapsed", (0, 10), (8, 10), "below", "supports"),
    ("collapsed", (2, 10), (3, 10), "below", "cannot decide"),
])
def test_the_row_logic_gives_each_verdict(quantity, a, b, better, word):
    point, low, high, got = findings.judge(quantity, a, b, better)
    assert got == word
    if word != "cannot decide" or len(a) > 1:
        assert low <= point <= high


def test_the_interaction_compares_the_gain_at_two_levels():
    sparse_a, sparse_b = [0.10, 0.05, 0.08], [0.40, 0.38, 0.39]  # A far below B at the sparse level
    default_a, default_b = [0.80, 0.82, 0.81], [0.81, 0.80, 0.82]  # level at the default one
    point, low, high, word = findings.judge("interaction", sparse_a, sparse_b, "above", default_a, default_b)
    assert point == pytest.approx((0.23 / 3 - 1.17 / 3) - 0.0) and high < 0 and word == "contradicts"


def _claim(*tests: Comparison, figure: str | None = None) -> tuple[Claim, ...]:
    return (Claim("X1", "a claim", tests=tests, figure=figure),)


def test_a_report_not_committed_says_not_yet_run_and_a_figure_not_run_says_how(tmp_path):
    text = findings.render(tmp_path, _claim(Comparison("A beats B", "real_seeds", "final", "a", "b"), figure="fig1_compile_rate"))
    assert "not run: needs GPU, `make reproduce-figure-1`" in text
    row = next(line for line in text.splitlines() if "A beats B" in line)
    assert "not yet run: `python -m bot_repro.experiment run real_seeds`" in row and row.count(findings.NOT_YET) == 2


def _report(root, name, seeds: dict[str, list[float]], summary_means: dict[str, float] | None = None,
            threshold: float | None = None, listed: str = "runs"):
    """A hand-made committed report: per-seed final values of each arm in its archive, runs.csv and a
    summary.json whose means are those of the runs (or ``summary_means``); with a ``threshold`` above
    every value, the summary records that no seed crossed it (arm "b" the baseline). ``listed``: the folder
    runs.csv names the runs in (runs: as archived, a committed report; sweep: as swept, a fresh one)."""
    folder = root / name
    rows = ["run_id,run_dir,choice.arm,seed"]
    for arm, values in sorted(seeds.items()):
        for seed, value in enumerate(values):
            run = folder / "runs" / f"{arm}_s{seed}"
            run.mkdir(parents=True)
            records = [{"step": 0, "eval/pass@1": 0.0}, {"step": 4, "time": 1.0, "generated_tokens": 8, "eval/pass@1": value}]
            (run / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
            rows.append(f"{listed}/{arm}_s{seed},results/{name}/runs/{arm}_s{seed},{arm},{seed}")
    report_folder.write_archive(folder / "runs", folder / report_folder.ARCHIVE)
    shutil.rmtree(folder / "runs")
    (folder / "runs.csv").write_text("\n".join(rows) + "\n")
    means = summary_means or {arm: sum(v) / len(v) for arm, v in seeds.items()}
    groups = [{"group": {"choice.arm": arm}, "label": arm, "n_seeds": len(seeds[arm]),
               "final": {"mean": means[arm], "ci_low": None, "ci_high": None, "n": len(seeds[arm])},
               "start": {"mean": 0.0, "ci_low": 0.0, "ci_high": 0.0, "n": len(seeds[arm])},  # every run starts at 0.0
               "gain": {"mean": means[arm], "ci_low": None, "ci_high": None, "n": len(seeds[arm])}} for arm in sorted(seeds)]
    if threshold is not None:
        for g in groups:
            g["to_threshold"] = {"step": {"mean": None, "ci_low": None, "ci_high": None, "n_crossed": 0, "n_runs": g["n_seeds"]}}
            g["crossed"] = {"n_crossed": 0, "n_runs": g["n_seeds"], "seeds": []}
            g["speedup"] = None if g["label"] == "b" else {"step": {"ratio": None, "ci_low": None, "ci_high": None}}
    summary = {"metric": "eval/pass@1", "threshold": threshold, "baseline": "b", "group_by": ["choice.arm"], "groups": groups,
               "final_window": 1, "smoothing": {"method": "ema", "alpha": 0.5, "window": 3}, "direction": "above"}
    meta = {"command": "test", "git_sha": "0" * 40, "date": "d", "machine": "m", "experiment": name}
    report_folder.write_summary(folder, meta, [summary])


def test_a_report_that_appears_fills_its_row_in(tmp_path):
    claims = _claim(Comparison("pooled beats GRPO", "real_seeds", "final", "arith_bot_pooled", "arith_grpo", metric="eval/pass@1"))
    _report(tmp_path, "real_seeds", {"arith_bot_pooled": [0.50, 0.55, 0.60], "arith_grpo": [0.20, 0.25, 0.22]})
    row = next(line for line in findings.render(tmp_path, claims).splitlines() if "pooled beats GRPO" in line)
    assert findings.NOT_YET not in row and "| supports |" in row and "| 3 / 3 |" in row
    assert "[summary](real_seeds/summary.md)" in row and str(tmp_path) not in row


def test_each_row_says_how_often_leaving_two_seeds_out_changes_its_verdict(tmp_path):
    claims = _claim(Comparison("a beats b", "r", "final", "a", "b"), Comparison("a rises", "r", "gain", "a", "a"))
    # seed 3 of arm a alone is low: the 4 seeds just support a > b, as do the 3 pairs that drop seed 3; the 3
    # that keep it leave a = [0.6x, 0.10] against two of b's, whose interval holds 0
    _report(tmp_path, "r", {"a": [0.60, 0.61, 0.62, 0.10], "b": [0.20, 0.21, 0.22, 0.23]})
    lines = findings.render(tmp_path, claims).splitlines()
    assert "verdict changes, leave-2-seeds-out" in next(line for line in lines if line.startswith("| id |"))
    row = next(line for line in lines if "a beats b" in line)
    assert "| supports | 50% of 6 (fragile) |" in row
    gain = next(line for line in lines if "a rises" in line)
    assert "a: step 0 0.00 [0.00, 0.00] -> end 0.483" in gain and "| its own step 0, paired by seed |" in gain
    assert "| supports | 0% of 6 |" in gain  # every seed rose from 0.0


def test_a_fresh_report_prints_its_plans_tests_and_a_broken_plan_says_why(tmp_path):
    _report(tmp_path, "fresh", {"a": [0.60, 0.61, 0.62], "b": [0.20, 0.21, 0.22]}, listed="sweep")
    lines = findings.declared("plan", "shows", [{"what": "a beats b", "quantity": "final", "a": "a", "b": "b"}], tmp_path / "fresh")
    row = next(line for line in lines if line.startswith("| a beats b"))
    assert "| 3 / 3 | supports | 100% of 3 (fragile) |" in row
    lines = findings.declared("plan", "shows", [{"what": "c beats b", "quantity": "final", "a": "c", "b": "b"},
                                                {"what": "b gains", "quantity": "gain", "a": "b"}], tmp_path / "fresh")
    assert any(line.startswith(f"| c beats b | not judged: {tmp_path.name}/fresh: no arm 'c'") for line in lines)
    assert any(line.startswith("| b gains | b: step 0") for line in lines)  # the other test is still judged


def test_an_archive_that_disagrees_with_its_summary_is_an_error(tmp_path):
    _report(tmp_path, "r", {"a": [0.5, 0.6], "b": [0.1, 0.2]}, summary_means={"a": 0.9, "b": 0.15})
    with pytest.raises(findings.FindingsError, match="'a'.*summary.json says 0.9"):
        findings.render(tmp_path, _claim(Comparison("a beats b", "r", "final", "a", "b")))


def test_an_arm_the_report_lacks_is_an_error_naming_its_arms(tmp_path):
    _report(tmp_path, "r", {"a": [0.5, 0.6], "b": [0.1, 0.2]})
    with pytest.raises(findings.FindingsError, match="no arm 'c'.*arms: a, b"):
        findings.render(tmp_path, _claim(Comparison("c beats b", "r", "final", "c", "b")))


def test_a_speed_up_where_no_seed_crossed_cannot_decide(tmp_path):
    _report(tmp_path, "r", {"a": [0.5, 0.6], "b": [0.1, 0.2]}, threshold=0.99)
    row = next(line for line in findings.render(tmp_path, _claim(Comparison("a is faster", "r", "speedup", "a", "b"))).splitlines()
               if "a is faster" in line)
    assert "| n/a | 0 of 2 / 0 of 2 | cannot decide |" in row and "(0/2 crossed)" in row


def test_the_claim_table_refuses_a_bad_entry():
    with pytest.raises(ValueError, match="quantity='mean'; allowed: final"):
        Comparison("x", "r", "mean", "a", "b")
    with pytest.raises(ValueError, match="level2"):
        Comparison("x", "r", "interaction", "a", "b")


def test_the_paper_column_is_docs_method_text():
    doc = (REPO / "docs" / "method.md").read_text()
    table = dict(re.findall(r"^\| (C\d+) \| (.+?) \| \d+: `", doc, re.MULTILINE))
    ours = {c.id: c.paper for c in CLAIMS if c.id.startswith("C")}
    assert sorted(ours) == sorted(table) and len(ours) == 10
    assert ours == table


def test_the_speed_section_prints_header_fields_where_a_file_has_them(tmp_path):
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "react.json").write_text(json.dumps(
        {"render_per_s": 4.25, "header": {"date": "2026-12-04T18:00:00+00:00", "git_sha": "abc123", "git_dirty": True, "loaded": False}}))
    (tmp_path / "bench" / "new.json").write_text(json.dumps({"x": 1}))
    lines = speed_section(tmp_path)
    react = next(line for line in lines if "react.json" in line)
    assert "render_per_s 4.25" in react and "abc123 (dirty)" in react and "| false |" in react
    new = next(line for line in lines if "new.json" in line)
    assert "none declared" in new and new.count("n/a") == len(BENCH_HEADER)


PLAN = """\
# @package _global_
report:
  shows: a pre-registered plan
  results: my_plan
  tests:
    - {what: a beats b on pass@1, quantity: final, a: a, b: b, metric: eval/pass@1}
    - {what: b ends below a, quantity: final, a: b, b: a, better: below}
"""


def test_a_plan_declared_in_an_experiment_file_gets_one_row_per_test_before_and_after_its_runs(tmp_path):
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "my_plan.yaml").write_text(PLAN)
    (plan,) = planned(tmp_path / "conf")
    assert plan.id == "my_plan" and plan.claim == "a pre-registered plan"
    assert [(t.what, t.report, t.quantity, t.better) for t in plan.tests] == [
        ("a beats b on pass@1", "my_plan", "final", "above"), ("b ends below a", "my_plan", "final", "below")]
    before = [line for line in findings.render(tmp_path, (plan,)).splitlines() if line.startswith("| my_plan")]
    assert len(before) == 2 and all(findings.NOT_YET in line for line in before)
    _report(tmp_path, "my_plan", {"a": [0.50, 0.55, 0.60], "b": [0.20, 0.25, 0.22]})
    after = [line for line in findings.render(tmp_path, (plan,)).splitlines() if line.startswith("| my_plan")]
    assert len(after) == 2 and all("| supports |" in line for line in after)


@pytest.mark.parametrize("entry,match", [
    ({"what": "x", "quantity": "mean", "a": "a", "b": "b"}, "quantity='mean'; allowed"),
    ({"what": "x", "quantity": "final", "a": "a"}, r"a declared test is \{what, quantity, a, b"),
    ({"what": "x", "quantity": "gain", "a": "a", "b": "b"}, "a gain reads one arm; b='b' must be a='a' or left out"),
    ({"what": "x", "quantity": "final", "a": "a", "b": "b", "level2": "r"}, "keys what, quantity, a, b, better, metric"),
])
def test_a_bad_declared_test_is_refused_naming_it(entry, match):
    assert declared_test({"what": "x", "quantity": "gain", "a": "g"}, "r", "here").b == "g"  # a gain's b may be left out
    with pytest.raises(ValueError, match=match):
        declared_test(entry, "r", "report.tests of conf/experiment/x.yaml")
