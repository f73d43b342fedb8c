"""Titles carry the measured values (issue 33): placeholders filled from the runs a figure draws,
and no committed experiment types a measured number into its title."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from bot_repro.config_schema import ConfigError
from bot_repro.plots.titles import fill_title

EXPERIMENTS = Path(__file__).resolve().parents[2] / "conf" / "experiment"
HUE = "algorithm.name"


def _frame() -> pd.DataFrame:
    rows = [{"run_id": f"{a}{s}", HUE: a, "step": step, "metric": "eval/success_rate", "value": v + 0.01 * s}
            for a, seeds in (("grpo", 3), ("bot_grpo", 2)) for s in range(seeds) for step, v in ((0, 0.1), (5, 0.4))]
    return pd.DataFrame(rows)


def test_placeholders_are_filled_from_the_runs():
    frame = _frame()  # step 0: 0.10, 0.11, 0.12 (grpo) and 0.10, 0.11 (bot_grpo): mean 0.108
    assert fill_title("start {step0:eval/success_rate}, {seeds} seeds", frame, [HUE]) == "start 0.108, 2-3 seeds"
    assert fill_title("{seeds} seeds", frame[frame[HUE] == "grpo"], [HUE]) == "3 seeds"
    assert fill_title("{step0:eval/missing} {{literal}}", frame, [HUE]) == "n/a {literal}"


@pytest.mark.parametrize("title, match", [
    ("{final:eval/x}", r"placeholder \{final\}; allowed: \{step0:METRIC\}, \{seeds\}"),
    ("{step0}", r"needs a metric"),
    ("{seeds:x}", r"takes no argument"),
    ("a } b", r"literal brace"),
])
def test_a_bad_placeholder_names_what_is_allowed(title, match):
    with pytest.raises(ConfigError, match=match):
        fill_title(title, _frame(), [HUE])


def _titles() -> dict[str, str]:
    out = {}
    for path in sorted(EXPERIMENTS.glob("*.yaml")):
        title = (((yaml.safe_load(path.read_text()) or {}).get("report") or {}).get("plot") or {}).get("title")
        if title:
            out[path.stem] = str(title)
    return out


# numbers a title may type: a design target the config sets ("aimed at 0.05"), model sizes, settings
ALLOWED = re.compile(r"aimed at \d*\.?\d+|\d+(\.\d+)?[MB]\b|Qwen2\.5|w_g = \d+")


def test_no_committed_title_types_a_measured_number():
    titles = _titles()
    assert {"mini_sparse_05", "mini_sparse_15", "real_seeds"} <= set(titles)
    typed = {}
    for name, title in titles.items():
        rest = ALLOWED.sub("", re.sub(r"\{[^{}]*\}", "", title))
        if re.search(r"\d*\.\d+|\b\d+ (seeds?|runs?|steps?)\b", rest):
            typed[name] = title
    assert not typed, typed
    assert "{step0:eval/success_rate}" in titles["mini_sparse_15"] and "{seeds}" in titles["real_seeds"]
