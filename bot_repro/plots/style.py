"""The project's single plot style: rcParams, each group's colour, marker and line style, and saving.

An algorithm keeps the colour, marker, line style and display name it was registered with
(``bot_repro.algorithms.registry.AlgorithmInfo``) in every figure: BoT-GRPO is always vermilion and
solid, GRPO always blue. Group values that are not algorithm names (a reward signal, an option value,
a w_s value) take, in sorted order, the first colour of ``PALETTE`` (Okabe-Ito, colour-blind safe,
without its pale yellow; Tol's wine as an eighth), marker of ``MARKERS`` and line style of
``LINESTYLES`` that no algorithm of the same figure uses, so up to eight groups of one figure each
have their own colour, marker and line style, and stay apart in greyscale too. Display names come
from ``bot_repro.analysis.labels`` (the registry, the options' labels, the experiment's ``labels``).

Rates (compile rate, Pass@k, success, win rate) are drawn on the full [0, 1] range (``is_rate``,
``RATE_YLIM``) so that a run's numbers are never blown up by autoscaling, and every task names the
held-out metric its figures and notebooks show first (``HEADLINE_METRICS``).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.figure import Figure

from bot_repro.algorithms import ADVANTAGES
from bot_repro.analysis.labels import group_label

# Okabe-Ito without the yellow that fades on white, in the order a figure's groups take them; wine last
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#000000", "#56B4E9", "#882255")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES: tuple[Any, ...] = (
    "-", (0, (6, 2)), (0, (1, 1.5)), (0, (6, 2, 1, 2)), (0, (3, 1.5)), (0, (6, 2, 1, 2, 1, 2)),
    (0, (1, 1.5, 1, 1.5, 4, 1.5)), (0, (10, 3)),
)
MAX_GROUPS = len(PALETTE)  # more groups than this in one figure would share a colour


@dataclass(frozen=True)
class GroupStyle:
    """How one group's curves, bars and table row look."""

    label: str
    color: str
    marker: str
    linestyle: Any
    highlight: bool = False


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
    # drawn at the dpi it is saved at, so the text widths finish_figure measures are the saved ones
    # (glyph hinting makes text a few percent wider or narrower at another dpi)
    "figure.dpi": 150,
    # TrueType fonts in PDFs stay editable and avoid Type 3 fonts that some venues reject
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
}
PNG_DPI = 150
RATE_YLIM = (0.0, 1.0)
# task name -> the held-out metric its figures show first (docs/method.md §6: compile rate, Pass@1, success rate)
HEADLINE_METRICS: dict[str, str] = {
    "react": "eval/compile_rate",
    "aime": "eval/pass@1",
    "mini": "eval/success_rate",
}


def apply_style() -> None:
    """Set the project rcParams globally (``panel_grid`` calls this, so figures made with it match)."""
    matplotlib.rcParams.update(RC_PARAMS)


def display_name(value: Any, column: str | None = None, labels: Mapping[str, str] | None = None) -> str:
    """Legend text for a group value (``analysis.labels.group_label``): ``bot_grpo`` -> ``BoT-GRPO``."""
    return group_label(value, column, labels)


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


def _sorted(values: Iterable[Any]) -> list[Any]:
    unique = list(dict.fromkeys(values))
    if all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in unique):
        return sorted(unique)
    return sorted(unique, key=str)


def group_styles(values: Iterable[Any], column: str | None = None,
                 labels: Mapping[str, str] | None = None) -> dict[Any, GroupStyle]:
    """The style of each of ``values`` (the groups of one figure): an algorithm's registered style,
    and for the rest, in sorted order, the first colour, marker and line style no other group of
    the figure has (cycling past ``MAX_GROUPS``)."""
    ordered = _sorted(values)
    algos = {v: ADVANTAGES[v].info for v in ordered if isinstance(v, str) and v in ADVANTAGES}
    free = [[c for c in PALETTE if c not in {i.color for i in algos.values()}] or list(PALETTE),
            [m for m in MARKERS if m not in {i.marker for i in algos.values()}] or list(MARKERS),
            [s for s in LINESTYLES if s not in {i.linestyle for i in algos.values()}] or list(LINESTYLES)]
    out: dict[Any, GroupStyle] = {}
    others = 0
    for value in ordered:
        name = display_name(value, column, labels)
        if value in algos:
            info = algos[value]
            out[value] = GroupStyle(name, info.color, info.marker, info.linestyle, info.highlight)
        else:
            color, marker, style = (pool[others % len(pool)] for pool in free)
            out[value] = GroupStyle(name, color, marker, style)
            others += 1
    return out


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
