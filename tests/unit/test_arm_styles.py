"""One arm, one look, across every committed figure (issue 33).

For each committed report (``results/**/summary.json``), the groups of its figure are read back with
its experiment's ``report.plot.hue`` and ``report.relabel`` rules (``conf/experiment/*.yaml``, parents
through ``defaults``). Each group's arm is worked out here from the configs alone, not from the style
code: an algorithm name is that algorithm; a value a relabel rule sets stands for the rule's
algorithm; any other value of an option or reward-variant column is the experiment's swept algorithm
with that value, or the algorithm itself where the value is the estimator's (or reward's) default.
Then: an arm drawn in several figures has one colour, marker and line style; no two groups of one
figure look alike; distinct algorithms have distinct colours and no variant takes one of them.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from bot_repro.algorithms import ADVANTAGES
from bot_repro.algorithms.options import CHOICE_STYLES, Style
from bot_repro.config_schema import ConfigError
from bot_repro.plots import style as style_module
from bot_repro.plots.style import group_styles
from bot_repro.report_folder import read_summary
from bot_repro.tasks.mini.reward import VARIANT_STYLES, MiniRewardParams

ROOT = Path(__file__).resolve().parents[2]
EXPERIMENTS = ROOT / "conf" / "experiment"
OPTION = "algorithm.options."
# the defaults of the columns that are not estimator options: the mini task's clean reward signal
OTHER_DEFAULTS = {"reward.params.variant": MiniRewardParams().variant}


def _yaml(name: str) -> dict:
    return yaml.safe_load((EXPERIMENTS / f"{name}.yaml").read_text()) or {}


def _merge(base: dict, over: dict) -> dict:
    """Hydra's merge of two mappings: nested mappings merge key by key, anything else is replaced."""
    out = dict(base)
    for key, value in over.items():
        out[key] = _merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def _report(name: str) -> dict:
    """The experiment's ``report`` block merged over its parents' (Hydra's merge: a child's ``plot.labels``
    keeps the parent's ``plot.hue``)."""
    raw = _yaml(name)
    parents = [d for d in raw.get("defaults", []) if isinstance(d, str) and d != "_self_"]
    merged: dict = {}
    for parent in parents:
        merged = _merge(merged, _report(parent))
    return _merge(merged, raw.get("report") or {})


def _swept_algorithm(name: str) -> str:
    raw = _yaml(name)
    while "algorithm" not in (((raw.get("hydra") or {}).get("sweeper") or {}).get("params") or {}):
        raw = _yaml(next(d for d in raw["defaults"] if isinstance(d, str)))
    return str(raw["hydra"]["sweeper"]["params"]["algorithm"])


def _figures() -> dict[str, tuple[str, list]]:
    """experiment -> (hue column, the hue values of its committed figure)."""
    out = {}
    for path in sorted(ROOT.glob("results/**/summary.json")):
        summary = read_summary(path)
        name = summary["meta"]["experiment"]
        hue = (_report(name).get("plot") or {}).get("hue", "algorithm.name")
        values = {g["group"][hue] for s in summary["summaries"] for g in s["groups"]}
        out[name] = (hue, sorted(values, key=str))
    return out


FIGURES = _figures()


def _arm(name: str, hue: str, value) -> tuple[str, str | None]:
    """(algorithm, the non-default value that makes it a variant, or None)."""
    if hue == "algorithm.name":
        return str(value), None
    if hue == "choice.arm":  # conf/arm/<value>.yaml: an algorithm and at most one option value
        arm = yaml.safe_load((ROOT / "conf" / "arm" / f"{value}.yaml").read_text())
        algorithm = next(d["override /algorithm"] for d in arm["defaults"] if isinstance(d, dict))
        options = list(((arm.get("algorithm") or {}).get("options") or {}).items())
        if not options:
            return algorithm, None
        (option, chosen), = options
        default = ADVANTAGES[algorithm].option_defaults[option]
        return algorithm, None if chosen == default else f"{OPTION}{option}={chosen}"
    for rule in _report(name).get("relabel", []):
        if rule["set"].get(hue) == value:
            return str(rule["where"]["algorithm.name"]), None
    algorithm = _swept_algorithm(name)
    default = (ADVANTAGES[algorithm].option_defaults[hue[len(OPTION):]] if hue.startswith(OPTION)
               else OTHER_DEFAULTS[hue])
    return algorithm, None if value == default else f"{hue}={value}"


def _looks(name: str) -> dict:
    hue, values = FIGURES[name]
    return {v: (s.color, s.marker, str(s.linestyle)) for v, s in group_styles(values, hue).items()}


def test_every_committed_figure_is_covered():
    assert {"mini_demo", "mini_baselines", "mini_same_global", "mini_signals", "mini_weighting",
            "real_small", "real_seeds"} <= set(FIGURES)


def test_an_arm_looks_the_same_in_every_figure():
    seen: dict[tuple, dict[tuple, list[str]]] = defaultdict(lambda: defaultdict(list))
    for name, (hue, values) in FIGURES.items():
        looks = _looks(name)
        for value in values:
            seen[_arm(name, hue, value)][looks[value]].append(f"{name}:{value}")
    differing = {arm: dict(styles) for arm, styles in seen.items() if len(styles) > 1}
    assert not differing, differing
    # the paper's BoT-GRPO under four spellings: the algorithm, and three paper defaults
    paper_bot = [where for looks in seen[("bot_grpo", None)].values() for where in looks]
    assert {"mini_baselines:bot_grpo", "mini_same_global:pooled", "mini_weighting:inverse_length",
            "mini_signals:progress"} <= set(paper_bot)
    assert "real_seeds:arith_bot_pooled" in paper_bot
    assert "real_seeds:arith_bot_floor" in {where for looks in seen[("bot_grpo", "algorithm.options.same_global=floor_std")].values()
                                            for where in looks}
    assert {"mini_same_global:grpo", "mini_signals:grpo (G only)", "real_seeds:arith_grpo"} <= {
        where for looks in seen[("grpo", None)].values() for where in looks}


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_no_two_groups_of_a_figure_look_alike(name):
    looks = _looks(name)
    assert len(set(looks.values())) == len(looks), looks
    assert len({color for color, _, _ in looks.values()}) == len(looks), looks  # colour alone tells them apart


def test_algorithms_have_distinct_colours_and_variants_none_of_them():
    colours = [fn.info.color.lower() for fn in ADVANTAGES.values()]
    assert len(set(colours)) == len(colours)
    declared = [s for styles in (*CHOICE_STYLES.values(), VARIANT_STYLES) for s in styles.values()]
    variants = [s for s in declared if isinstance(s, Style)]
    assert variants and not {s.color.lower() for s in variants} & set(colours)
    assert all(s in ADVANTAGES for s in declared if isinstance(s, str))  # an algorithm a default draws as
    assert len({(s.color, s.marker) for s in variants}) == len(variants)  # each variant its own colour+marker


def test_a_declared_algorithm_that_is_not_registered_is_refused(monkeypatch):
    monkeypatch.setitem(style_module.VALUE_STYLES, "reward.params.variant", {"progress": "bot_grpoo"})
    with pytest.raises(ConfigError, match=r"'bot_grpoo', which is not registered; allowed: .*bot_grpo"):
        group_styles(["progress"], "reward.params.variant")
