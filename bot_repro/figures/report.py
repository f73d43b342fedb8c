"""One report path, for the paper's figures and the CPU study: an experiment's composed config and
its run folders -> the runs table, one summary per plotted metric, provenance, and the figure.

``build`` reads ``plot.<name>`` (how to draw and summarise: ``plot_settings``) and ``study:``
(``study_block``: which other runs the report also reads) of the config it is given, loads the runs
(``load``), summarises each panel metric (``bot_repro.analysis.summarise``) and records where the
numbers come from (``Report.meta``: the command, the git SHA the runs record, the machines that made
them). ``Report.draw`` writes the PNG + PDF. The callers add only what is theirs: the figures their
``summary.json`` of every panel and ``runs.csv`` (``bot_repro.figures.pipeline``), the study its
per-group costs, step 0 and the archived runs (``bot_repro.study``).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from omegaconf import DictConfig, OmegaConf

from bot_repro.analysis import committed, summarise
from bot_repro.analysis.summary import collect_meta
from bot_repro.config_errors import ConfigError
from bot_repro.figures.runs import load_figure_runs
from bot_repro.plots.figures import SMOKE_COLUMN, PlotCfg, draw_and_save, draw_with_note, plot_config
from bot_repro.run_folder import read_run_info

POLICY_FILE = "policy.json"  # in a study's sweep folder (and its archive): the starting policy it records
STUDY_KEYS = ("order", "reuse", "extends", "cost", "relabel")


def plot_settings(cfg: DictConfig, name: str, experiment: str) -> PlotCfg:
    """``plot.<name>`` of the composed config of ``conf/experiment/<experiment>.yaml``."""
    raw = OmegaConf.select(cfg, f"plot.{name}")
    raw = OmegaConf.to_container(raw, resolve=True) if raw is not None else None
    return plot_config(raw, f"plot.{name} of conf/experiment/{experiment}.yaml")


def study_block(cfg: DictConfig, experiment: str) -> dict:
    """``study:`` of the composed config ({} without one): ``order`` (its place in ``make study``,
    ``bot_repro.study.study_experiments``), ``reuse`` (runs of another experiment of the same study
    this report also reads: ``{experiment, algorithms}``), ``extends: committed`` (the committed
    report's archived runs are read too, when they start from the same policy: new seeds add to them),
    ``cost`` (``bot_repro.study.step_costs``) and ``relabel`` (``[{where: {col: value}, set: {col:
    value}}]`` applied to the loaded table, e.g. to show GRPO, which reads G only, as the reference
    line of the local-signal comparison)."""
    node = OmegaConf.select(cfg, "study")
    block = OmegaConf.to_container(node, resolve=True) if node is not None else {}
    where = f"conf/experiment/{experiment}.yaml: study"
    unknown = sorted(set(block) - set(STUDY_KEYS))
    if unknown:
        raise ConfigError(f"{where}.{unknown[0]} is not a key; allowed: {', '.join(STUDY_KEYS)}")
    if block.get("extends") not in (None, "committed"):
        raise ConfigError(f"{where}.extends={block['extends']!r}; allowed: committed, null")
    order = block.get("order")
    if order is not None and (isinstance(order, bool) or not isinstance(order, int) or order < 1):
        raise ConfigError(f"{where}.order={order!r}; allowed: a whole number >= 1 (its place in make study), or null")
    return block


def committed_runs(experiment: str, sweep_dir: Path) -> Path | None:
    """The committed report's archived runs of ``experiment`` when they start from the policy
    ``sweep_dir`` records (``study.extends: committed``); None, with a note, when they do not."""
    archive = committed.committed_dir(experiment) / "runs"
    if not (archive / POLICY_FILE).exists() or archive.resolve() == Path(sweep_dir).resolve():
        return None
    theirs = json.loads((archive / POLICY_FILE).read_text()).get("policy_hash")
    ours = json.loads((sweep_dir / POLICY_FILE).read_text()).get("policy_hash") if (sweep_dir / POLICY_FILE).exists() else None
    if theirs != ours:
        print(f"note: {archive} starts from policy {theirs}, this sweep from {ours}: not added to it")
        return None
    return archive


def _policy(sweep: Path) -> str | None:
    path = sweep / POLICY_FILE
    return json.loads(path.read_text()).get("policy_hash") if path.exists() else None


def reused_sweep(first: Path, experiment: str) -> Path | None:
    """The sweep of ``experiment`` that ``first`` (``<runs>/<its experiment>/<stamp>/sweep``) reuses: the
    one of the same ``make study`` (same stamp), else the newest ``<runs>/<experiment>/*/sweep`` that
    starts from the same policy (the experiments were run one ``--experiment`` at a time); None when
    ``first`` is not laid out so or no sweep matches."""
    if first.name != "sweep":
        return None
    same_stamp = first.parent.parent.parent / experiment / first.parent.name / "sweep"
    if same_stamp.is_dir():
        return same_stamp
    ours = _policy(first)
    candidates = sorted((first.parent.parent.parent / experiment).glob("*/sweep"), reverse=True)  # stamps sort by time
    match = next((c for c in candidates if ours is not None and _policy(c) == ours), None)
    if match is not None:
        print(f"note: {experiment}'s runs come from {match} (the newest sweep from policy {ours})")
    return match


def load(sources: Sequence[Path], block: dict, columns: list[str], experiment: str) -> tuple[pd.DataFrame, dict]:
    """The runs under ``sources`` plus those ``block["reuse"]`` names from the same study: the sibling
    folder ``<runs>/<experiment>/<stamp>/sweep`` of ``sources[0]`` (skipped, with a note, when it is
    not laid out so: a re-analysed archive already holds copies), plus with ``block["extends"]`` the
    committed runs of ``experiment`` (``committed_runs``; a rerun of a seed replaces the committed
    one), relabelled by ``block["relabel"]``. Returns (table, {added folder: runs read from it})."""
    reuse, roots, reused = block.get("reuse"), list(sources), {}
    first = Path(sources[0])
    if reuse:
        sibling = reused_sweep(first, reuse["experiment"])
        if sibling is not None:
            roots.append(sibling)
        else:
            print(f"note: no sweep of {reuse['experiment']} beside {first} starts from its policy; reading only "
                  f"{first} (an archive holds its reused runs)")
    archive = committed_runs(experiment, first) if block.get("extends") else None
    relabel = block.get("relabel") or []
    extra = [k for rule in relabel for part in ("where", "set") for k in rule[part]]
    df = load_figure_runs(roots + ([archive] if archive else []), [*columns, "algorithm.name", *extra])
    for root in roots[len(sources):]:
        mine = df["run_dir"].astype(str).str.startswith(f"{root}/")
        keep = ~mine | df["algorithm.name"].isin(reuse["algorithms"])
        reused[root] = int(df.loc[mine & keep, "run_id"].nunique())
        df = df[keep]
    if archive:
        reused[archive] = int(df.loc[df["run_dir"].astype(str).str.startswith(f"{archive}/"), "run_id"].nunique())
    for rule in relabel:
        hit = (df[list(rule["where"])] == pd.Series(rule["where"])).all(axis=1)
        for col, value in rule["set"].items():
            df.loc[hit, col] = value
    return df.reset_index(drop=True), reused


def summaries(frame: pd.DataFrame, settings: PlotCfg) -> list[dict[str, Any]]:
    """``summarise`` of each panel metric the table has: the plot's threshold (none for pairwise win
    rates) and its speed-ups against ``settings.baseline`` when that value is among the lines."""
    threshold = None if settings.kind == "pairwise" else settings.threshold
    hue_values = set(map(str, frame[settings.hue].dropna().unique())) if settings.hue in frame else set()
    baseline = settings.baseline if str(settings.baseline) in hue_values else None
    out = []
    for metric in settings.panel_metrics:
        if not (frame["metric"] == metric).any():
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # one seed: empty intervals are expected
            out.append(summarise(frame, metric, threshold, group_by=settings.columns, baseline=baseline,
                                 on=settings.hue if baseline is not None else None))
    return out


@dataclass
class Report:
    """An experiment's runs, summarised as its plot block says; ``meta``: command, git SHA of the
    runs (``run.json``, the code that ran, not the checkout at analysis time), date, machine that
    analysed; ``machines``: which machine made which runs (``analysis.committed.machines``)."""

    name: str
    settings: PlotCfg
    frame: pd.DataFrame
    summaries: list[dict[str, Any]]
    meta: dict[str, Any]
    machines: list[dict]
    reused: dict[Path, int] = field(default_factory=dict)

    def draw(self, path_without_suffix: Path, smoke: bool | None = None, table: bool = False) -> list[Path]:
        """The figure as PNG + PDF; ``table``: the first summary's numbers (steps to the threshold,
        speed-ups) in a table below the panels, when it has a threshold."""
        if table and self.summaries and self.summaries[0]["threshold"] is not None:
            return draw_with_note(self.frame, self.settings, self.summaries[0], path_without_suffix, smoke)
        return draw_and_save(self.frame, self.settings, path_without_suffix, smoke)


def build(name: str, experiment: str, cfg: DictConfig, sources: Sequence[Path], command: str,
          columns: Sequence[str] = ()) -> Report:
    """The report of ``plot.<name>`` of ``cfg`` (the composed config of ``experiment``) over the runs
    under ``sources`` (and what its ``study:`` block adds); ``columns``: more table columns the
    caller reads. A missing run folder raises FileNotFoundError."""
    settings = plot_settings(cfg, name, experiment)
    block = study_block(cfg, experiment)
    frame, reused = load(sources, block, [*settings.columns, SMOKE_COLUMN, *columns], experiment)
    if frame.empty:
        raise FileNotFoundError(f"no runs with metrics below {', '.join(map(str, sources))}")
    meta = collect_meta(command, committed.REPO)
    run_dirs = sorted(set(frame["run_dir"]))
    meta["git_sha"] = ", ".join(sorted({(read_run_info(d) or {}).get("run.git_sha") or "unknown" for d in run_dirs}))
    return Report(name, settings, frame, summaries(frame, settings), meta, committed.machines(run_dirs), reused)
