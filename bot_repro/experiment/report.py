"""The one report path: an experiment's run folders -> its report folder (``bot_repro.report_folder``).

``build`` loads the runs (``load``: the sources, plus what ``report.reads`` and
``report.extends_committed`` add, relabelled by ``report.relabel``, with ``report.derived`` ratio
metrics), summarises each panel metric (``bot_repro.analysis.summarise``, plus each group's mean
curve) and records where the numbers come from (``Report.meta``). ``write`` writes the report folder:
``summary.json`` through ``report_folder``, ``summary.md``, ``runs.csv``, the figure and the
archive of the run records (``report_folder.ARCHIVE``). Experiments with ``report.step0`` (the CPU
study) also get the starting point their runs share and per-group costs (``study_numbers``); a plan's
declared tests are judged on the folder and printed in ``summary.md`` (``analysis.findings.declared``).
"""

from __future__ import annotations

import shutil
import tempfile
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from bot_repro import paths, report_folder
from bot_repro.analysis import committed, findings, summarise
from bot_repro.analysis.study_tables import (
    BASELINE_COLUMNS,
    DYNAMIC_SAMPLING,
    baseline_markdown,
    collapse_counts,
    groups_markdown,
    step0_markdown,
    step0_stats,
    training_shares,
)
from bot_repro.analysis.summary import collect_meta, summary_markdown, to_jsonable
from bot_repro.experiment.machine_load import load_summary
from bot_repro.experiment.run_table import load_figure_runs, run_table
from bot_repro.experiment.spec import Experiment
from bot_repro.plots.curves import SMOKE_TITLE
from bot_repro.plots.figures import SMOKE_COLUMN, draw_and_save, draw_with_note, is_smoke
from bot_repro.run_folder import copy_record, read_run_info

SWEEP = "sweep"  # runs/<name>/<stamp>/sweep holds a run of an experiment's jobs


def reads_source(exp: Experiment, first: Path) -> Path | None:
    """The runs ``report.reads`` names, for a report whose runs are the fresh sweep ``first``
    (``<runs>/<name>/<stamp>/sweep``): the newest sweep of that experiment, or its committed archive,
    that starts from the same policy (``policy.json``'s hash). None when ``first`` is an archive
    (which already holds copies of what it read) or nothing matches (with a note)."""
    if exp.reads is None or first.name != SWEEP:
        return None
    other, ours = exp.reads.experiment, (report_folder.read_policy(first) or {}).get("policy_hash")
    candidates = sorted((first.parents[2] / other).glob(f"*/{SWEEP}"), reverse=True)  # stamps sort by time
    if report_folder.has_archive(committed.committed_dir(other)):
        candidates.append(report_folder.unpack(committed.committed_dir(other)))
    for path in candidates:
        if path.is_dir() and (report_folder.read_policy(path) or {}).get("policy_hash") == ours:
            print(f"note: {exp.name} reads {other}'s runs from {paths.relative(path)} (policy {ours})")
            return path
    print(f"note: no runs of {other} start from policy {ours}; {exp.name}'s report reads only {first}")
    return None


def committed_source(exp: Experiment, first: Path) -> Path | None:
    """The committed report's archived runs (``report.extends_committed``), unpacked, when they start
    from the policy ``first`` records and are not ``first`` itself."""
    folder = committed.committed_dir(exp.results)
    if not exp.report.extends_committed or not report_folder.has_archive(folder):
        return None
    archive = report_folder.unpack(folder)
    if archive == first.resolve():
        return None
    theirs = (report_folder.read_policy(archive) or {}).get("policy_hash")
    ours = (report_folder.read_policy(first) or {}).get("policy_hash")
    if theirs != ours:
        print(f"note: {paths.relative(archive)} starts from policy {theirs}, these runs from {ours}: not added")
        return None
    return archive


def _derive(frame: pd.DataFrame, derived: dict[str, list[str]]) -> pd.DataFrame:
    """Append each ``derived`` metric, numerator / denominator per (run, step), where the
    denominator is logged and non-zero (a step with nothing to divide by has no value, not 0)."""
    parts = [frame]
    for metric, (num, den) in derived.items():
        a = frame[frame.metric == num].set_index(["run_id", "step"])
        b = frame[frame.metric == den].set_index(["run_id", "step"])["value"]
        joined = a.join(b.rename("_den"), how="inner")
        joined = joined[joined["_den"] != 0]
        rows = joined.assign(value=joined["value"] / joined["_den"], metric=metric).drop(columns="_den")
        parts.append(rows.reset_index()[frame.columns])
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else frame


def load(exp: Experiment, sources: Sequence[Path], columns: Sequence[str]) -> tuple[pd.DataFrame, dict[Path, int], Path | None]:
    """The runs under ``sources`` plus those the report block adds (module docstring). Returns
    (long table, {added folder: runs read from it}, the folder report.reads found)."""
    first = Path(sources[0])
    rep = exp.report
    read = reads_source(exp, first)
    archive = committed_source(exp, first)
    extra = [k for rule in rep.relabel for part in ("where", "set") for k in rule[part]]
    roots = [*map(Path, sources), *([read] if read else []), *([archive] if archive else [])]
    df = load_figure_runs(roots, [*columns, "algorithm.name", *extra])
    added: dict[Path, int] = {}
    for root in roots[len(sources):]:
        mine = df["run_dir"].astype(str).str.startswith(f"{root}/")
        keep = ~mine
        if root == read and exp.reads.algorithms is not None:
            keep |= df["algorithm.name"].isin(exp.reads.algorithms)
        else:
            keep |= mine
        added[root] = int(df.loc[mine & keep, "run_id"].nunique())
        df = df[keep]
    for rule in rep.relabel:
        hit = (df[list(rule["where"])] == pd.Series(rule["where"])).all(axis=1)
        for col, value in rule["set"].items():
            df.loc[hit, col] = value
    return _derive(df.reset_index(drop=True), rep.derived), added, read


def mean_curves(frame: pd.DataFrame, metric: str, cols: list[str]) -> list[dict[str, Any]]:
    """Each group's curve of ``metric``: [step, mean over runs, runs] per logged step, unsmoothed
    (the figure's smoothed bands are drawn from the same table)."""
    rows = frame[frame.metric == metric]
    out = []
    for key, part in rows.groupby(cols, dropna=False, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        per_step = part.groupby("step")["value"].agg(["mean", "count"])
        points = [[int(s), float(m), int(n)] for s, (m, n) in per_step.iterrows()]
        out.append({"group": dict(zip(cols, key)), "points": points})
    return out


@dataclass
class Report:
    exp: Experiment
    frame: pd.DataFrame
    summaries: list[dict[str, Any]]
    meta: dict[str, Any]
    machines: list[dict]
    added: dict[Path, int] = field(default_factory=dict)  # folder the report block added -> runs read
    read_root: Path | None = None  # the folder report.reads found
    step0: dict | None = None

    def draw(self, stem: Path, smoke: bool | None = None) -> list[Path]:
        if self.exp.report.table and self.summaries and self.summaries[0]["threshold"] is not None:
            return draw_with_note(self.frame, self.exp.plot, self.summaries[0], stem, smoke)
        return draw_and_save(self.frame, self.exp.plot, stem, smoke)


def summaries(frame: pd.DataFrame, exp: Experiment) -> list[dict[str, Any]]:
    """``summarise`` of each panel metric the table has (the plot's threshold, none for pairwise win
    rates; speed-ups against ``plot.baseline`` when that value is among the lines), with its curves."""
    settings = exp.plot
    hue_values = set(map(str, frame[settings.hue].dropna().unique())) if settings.hue in frame else set()
    baseline = settings.baseline if str(settings.baseline) in hue_values else None
    out = []
    for metric in settings.panel_metrics:
        if not (frame["metric"] == metric).any():
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # one seed: empty intervals are expected
            threshold = None if settings.kind == "pairwise" else settings.threshold_for(metric)
            summary = summarise(frame, metric, threshold, group_by=settings.columns, baseline=baseline,
                                on=settings.hue if baseline is not None else None)
        summary["curves"] = to_jsonable(mean_curves(frame, metric, settings.columns))
        out.append(summary)
    return out


def study_numbers(rep: Report, policy: dict | None) -> None:
    """The CPU study's additions to the first summary (wall seconds, final empty rate, identical-group
    share and collapsed seeds per group) and the step-0 record (``analysis.study_tables``)."""
    df, summary = rep.frame, rep.summaries[0]
    cols, metric = rep.exp.plot.columns, summary["metric"]
    hacking = summarise(df, "eval/empty_rate", None, group_by=cols, baseline=None)
    wall = df[df.metric == metric].groupby("run_id")["time"].max()
    runs_per_group = df[df.metric == metric].drop_duplicates("run_id").set_index("run_id")[cols]
    for entry in summary["groups"]:
        mask = (runs_per_group[cols] == [entry["group"][c] for c in cols]).all(axis=1)
        entry["train_wall_seconds_mean"] = float(wall[mask[mask].index].mean())
        entry["final_empty_rate"] = next(h for h in hacking["groups"] if h["group"] == entry["group"])["final"]
        entry["identical_group_share"] = training_shares(df, cols, entry["group"])
    collapse_counts(df, metric, cols, summary)
    rep.step0 = step0_stats(df, policy)


def build(exp: Experiment, sources: Sequence[Path], command: str) -> Report:
    """The report of ``exp`` over the runs under ``sources``; no runs is a FileNotFoundError."""
    columns = [*exp.plot.columns, SMOKE_COLUMN, *([DYNAMIC_SAMPLING] if exp.report.step0 else []),
               *(BASELINE_COLUMNS if exp.report.baseline_table else ())]
    frame, added, read = load(exp, sources, columns)
    if frame.empty:
        raise FileNotFoundError(f"no runs with metrics below {', '.join(map(str, sources))}")
    meta = {**collect_meta(command, committed.REPO), "experiment": exp.name}
    if exp.figure is not None:
        meta.update({"figure": exp.figure, "claim": exp.report.claim})
    run_dirs = sorted(set(frame["run_dir"]))
    meta["git_sha"] = ", ".join(sorted({(read_run_info(d) or {}).get("run.git_sha") or "unknown" for d in run_dirs}))
    rep = Report(exp, frame, summaries(frame, exp), meta, committed.machines(run_dirs), added, read)
    if exp.report.step0 and rep.summaries:
        study_numbers(rep, report_folder.read_policy(sources[0]))
    return rep


def archive(rep: Report, sources: Sequence[Path], out_dir: Path) -> int:
    """Pack the record of every run the report read into ``out_dir``'s archive (``report_folder.ARCHIVE``),
    unless the runs come from that archive (a committed report redrawn in place): the report redraws
    from committed files. Runs of another experiment's folder get its name as prefix."""
    if any(report_folder.unpacked_from(s) == out_dir.resolve() for s in sources):
        return 0
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / report_folder.RUNS
        target.mkdir()
        for run_dir in sorted(set(rep.frame["run_dir"])):
            run_dir = Path(run_dir)
            read = rep.read_root is not None and rep.read_root in run_dir.parents
            prefix = f"{rep.exp.reads.experiment}__" if read else ""  # own and committed runs keep their names
            copy_record(run_dir, target / f"{prefix}{run_dir.name}")
            n += 1
        policy = report_folder.read_policy(sources[0])
        if policy is not None:
            report_folder.write_policy(target, policy)
        load = Path(sources[0]) / report_folder.LOAD
        if load.is_file():
            shutil.copyfile(load, target / report_folder.LOAD)
        report_folder.write_archive(target, out_dir / report_folder.ARCHIVE)
    return n


def write(rep: Report, sources: Sequence[Path], out_dir: Path, smoke: bool = False, extra_meta: dict | None = None) -> list[Path]:
    """The report folder ``out_dir`` (package docstring of ``bot_repro.report_folder``); returns the
    figure files. ``extra_meta`` is added to ``meta`` last (a redrawn committed report keeps the
    provenance of the run that made it: ``bot_repro.experiment.run.redraw``)."""
    smoke = smoke or is_smoke(rep.frame)
    meta = {**rep.meta, "reused_runs": {str(d): n for d, n in rep.added.items()},
            "archived_runs": archive(rep, sources, out_dir), **(extra_meta or {})}
    load = load_summary(Path(sources[0]) / report_folder.LOAD)  # the load.csv the archive holds
    if load is not None:
        meta["load"] = load
    if smoke:
        meta["smoke"] = f"{SMOKE_TITLE}: a few steps of a random-init model; the numbers test the pipeline only"
    meta = paths.portable({**to_jsonable(meta), "machines": rep.machines})  # results/ names no folder of this machine
    summaries_ = paths.portable(to_jsonable(rep.summaries))
    step0 = paths.portable(to_jsonable(rep.step0)) if rep.step0 is not None else None
    report_folder.write_summary(out_dir, meta, summaries_, step0)
    shown = {k: v for k, v in meta.items() if k not in ("machines", "reused_runs")}
    md = [summary_markdown(s, shown) for s in summaries_]
    text = "\n".join(md) if md else f"# {rep.exp.name}\n\nNo metric data.\n"
    if step0 is not None and summaries_:
        text += step0_markdown(step0) + groups_markdown(summaries_[0])
    if rep.exp.report.baseline_table and summaries_:
        text += baseline_markdown(rep.frame, summaries_[0], rep.machines, rep.exp.plot.labels)
    table = run_table(rep.frame, rep.exp.plot.columns)
    table["run_dir"] = table["run_dir"].map(paths.relative)
    table.to_csv(out_dir / report_folder.RUNS_TABLE, index=False)
    if rep.exp.report.tests and summaries_:  # judged on this folder: summary.json, runs.csv and the archive are written
        text += "\n".join(findings.declared(rep.exp.name, rep.exp.report.shows, rep.exp.report.tests, out_dir))
    (out_dir / report_folder.SUMMARY_MD).write_text(text)
    return rep.draw(out_dir / rep.exp.name, smoke=smoke)
