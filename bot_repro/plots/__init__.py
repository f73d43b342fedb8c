"""Figures: ``style`` owns the look (rcParams, colours per algorithm, saving PNG + PDF) and ``curves``
the drawing helpers (CI-band curves, threshold lines, paper markers, bars, panel grids)."""

from bot_repro.plots.curves import bar_with_ci, panel_grid, paper_markers, plot_curves, threshold_line
from bot_repro.plots.style import (
    ALGORITHM_COLORS,
    apply_style,
    colors_for,
    display_name,
    linestyles_for,
    save,
)

__all__ = [
    "ALGORITHM_COLORS",
    "apply_style",
    "bar_with_ci",
    "colors_for",
    "display_name",
    "linestyles_for",
    "panel_grid",
    "paper_markers",
    "plot_curves",
    "save",
    "threshold_line",
]
