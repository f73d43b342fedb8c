"""Figures: ``style`` owns the look (rcParams, each group's colour, marker and line style, saving PNG +
PDF), ``curves`` the drawing helpers (mean curves over per-seed lines, threshold lines, paper markers,
bars, panel grids), ``frame`` the frame every figure shares (title, legend, caption, axes, the numbers
table), ``intervals`` the error bar of each held-out point with few samples, ``titles`` the title
placeholders filled from the drawn runs, and ``figures`` the paper's and the study's figure kinds."""

from bot_repro.plots.curves import (
    bar_with_ci,
    numbers_table,
    panel_grid,
    paper_markers,
    plot_curves,
    threshold_line,
)
from bot_repro.plots.style import GroupStyle, apply_style, display_name, group_styles, save

__all__ = [
    "GroupStyle",
    "apply_style",
    "bar_with_ci",
    "display_name",
    "group_styles",
    "numbers_table",
    "panel_grid",
    "paper_markers",
    "plot_curves",
    "save",
    "threshold_line",
]
