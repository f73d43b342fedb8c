"""The paper's ten figures (docs/method.md §6): one slug each, reproduced and replotted from the command line.

``specs`` is the registry (slug -> which runs a figure reads and which evaluation follows training),
``sweep`` composes an experiment config and runs its Hydra multirun of ``bot_repro.train``,
``pairwise`` is figure 2's ABBA win-rate evaluation, ``runs`` loads a figure's run folders,
``report`` is the one report path (plot block -> runs, summaries, provenance, figure) that the CPU
study shares, ``pipeline`` chains them, and ``cli`` is ``python -m bot_repro.figures``. How each figure is drawn
lives in its experiment config (``plot.<slug>``) and ``bot_repro.plots.figures``.
"""

from bot_repro.figures.specs import FIGURES, FigureSpec, ordered, resolve

__all__ = ["FIGURES", "FigureSpec", "ordered", "resolve"]
