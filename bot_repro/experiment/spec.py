"""An experiment: ``conf/experiment/<name>.yaml``, composed, with its ``report:`` block checked.

An experiment file holds two things: the training overrides of its runs (with the sweep's jobs in
``hydra.sweeper.params``) and ``report:``, what its report reads and shows (``ReportCfg``; how to
draw it is ``report.plot``, a ``bot_repro.plots.figures.PlotCfg``). The name is the file's stem and
names everything of the experiment: ``runs/<name>/<stamp>/``, its results folder (``results/<name>``
unless ``report.results`` says otherwise) and, for a paper figure, ``make reproduce-figure-N`` (a
figure's name starts with ``fig<N>_``). ``search_dir`` adds a folder of experiment files
(``<search_dir>/experiment/<name>.yaml``) to Hydra's search path, so a new experiment is one yaml
file anywhere. ``study_list`` reads the CPU study's ordered list of experiments (``conf/study.yaml``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from omegaconf import DictConfig, OmegaConf

from bot_repro.analysis import claims
from bot_repro.config_schema import ConfigError, build_options
from bot_repro.experiment import sweep
from bot_repro.experiment.pairwise import PairwiseCfg
from bot_repro.plots.figures import PlotCfg, plot_config
from bot_repro.registry import UnknownNameError

FIGURE_NAME = re.compile(r"^fig(\d+)_")
STUDY_FILE = sweep.CONF_DIR / "study.yaml"  # the CPU study: `python -m bot_repro.experiment run study`


@dataclass
class ReadsCfg:
    """``report.reads``: runs of another experiment this report reads too, found by that
    experiment's name and the starting policy's hash (never by folder stamps)."""

    experiment: str
    algorithms: list[str] | None = None  # only runs of these algorithm.name values (None: every run)


@dataclass
class ReportCfg:
    """``report:`` of an experiment file."""

    plot: dict[str, Any] = field(default_factory=dict)  # a PlotCfg: how to draw and summarise
    figure: int | None = None  # the paper's figure number (docs/method.md §6), for a paper figure
    claim: str = ""  # docs/method.md §1 claim id the figure tests
    shows: str = ""  # what the figure shows, in a few words (`python -m bot_repro.experiment list`)
    results: str | None = None  # folder under results/ of the committed report (None: the name)
    reads: dict[str, Any] | None = None  # a ReadsCfg
    extends_committed: bool = False  # read the committed report's runs too (new seeds add to them)
    relabel: list[dict[str, Any]] = field(default_factory=list)  # [{where: {col: v}, set: {col: v}}]
    derived: dict[str, list[str]] = field(default_factory=dict)  # metric -> [numerator, denominator]
    step0: bool = False  # record the starting policy the runs share and the study's per-group numbers
    table: bool = False  # the first summary's numbers in a table below the panels
    baseline_table: bool = False  # summary.md: per group, step 0 -> end, the gain, rollouts, wall time, machine
    pairwise: dict[str, Any] | None = None  # a post-training ABBA evaluation: {experiment, **PairwiseCfg}
    # the plan's declared tests, each a {what, quantity, a, b, better, metric} (bot_repro.analysis.claims
    # .declared_test): every one gets a row in results/FINDINGS.md, whatever its verdict
    tests: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for rule in self.relabel:
            if not isinstance(rule, dict) or set(rule) != {"where", "set"}:
                raise ValueError(f"relabel rule {rule!r} must be {{where: {{col: value}}, set: {{col: value}}}}")
        for metric, parts in self.derived.items():
            if len(parts) != 2:
                raise ValueError(f"derived.{metric} must be [numerator, denominator], got {parts}")


@dataclass
class Experiment:
    name: str
    cfg: DictConfig  # composed, with its hydra node
    report: ReportCfg
    plot: PlotCfg
    reads: ReadsCfg | None
    pairwise: tuple[str, PairwiseCfg] | None  # (the experiment whose runs are judged, settings)
    search_dir: Path | None = None

    @property
    def where(self) -> str:
        return f"conf/experiment/{self.name}.yaml"

    @property
    def results(self) -> str:
        return self.report.results or self.name

    @property
    def figure(self) -> int | None:
        return self.report.figure

    @property
    def trains(self) -> bool:
        """False for an experiment that only evaluates another's runs (figure 2's pairwise)."""
        return self.pairwise is None


def experiment_dirs(search_dir: Path | None = None) -> list[Path]:
    return [*([Path(search_dir) / "experiment"] if search_dir else []), sweep.CONF_DIR / "experiment"]


def names(search_dir: Path | None = None) -> list[str]:
    """Every experiment's name, figures first by number, then the rest by name."""
    found = {p.stem for d in experiment_dirs(search_dir) for p in d.glob("*.yaml")}
    return sorted(found, key=lambda n: (0, int(m.group(1)), n) if (m := FIGURE_NAME.match(n)) else (1, 0, n))


def resolve(text: str, search_dir: Path | None = None) -> str:
    """An experiment name from a name or a figure number ("1" -> fig1_compile_rate)."""
    known = names(search_dir)
    if text in known:
        return text
    if text.isdigit():
        hit = [n for n in known if (m := FIGURE_NAME.match(n)) and int(m.group(1)) == int(text)]
        if hit:
            return hit[0]
    figures = [n for n in known if FIGURE_NAME.match(n)]
    raise UnknownNameError(f"unknown experiment {text!r}; known: {', '.join(known)} "
                           f"(or a figure number 1-{len(figures)})")


def search_overrides(search_dir: Path | None) -> list[str]:
    """The Hydra override that adds ``search_dir`` (holding ``experiment/<name>.yaml``) to the search path."""
    return [f"hydra.searchpath=[file://{Path(search_dir).resolve()}]"] if search_dir else []


def report_block(cfg: DictConfig, where: str) -> ReportCfg:
    node = OmegaConf.select(cfg, "report")
    if node is None:
        raise ConfigError(f"{where} has no report: block (what its report reads and how to draw it)")
    return build_options(ReportCfg, OmegaConf.to_container(node, resolve=True), f"report of {where}")


def from_config(name: str, cfg: DictConfig, search_dir: Path | None = None) -> Experiment:
    """Check the composed config's report block: a broken one fails here, before any training."""
    where = f"conf/experiment/{name}.yaml"
    rep = report_block(cfg, where)
    plot = plot_config(rep.plot, f"report.plot of {where}")
    reads = build_options(ReadsCfg, rep.reads, f"report.reads of {where}") if rep.reads else None
    pairwise = None
    if rep.pairwise is not None:
        raw = dict(rep.pairwise)
        source = raw.pop("experiment", None)
        if not source:
            raise ConfigError(f"report.pairwise of {where} must name the experiment whose runs it judges (experiment: NAME)")
        pairwise = (str(source), build_options(PairwiseCfg, raw, f"report.pairwise of {where}"))
    for entry in rep.tests:
        try:
            claims.declared_test(entry, rep.results or name, f"report.tests of {where}")
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
    if rep.figure is not None and not name.startswith(f"fig{rep.figure}_"):
        raise ConfigError(f"{where}: report.figure={rep.figure}, so its name must start with 'fig{rep.figure}_'")
    return Experiment(name, cfg, rep, plot, reads, pairwise, search_dir)


def load(name: str, overrides: list[str] | tuple[str, ...] = (), search_dir: Path | None = None) -> Experiment:
    """Compose experiment ``name`` with ``overrides`` (sweep values left out) and check its report block."""
    name = resolve(name, search_dir)
    cfg = sweep.compose_experiment(name, [*search_overrides(search_dir), *overrides])
    return from_config(name, cfg, search_dir)


def raw_report(name: str, search_dir: Path | None = None) -> dict:
    """The report block as written in the experiment file (no composition): for listing the figures."""
    for d in experiment_dirs(search_dir):
        path = d / f"{name}.yaml"
        if path.is_file():
            return (yaml.safe_load(path.read_text()) or {}).get("report") or {}
    return {}


def study_list(path: Path = STUDY_FILE) -> list[str]:
    """The CPU study's experiments (``conf/study.yaml``) in run order, checked: each names an experiment
    file, none twice, and one that reads another study experiment's runs comes after it (its report
    finds those runs by that experiment's name and the starting policy's hash). Only the listed
    experiments are composed (to read their ``report.reads``)."""
    doc = yaml.safe_load(path.read_text()) or {}
    listed = doc.get("experiments")
    if not isinstance(listed, list) or not listed or not all(isinstance(n, str) for n in listed):
        raise ConfigError(f"{path}: 'experiments' must be a non-empty list of experiment names, got {listed!r}")
    unknown = sorted(set(doc) - {"experiments"})
    if unknown:
        raise ConfigError(f"{path}: unknown key {unknown[0]!r}; allowed: experiments")
    known = set(names())
    for i, name in enumerate(listed):
        if name not in known:
            raise ConfigError(f"{path}: experiments[{i}]={name!r} is not an experiment file; known: {', '.join(sorted(known))}")
        if name in listed[:i]:
            raise ConfigError(f"{path}: {name} is listed twice")
        reads = (sweep.resolved(sweep.compose_experiment(name), "report.reads") or {}).get("experiment")
        if reads in listed and listed.index(reads) > i:
            raise ConfigError(f"{path}: {name} reads {reads}'s runs, so {reads} must come before it in the list")
    return list(listed)
