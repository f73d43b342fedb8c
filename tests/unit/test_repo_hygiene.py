"""Repository hygiene (#33): what git tracks stays small, and ``results/`` holds data only.

- ``results/README.md`` names every committed folder directly under ``results/`` and every report folder.
- A report folder (one holding ``summary.json``) holds the report's shape only (``report_shape``):
  ``summary.json``, ``summary.md``, ``runs.csv``, its figure (``<experiment>.png``/``.pdf``), its
  archive (``runs.tar.xz``, every run record in one file) and a ``README.md`` where one is written;
  anything else is one of ``REPORT_EXTRAS``, each with its reason. A ``runs/`` folder is not allowed.
- No tracked file is over ``MAX_BYTES`` unless a glob of ``ALLOW_LARGE`` names it.
- No code (``CODE_SUFFIXES``) and no log (``.log``) under ``results/``: the code that made a committed
  result lives under ``scripts/`` (or is the package), and a log worth keeping becomes data (JSON, CSV).
- No machine path in a tracked text file under ``results/`` (``TEXT_SUFFIXES``): an absolute path as
  ``bot_repro.paths.ABSOLUTE`` finds it (``/root/...``, ``/home/...``, ``/tmp/...``, ``/work/...``,
  ``/Users/...``), a folder of ``MACHINE_ROOTS`` wherever it starts (in Markdown's backquotes too) or a
  Windows drive path (``C:\\...``); a system path in backquotes (```/proc/loadavg```) is not one. The
  scan covers every such file, the members of the reports' archives too (``committed_texts``), the saved
  rollouts' and held-out samples' model completions included:
  none holds one now. Should a model's text come to look like a path, restrict this check to the files
  that are not model output and say so here.

The file list is ``git ls-files``: without git or a checkout the tests skip.
"""

from __future__ import annotations

import fnmatch
import re

from bot_repro import report_folder
from bot_repro.paths import ABSOLUTE
from tests.conftest import REPO, committed_texts, tracked

MAX_BYTES = 1_000_000
# Tracked files allowed over MAX_BYTES, as fnmatch globs of their repository paths:
ALLOW_LARGE = (
    # the shipped warm-started mini policies' weights (2.6 MB each, pyproject's package-data): step 0 is
    # the same on every machine
    "bot_repro/tasks/mini/policies/*/model.safetensors",
    # the shipped starting LoRA adapters of the real models (#44: r 4 on every linear layer, fp32, about 5 MB)
    "bot_repro/models/adapters/*/adapter_model.safetensors",
    # a long study's sittings (experiment/sitting.py): a stopped run's checkpoint is 13 MB for SmolLM2; the
    # archives leave the tree when the study's report is published
    "results/*/sitting_*.tar.xz",
)
# What a report folder may hold beyond the report's shape: {report folder: {entry: why}}
REPORT_EXTRAS = {
    "results/real_small": {
        "loadavg.csv": "the machine's load during the sweep, recorded before reports archived load.csv",
        "level_probe": "step-0 probe outputs (JSON, samples) that docs/real_model.md cites; README there",
        "prompt_probe": "the step-0 prompt probe's variants and results (README.md of real_small)",
        "oom_killed_run": "the first sweep's two runs, OOM-killed at step 1 (README.md of real_small)",
        "oom_killed_run_2": "the second sweep's two runs, OOM-killed at step 1 (README.md of real_small)",
    },
    "results/real_seeds": {"load.csv": "the machine's load every 30 s during the sweep, beside the report"},
    "results/real_study": {
        "pilot": "the single-seed pilot runs the plan was sized from (README.md of real_study)",
        "gemma_cost": "the Gemma 3 270M plan's measured cost, 2 steps of its first job (README.md of real_study)",
    },
}
CODE_SUFFIXES = (".py", ".sh", ".ipynb", ".js", ".mjs")
LOG_SUFFIXES = (".log",)
TEXT_SUFFIXES = (".json", ".jsonl", ".md", ".yaml", ".yml", ".csv", ".txt")
# the usual homes of a checkout, a cache or a scratch folder, found after any non-name character (a backquote)
MACHINE_ROOTS = re.compile(r"(?<![\w.~/-])/(?:root|home|tmp|work|Users|mnt|scratch)/[^\s\"'`,)\]]*")
# a Windows drive path: "C:\Users" as written, "C:\\Users" inside a JSON string; a single backslash
# before n, r, t, b, f, u or a quote is a JSON escape ("A:\n" in a completion), not a path
WINDOWS = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]:(?:\\\\|\\(?![nrtbfu\"]))[A-Za-z0-9_.$~-][^\s\"',)\]]*")


def machine_paths(text: str) -> list[str]:
    """The machine paths in ``text``: absolute POSIX paths and Windows drive paths."""
    return sorted({*ABSOLUTE.findall(text), *MACHINE_ROOTS.findall(text), *WINDOWS.findall(text)})


def test_machine_paths_finds_posix_and_windows_paths_only():
    assert machine_paths('{"dir": "/work/accept2/run"}') == ["/work/accept2/run"]
    assert machine_paths("cwd: /root/.cache/x") == ["/root/.cache/x"]
    assert machine_paths('"C:\\\\Users\\\\me\\\\run"') == ["C:\\\\Users\\\\me\\\\run"]
    assert machine_paths(r"D:\data") == [r"D:\data"]
    assert machine_paths("from `/work/wt_x`: ...") == ["/work/wt_x"]
    # relative paths, fractions, URLs and an escaped newline are not machine paths
    for text in ("runs/x/metrics.jsonl", "1/2 + 3/4", "a / b", "http://127.0.0.1:8000/v1/chat", "x:\\n y",
                 "$BOT_REPRO_CACHE/gguf", "site-packages/pytest/__main__.py",
                 "`/proc/loadavg`", "http://host/work/x", "runs/tmp/x"):
        assert machine_paths(text) == [], text


def test_no_large_tracked_file_outside_the_allow_list():
    files = tracked()
    assert files, "git ls-files listed nothing"
    large = {p: (REPO / p).stat().st_size for p in files if (REPO / p).stat().st_size > MAX_BYTES}
    allowed = {p for p in large if any(fnmatch.fnmatch(p, g) for g in ALLOW_LARGE)}
    assert allowed, f"no file matched ALLOW_LARGE {ALLOW_LARGE}: drop the stale glob"
    stray = {p: n for p, n in large.items() if p not in allowed}
    assert not stray, f"tracked files over {MAX_BYTES:,} bytes (allowed: ALLOW_LARGE): {stray}"


def test_no_code_and_no_logs_under_results():
    files = tracked("results")
    assert files, "git ls-files listed nothing under results/"
    found = [p for p in files if p.endswith(CODE_SUFFIXES + LOG_SUFFIXES)]
    assert not found, (f"code or logs under results/ (code goes under scripts/, a log worth keeping "
                       f"becomes JSON or CSV): {found}")


def test_no_machine_path_in_results():
    files = committed_texts(TEXT_SUFFIXES)  # the reports' archived run records included
    assert any(p.endswith(".jsonl") for p, _ in files) and any(p.endswith(".md") for p, _ in files)
    assert any(f"/{report_folder.ARCHIVE}/" in p and p.endswith("/run.json") for p, _ in files)
    found = {}
    for p, text in files:
        for n, line in enumerate(text.splitlines(), 1):
            if hits := machine_paths(line):
                found.setdefault(p, []).append((n, hits[0]))
    assert not found, (f"{len(found)} file(s) under results/ hold machine paths (bot_repro.paths.portable "
                       f"rewrites them), e.g. {dict(list(found.items())[:5])}")


def test_results_readme_names_every_committed_folder():
    files = tracked("results")
    top = {p.split("/")[1] for p in files if p.count("/") >= 2}
    reports = {p.rsplit("/", 1)[0].removeprefix("results/") for p in files if p.endswith("/summary.json")}
    assert {"mini", "bench"} <= top and "mini_study/mini_baselines" in reports
    readme = (REPO / "results" / "README.md").read_text()
    # a folder is named as `folder/` or by a path inside it (`mini_study/mini_baselines/`)
    missing = sorted(f for f in top | reports if f"`{f}/" not in readme)
    assert not missing, f"results/README.md names no line for these committed folders: {missing}"


def report_shape(files: list[str]) -> dict[str, list[str]]:
    """{report folder: the entries it holds beyond the report's shape and ``REPORT_EXTRAS``} over the
    repository paths ``files``; a report folder is one with a ``summary.json``."""
    reports = {p.rsplit("/", 1)[0] for p in files if p.endswith(f"/{report_folder.SUMMARY}")}
    allowed = {report_folder.SUMMARY, report_folder.SUMMARY_MD, report_folder.RUNS_TABLE, report_folder.ARCHIVE, "README.md"}
    found: dict[str, list[str]] = {}
    for folder in sorted(reports):
        experiment = report_folder.read_summary(REPO / folder)["meta"]["experiment"]
        figures = {f"{experiment}{suffix}" for suffix in report_folder.FIGURE_SUFFIXES}
        entries = {p[len(folder) + 1:].split("/")[0] for p in files if p.startswith(f"{folder}/")}
        extra = sorted(entries - allowed - figures - set(REPORT_EXTRAS.get(folder, {})))
        if extra:
            found[folder] = extra
    return found


def test_a_report_folder_holds_the_report_and_one_archive():
    files = tracked("results")
    assert report_shape(files) == {}, "report folders hold more than the report's shape (REPORT_EXTRAS lists the exceptions)"
    reports = {p.rsplit("/", 1)[0] for p in files if p.endswith(f"/{report_folder.SUMMARY}")}
    assert {"results/mini", "results/mini_study/mini_baselines"} <= reports
    assert all(f"{r}/{report_folder.ARCHIVE}" in files for r in reports), "a report without its archive"
    stale = {f: sorted(set(e) - {p[len(f) + 1:].split("/")[0] for p in files if p.startswith(f"{f}/")})
             for f, e in REPORT_EXTRAS.items()}
    assert not any(stale.values()), f"REPORT_EXTRAS names entries no longer committed: {stale}"
    planted = [*files, "results/mini/runs/0_grpo_s0/metrics.jsonl", "results/mini/notes.txt"]
    assert report_shape(planted) == {"results/mini": ["notes.txt", "runs"]}  # a runs/ folder fails the test
