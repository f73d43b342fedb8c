"""The project's single plot style: rcParams, a fixed colour per algorithm, line styles, and saving.

An algorithm keeps its colour in every figure (BoT-GRPO is always vermilion, GRPO always blue), using
the colour-blind-safe Okabe-Ito palette; the pairs a reader compares most are far apart in it (BoT-GRPO
vermilion vs PURE black and GRPO blue; orange, the colour closest to vermilion, goes to Dr. GRPO, which
no figure sets beside BoT-GRPO). Each algorithm also has its own marker, so curves stay apart in
greyscale. Values that are not algorithm names (a reward stack, a w_s value) take colours from Paul
Tol's muted palette, which shares none of those colours, in sorted order, so a legend never shows two
series in one colour. Other variants are told apart by line style.

Rates (compile rate, Pass@k, success, win rate) are drawn on the full [0, 1] range (``is_rate``,
``RATE_YLIM``) so that a run's numbers are never blown up by autoscaling, and every task names the
held-out metric its figures and notebooks show first (``HEADLINE_METRICS``).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.figure import Figure

ALGORITHM_COLORS: dict[str, str] = {
    "grpo": "#0072B2",  # blue
    "dr_grpo": "#E69F00",  # orange
    "dapo": "#009E73",  # bluish green
    "gspo": "#CC79A7",  # reddish purple
    "pure": "#000000",  # black
    "ps_grpo": "#56B4E9",  # sky blue
    "bot_grpo": "#D55E00",  # vermilion
}
ALGORITHM_MARKERS: dict[str, str] = {
    "grpo": "s", "dr_grpo": "X", "dapo": "D", "gspo": "v", "pure": "^", "ps_grpo": "P", "bot_grpo": "o",
}
HIGHLIGHT = "bot_grpo"  # the paper's method: drawn a little thicker and on top of the others
ALGORITHM_LABELS: dict[str, str] = {
    "grpo": "GRPO",
    "dr_grpo": "Dr. GRPO",
    "dapo": "DAPO",
    "gspo": "GSPO",
    "pure": "PURE",
    "ps_grpo": "PS-GRPO",
    "bot_grpo": "BoT-GRPO",
}
# Paul Tol's muted palette: disjoint from ALGORITHM_COLORS, for groups that are not algorithms.
OTHER_COLORS = ("#332288", "#117733", "#88CCEE", "#DDCC77", "#AA4499", "#882255", "#44AA99", "#999933")
LINESTYLES: tuple[Any, ...] = ("-", "--", ":", "-.", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)))

RC_PARAMS: dict[str, Any] = {
    "font.size": 9,
    "axes.titlesize": 10,
    "figure.titlesize": 11,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "lines.linewidth": 1.6,
    "legend.frameon": False,
    "figure.constrained_layout.use": True,
    "savefig.dpi": 150,
    # TrueType fonts in PDFs stay editable and avoid Type 3 fonts that some venues reject
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
}
PNG_DPI = 150
RATE_YLIM = (0.0, 1.0)
# task name -> the held-out metric its figures show first (SPEC §6: compile rate, Pass@1, success rate)
HEADLINE_METRICS: dict[str, str] = {
    "react": "eval/compile_rate",
    "aime": "eval/pass@1",
    "mini": "eval/success_rate",
}


def apply_style() -> None:
    """Set the project rcParams globally (``panel_grid`` calls this, so figures made with it match)."""
    matplotlib.rcParams.update(RC_PARAMS)


def display_name(value: Any) -> str:
    """Legend text for a group value: the paper's spelling for algorithm names, ``str`` otherwise."""
    return ALGORITHM_LABELS.get(value, str(value)) if isinstance(value, str) else str(value)


def is_rate(metric: str) -> bool:
    """Whether ``metric`` is a fraction in [0, 1] (``*_rate``, ``pass@k``, ``success``, ``win``/``tie``)."""
    name = str(metric).rsplit("/", 1)[-1].lower()
    return name.endswith("rate") or name.startswith("pass@") or name in ("success", "accuracy")


def headline_metric(tasks: Iterable[str], metrics: Iterable[str]) -> str | None:
    """The headline held-out metric of the first of ``tasks`` that logged it (see ``HEADLINE_METRICS``),
    else the first ``eval/`` metric, else the first metric; None when there are none."""
    metrics = list(metrics)
    for task in tasks:
        if HEADLINE_METRICS.get(str(task)) in metrics:
            return HEADLINE_METRICS[str(task)]
    return next((m for m in metrics if m.startswith("eval/")), metrics[0] if metrics else None)


def metric_label(metric: str) -> str:
    """A metric name in words: ``eval/compile_rate`` -> ``held-out compile rate``, ``eval/pass@1`` ->
    ``held-out Pass@1``, ``pairwise/win_rate`` -> ``win rate``."""
    prefix, _, name = str(metric).rpartition("/")
    words = ("Pass@" + name[5:]) if name.startswith("pass@") else name.replace("_", " ")
    return f"held-out {words}" if prefix == "eval" else words


def marker_for(value: Any) -> str:
    """The marker of an algorithm's curve (a circle for anything else)."""
    return ALGORITHM_MARKERS.get(value, "o") if isinstance(value, str) else "o"


def _sorted(values: Iterable[Any]) -> list[Any]:
    unique = list(dict.fromkeys(values))
    if all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in unique):
        return sorted(unique)
    return sorted(unique, key=str)


def colors_for(values: Iterable[Any]) -> dict[Any, str]:
    """Colour per value: the fixed colour for algorithm names, ``OTHER_COLORS`` in sorted order for the
    rest (cycling when there are more than eight)."""
    out: dict[Any, str] = {}
    others = 0
    for value in _sorted(values):
        if isinstance(value, str) and value in ALGORITHM_COLORS:
            out[value] = ALGORITHM_COLORS[value]
        else:
            out[value] = OTHER_COLORS[others % len(OTHER_COLORS)]
            others += 1
    return out


def linestyles_for(values: Iterable[Any]) -> dict[Any, Any]:
    """Line style per value in sorted (numeric when all numbers) order: solid, dashed, dotted, ..."""
    return {value: LINESTYLES[i % len(LINESTYLES)] for i, value in enumerate(_sorted(values))}


def save(fig: Figure, path_without_suffix: str | Path) -> list[Path]:
    """Write ``<path>.png`` (150 dpi) and ``<path>.pdf``, creating folders; returns both paths.

    The suffix is appended, not substituted, so names with dots (``ws_0.5``) survive. PDFs carry no
    creation date, so re-running an analysis on the same data gives byte-identical files.
    """
    base = Path(path_without_suffix)
    if base.suffix.lower() in (".png", ".pdf"):
        raise ValueError(f"save() takes a path without suffix, got {base} (it writes both .png and .pdf)")
    base.parent.mkdir(parents=True, exist_ok=True)
    png, pdf = Path(f"{base}.png"), Path(f"{base}.pdf")
    fig.savefig(png, dpi=PNG_DPI)
    fig.savefig(pdf, metadata={"CreationDate": None})
    return [png, pdf]
