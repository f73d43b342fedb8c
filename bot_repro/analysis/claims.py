"""The claim table: every claim ``results/FINDINGS.md`` judges, where its numbers come from and what
would support it. The one declaration of a claim's structure (``bot_repro.analysis.findings`` only
reads it): which committed report, which arms, which metric, which quantity, which side.

- ``CLAIMS``: C1-C10 are the paper's (docs/method.md §1; ``paper`` is that table's text verbatim,
  tests/unit/test_findings.py checks it), each with its paper-scale figure (``figure``: the experiment
  that would make ``results/<figure>/``) and the small-scale analogues committed here; B1-B8 go beyond
  the paper.
- A ``Comparison`` compares arm ``a`` with arm ``b`` (group labels of the report's ``summary.json``) on one
  ``quantity`` (``QUANTITIES``); ``better`` is the side of "no difference" the claim predicts for
  a - b (a / b for ``speedup``). ``metric`` defaults to the report's headline metric.
- ``planned``: claims pre-registered in experiment files (``report.tests``), one Claim per file, one row
  per declared test, committed before the runs they judge; a new plan is a new file, never an edit.
- ``BENCH``: the main figures of each ``results/bench/*.json`` the Speed section prints (dotted keys).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

import yaml

from bot_repro.paths import REPO

EXPERIMENTS = REPO / "conf" / "experiment"

# quantity -> (what is compared, the null of the verdict rule)
QUANTITIES = {
    "final": ("final value, a - b", 0.0),
    "gain": ("final value minus the same seed's first (step 0), arm a alone (b names a too)", 0.0),
    "steps": ("steps to the threshold, a - b (seeds that crossed)", 0.0),
    "speedup": ("speed-up in steps to the threshold, mean b / mean a (seeds that crossed)", 1.0),
    "drop": ("peak-to-final drop, a - b", 0.0),
    "collapsed": ("share of collapsed seeds, a - b (Newcombe)", 0.0),
    "interaction": ("final a - b here minus final a - b at the default level", 0.0),
}


@dataclass(frozen=True)
class Comparison:
    what: str  # the comparison in words
    report: str  # folder under results/
    quantity: str  # a key of QUANTITIES
    a: str
    b: str
    better: str = "above"
    metric: str | None = None  # None: the report's first summary (its headline metric)
    level2: str | None = None  # interaction: the report of the default level, with the same arms

    def __post_init__(self):
        if self.quantity not in QUANTITIES:
            raise ValueError(f"Comparison {self.what!r}: quantity={self.quantity!r}; allowed: {', '.join(QUANTITIES)}")
        if self.better not in ("above", "below"):
            raise ValueError(f"Comparison {self.what!r}: better={self.better!r}; allowed: above, below")
        if self.quantity == "gain" and self.b != self.a:
            raise ValueError(f"Comparison {self.what!r}: a gain reads one arm; b={self.b!r} must be a={self.a!r} or left out")
        if (self.quantity == "interaction") != (self.level2 is not None):
            raise ValueError(f"Comparison {self.what!r}: level2 is needed by, and only by, quantity=interaction")


@dataclass(frozen=True)
class Claim:
    id: str
    claim: str
    tests: tuple[Comparison, ...] = ()
    paper: str = ""  # the paper's numbers (C1-C10 only)
    figure: str | None = None  # the paper-scale experiment (results/<figure>/ when run)


def _sparse_level(level: str, floor: str) -> tuple[Comparison, ...]:
    """A sparse level's tests: BoT-GRPO and PS-GRPO against GRPO (final, collapses) in ``level``, and
    BoT-GRPO's floor_std against GRPO and against pooled in its ``floor`` report."""
    out = []
    for name, arm in (("BoT-GRPO", "bot_grpo"), ("PS-GRPO", "ps_grpo")):
        out += [Comparison(f"{name} ends above GRPO", level, "final", arm, "grpo"),
                Comparison(f"{name} collapses no more often than GRPO", level, "collapsed", arm, "grpo", better="below")]
    return (*out, Comparison("floor_std ends above GRPO", floor, "final", "floor_std", "grpo"),
            Comparison("floor_std collapses less often than pooled", floor, "collapsed", "floor_std", "pooled", better="below"))


def _premise(name: str, arm: str, levels: tuple[tuple[str, str], ...], default: str) -> tuple[Comparison, ...]:
    """The premise's interaction for ``arm``: its gain over GRPO at each sparse level against ``default``'s."""
    return tuple(Comparison(f"{name}: the {word} level ({level.rsplit('/', 1)[-1].removesuffix('_floor')}) against the default",
                            level, "interaction", arm, "grpo", level2=default) for level, word in levels)


MB, SG, SIG, WT = "mini_study/mini_baselines", "mini_study/mini_same_global", "mini_study/mini_signals", "mini_study/mini_weighting"
S15, S05 = "mini_study/mini_sparse_15", "mini_study/mini_sparse_05"
F15, F05 = "mini_study/mini_sparse_15_floor", "mini_study/mini_sparse_05_floor"
RS = "real_seeds"
PASS1, PASS4, GROUNDED = "eval/pass@1", "eval/pass@4", "eval/grounded_step_accuracy"

CLAIMS: tuple[Claim, ...] = (
    Claim("C1", "BoT-GRPO reaches the threshold faster than GRPO, DAPO and GSPO; PURE peaks, then slides",
          paper="React, Qwen2.5-3B, held-out compile rate. BoT-GRPO is above 80% by about step 40. GRPO stays near 0 until about step 75 and gets close to 80% only around step 90, so BoT is up to 1.9x faster. DAPO and GSPO cross 80% around steps 65-70. PURE peaks near 84%, then slides toward about 61% after step 70. BoT, DAPO and GSPO level off at 88-94%.",
          figure="fig1_compile_rate", tests=(
              Comparison("BoT-GRPO is faster than GRPO", MB, "speedup", "bot_grpo", "grpo"),
              Comparison("DAPO crosses later than BoT-GRPO", MB, "steps", "dapo", "bot_grpo"),
              Comparison("GSPO crosses later than BoT-GRPO", MB, "steps", "gspo", "bot_grpo"),
              Comparison("PURE drops more from its peak than GRPO", MB, "drop", "pure", "grpo"),
              Comparison("PURE collapses more often than GRPO", MB, "collapsed", "pure", "grpo"),
              Comparison("BoT-GRPO collapses less often than PURE", MB, "collapsed", "bot_grpo", "pure", better="below"),
              Comparison("BoT-GRPO ends above PURE", MB, "final", "bot_grpo", "pure"),
          )),
    Claim("C2", "BoT-GRPO's renders win the pairwise VLM judgement against every baseline",
          paper="Pairwise VLM win rate of BoT-GRPO over training (ABBA, §5): 62-90% vs GRPO, 67-78% vs PURE, 56-78% vs GSPO, 58-63% vs DAPO.",
          figure="fig2_win_rate"),
    Claim("C3", "BoT-GRPO beats GRPO for all three model families",
          paper="BoT beats GRPO on compile rate for all three model families. The gap is largest on Qwen2.5-3B (BoT above 90% at the end). SmolLM3-3B and Phi-4-mini-reasoning end at 60-70%.",
          figure="fig3_model_families"),
    Claim("C4", "a compiler + ESLint reward alone is hacked; the code judge is needed",
          paper="Reward stack (React, Qwen2.5-3B). A compiler + ESLint reward alone gets hacked: about 74% compile rate, with blank renders. The LLM code judge is needed. The VLM judge is optional.",
          figure="fig4_reward_stack"),
    Claim("C5", "BoT-GRPO beats GRPO on AIME Pass@k",
          paper="AIME, Qwen2.5-3B, BoT vs GRPO in %: Pass@1 9.6 vs 6.6, Pass@2 16.8 vs 8.7, Pass@4 20.6 vs 15.1. BoT gets there in about half the steps.",
          figure="fig5_aime_passk"),
    Claim("C6", "BoT-GRPO is ahead of GRPO on AIME for all three model families",
          paper="AIME: BoT is ahead of GRPO for the whole run, for all three model families.",
          figure="fig6_aime_families"),
    Claim("C7", "the error-propagation step strategy learns; the others do not",
          paper="AIME step-score strategy: error propagation learns; context-aware and independent stay near the baseline.",
          figure="fig7_step_strategy"),
    Claim("C8", "BoT-GRPO is robust to the local weight w_s",
          paper="AIME local weight w_s in {0.1, 0.5, 1.0} with w_g = 3: Pass@1 between 8.3 and 10.4%, Pass@4 between 19.1 and 20.8%. The method is robust to w_s.",
          figure="fig8_local_weight"),
    Claim("C9", "step windows 1 and 3 behave alike; 5 learns more slowly early on",
          paper="AIME step window in {1, 3, 5}: 1 and 3 behave alike; 5 learns more slowly early on.",
          figure="fig9_step_window"),
    Claim("C10", "the 2-turn line-level VLM reward drops least from its peak",
          paper="React, line-level VLM reward, peak-to-final drop in compile rate: 0.236 (1-turn, line weight 1.0), 0.108 (1-turn, 0.2), 0.020 (2-turn), 0.050 (global-only VLM).",
          figure="fig10_vlm_line_reward"),
    Claim("B1", "BoT-GRPO in groups whose rollouts share one global reward: flooring the std (floor_std) or a zero advantage (zero) beats the paper's pooled std", tests=(
        Comparison("floor_std collapses less often than pooled", SG, "collapsed", "floor_std", "pooled", better="below"),
        Comparison("floor_std ends above pooled", SG, "final", "floor_std", "pooled"),
        Comparison("zero ends above pooled", SG, "final", "zero", "pooled"),
        Comparison("floor_std is faster than GRPO", SG, "speedup", "floor_std", "grpo"),
    )),
    Claim("B2", "the sparse levels (a weaker warm start, most groups share one global reward): BoT-GRPO and PS-GRPO against GRPO",
          tests=(*_sparse_level(S15, F15), *_sparse_level(S05, F05))),
    Claim("B3", "BoT's premise: the local signal helps most when the global reward is rarely informative (BoT-GRPO's gain over GRPO is larger at a sparse level than at the default one)", tests=(
        *_premise("pooled BoT-GRPO", "bot_grpo", ((S15, "sparser"), (S05, "sparsest")), MB),
        *_premise("floor_std", "floor_std", ((F15, "sparser"), (F05, "sparsest")), SG),
    )),
    Claim("B4", "local signals must be bounded, stable and correlated with success (docs/method.md §3): BoT-GRPO with the rule-abiding signal against signals that break one property", tests=(
        Comparison("progress ends above penalty (not correlated with success)", SIG, "final", "progress", "penalty"),
        Comparison("progress ends above noisy (not stable)", SIG, "final", "progress", "noisy"),
        Comparison("progress ends above unbounded (not bounded)", SIG, "final", "progress", "unbounded"),
        Comparison("progress is faster than GRPO on G only", SIG, "speedup", "progress", "grpo (G only)"),
    )),
    Claim("B5", "BoT-GRPO's 1/L_k weighting (every rollout weighs the same) beats uniform token weights (docs/method.md §2)", tests=(
        Comparison("1/L_k ends above uniform", WT, "final", "inverse_length", "uniform"),
        Comparison("1/L_k is faster than uniform", WT, "speedup", "inverse_length", "uniform"),
    )),
    Claim("B6", "the CPU demo (make demo): BoT-GRPO against GRPO and PURE", tests=(
        Comparison("BoT-GRPO is faster than GRPO", "mini", "speedup", "bot_grpo", "grpo"),
        Comparison("BoT-GRPO ends above GRPO", "mini", "final", "bot_grpo", "grpo"),
        Comparison("BoT-GRPO ends above PURE", "mini", "final", "bot_grpo", "pure"),
    )),
    Claim("B7", "a real model (SmolLM2-135M on CPU, task=arith): BoT-GRPO against GRPO", tests=(
        Comparison("BoT-GRPO's held-out answers are more often right", "real_small", "final", "bot_grpo", "grpo", metric="eval/sample_accuracy"),
        Comparison("BoT-GRPO's held-out steps are more often true", "real_small", "final", "bot_grpo", "grpo", metric="eval/step_accuracy"),
    )),
    Claim("B8", "a real model over seeds (SmolLM2-135M on CPU, arith one_step, grounded steps): BoT-GRPO pooled and floor_std against GRPO", tests=tuple(
        Comparison(who + what, RS, "final", arm, "arith_grpo", metric=metric)
        for what, metric in ((" beats GRPO on Pass@1", PASS1), (" beats GRPO on Pass@4", PASS4),
                             ("'s steps are more often grounded", GROUNDED))
        for who, arm in (("pooled BoT-GRPO", "arith_bot_pooled"), ("floor_std", "arith_bot_floor"))
    )),
)

# the keys a test declared in an experiment file's report.tests may set (``report`` is the experiment's own)
DECLARED = tuple(f.name for f in fields(Comparison) if f.name not in ("report", "level2"))


def declared_test(entry: dict, report: str, where: str) -> Comparison:
    """One entry of ``report.tests`` as a Comparison of the experiment's own report; ValueError naming ``where``.
    A ``gain`` reads one arm: its ``b`` may be left out."""
    if isinstance(entry, dict) and entry.get("quantity") == "gain" and "b" not in entry and "a" in entry:
        entry = {**entry, "b": entry["a"]}
    if not isinstance(entry, dict) or not {"what", "quantity", "a", "b"} <= set(entry) or set(entry) - set(DECLARED):
        raise ValueError(f"{where}: a declared test is {{what, quantity, a, b[, better, metric]}} (keys "
                         f"{', '.join(DECLARED)}), got {entry!r}")
    try:
        return Comparison(report=report, **{k: str(v) for k, v in entry.items()})
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


def planned(folder: Path = EXPERIMENTS) -> tuple[Claim, ...]:
    """The claims pre-registered in experiment files: every ``<name>.yaml`` whose ``report.tests`` declares
    tests, as Claim ``<name>`` (its ``report.shows`` as the claim), in name order."""
    out = []
    for path in sorted(Path(folder).glob("*.yaml")):
        block = (yaml.safe_load(path.read_text()) or {}).get("report") or {}
        if block.get("tests"):
            where = f"report.tests of conf/experiment/{path.name}"
            report = str(block.get("results") or path.stem)
            out.append(Claim(path.stem, str(block.get("shows") or path.stem),
                             tuple(declared_test(t, report, where) for t in block["tests"])))
    return tuple(out)


# results/bench/<file>: the figures the Speed section prints (dotted paths into the JSON)
BENCH: dict[str, tuple[str, ...]] = {
    "aime.json": ("answer_checks_per_s", "math_verify_checks_per_s"),
    "core.json": ("bot_advantage_ms", "trainer_step_ratio_vs_trl"),
    "judges.json": ("calls_per_s", "throughput_fraction_of_bound", "cache_lookups_per_s"),
    "react.json": ("render_per_s", "compile_lint_pool_per_s"),
    "real_model.json": ("generation_tokens_per_s", "step_s_ours", "trainer_step_ratio_vs_trl"),
    "stalls.json": ("react_check_pool.stall_s", "react_renderer.stall_s", "aime_pool.stall_s", "arith_pool.stall_s"),
    "vllm_cpu.json": ("generation.speedup_at_real_small", "step_transformers.median.step_s", "step_vllm.median.step_s"),
}
# the header fields each bench file is expected to carry (issue #33, "One bench header")
BENCH_HEADER = ("date", "git_sha", "loaded")
