"""The command surface a new user meets first: ``make help`` (the default goal) lists every target of the
Makefiles with its one-line description, and ``python -m bot_repro.study`` says overrides are optional."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from bot_repro import study
from tests.conftest import REPO

MAKEFILES = ["Makefile", "Makefile.figures"]
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


def test_study_usage_says_overrides_are_optional(capsys):
    with pytest.raises(SystemExit) as done:
        study.main(["--help"])
    assert done.value.code == 0
    usage = capsys.readouterr().out
    assert "overrides are optional" in usage and "[override ...]" in usage
    with pytest.raises(SystemExit):
        study.main([])  # no command: the error names the command only, not the overrides
    err = capsys.readouterr().err
    assert "required: command" in err and "override" not in err.split("error:")[1]
