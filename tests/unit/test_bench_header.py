"""bench.header: the one header of every bench JSON, its CPU accounting and its one loaded rule (issue #33)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.header import (
    CLK,
    FIELDS,
    LOADED_RULE,
    OTHER_CORES_LIMIT,
    Header,
    Proc,
    Tree,
    bench_run,
    loaded_verdict,
    write,
)

ROOT = Path(__file__).resolve().parents[2]


def _check_fields(header: dict) -> None:
    missing = sorted(set(FIELDS) - set(header))
    assert not missing, f"header lacks {missing}"
    for name, types in FIELDS.items():
        value = header[name]
        # bool is an int: a count must not be one, and a float field may hold an int only when it is whole
        ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in types)
        assert ok or (float in types and type(value) is int), f"{name} = {value!r} is not {types}"
    assert len(header["load_avg_before"]) == 3
    assert header["loaded"] is loaded_verdict(header["other_cores"]) and header["loaded_rule"] == LOADED_RULE


def test_a_real_run_has_every_field_typed(tmp_path):
    with bench_run("unit") as header:
        inside = header.as_dict()
    final = header.as_dict()
    for h in (inside, final):
        _check_fields(h)
    assert inside["complete"] is False and final["complete"] is True
    assert final["bench"] == "unit" and final["date"].endswith("+00:00") and final["cpu_count"] == os.cpu_count()
    assert final["wall_s"] >= inside["wall_s"] and header.as_dict() == final  # frozen once the block ends
    if Path("/proc/cpuinfo").is_file():
        assert final["cpu_model"]
    data = write(tmp_path / "b.json", header, {"rate_per_s": 1.5})
    on_disk = json.loads((tmp_path / "b.json").read_text())
    assert on_disk == json.loads(json.dumps(data)) and list(on_disk) == ["header", "rate_per_s"]
    with pytest.raises(ValueError, match="'header' key"):
        write(tmp_path / "c.json", header, {"header": {}})


def test_git_fields(tmp_path):
    outside = Header("unit", repo=tmp_path).as_dict()
    assert outside["git_sha"] == "unknown" and outside["git_dirty"] == "unknown"
    git = lambda *a: subprocess.run(["git", "-C", str(tmp_path), *a], check=True, capture_output=True)  # noqa: E731
    git("init", "-q")
    (tmp_path / "results").mkdir()
    (tmp_path / "code.py").write_text("x = 1\n")
    (tmp_path / "results" / "b.json").write_text("{}\n")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c")
    sha = subprocess.run(["git", "-C", str(tmp_path), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    (tmp_path / "results" / "b.json").write_text('{"new": 1}\n')  # a bench's own output: not dirty
    clean = Header("unit", repo=tmp_path).as_dict()
    assert clean["git_sha"] == sha and clean["git_dirty"] is False
    (tmp_path / "code.py").write_text("x = 2\n")
    assert Header("unit", repo=tmp_path).as_dict()["git_dirty"] is True


def _fake_proc(root: Path, cpu: tuple[int, ...], procs: dict[int, tuple[int, int, int, int]]) -> None:
    """A /proc with ``stat`` (user nice system idle iowait irq softirq steal), loadavg, cpuinfo and
    ``procs``: pid -> (ppid, utime+stime ticks, cutime+cstime ticks, start)."""
    root.mkdir(exist_ok=True)
    (root / "stat").write_text("cpu  " + " ".join(map(str, cpu)) + " 0 0\ncpu0 0 0 0 0\n")
    (root / "loadavg").write_text("0.50 0.40 0.30 1/100 999\n")
    (root / "cpuinfo").write_text("processor\t: 0\nmodel name\t: Fake CPU 9000\n")
    for old in root.iterdir():
        if old.name.isdigit() and int(old.name) not in procs:
            (old / "stat").unlink()
            old.rmdir()
    for pid, (ppid, own, children, start) in procs.items():
        fields = ["S", ppid, *[0] * 9, own, 0, children, 0, *[0] * 4, start, 0, 25]
        (root / str(pid)).mkdir(exist_ok=True)
        (root / str(pid) / "stat").write_text(f"{pid} (x y) " + " ".join(map(str, fields)) + "\n")


def test_other_processes_cpu_from_a_fake_proc(tmp_path):
    me, proc = os.getpid(), tmp_path / "proc"
    _fake_proc(proc, (1000, 0, 500, 9000, 0, 0, 0, 0), {1: (0, 0, 0, 1), me: (1, 300, 0, 50), 4000: (1, 10_000, 0, 2)})
    header = Header("fake", proc=proc, repo=tmp_path)
    assert header.fields["cpu_model"] == "Fake CPU 9000" and header.fields["load_avg_before"] == [0.5, 0.4, 0.3]
    # during the run: the machine is busy 1000 ticks more (user 600, nice 100, system 300), irq 20, steal 30;
    # we use 400 (200 ourselves, 200 in a child we reaped); the other 600 are others'
    _fake_proc(proc, (1600, 100, 800, 9100, 0, 10, 10, 30), {1: (0, 0, 0, 1), me: (1, 500, 200, 50), 4000: (1, 10_600, 0, 2)})
    time.sleep(0.02)
    header.finish()
    h = header.as_dict()
    assert h["other_cpu_s"] == pytest.approx(600 / CLK)
    assert h["other_cores"] == pytest.approx(600 / CLK / h["wall_s"]) and h["loaded"] is True
    assert h["own_cores"] == pytest.approx(400 / CLK / h["wall_s"])
    assert h["busy_cores"] == pytest.approx(1000 / CLK / h["wall_s"])
    assert h["irq_cores"] == pytest.approx(20 / CLK / h["wall_s"]) and h["steal_cores"] == pytest.approx(30 / CLK / h["wall_s"])


def test_a_busy_child_is_the_bench_s_own_cpu():
    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.4: pass\n"
    with bench_run("unit") as header:
        t0 = sum(os.times()[:4])
        subprocess.run([sys.executable, "-c", burn], check=True, timeout=600)
        used = sum(os.times()[:4]) - t0  # this process and its reaped children, as the kernel counts them
    h = header.as_dict()
    own_s = h["own_cores"] * h["wall_s"]
    assert used >= 0.4 and own_s >= 0.4 - 0.02
    assert abs(own_s - used) < 0.1, (own_s, used)  # what header init and the sampler thread use, at most
    assert h["busy_cores"] * h["wall_s"] >= own_s - 0.05  # the machine's busy time holds ours


def test_the_tree_keeps_re_parented_processes_and_ignores_others():
    # pid -> Proc(ppid, start, rss KiB, ticks): the bench is 100, its worker 101, the worker's server 102
    tree = Tree(100)
    first = {1: Proc(0, 1, 10, 0), 100: Proc(1, 5, 1000, 50), 101: Proc(100, 6, 2000, 10),
             102: Proc(101, 7, 500, 5), 200: Proc(1, 2, 99, 1000)}
    assert tree.update(first) == 65 and tree.peak_kib == 3500
    # 101 exits, reaped by 100 (its ticks move into 100's); 102 is re-parented to init and stays ours;
    # 200 and the newcomer 300 are others'
    second = {1: Proc(0, 1, 10, 0), 100: Proc(1, 5, 1000, 400), 102: Proc(1, 7, 800, 900),
              200: Proc(1, 2, 99, 1030), 300: Proc(1, 8, 5, 7)}
    assert tree.update(second) == 400 + 900 and tree.peak_kib == 3500
    # 102 exits, reaped by init: its last ticks stay ours; a new process reusing pid 102 is not
    third = {1: Proc(0, 1, 10, 0), 100: Proc(1, 5, 1000, 450), 102: Proc(1, 99, 5, 3), 200: Proc(1, 2, 99, 2000)}
    assert tree.update(third) == 450 + 900
    # a child forked by the re-parented server while it lived was ours too
    tree2 = Tree(100)
    tree2.update({100: Proc(1, 5, 1, 0), 102: Proc(100, 7, 1, 0)})
    tree2.update({100: Proc(1, 5, 1, 0), 102: Proc(1, 7, 1, 10), 103: Proc(102, 9, 1, 20)})
    assert tree2.update({100: Proc(1, 5, 1, 0), 102: Proc(1, 7, 1, 10), 103: Proc(102, 9, 1, 25)}) == 35


def test_the_loaded_rule_on_hand_made_inputs():
    assert loaded_verdict(0.0) is False and loaded_verdict(OTHER_CORES_LIMIT) is False
    assert loaded_verdict(OTHER_CORES_LIMIT + 1e-9) is True and loaded_verdict(1.7) is True
    assert loaded_verdict(-0.01) is False  # measurement noise below zero is quiet
    assert f"other_cores > {OTHER_CORES_LIMIT:g}" in LOADED_RULE and "load" not in LOADED_RULE.split(":")[0]


@pytest.mark.parametrize("path", sorted((ROOT / "results" / "bench").glob("*.json")), ids=lambda p: p.name)
def test_every_committed_bench_json_has_the_header(path):
    data = json.loads(path.read_text())
    assert "header" in data, f"{path.name} has no header: re-run its bench (bench/README.md)"
    _check_fields(data["header"])
    assert data["header"]["complete"] is True, f"{path.name}: the bench did not finish"
