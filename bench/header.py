"""The one header of every benchmark JSON (issue #33): what ran, where, and whether other work shared the cores.

Every ``results/bench/*.json`` is written by ``write(path, header, results)``, which puts the header under
the ``"header"`` key in front of the bench's own keys. A bench opens the header with
``with bench_run("react") as header:``, which reads the machine and the load before the bench starts and
samples the processes every ``PERIOD_S`` while it runs; ``write`` may be called inside the block (a bench
that rewrites its file after every part: the header then covers the run so far, ``complete: false``) or
after it (``complete: true``).

Fields (``FIELDS``): ``bench``, ``command``, ``date`` (UTC, ISO 8601, at the start), ``git_sha`` and
``git_dirty`` of the repository the bench code lives in (tracked files outside ``results/`` that differ
from HEAD, so one bench's JSON does not mark the next one dirty; both "unknown" outside git), ``python``,
``torch``, ``cpu_model`` (/proc/cpuinfo), ``torch_cpu_capability`` (the vector kernels torch dispatches
to, e.g. AVX512), ``torch_threads`` (at the end of the run: benches set it), ``cpu_count``, ``load_avg_before`` (the 1, 5 and
15-minute load averages at the start, /proc/loadavg), ``wall_s``, and the CPU used during the run, in
cores (CPU seconds per wall second): ``busy_cores`` (user + nice + system time of the whole machine,
/proc/stat), ``own_cores`` (this process and everything below it, reaped children included, as
/proc/<pid>/stat counts them: utime + stime + cutime + cstime of the live tree, plus what a process that
left the tree, re-parented, used while it was seen), ``other_cores`` = busy - own (other processes:
browsers, editors, a training run), ``other_cpu_s``, and apart, because no process is charged for them,
``irq_cores`` (irq + softirq) and ``steal_cores`` (taken by the hypervisor); ``peak_rss_mib`` of the
tree (sampled); ``loaded`` and ``loaded_rule``.

**The loaded rule** (the only one; ``LOADED_RULE``): a run is ``loaded`` when the processes outside the
bench's process tree used more than ``OTHER_CORES_LIMIT`` = 0.1 core on average during it
(``other_cores``). The load average before the run is recorded but decides nothing: it is smoothed over
minutes and cannot say whose load it was (in ``make bench`` it is mostly the previous bench's own), while
``other_cores`` counts only the others, over exactly the run.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CLK = os.sysconf("SC_CLK_TCK")
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024
PERIOD_S = 0.5  # a sample costs ~4 ms of CPU with ~100 processes: under 1% of a core, counted as the bench's
OTHER_CORES_LIMIT = 0.1
LOADED_RULE = (f"other_cores > {OTHER_CORES_LIMIT:g}: the CPU used by processes outside the bench's process tree "
               "(the kernel's busy time in `/proc/stat` minus the tree's own), per wall second of the run")
# name -> allowed types of every header field (the test of the committed JSON files checks them)
FIELDS: dict[str, tuple[type, ...]] = {
    "bench": (str,), "command": (str,), "date": (str,), "git_sha": (str,), "git_dirty": (bool, str),
    "python": (str,), "torch": (str, type(None)), "cpu_model": (str, type(None)),
    "torch_cpu_capability": (str, type(None)), "torch_threads": (int, type(None)), "cpu_count": (int,),
    "load_avg_before": (list,), "wall_s": (float,), "busy_cores": (float,), "own_cores": (float,),
    "other_cores": (float,), "other_cpu_s": (float,), "irq_cores": (float,), "steal_cores": (float,),
    "peak_rss_mib": (float,), "loaded": (bool,), "loaded_rule": (str,), "complete": (bool,),
}


def loaded_verdict(other_cores: float) -> bool:
    """The loaded rule (module docstring): other processes used more than ``OTHER_CORES_LIMIT`` cores."""
    return other_cores > OTHER_CORES_LIMIT


@dataclass(frozen=True)
class Proc:
    """One process as /proc/<pid>/stat gives it: parent, start time (ticks since boot, which tells a
    reused pid apart), resident memory and CPU ticks of itself and of its reaped children."""

    ppid: int
    start: int
    rss_kib: int
    ticks: int


def read_procs(proc: Path = Path("/proc")) -> dict[int, Proc]:
    """Every process now; those that vanish while being read are left out."""
    out: dict[int, Proc] = {}
    for entry in os.listdir(proc):
        if not entry.isdigit():
            continue
        try:
            fields = (proc / entry / "stat").read_text().rsplit(")", 1)[1].split()
            out[int(entry)] = Proc(ppid=int(fields[1]), start=int(fields[19]), rss_kib=int(fields[21]) * PAGE_KIB,
                                   ticks=sum(int(x) for x in fields[11:15]))  # utime, stime, cutime, cstime
        except (OSError, IndexError, ValueError):
            continue
    return out


def descendants(roots: set[int], procs: dict[int, Proc]) -> set[int]:
    """``roots`` (those alive) and every live process below them."""
    children: dict[int, list[int]] = {}
    for pid, p in procs.items():
        children.setdefault(p.ppid, []).append(pid)
    out: set[int] = set()
    stack = [r for r in roots if r in procs]
    while stack:
        pid = stack.pop()
        if pid not in out:
            out.add(pid)
            stack.extend(children.get(pid, []))
    return out


def read_cpu_ticks(proc: Path = Path("/proc")) -> dict[str, int]:
    """The machine's CPU ticks by kind, from the first line of /proc/stat (guest time is inside user)."""
    names = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
    first = (proc / "stat").read_text().splitlines()[0].split()
    assert first[0] == "cpu", f"unexpected first line of {proc / 'stat'}: {first[:3]}"
    values = [int(x) for x in first[1: 1 + len(names)]] + [0] * len(names)
    return dict(zip(names, values))


def read_loadavg(proc: Path = Path("/proc")) -> list[float]:
    return [float(x) for x in (proc / "loadavg").read_text().split()[:3]]


class Tree:
    """The CPU ticks and memory of a process tree, followed across samples.

    Its CPU is the utime + stime + cutime + cstime of every live process in it: a child's time moves into
    its parent's cutime when reaped, so each tick is counted once. A process seen in the tree that later
    lives outside it (re-parented when its parent exited: a browser's helper, a server) stays the tree's,
    with its own descendants; when it exits with its parent outside the tree (reaped by init), the ticks
    it had at its last sample stay counted, since they reach no cutime of ours.
    """

    def __init__(self, root: int) -> None:
        self.root = root
        self.seen: set[tuple[int, int]] = set()  # (pid, start) of the tree's live processes at the last sample
        self.escaped: dict[tuple[int, int], tuple[int, int]] = {}  # seen, then outside: (ppid, ticks) last seen
        self.peak_kib = 0

    def update(self, procs: dict[int, Proc]) -> int:
        """Account one sample; returns the tree's CPU ticks so far."""
        def alive(key: tuple[int, int]) -> bool:
            return key[0] in procs and procs[key[0]].start == key[1]

        in_root = descendants({self.root}, procs)
        for key in self.seen:
            if alive(key) and key[0] not in in_root:
                self.escaped.setdefault(key, (procs[key[0]].ppid, 0))
        live = descendants({self.root} | {pid for pid, start in self.escaped if alive((pid, start))}, procs)
        self.seen = {(pid, procs[pid].start) for pid in live}
        for key in self.escaped:
            if alive(key):
                self.escaped[key] = (procs[key[0]].ppid, procs[key[0]].ticks)
        self.peak_kib = max(self.peak_kib, sum(procs[p].rss_kib for p in live))
        gone = sum(ticks for key, (ppid, ticks) in self.escaped.items() if not alive(key) and ppid not in live)
        return sum(procs[p].ticks for p in live) + gone


class Header:
    """One bench run's header: the fixed fields at the start, the CPU accounting as the run goes."""

    def __init__(self, bench: str, proc: Path = Path("/proc"), repo: Path = ROOT) -> None:
        self.proc = proc
        self.fields: dict[str, Any] = {"bench": bench, "command": _command(), **_start_fields(proc, repo)}
        self.tree = Tree(os.getpid())
        self._lock = threading.Lock()
        self._own0 = self.tree.update(read_procs(proc))
        self._cpu0 = read_cpu_ticks(proc)
        self._t0 = time.perf_counter()
        self._final: dict[str, Any] | None = None

    def sample(self) -> int:
        with self._lock:
            return self.tree.update(read_procs(self.proc))

    def _during(self) -> dict[str, Any]:
        own = self.sample() - self._own0
        cpu = read_cpu_ticks(self.proc)
        wall = time.perf_counter() - self._t0
        delta = {k: cpu[k] - self._cpu0[k] for k in cpu}
        busy = delta["user"] + delta["nice"] + delta["system"]
        per_core = lambda ticks: ticks / CLK / wall if wall > 0 else 0.0  # noqa: E731
        other = per_core(busy - own)
        return {"wall_s": wall, "busy_cores": per_core(busy), "own_cores": per_core(own), "other_cores": other,
                "other_cpu_s": (busy - own) / CLK, "irq_cores": per_core(delta["irq"] + delta["softirq"]),
                "steal_cores": per_core(delta["steal"]), "peak_rss_mib": self.tree.peak_kib / 1024,
                "torch_threads": _torch_threads(), "loaded": loaded_verdict(other), "loaded_rule": LOADED_RULE}

    def finish(self) -> None:
        self._final = {**self._during(), "complete": True}

    def as_dict(self) -> dict[str, Any]:
        """The header now: final after the ``bench_run`` block, the run so far inside it."""
        during = self._final if self._final is not None else {**self._during(), "complete": False}
        return {**self.fields, **during}


@contextlib.contextmanager
def bench_run(bench: str, proc: Path = Path("/proc"), repo: Path = ROOT) -> Iterator[Header]:
    """The header of the bench run inside the block, sampling the processes every ``PERIOD_S``."""
    header = Header(bench, proc, repo)
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(PERIOD_S):
            header.sample()

    thread = threading.Thread(target=run, name="bench-header", daemon=True)
    thread.start()
    try:
        yield header
    finally:
        stop.set()
        thread.join()
        header.finish()


def write(path: Path | str, header: Header, results: dict[str, Any]) -> dict[str, Any]:
    """Write ``{"header": ..., **results}`` to ``path`` as indented JSON; returns what was written."""
    if "header" in results:
        raise ValueError(f"a bench's results must not have a 'header' key (it is the header's): {path}")
    data = {"header": header.as_dict(), **results}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, default=str) + "\n")
    return data


def _command() -> str:
    """How this process was started: ``python -m bench.react --rounds 1``, or the script's path."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    head = ["-m", spec.name] if spec is not None else sys.argv[:1]
    return shlex.join([Path(sys.executable).name, *head, *sys.argv[1:]])


def _git(repo: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def _start_fields(proc: Path, repo: Path) -> dict[str, Any]:
    sha = _git(repo, "rev-parse", "HEAD")
    status = _git(repo, "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)results") if sha else None
    torch = _torch()
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "git_sha": sha or "unknown", "git_dirty": bool(status) if status is not None else "unknown",
        "python": platform.python_version(), "torch": torch.__version__ if torch else None,
        "cpu_model": _cpu_model(proc), "torch_cpu_capability": torch.backends.cpu.get_cpu_capability() if torch else None,
        "cpu_count": os.cpu_count() or 1, "load_avg_before": read_loadavg(proc),
    }


def _cpu_model(proc: Path) -> str | None:
    try:
        for line in (proc / "cpuinfo").read_text().splitlines():
            if line.split(":")[0].strip() in ("model name", "Processor", "cpu model"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def _torch():
    try:
        import torch
    except ImportError:
        return None
    return torch


def _torch_threads() -> int | None:
    torch = _torch()
    return torch.get_num_threads() if torch else None
