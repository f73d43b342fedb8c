"""The ten figures of docs/method.md §6 as a registry: slug -> what the figure shows and what it needs.

A slug (``fig<N>_<name>``) names everything that belongs to one figure: its experiment config
(``conf/experiment/<slug>.yaml``, which holds the sweep and, under ``plot.<slug>``, the plot
settings), its Make targets (``make reproduce-figure-N``), its run folder (``runs/<runs_of>/``),
its results folder (``results/<slug>/``) and its notes (``experiments/<slug>/README.md``).
Everything about *how* to draw a figure lives in its config's plot block; this registry holds
only what cannot be a config value: which runs a figure reads and which evaluation follows training.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot_repro.registry import Registry, UnknownNameError

POST_STEPS = ("pairwise",)  # evaluations that run after training (bot_repro.figures.pairwise)


@dataclass(frozen=True)
class FigureSpec:
    number: int
    slug: str
    shows: str  # docs/method.md §6 "shows", in a few words
    claim: str  # docs/method.md §1 claim id
    task: str  # react | aime
    runs_of: str | None = None  # slug whose training runs this figure reads (None: its own)
    post: str | None = None  # a post-training evaluation from POST_STEPS

    def __post_init__(self) -> None:
        if not self.slug.startswith(f"fig{self.number}_"):
            raise ValueError(f"figure slug {self.slug!r} must start with 'fig{self.number}_'")
        if self.post is not None and self.post not in POST_STEPS:
            raise ValueError(f"figure {self.slug}: post={self.post!r}; allowed: {', '.join(POST_STEPS)}")

    @property
    def experiment(self) -> str:
        """The experiment config name (``conf/experiment/<slug>.yaml``)."""
        return self.slug

    @property
    def runs_slug(self) -> str:
        """The folder under the runs root that holds the training runs this figure reads."""
        return self.runs_of or self.slug


FIGURES: Registry = Registry("figure")
_ALL = [
    FigureSpec(1, "fig1_compile_rate", "held-out compile rate vs step, five algorithms", "C1", "react"),
    FigureSpec(2, "fig2_win_rate", "ABBA win rate of BoT-GRPO vs each baseline", "C2", "react",
               runs_of="fig1_compile_rate", post="pairwise"),
    FigureSpec(3, "fig3_model_families", "compile rate, GRPO vs BoT-GRPO, three model families", "C3", "react"),
    FigureSpec(4, "fig4_reward_stack", "compile rate by reward stack", "C4", "react"),
    FigureSpec(5, "fig5_aime_passk", "AIME Pass@1/2/4, GRPO vs BoT-GRPO", "C5", "aime"),
    FigureSpec(6, "fig6_aime_families", "AIME Pass@1, three model families", "C6", "aime"),
    FigureSpec(7, "fig7_step_strategy", "AIME by step-score strategy", "C7", "aime"),
    FigureSpec(8, "fig8_local_weight", "AIME by local weight w_s", "C8", "aime"),
    FigureSpec(9, "fig9_step_window", "AIME by step window", "C9", "aime"),
    FigureSpec(10, "fig10_vlm_line_reward", "compile rate and peak-to-final drop, VLM line reward", "C10", "react"),
]  # fmt: skip
for _spec in _ALL:
    FIGURES.register(_spec.slug)(_spec)


def resolve(name: str | int) -> FigureSpec:
    """A figure by slug or number ("fig1_compile_rate", "1", 1); unknown names list the valid ones."""
    text = str(name).strip()
    if text.isdigit():
        for spec in FIGURES.values():
            if spec.number == int(text):
                return spec
        valid = ", ".join(f"{s.number} ({s.slug})" for s in ordered())
        raise UnknownNameError(f"unknown figure number {text}; valid: {valid}")
    return FIGURES[text]


def ordered() -> list[FigureSpec]:
    return sorted(FIGURES.values(), key=lambda s: s.number)
