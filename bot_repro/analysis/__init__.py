"""Analysis of training runs: loading run directories, statistics over seeds, and study summaries.

``load`` reads run directories (through ``bot_repro.run_folder``, the owner of their format) into tidy
tables, ``smoothing`` and ``bootstrap`` hold the one smoothing and the one interval rule every number uses, ``stats`` turns tables into curves, threshold crossings,
speed-ups and drops, ``summary`` builds the per-study JSON and Markdown report, and ``synthetic``
writes run directories for tests and dry runs with the run folder's own writers. ``verdict`` is the
verdict rule (intervals of differences between arms), ``claims`` declares every claim the project
judges and ``findings`` judges them from the committed reports into ``results/FINDINGS.md``.
"""

from bot_repro.analysis.bootstrap import bootstrap_ci, ratio_of_means_ci
from bot_repro.analysis.load import load_run_table, load_runs
from bot_repro.analysis.smoothing import DEFAULT_SMOOTHING, NO_SMOOTHING, Smoothing, smooth
from bot_repro.analysis.stats import (
    aggregate_curves,
    crossings_per_run,
    final_values,
    first_crossing,
    group_ci,
    peak_to_final_drop,
    peak_to_final_drops,
    run_curves,
    speedup_vs,
    steps_to_threshold,
)
from bot_repro.analysis.summary import collect_meta, summarise, summary_markdown

__all__ = [
    "DEFAULT_SMOOTHING",
    "NO_SMOOTHING",
    "Smoothing",
    "aggregate_curves",
    "bootstrap_ci",
    "collect_meta",
    "crossings_per_run",
    "final_values",
    "first_crossing",
    "group_ci",
    "load_run_table",
    "load_runs",
    "peak_to_final_drop",
    "peak_to_final_drops",
    "run_curves",
    "ratio_of_means_ci",
    "smooth",
    "speedup_vs",
    "steps_to_threshold",
    "summarise",
    "summary_markdown",
]
