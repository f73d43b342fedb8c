"""The committed reports (``results/<report.results>/``, e.g. ``results/mini/`` for the demo and
``results/mini_study/<experiment>/`` for the study): where they live, which machines made their
runs, a new report's numbers judged against them, and ``publish``, the explicit step that replaces
one. Reports are read through ``bot_repro.report_folder``.

The comparison has two separate questions. *Consistent?* For every algorithm and headline quantity
(steps to the threshold, speed-up vs the baseline, final value, seeds that crossed, seeds that
collapsed) the two 95% intervals must overlap (bootstrap over seeds for the first three, Wilson for
the two counts); one quantity whose intervals are disjoint makes the algorithm, and the report,
``inconsistent``. *Identical?* The same policy on the same hardware runs the same floating point, so
it must give the same numbers to 1e-9; on other hardware (fields named) it need not.

A published folder names no folder of the machine that made it: ``make_portable`` rewrites the
absolute paths of its JSON and Markdown files (run commands, the sweep folder, the policy path)
relative to the repository, or to ``$BOT_REPRO_CACHE/``, those of its archived runs included (unpacked,
rewritten and packed again), and ``publish`` refuses a report where one is left.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

from bot_repro import paths, report_folder
from bot_repro.analysis.formats import number
from bot_repro.analysis.stats import wilson_interval
from bot_repro.run_folder import read_config, read_run_json, run_json_path

REPO = paths.REPO  # results/ lives here
# each headline quantity and the summary entry it is read from
SOURCE = {"steps to threshold": "to_threshold", "speed-up (steps)": "speedup", "final": "final",
          "crossed seeds": "crossed", "collapsed seeds": "collapsed"}
THREADS_KEY = "resources.torch_threads"  # the thread count a run sets (run.json records the default at start)
PORTABLE = ("*.json", "*.md")  # the files of a report make_portable rewrites (rollouts are model output: left as is)


def committed_dir(results: str) -> Path:
    """Where a committed report lives: ``results/<results>`` (an experiment's ``report.results``)."""
    return REPO / "results" / results


def headline_summary(doc: dict) -> dict:
    """The first summary of a report document with its step-0 record and meta beside it: the one
    dict the comparison reads (``summaries[0]`` is the study's headline metric)."""
    first = doc["summaries"][0] if doc.get("summaries") else {"groups": []}
    return {**first, **(doc.get("step0") or {}), "meta": doc.get("meta") or {}}


def machines(run_dirs) -> list[dict]:
    """Which machine made which runs: one entry per distinct ``run.json`` ``hardware`` record
    (``{"hardware": {...}, "runs": [folder names]}``), the thread count taken from the run's
    ``resources.torch_threads`` where it sets one. Runs from before hardware was recorded in full
    share the record they have (possibly only ``cpu_count``)."""
    groups: dict[str, dict] = {}
    for run_dir in sorted({Path(d) for d in run_dirs}):
        hw = dict((read_run_json(run_dir) or {}).get("hardware") or {})
        threads = (read_config(run_dir) or {}).get(THREADS_KEY)
        if threads:
            hw["torch_threads"] = threads
        entry = groups.setdefault(json.dumps(hw, sort_keys=True), {"hardware": hw, "runs": []})
        entry["runs"].append(run_dir.name)
    return list(groups.values())


def hardware_differences(new: dict, committed: dict) -> tuple[list[str], list[str]] | None:
    """(fields whose values differ, fields only one side records) between the two summaries'
    machines; None when either summary records no machines."""
    a, b = (new.get("meta") or {}).get("machines"), (committed.get("meta") or {}).get("machines")
    if not a or not b:
        return None
    values = lambda ms, k: {json.dumps(m["hardware"].get(k)) for m in ms}  # noqa: E731
    keys = lambda ms: {k for m in ms for k in m["hardware"]}  # noqa: E731
    both, either = keys(a) & keys(b), keys(a) | keys(b)
    return sorted(k for k in both if values(a, k) != values(b, k)), sorted(either - both)


def _count(entry: dict, key: str) -> tuple[int, int] | None:
    node = entry.get(key) or {}
    k = node.get("n_collapsed" if key == "collapsed" else "n_crossed")
    return None if k is None or node.get("n_runs") is None else (int(k), int(node["n_runs"]))


def headline(entry: dict) -> dict[str, tuple | None]:
    """The quantities the comparison judges, each (value, low, high, text) or None when the summary
    lacks it: steps to the threshold, speed-up vs the baseline (steps), final value, crossed and
    collapsed seeds (value: the count over runs, interval: Wilson on the share)."""
    out: dict[str, tuple | None] = {}
    for name, node, key in (("steps to threshold", (entry.get("to_threshold") or {}).get("step"), "mean"),
                            ("speed-up (steps)", (entry.get("speedup") or {}).get("step"), "ratio"),
                            ("final", entry.get("final"), "mean")):
        v = (node or {}).get(key)
        lo, hi = (node or {}).get("ci_low"), (node or {}).get("ci_high")
        lo, hi = (v if lo is None else lo), (v if hi is None else hi)  # one seed: the point itself
        out[name] = None if v is None else (v, lo, hi, f"{number(v)} [{number(lo)}, {number(hi)}]")
    for name, key in (("crossed seeds", "crossed"), ("collapsed seeds", "collapsed")):
        kn = _count(entry, key)
        if kn is None:
            out[name] = None
            continue
        lo, hi = wilson_interval(*kn)
        out[name] = (kn[0] / kn[1] if kn[1] else math.nan, lo, hi, f"{kn[0]}/{kn[1]} [{number(lo)}, {number(hi)}]")
    return out


def _step0_interval(summary: dict) -> tuple | None:
    """Step-0 held-out success with its bootstrap interval over runs (the runs share the policy and
    differ in their sampling), or None for a summary that does not record it."""
    ci = (summary.get("step0") or {}).get("success_ci")
    v = summary.get("step0_success")
    if v is None or not ci:
        return None
    return (v, ci[0], ci[1], f"[{number(ci[0])}, {number(ci[1])}]")


def _overlap(a: tuple, b: tuple) -> bool:
    (_, la, ha, _), (_, lb, hb, _) = a, b
    if None in (la, ha, lb, hb) or any(math.isnan(x) for x in (la, ha, lb, hb)):
        return a[0] == b[0]
    return la <= hb and lb <= ha


def _identical(new: dict, committed: dict) -> bool:
    """Every headline number and the step-0 numbers equal to 1e-9 (counts exactly)."""
    keys = ("policy_hash", "step0_success", "step0_pass@8", "step0_identical_group_share")
    close = lambda x, y: x == y or (isinstance(x, float) and isinstance(y, float) and math.isclose(x, y, abs_tol=1e-9))  # noqa: E731
    if not all(close(new.get(k), committed.get(k)) for k in keys):
        return False
    ours = {g["label"]: headline(g) for g in new.get("groups", [])}
    theirs = {g["label"]: headline(g) for g in committed.get("groups", [])}
    if set(ours) != set(theirs):
        return False
    # a quantity an older summary does not record at all (e.g. collapsed seeds) is not compared
    recorded = lambda label, name: all(SOURCE[name] in g for g in (*new["groups"], *committed["groups"]) if g["label"] == label)  # noqa: E731
    return all(close(None if a is None else a[0], None if b is None else b[0])
               for label in ours for (name, a), b in zip(ours[label].items(), theirs[label].values())
               if recorded(label, name))


def compare(new: dict, committed: dict | None) -> list[str]:
    """Lines judging this report against the committed one (module docstring): the step-0 policy,
    then per algorithm every headline quantity here and committed with ``consistent`` /
    ``INCONSISTENT``, a verdict line, and the exact-identity line naming differing hardware fields."""
    if committed is None:
        return ["no committed summary to compare with"]
    lines = []
    for key in ("policy_hash", "step0_success", "step0_pass@8", "step0_identical_group_share"):
        a, b = new.get(key), committed.get(key)
        lines.append(f"{key:28s} here {number(a):>18s}   committed {number(b):>18s}   {'same' if a == b else 'differs'}")
    a, b = _step0_interval(new), _step0_interval(committed)
    if a and b:
        lines.append(f"{'step0_success 95% CI':28s} here {a[3]:>18s}   committed {b[3]:>18s}   "
                     + ("consistent" if _overlap(a, b) else "INCONSISTENT"))
    ours = {g["label"]: g for g in new.get("groups", [])}
    theirs = {g["label"]: g for g in committed.get("groups", [])}
    bad: list[str] = []
    lines.append(f"{'algorithm':12s} {'quantity':20s} {'here [95% CI]':28s} {'committed [95% CI]':28s} judged")
    for label in sorted(set(ours) | set(theirs)):
        if label not in ours or label not in theirs:
            lines.append(f"{label:12s} {'only here' if label in ours else 'only committed'}")
            continue
        mine, other = headline(ours[label]), headline(theirs[label])
        for name in mine:
            a, b = mine[name], other[name]
            if a is None and b is None:
                continue
            if a is None or b is None:
                judged = "not comparable (one side has none)"
            else:
                judged = "consistent" if _overlap(a, b) else "INCONSISTENT"
            if judged == "INCONSISTENT":
                bad.append(f"{label} {name}")
            lines.append(f"{label:12s} {name:20s} {a[3] if a else 'n/a':28s} {b[3] if b else 'n/a':28s} {judged}")
    lines.append("statistically: " + (f"INCONSISTENT with the committed run on {', '.join(bad)}" if bad else
                                      "consistent with the committed run (every interval overlaps)"))
    hw = hardware_differences(new, committed)
    differs, one_sided = hw if hw else (None, [])
    unknown = f"; only one side records {', '.join(one_sided)}" if one_sided else ""
    if _identical(new, committed):
        lines.append("exactly: identical numbers" + ("" if differs is None else
                     f" (hardware: {', '.join(differs) + ' differ' if differs else 'the same'}{unknown})"))
    elif differs is None:
        lines.append("exactly: numbers differ; one side records no hardware, so whether they should be identical is unknown")
    elif differs:
        lines.append(f"exactly: numbers differ, as they may: the hardware differs in {', '.join(differs)}{unknown}")
    elif one_sided:
        lines.append(f"exactly: numbers differ; the recorded hardware agrees, but only one side records {', '.join(one_sided)}, "
                     "so whether they should be identical is unknown")
    elif new.get("policy_hash") == committed.get("policy_hash"):
        lines.append("exactly: numbers differ ON THE SAME POLICY AND HARDWARE: they should be identical (a reproducibility bug)")
    else:
        lines.append("exactly: numbers differ: same hardware but another step-0 policy")
    return lines


def print_comparison(report_dir: Path, results: str) -> list[str]:
    """Judge the report in ``report_dir`` against the committed one at ``results/<results>`` and print it."""
    new = headline_summary(report_folder.read_summary(report_dir))
    folder = committed_dir(results)
    committed = headline_summary(report_folder.read_summary(folder)) if (folder / report_folder.SUMMARY).exists() else None
    lines = compare(new, committed)
    print(f"{results}: {report_dir} vs committed {folder}")
    print("\n".join(lines))
    print(f"to update the committed folder: python -m bot_repro.experiment publish <name> (reads {report_dir})")
    return lines


def make_portable(folder: Path, roots: dict[str, str] | None = None) -> dict[str, list[str]]:
    """Rewrite, in place, every absolute path in the JSON and Markdown files under ``folder`` that
    lies under a root (``paths.portable``): ``roots`` (default ``paths.default_roots()``: this
    repository and cache) plus each checkout a run's ``run.json`` command ran in (the repository of
    the machine that made it). Returns {file: absolute paths left} of the JSON files that keep any."""
    files = sorted({f for pattern in PORTABLE for f in Path(folder).rglob(pattern)})
    roots = dict(paths.default_roots() if roots is None else roots)
    for info in (f for f in files if f == run_json_path(f.parent)):
        roots.update({c: "" for c in paths.checkouts((read_run_json(info.parent) or {}).get("command") or "")})
    left = {}
    for f in files:
        text = f.read_text()
        new = paths.portable(text, roots)
        if new != text:
            f.write_text(new)
        if f.suffix == ".json" and (found := paths.absolute_paths(json.loads(new))):
            left[str(f.relative_to(folder))] = found
    return left


def publish(report_dir: Path, dest: Path) -> Path:
    """Copy the report in ``report_dir`` into the committed folder ``dest``, its machine paths made
    relative (``make_portable``; one left is an error, and nothing is replaced). The report's own
    entries (summary, tables, figure, the archive) replace those of ``dest``; anything else there
    (a README, other records) stays."""
    report_dir, dest = Path(report_dir).resolve(), Path(dest).resolve()
    report_folder.read_summary(report_dir)  # a report folder, in the current format
    if dest == report_dir or report_dir in dest.parents or dest in report_dir.parents:
        raise SystemExit(f"refusing to publish {report_dir} onto {dest} (one contains the other)")
    staging = dest.parent / f".{dest.name}.publishing"
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(report_dir, staging)
    # the report's own checkout, when it sits at <checkout>/runs/<experiment>/<stamp>/report
    up = report_dir.parents
    roots = {**paths.default_roots(), **({str(up[3]): ""} if len(up) > 3 and up[2].name == "runs" else {})}
    # the archived run records too (their commands): unpacked beside the report, then packed again
    archive = staging / report_folder.ARCHIVE
    runs = report_folder.extract_archive(archive, staging) if archive.is_file() else None
    left = make_portable(staging, roots)
    if left:
        shutil.rmtree(staging)
        where = "; ".join(f"{f}: {', '.join(p)}" for f, p in sorted(left.items())[:3])
        raise SystemExit(f"not published: absolute paths outside the repository and the cache remain ({where}); "
                         "run publish with BOT_REPRO_CACHE set to the cache the runs used, or fix the files")
    if runs is not None:
        report_folder.write_archive(runs, archive)
        shutil.rmtree(runs)
    dest.mkdir(parents=True, exist_ok=True)
    for entry in sorted(staging.iterdir()):
        target = dest / entry.name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
        entry.rename(target)
    staging.rmdir()
    print(f"published {report_dir} -> {dest} (commit it with git)")
    return dest
