"""bot_repro.cache: entries built once per machine, atomically, and never loaded half-built."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot_repro import cache
from bot_repro.cache import COMPLETE, build_once, is_complete
from tests.conftest import REPO

# A builder that is slow enough for the two processes to overlap, counts its calls in a log that
# survives the entry, and writes a file whose content shows whether it was read half-written.
RACER = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    from bot_repro.cache import build_once
    entry, log = Path(sys.argv[1]), Path(sys.argv[2])
    def build(folder):
        with open(log, "a") as f:
            f.write(f"{os.getpid()}\\n")
        (folder / "part1").write_text("a" * 1000)
        time.sleep(1.0)
        (folder / "part2").write_text("b" * 1000)
    out = build_once(entry, build, meta={"v": 1})
    assert (out / "part1").read_text() == "a" * 1000 and (out / "part2").read_text() == "b" * 1000
    print("ok", os.getpid())
    """
)


def _racers(tmp_path: Path, envs: list[dict]) -> list[subprocess.CompletedProcess]:
    entry, log = tmp_path / "cache" / "entry", tmp_path / "builds.log"
    import os

    procs = [
        subprocess.Popen([sys.executable, "-c", RACER, str(entry), str(log)], cwd=REPO, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(REPO), **e})
        for e in envs
    ]  # fmt: skip
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=120)
        out.append(subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr))
    return out


@pytest.mark.parametrize(
    "envs",
    [
        [{}, {}],  # two independent jobs (a sweep): they take turns on the lock
        [{"LOCAL_RANK": "1", "WORLD_SIZE": "2"}, {"LOCAL_RANK": "0", "WORLD_SIZE": "2"}],  # rank 1 waits for rank 0
    ],
    ids=["two_jobs", "two_ranks"],
)
def test_two_processes_racing_on_an_empty_cache_build_once(tmp_path, envs):
    results = _racers(tmp_path, envs)
    for r in results:
        assert r.returncode == 0 and r.stdout.startswith("ok"), r.stderr
    builders = (tmp_path / "builds.log").read_text().split()
    assert len(builders) == 1, builders
    if "LOCAL_RANK" in envs[1]:  # the local main process built it
        assert builders[0] == results[1].stdout.split()[1]
    entry = tmp_path / "cache" / "entry"
    assert is_complete(entry, {"v": 1})
    assert sorted(p.name for p in entry.iterdir()) == sorted([COMPLETE, "part1", "part2"])
    assert not list(entry.parent.glob(".entry.tmp-*")), "temporary folders left behind"


def test_a_truncated_entry_from_a_killed_build_is_rebuilt_not_loaded(tmp_path):
    entry = tmp_path / "entry"
    entry.mkdir()
    (entry / "part1").write_text("a" * 10)  # what a killed build left: no part2, no marker
    stale = tmp_path / ".entry.tmp-dead"
    stale.mkdir()
    calls = []

    def build(folder):
        calls.append(folder)
        (folder / "part1").write_text("a" * 1000)
        (folder / "part2").write_text("b" * 1000)

    assert build_once(entry, build) == entry
    assert len(calls) == 1 and calls[0] != entry  # built aside, then renamed into place
    assert (entry / "part2").read_text() == "b" * 1000 and (entry / "part1").read_text() == "a" * 1000
    assert not stale.exists()
    assert build_once(entry, build) == entry and len(calls) == 1  # complete now: loaded, not rebuilt


def test_other_metadata_rebuilds_and_a_failed_build_leaves_nothing(tmp_path):
    entry = tmp_path / "entry"
    build_once(entry, lambda f: (f / "x").write_text("1"), meta={"v": 1})
    assert json.loads((entry / COMPLETE).read_text()) == {"v": 1}
    build_once(entry, lambda f: (f / "x").write_text("2"), meta={"v": 2})
    assert (entry / "x").read_text() == "2" and is_complete(entry, {"v": 2}) and not is_complete(entry, {"v": 1})

    def broken(folder):
        (folder / "x").write_text("half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        build_once(tmp_path / "other", broken)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")) == ["entry"]


def test_a_waiting_rank_names_the_entry_when_its_main_never_builds(tmp_path, monkeypatch):
    monkeypatch.setenv("LOCAL_RANK", "1")
    monkeypatch.setenv("WORLD_SIZE", "2")
    with pytest.raises(TimeoutError, match=r"local rank 1 waited .* cache entry .*never_built.*LOCAL_RANK=0"):
        build_once(tmp_path / "never_built", lambda f: None, wait_s=0.3)
    assert not (tmp_path / "never_built").exists()


def test_the_issue_s_poisoned_tiny_model_folder_is_rebuilt(tmp_path):
    """Issue #22: a tiny-model folder left without config.json made every later run fail."""
    from transformers import AutoConfig

    from bot_repro.models.tiny import build_tiny

    poisoned = tmp_path / "tiny" / "qwen2-abc"
    poisoned.mkdir(parents=True)
    (poisoned / "model.safetensors").write_bytes(b"\0" * 16)
    out = build_tiny("qwen2", poisoned, vocab_size=300, hidden_size=16, num_layers=1)
    assert AutoConfig.from_pretrained(out).model_type == "qwen2"


def test_cache_root_follows_bot_repro_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("BOT_REPRO_CACHE", str(tmp_path))
    assert cache.cache_root() == tmp_path
    monkeypatch.delenv("BOT_REPRO_CACHE")
    assert cache.cache_root() == Path.home() / ".cache" / "bot_repro"
