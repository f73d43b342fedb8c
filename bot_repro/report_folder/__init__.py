"""The report folder: what an experiment's report holds, written and read here only.

One module owns the report format, as ``run_folder`` owns the run format, so that the experiment
command (which writes reports), ``publish`` (which commits them), the committed-results comparison and
the tests read one shape:

  <report>/summary.json   ``{"format_version", "meta", "summaries": [...], "step0"?}`` (``read_summary``)
  <report>/summary.md     the same numbers as Markdown
  <report>/runs.csv       one row per run read (provenance); an archived run's ``run_dir`` is
                          ``<report>/runs/<run>``, its folder in the archive
  <report>/<name>.png|pdf the figure
  <report>/runs.tar.xz    the archive: one file holding ``runs/``, the archived run records (config,
                          metrics, run.json, held-out samples, first/last rollouts), ``policy.json``, the
                          starting policy the runs share, and ``load.csv``, the machine's load while they
                          trained (``bot_repro.experiment.machine_load``); written and read by ``archive``

``meta`` holds the provenance (``REQUIRED_META``: command, git SHA of the runs, date, machine, and the
experiment's name) and ``machines`` (which hardware made which runs). ``summaries`` holds one
``bot_repro.analysis.summarise`` result per reported metric; ``step0`` (experiments with
``report.step0``) the starting point the runs share. Layer 0: stdlib only.
"""

from bot_repro.report_folder.archive import (
    ARCHIVE,
    RUNS,
    archive_members,
    extract_archive,
    has_archive,
    run_root,
    unpack,
    unpacked,
    unpacked_from,
    write_archive,
)
from bot_repro.report_folder.schema import (
    FIGURE_SUFFIXES,
    FORMAT_VERSION,
    LOAD,
    POLICY,
    REQUIRED_META,
    RUNS_TABLE,
    SUMMARY,
    SUMMARY_MD,
    ReportFormatError,
    read_policy,
    read_summary,
    write_policy,
    write_summary,
)

__all__ = [
    "ARCHIVE",
    "FIGURE_SUFFIXES",
    "FORMAT_VERSION",
    "LOAD",
    "POLICY",
    "REQUIRED_META",
    "RUNS",
    "RUNS_TABLE",
    "SUMMARY",
    "SUMMARY_MD",
    "ReportFormatError",
    "archive_members",
    "extract_archive",
    "has_archive",
    "read_policy",
    "read_summary",
    "run_root",
    "unpack",
    "unpacked",
    "unpacked_from",
    "write_archive",
    "write_policy",
    "write_summary",
]
