"""The command surface a new user meets first: ``make help`` (the default goal) lists every target of the
Makefile with its one-line description, every target that runs an experiment goes through
``python -m bot_repro.experiment``, and that command says what it takes."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from bot_repro.experiment.cli import main as experiment_main
from tests.conftest import REPO

MAKEFILES = ["Makefile"]
# a rule line (`target: prereqs`), not a variable (`X := y`, `X ?= y`) nor a special target (.PHONY)
RULE = re.compile(r"^([A-Za-z0-9%_-][A-Za-z0-9%._-]*)\s*:(?!=)")


def _targets() -> list[str]:
    """Every named target of the Makefiles, read from the files themselves, `%` shown as N."""
    names = []
    for name in MAKEFILES:
        for line in (REPO / name).read_text().splitlines():
            if m := RULE.match(line):
                names.append(m.group(1).replace("%", "N"))
    return names


def _make(*args: str) -> subprocess.CompletedProcess:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    return subprocess.run(["make", "-s", "--no-print-directory", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=60)


def test_make_help_lists_every_target_with_a_description():
    out = _make("help")
    assert out.returncode == 0, out.stderr
    listed = {}
    for line in out.stdout.splitlines():
        target, _, text = line.strip().partition(" ")
        listed[target] = text.strip()
    targets = _targets()
    assert {"help", "install", "test", "demo", "reproduce-figure-N"} <= set(targets)  # the parser finds rules
    missing = [t for t in targets if t not in listed]
    assert not missing, f"targets without a '## description' line above their rule: {missing}"
    assert all(listed[t] for t in targets), listed
    assert len(out.stdout.splitlines()) == len(targets)  # one line each, nothing listed twice


def test_bare_make_prints_help_and_installs_nothing():
    bare, dry = _make(), _make("-n")
    assert bare.returncode == 0, bare.stderr
    assert bare.stdout == _make("help").stdout
    assert "pip" not in dry.stdout and "venv" not in dry.stdout  # the default goal runs no install step


@pytest.mark.parametrize("target,command", [
    ("reproduce-figure-1", "run fig1_compile_rate"), ("reproduce-figure-10", "run fig10_vlm_line_reward"),
    ("figure-2", "report fig2_win_rate"), ("figures", "report figures"), ("demo", "run mini_demo"),
    ("study", "run study"), ("real-demo", "run real_small"), ("publish NAME=mini_demo", "publish mini_demo"),
])
def test_every_experiment_target_goes_through_the_one_command(target, command):
    out = _make("-n", *target.split(), "ARGS=debug=smoke", "CLUSTER=slurm", "VENV=/nonexistent-venv")
    assert out.returncode == 0, out.stderr
    line = next(x for x in out.stdout.splitlines() if "-m bot_repro.experiment " in x)
    assert f"-m bot_repro.experiment {command}" in line, line
    if not target.startswith(("figure", "publish")):
        assert line.split()[-2:] == ["cluster=slurm", "debug=smoke"]  # CLUSTER, then ARGS: later wins


def test_experiment_command_usage_and_bad_names(capsys):
    with pytest.raises(SystemExit) as done:
        experiment_main(["--help"])
    assert done.value.code == 0
    usage = capsys.readouterr().out
    assert all(c in usage for c in ("run NAME", "report NAME", "publish NAME", "list"))
    assert experiment_main(["run", "fig11_nothing"]) == 2
    assert "unknown experiment 'fig11_nothing'; known: fig1_compile_rate" in capsys.readouterr().err
    assert experiment_main(["report"]) == 2
    assert "needs an experiment NAME" in capsys.readouterr().err
    assert experiment_main(["list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0].split()[:3] == ["1", "fig1_compile_rate", "C1"] and any("real_small" in x for x in listed)
