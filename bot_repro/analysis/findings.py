"""``results/FINDINGS.md``: every claim of ``bot_repro.analysis.claims`` judged from the committed
reports under ``results/`` (``make findings``, ``python -m bot_repro.experiment findings``).

Each test of a claim reads one report folder (``bot_repro.report_folder``): the arms' headline numbers
from its ``summary.json``, and their per-seed values (final value, steps to the threshold,
peak-to-final drop) recomputed from its archived runs (``runs.tar.xz``, grouped as its ``runs.csv`` says)
with the summary's own settings; a per-seed mean that differs from the summary's is an error, so the
two can never tell different stories. The interval of the difference (or ratio, or interaction, or
Newcombe's for collapsed seeds) and the verdict word come from ``bot_repro.analysis.verdict``, the one
statement of the rule (docs/method.md §5); how firm each verdict is under leave-2-seeds-out from
``bot_repro.analysis.fragility``. A report that is not committed gives a row that says so, and fills
itself in once it is; the Speed section is ``bot_repro.analysis.speed``'s. The output is byte-reproducible: no dates, no absolute paths, fixed
bootstrap seeds (verdict.py's), sorted iteration and one number format (``formats``).
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bot_repro import report_folder
from bot_repro.analysis import claims as table
from bot_repro.analysis.bootstrap import bootstrap_ci
from bot_repro.analysis.committed import REPO
from bot_repro.analysis.formats import cell, interval, number, speedup
from bot_repro.analysis.fragility import FRAGILE, LEAVE_OUT, Firmness, leave_out
from bot_repro.analysis.labels import group_label
from bot_repro.analysis.speed import speed_section
from bot_repro.analysis.stats import crossings_per_run, final_values, peak_to_final_drops
from bot_repro.analysis.verdict import difference_ci, interaction_ci, newcombe_ci, ratio_ci, verdict
from bot_repro.run_folder import read_metrics
from bot_repro.run_folder.read import is_number
from bot_repro.run_folder.schema import METRICS

RESULTS = REPO / "results"
FINDINGS = "FINDINGS.md"
ARM = "_arm"  # the column holding each run's group label
PER_SEED = {"final": "final", "gain": "gain", "steps": "crossing", "speedup": "crossing", "drop": "drop", "interaction": "final"}
NOT_YET = "not yet run"


class FindingsError(ValueError):
    """A claim table entry that does not match its committed report (unknown arm or metric, or an
    archive whose per-seed values disagree with the summary)."""


def judge(quantity: str, a, b, better: str = "above", a2=None, b2=None) -> tuple[float, float, float, str]:
    """``(point, low, high, verdict word)`` of one test from per-seed values of arms ``a`` and ``b``
    (for ``collapsed``: ``(k, n)`` counts; for ``interaction``: a2, b2 are the default level's arms;
    for ``gain``: ``a``'s per-seed gains alone, ``b`` unused)."""
    null = table.QUANTITIES[quantity][1]
    if quantity == "gain":
        point, low, high = bootstrap_ci(np.asarray(a, dtype=float))  # the summary's interval of the same gains
    elif quantity == "collapsed":
        point, low, high = newcombe_ci(*a, *b)
    elif quantity == "speedup":
        point, low, high = ratio_ci(b, a)  # mean b / mean a: above 1 when a crosses in fewer steps
    elif quantity == "interaction":
        point, low, high = interaction_ci(a, b, a2, b2)
    else:
        point, low, high = difference_ci(a, b)
    return point, low, high, verdict(low, high, null, better)


class Reports:
    """The committed report folders under ``root`` (results/), each read once."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._docs: dict[str, dict | None] = {}
        self._frames: dict[tuple[str, str], pd.DataFrame] = {}
        self._seeds: dict[str, dict[str, str]] = {}  # report -> run id -> its seed (runs.csv; the run id without one)

    def where(self, name: str) -> str:
        """How a message names the report ``name``: under its root's own name (``results/<name>`` for the
        committed ones), never a machine's path, since messages land in FINDINGS.md."""
        return f"{self.root.name}/{name}"

    def doc(self, name: str) -> dict | None:
        if name not in self._docs:
            path = self.root / name / report_folder.SUMMARY
            self._docs[name] = report_folder.read_summary(path) if path.is_file() else None
        return self._docs[name]

    def summary(self, name: str, metric: str | None) -> dict:
        summaries = self.doc(name)["summaries"]
        found = summaries[:1] if metric is None else [s for s in summaries if s["metric"] == metric]
        if not found:
            raise FindingsError(f"{self.where(name)}: no summary of metric {metric!r}; it has "
                                f"{', '.join(s['metric'] for s in summaries) or 'none'}")
        return found[0]

    def group(self, name: str, summary: dict, arm: str) -> dict:
        for entry in summary["groups"]:
            if entry["label"] == arm:
                return entry
        labels = ", ".join(sorted(g["label"] for g in summary["groups"]))
        raise FindingsError(f"{self.where(name)}: no arm {arm!r} in the summary of {summary['metric']}; arms: {labels}")

    def frame(self, name: str, metric: str) -> pd.DataFrame:
        """The archived runs' values of ``metric`` (the columns ``bot_repro.analysis.stats`` reads),
        each run labelled with its group as ``runs.csv`` records it."""
        if (name, metric) not in self._frames:
            folder = self.root / name
            cols = self.summary(name, None)["group_by"]
            with open(folder / report_folder.RUNS_TABLE, newline="") as f:
                table_rows = list(csv.DictReader(f))
            arms = {row["run_id"]: "/".join(row[c] for c in cols) for row in table_rows}
            self._seeds[name] = {row["run_id"]: row.get("seed") or row["run_id"] for row in table_rows}
            if not report_folder.has_archive(folder):
                raise FindingsError(f"{self.where(name)}: no {report_folder.ARCHIVE}, the archived runs its numbers come from")
            unpacked = report_folder.unpack(folder)
            rows = []
            for run_id, arm in sorted(arms.items()):
                # a committed report names its runs as archived (runs/<run>); a fresh one as swept (sweep/<run>),
                # archived under the run folder's own name
                path = unpacked.parent / run_id / METRICS
                path = path if path.is_file() else unpacked / Path(run_id).name / METRICS
                if not path.is_file():
                    raise FindingsError(f"{self.where(name)}: runs.csv names {run_id}, which has no {METRICS} in the archive")
                rows += [{"run_id": run_id, "step": r["step"], "time": float(r.get("time", 0)),
                          "generated_tokens": float(r.get("generated_tokens", 0)), "metric": metric,
                          "value": float(r[metric]), ARM: arm}
                         for r in read_metrics(path) if is_number(r.get(metric))]
            self._frames[(name, metric)] = pd.DataFrame(rows, columns=["run_id", "step", "time", "generated_tokens", "metric", "value", ARM])
        return self._frames[(name, metric)]

    def per_seed(self, name: str, summary: dict, quantity: str, arm: str) -> pd.Series:
        """One value per seed of ``arm`` (steps: the seeds that crossed), in run order and indexed by
        seed, checked against the summary's mean."""
        metric = summary["metric"]
        df = self.frame(name, metric)
        try:
            if quantity in ("final", "interaction", "gain"):
                rows = final_values(df, metric, ARM, summary["final_window"])
                key = summary_mean("gain" if quantity == "gain" else "final")
            elif quantity in ("steps", "speedup"):
                if summary["threshold"] is None:
                    raise FindingsError(f"{self.where(name)}: {metric} has no threshold; steps to it are undefined")
                rows = crossings_per_run(df, metric, summary["threshold"], ARM, "step", summary["smoothing"], summary["direction"])
                rows, key = rows[rows["crossed"]], summary_mean("to_threshold", "step")
            else:
                rows, key = peak_to_final_drops(df, metric, ARM, summary["smoothing"]), summary_mean("peak_to_final_drop")
        except ValueError as exc:
            if isinstance(exc, FindingsError):
                raise
            raise FindingsError(f"{self.where(name)}: {exc}") from exc
        mine = rows[rows[ARM] == arm].sort_values("run_id")
        values = pd.Series(mine[PER_SEED[quantity]].to_numpy(dtype=float),
                           index=[self._seeds[name][r] for r in mine["run_id"]], dtype=float)
        expected = key(self.group(name, summary, arm))
        got = float(values.mean()) if values.size else None
        if (expected is None) != (got is None) or (got is not None and not math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12)):
            raise FindingsError(f"{self.where(name)}: arm {arm!r}'s {PER_SEED[quantity]} from runs/ averages {got}, "
                                f"summary.json says {expected}: the archive and the summary disagree")
        return values


def summary_mean(*keys: str):
    """The getter of a group entry's mean at ``keys`` (None where the summary has none)."""
    def get(entry: dict) -> float | None:
        node: Any = entry
        for k in keys:
            node = (node or {}).get(k)
        return (node or {}).get("mean")
    return get


@dataclass(frozen=True)
class Row:
    claim: table.Claim
    test: str
    report: str
    a: str = ""
    b: str = ""
    difference: str = ""
    seeds: str = ""
    verdict: str = ""
    files: str = ""
    firmness: Firmness | None = None  # leave-2-seeds-out (bot_repro.analysis.fragility); None: no test ran


def _links(root: Path, name: str, doc: dict) -> str:
    """Relative links (from results/) to the report's figure and summary."""
    out = []
    figure = Path(name) / f"{doc['meta']['experiment']}.png"
    if (root / figure).is_file():
        out.append(f"[figure]({figure.as_posix()})")
    out.append(f"[summary]({name}/{report_folder.SUMMARY_MD})")
    return " · ".join(out)


def _arm_text(where: str, quantity: str, summary: dict, entry: dict) -> str:
    label = group_label(entry["label"], summary["group_by"][0] if len(summary["group_by"]) == 1 else None)
    if quantity == "final":
        node = entry["final"]
        return f"{label} {interval(node['mean'], node.get('ci_low'), node.get('ci_high'))}"
    if quantity == "gain":
        start, end = entry["start"], entry["final"]
        return (f"{label}: step 0 {interval(start['mean'], start.get('ci_low'), start.get('ci_high'))} -> "
                f"end {interval(end['mean'], end.get('ci_low'), end.get('ci_high'))}")
    if quantity in ("steps", "speedup"):
        node, crossed = entry["to_threshold"]["step"], entry["crossed"]
        return (f"{label} {interval(node['mean'], node.get('ci_low'), node.get('ci_high'))} "
                f"({crossed['n_crossed']}/{crossed['n_runs']} crossed)")
    if quantity == "drop":
        node = entry["peak_to_final_drop"]
        return f"{label} {interval(node['mean'], node.get('ci_low'), node.get('ci_high'))}"
    node = _collapsed(where, entry)
    return f"{label} {node['n_collapsed']}/{node['n_runs']} [{number(node['wilson_low'])}, {number(node['wilson_high'])}]"


def _collapsed(where: str, entry: dict) -> dict:
    node = entry.get("collapsed")
    if node is None:
        raise FindingsError(f"{where}: the summary records no collapsed seeds for {entry['label']!r}")
    return node


def _step0(doc: dict) -> str:
    s0 = (doc.get("step0") or {}).get("step0_success")
    return "" if s0 is None else f" (step-0 success {number(s0)})"


def evaluate(claim: table.Claim, test: table.Comparison, reports: Reports) -> Row:
    """The row of one test: ``not yet run`` when a report it reads is not committed."""
    names = [test.report, *([test.level2] if test.level2 else [])]
    missing = [n for n in names if reports.doc(n) is None]
    if missing:
        cmd = f"python -m bot_repro.experiment run {Path(missing[0]).name}"
        return Row(claim, test.what, f"`{missing[0]}`", a=f"{NOT_YET}: `{cmd}`", verdict=NOT_YET)
    doc = reports.doc(test.report)
    summary = reports.summary(test.report, test.metric)
    ea, eb = reports.group(test.report, summary, test.a), reports.group(test.report, summary, test.b)
    where = f"`{test.report}`{_step0(doc)}, {summary['metric']}"
    if test.quantity in ("steps", "speedup"):
        where += f", steps to {number(summary['threshold'])}"
    files = _links(reports.root, test.report, doc)
    decide = lambda *arms: judge(test.quantity, *arms[:2], test.better, *arms[2:])[3]  # noqa: E731
    if test.quantity == "collapsed":
        counts = [(c["n_collapsed"], c["n_runs"]) for c in (_collapsed(reports.where(test.report), e) for e in (ea, eb))]
        point, low, high, word = judge("collapsed", counts[0], counts[1], test.better)
        flags = [_collapse_flags(reports, test.report, summary, e) for e in (ea, eb)]
        firm = leave_out(flags, lambda x, y: judge("collapsed", (x.sum(), x.size), (y.sum(), y.size), test.better)[3], word)
        return Row(claim, test.what, where, _arm_text(reports.where(test.report), "collapsed", summary, ea),
                   _arm_text(reports.where(test.report), "collapsed", summary, eb), interval(point, low, high),
                   f"{counts[0][1]} / {counts[1][1]}", word, files, firm)
    va = reports.per_seed(test.report, summary, test.quantity, test.a)
    if test.quantity == "gain":
        point, low, high, word = judge("gain", va, None)
        return Row(claim, test.what, where, _arm_text(reports.where(test.report), "gain", summary, ea), "its own step 0, paired by seed",
                   interval(point, low, high), str(va.size), word, files, leave_out([va], decide, word))
    vb = reports.per_seed(test.report, summary, test.quantity, test.b)
    if test.quantity == "interaction":
        s2 = reports.summary(test.level2, summary["metric"])
        va2 = reports.per_seed(test.level2, s2, "final", test.a)
        vb2 = reports.per_seed(test.level2, s2, "final", test.b)
        point, low, high, word = judge("interaction", va, vb, test.better, va2, vb2)
        la, lb = (group_label(x, summary["group_by"][0]) for x in (test.a, test.b))
        return Row(claim, test.what, where, f"here: {la} - {lb} = {number(va.mean() - vb.mean())}",
                   f"`{test.level2}`{_step0(reports.doc(test.level2))}: {number(va2.mean() - vb2.mean())}",
                   interval(point, low, high), f"{va.size}, {vb.size} / {va2.size}, {vb2.size}", word,
                   f"{files}; {_links(reports.root, test.level2, reports.doc(test.level2))}",
                   leave_out([va, vb, va2, vb2], decide, word))
    point, low, high, word = judge(test.quantity, va, vb, test.better)
    if test.quantity == "speedup" and test.b == summary.get("baseline"):
        point, low, high, word = _reported_speedup(reports.where(test.report), test, summary, ea, point)
    diff = speedup(point, low, high) if test.quantity == "speedup" else interval(point, low, high)
    runs = lambda e: f"{e['crossed']['n_runs']}" if test.quantity in ("steps", "speedup") else str(e["n_seeds"])  # noqa: E731
    seeds = f"{va.size} of {runs(ea)} / {vb.size} of {runs(eb)}" if test.quantity in ("steps", "speedup") else f"{va.size} / {vb.size}"
    return Row(claim, test.what, where, _arm_text(reports.where(test.report), test.quantity, summary, ea),
               _arm_text(reports.where(test.report), test.quantity, summary, eb), diff, seeds, word, files,
               leave_out([va, vb], decide, word, _all_seeds(reports, test, summary)))


def _all_seeds(reports: Reports, test: table.Comparison, summary: dict) -> list | None:
    """Steps to a threshold read only the seeds that crossed; the subsets leave out any two of all the seeds."""
    if test.quantity not in ("steps", "speedup"):
        return None
    return [*reports.per_seed(test.report, summary, "final", test.a).index, *reports.per_seed(test.report, summary, "final", test.b).index]


def _collapse_flags(reports: Reports, name: str, summary: dict, entry: dict) -> pd.Series:
    """1.0 for each of the arm's seeds the summary records as collapsed, else 0.0, indexed by seed."""
    seeds = reports.per_seed(name, summary, "final", entry["label"]).index
    collapsed = {str(s) for s in _collapsed(reports.where(name), entry)["seeds"]}
    return pd.Series([float(str(s) in collapsed) for s in seeds], index=seeds, dtype=float)


def _reported_speedup(where: str, test: table.Comparison, summary: dict, entry: dict, point: float) -> tuple[float, float, float, str]:
    """The summary's own speed-up of arm ``a`` over its baseline (the same ratio and bootstrap; the
    interval can differ in its last digit from one recomputed here when the runs were ordered
    differently, and one quantity is printed once), checked against the point recomputed from runs/."""
    node = (entry.get("speedup") or {}).get("step") or {}
    ratio = node.get("ratio")
    if ratio is None and math.isnan(point):  # an arm with no seed that crossed: no speed-up either way
        return math.nan, math.nan, math.nan, verdict(math.nan, math.nan)
    if ratio is None or math.isnan(point) or not math.isclose(ratio, point, rel_tol=1e-9):
        raise FindingsError(f"{where}: {test.a!r}'s speed-up from runs/ is {point}, summary.json says {ratio}")
    low = math.nan if node.get("ci_low") is None else node["ci_low"]
    high = math.nan if node.get("ci_high") is None else node["ci_high"]
    return ratio, low, high, verdict(low, high, table.QUANTITIES["speedup"][1], test.better)


def rows(reports: Reports, claims=table.CLAIMS) -> list[Row]:
    out = []
    for claim in claims:
        if claim.figure is not None:
            number_ = claim.figure.split("_")[0].removeprefix("fig")
            if reports.doc(claim.figure) is None:
                none = "" if claim.tests else "; no small-scale analogue committed"
                out.append(Row(claim, "at paper scale", f"`{claim.figure}`",
                               a=f"not run: needs GPU, `make reproduce-figure-{number_}`{none}", verdict="not run"))
            else:
                out.append(Row(claim, "at paper scale", f"`{claim.figure}`", a="committed; no test declared",
                               verdict="see report", files=_links(reports.root, claim.figure, reports.doc(claim.figure))))
        out.extend(evaluate(claim, test, reports) for test in claim.tests)
    return out


HEADER = """# Findings

Generated from the committed reports under `results/` by `make findings`
(`python -m bot_repro.experiment findings`): do not edit it by hand (tests/unit/test_findings.py
regenerates it and compares byte for byte). Each claim, and what each of its tests compares, is declared
in `bot_repro/analysis/claims.py`; the paper's own numbers are its text in docs/method.md §1.

**Verdict rule** (docs/method.md §5, applied by `bot_repro/analysis/verdict.py`): a test compares arm A
with arm B by a 95% interval of the difference A - B (a bootstrap over seeds, the two arms resampled
independently; the ratio mean B / mean A for a speed-up in steps; Newcombe's score interval for the
share of collapsed seeds; (A - B here) - (A - B at the default level) for an interaction). *supports*:
the whole interval lies on the side the claim predicts; *contradicts*: wholly on the other side;
*cannot decide*: it contains no difference, or an arm has one seed. How firm a verdict is: the share of
the subsets that leave out 2 of the seeds (every pair, from every arm) whose verdict differs; one that
changes in more than {fragile} of them is marked *fragile* (`bot_repro/analysis/fragility.py`). Values are means [95% bootstrap
interval over seeds]; collapsed seeds are counts [Wilson 95%]; steps to the threshold average the seeds
that crossed.

"""


def render(root: Path = RESULTS, claims=None) -> str:
    """The text of FINDINGS.md for the reports under ``root``: the claim table's claims, then the ones
    pre-registered in experiment files (``claims.planned``)."""
    claims = (*table.CLAIMS, *table.planned()) if claims is None else claims
    reports = Reports(root)
    quantities = [f"- `{name}`: {text}; no difference is {number(null)}" for name, (text, null) in table.QUANTITIES.items()]
    lines = [HEADER.format(fragile=f"{FRAGILE:.0%}").rstrip("\n"), "", "What a test compares (its `quantity` in the claim table):", "", *quantities, "", "## Claims", "",
             "| id | claim | the paper | test | report, metric | A | B | A vs B [95% CI] | seeds A / B | verdict | "
             f"verdict changes, leave-{LEAVE_OUT}-seeds-out | files |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    seen: set[str] = set()
    for row in rows(reports, claims):
        first = row.claim.id not in seen
        seen.add(row.claim.id)
        cells = [row.claim.id, row.claim.claim if first else "", row.claim.paper if first else "", row.test, row.report,
                 row.a, row.b, row.difference, row.seeds, row.verdict,
                 row.firmness.text() if row.firmness is not None else "", row.files]
        lines.append("| " + " | ".join(cell(c) for c in cells) + " |")
    lines += ["", *speed_section(root)]
    return "\n".join(lines) + "\n"


def declared(name: str, shows: str, entries: list[dict], folder: Path) -> list[str]:
    """Markdown lines of a plan's declared tests (``report.tests`` of experiment ``name``) judged on the
    report folder ``folder`` (a report's summary.md: the same rows FINDINGS prints once it is committed)."""
    lines = ["", "## Declared tests (the plan's; docs/method.md §5)", "",
             f"| test | A | B | A vs B [95% CI] | seeds A / B | verdict | verdict changes, leave-{LEAVE_OUT}-seeds-out |",
             "|---|---|---|---|---|---|---|"]
    tests = tuple(table.declared_test(t, folder.name, f"report.tests of {name}") for t in entries)
    claim, reports = table.Claim(name, shows, tests), Reports(folder.parent)
    for test in tests:
        try:
            r = evaluate(claim, test, reports)
            row = (r.test, r.a, r.b, r.difference, r.seeds, r.verdict, r.firmness.text())
        except FindingsError as exc:  # a partial or smoke sweep can lack an arm or a metric: say so, judge the rest
            row = (test.what, f"not judged: {exc}", "", "", "", "", "")
        lines.append("| " + " | ".join(map(cell, row)) + " |")
    return [*lines, "", f"A verdict that changes in more than {FRAGILE:.0%} of the subsets leaving out {LEAVE_OUT} seeds is "
            "marked fragile (bot_repro/analysis/fragility.py).", ""]


def write(out: Path | None = None, root: Path = RESULTS) -> Path:
    """Write the findings of the reports under ``root`` to ``out`` (default ``<root>/FINDINGS.md``)."""
    out = Path(out) if out is not None else Path(root) / FINDINGS
    text = render(root)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    return out
