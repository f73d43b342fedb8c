"""The project's single plot style: rcParams, each arm's colour, marker and line style, and saving.

An arm is drawn in one style in every figure, whatever else the figure shows and in whatever order:
its style is registered with the arm, never assigned by a figure. The scheme:

- An arm is an algorithm, plus at most one value that is not its paper default (an option value, a
  reward variant). A group value (of any hue column) that names a registered algorithm draws in the
  style it was registered with (``bot_repro.algorithms.advantages.AlgorithmInfo``: BoT-GRPO vermilion,
  solid, highlighted; GRPO blue, dashed; the seven algorithms take the seven Okabe-Ito colours
  without its pale yellow, each with its own marker and line style). So does a value spelled
  ``<algorithm> (<note>)``: a study's relabel of an algorithm's runs into another column
  (mini_signals' ``grpo (G only)``).
- A value of a choice option (column ``algorithm.options.<option>``) draws in the style declared
  with the option (``options.choice(styles=...)``, read by ``advantages.option_style``), a reward
  variant (``reward.params.variant``) in the one declared next to the variants
  (``tasks.mini.reward.VARIANT_STYLES``). The paper-default value declares the algorithm's name and so
  inherits its style: BoT-GRPO as the paper defines it looks the same as ``bot_grpo``,
  ``same_global=pooled``, ``weighting=inverse_length`` and reward variant ``progress``. The other
  values are BoT-GRPO's variants: three colours no algorithm has (``options.VARIANT_COLORS``),
  shared by the variants of different options (never in one figure), each value with its own marker
  and line style.
- An arm of an experiment (column ``choice.arm``: ``conf/arm/<name>.yaml``, which chooses an algorithm
  and at most one option value) draws as that option value's declared style, else as its algorithm:
  real_seeds' ``arith_grpo`` looks like ``grpo``, ``arith_bot_floor`` like ``same_global=floor_std``.
- Any other value (a user's new sweep axis: w_s 0.1/0.5/1.0, window 1/3/5, a reward choice) takes
  the slot of ``PALETTE`` x ``MARKERS`` x ``LINESTYLES`` given by a hash of its text (``crc32``), so it
  keeps its look from figure to figure; only when another group of the same figure already has that
  slot's colour does it move on to the next free slot (registered arms first, then the others in
  sorted order), so no two groups of a figure share a colour while there are colours left.

Display names come from ``bot_repro.analysis.labels`` (the registry, the options' labels, the
experiment's ``labels``).

Rates (compile rate, Pass@k, success, win rate) are drawn on the full [0, 1] range (``is_rate``,
``RATE_YLIM``) so that a run's numbers are never blown up by autoscaling, and every task names the
held-out metric its figures and notebooks show first (``HEADLINE_METRICS``).
"""

from __future__ import annotations

import numbers
import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import yaml
from matplotlib.figure import Figure

from bot_repro.algorithms import ADVANTAGES
from bot_repro.algorithms.advantages import option_style
from bot_repro.algorithms.options import Style, ValueStyle
from bot_repro.analysis.labels import OPTION_PREFIX, group_label, value_text
from bot_repro.config_schema import ConfigError
from bot_repro.paths import REPO
from bot_repro.tasks.mini.reward import VARIANT_STYLES

# the slots of values no home registers: Okabe-Ito without the yellow that fades on white, Tol's wine last
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#000000", "#56B4E9", "#882255")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES: tuple[Any, ...] = (
    "-", (0, (6, 2)), (0, (1, 1.5)), (0, (6, 2, 1, 2)), (0, (3, 1.5)), (0, (6, 2, 1, 2, 1, 2)),
    (0, (1, 1.5, 1, 1.5, 4, 1.5)), (0, (10, 3)),
)
MAX_GROUPS = len(PALETTE)  # more groups than this in one figure would share a colour
FALLBACK = tuple(Style(c, m, ls) for c, m, ls in zip(PALETTE, MARKERS, LINESTYLES, strict=True))
# hue columns whose values are declared outside the algorithms' options, with their declared styles
VALUE_STYLES: dict[str, Mapping[str, ValueStyle]] = {"reward.params.variant": VARIANT_STYLES}
ARM_COLUMN, ARMS_DIR = "choice.arm", REPO / "conf" / "arm"
_STANDS_FOR = re.compile(r"(\w+) \(.*\)")  # "grpo (G only)": GRPO's runs relabelled into another column


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


def _as_algorithm(name: str, where: str) -> tuple[Style, bool]:
    if name not in ADVANTAGES:
        raise ConfigError(f"{where} draws as algorithm {name!r}, which is not registered; "
                          f"allowed: {', '.join(sorted(ADVANTAGES))}")
    info = ADVANTAGES[name].info
    return info.style, info.highlight


def registered_style(value: Any, column: str | None = None) -> tuple[Style, bool] | None:
    """The registered style of group value ``value`` of hue column ``column`` and whether it is drawn
    highlighted (the module docstring's scheme); None for a value no home registers."""
    if not isinstance(value, str):
        return None
    if value in ADVANTAGES:
        return _as_algorithm(value, f"value {value!r}")
    declared = None
    if column and column.startswith(OPTION_PREFIX):
        declared = option_style(column[len(OPTION_PREFIX):], value)
    elif column in VALUE_STYLES:
        declared = VALUE_STYLES[column].get(value)
    elif column == ARM_COLUMN:
        declared = _arm_style(value)
    if isinstance(declared, Style):
        return declared, False
    if isinstance(declared, str):
        return _as_algorithm(declared, f"value {value!r} of {column}")
    stands_for = _STANDS_FOR.fullmatch(value)
    if stands_for and stands_for[1] in ADVANTAGES:
        return _as_algorithm(stands_for[1], f"value {value!r}")
    return None


def _arm_style(arm: str) -> ValueStyle | None:
    """What ``conf/arm/<arm>.yaml`` draws as: its one option value's declared style, else its algorithm."""
    path = ARMS_DIR / f"{arm}.yaml"
    if not path.is_file():
        return None
    doc = yaml.safe_load(path.read_text()) or {}
    algorithm = next((d["override /algorithm"] for d in doc.get("defaults", [])
                      if isinstance(d, dict) and "override /algorithm" in d), None)
    options = ((doc.get("algorithm") or {}).get("options") or {}).items()
    if len(options) > 1:
        raise ConfigError(f"arm {arm!r} ({path.name}) sets {len(options)} options; an arm is an algorithm "
                          "plus at most one non-default value, so it has one style")
    for option, value in options:
        return option_style(option, value)
    return algorithm


def _hashed(value: Any, taken: set[str]) -> Style:
    """The slot a hash of ``value``'s text picks, or the next whose colour is not in ``taken``."""
    start = zlib.crc32(value_text(value).encode())
    slots = [FALLBACK[(start + i) % len(FALLBACK)] for i in range(len(FALLBACK))]
    return next((s for s in slots if s.color not in taken), slots[0])


def group_styles(values: Iterable[Any], column: str | None = None,
                 labels: Mapping[str, str] | None = None) -> dict[Any, GroupStyle]:
    """The style of each of ``values`` (the groups of one figure, hue column ``column``): its
    registered style, else the hashed slot of its value (module docstring)."""
    ordered = _sorted(values)
    known = {v: registered_style(v, column) for v in ordered}
    taken = {found[0].color for found in known.values() if found is not None}
    out: dict[Any, GroupStyle] = {}
    for value in ordered:
        style, highlight = known[value] or (_hashed(value, taken), False)
        taken.add(style.color)
        out[value] = GroupStyle(display_name(value, column, labels), style.color, style.marker,
                                style.linestyle, highlight)
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
