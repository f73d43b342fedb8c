"""A run folder has one owner (issue #53): ``run.lock`` refuses a second holder naming the live PIDs,
a launcher's shared lock stays held while its writer lives, and a lock whose holders died is taken
over, naming them. Holders are real processes (``flock`` belongs to its process), each waited on
until it says it holds the lock. Hydra's side: a live run's folder is refused before Hydra writes into it,
and a refused run removes only the folders its Hydra made."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from bot_repro.run_folder import RunFolderBusy, RunLock, check_free, process_alive
from bot_repro.run_folder.lock import LAUNCHER, RANK0, RUN
from bot_repro.run_folder.schema import LOCK
from tests.conftest import REPO

HOLD = """
import sys
from pathlib import Path
from bot_repro.run_folder.lock import RunLock
run_dir, role = Path(sys.argv[1]), sys.argv[2]
lock = RunLock.join(run_dir, role) if role == "rank 0" else RunLock.take(run_dir, role)
if role == "launcher":
    lock.share()
print("held", flush=True)
sys.stdin.read()
"""


def _holder(run_dir, role: str) -> subprocess.Popen:
    """A process holding ``run_dir``'s lock as ``role`` (``rank 0`` joins a launcher's) until killed."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(run_dir), role], cwd=REPO, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()  # blocks until it holds the lock or exits
    assert line == "held\n", proc.communicate()[1][-2000:]
    return proc


def _kill(proc: subprocess.Popen) -> None:
    proc.kill()
    proc.wait()


def test_a_held_lock_refuses_a_second_run_naming_its_pid_and_a_dead_ones_is_taken_over(tmp_path):
    run_dir = tmp_path / "run"
    holder = _holder(run_dir, RUN)
    try:
        for attempt in (lambda: RunLock.take(run_dir, RUN), lambda: check_free(run_dir)):
            with pytest.raises(RunFolderBusy, match=rf"PID {holder.pid} \(run\) on .* since .*kill {holder.pid}\)"):
                attempt()
    finally:
        _kill(holder)  # SIGKILL: the lock goes with the process, its record stays
    assert not process_alive(holder.pid)
    check_free(run_dir)  # stale: free
    lock = RunLock.take(run_dir, RUN)
    assert [r["pid"] for r in lock.stale] == [holder.pid]
    assert lock.taken_over().endswith(f"taking over from PID {holder.pid} (run) on " +
                                      f"{lock.stale[0]['host']} since {lock.stale[0]['since']}, which is gone")
    assert [json.loads(x)["role"] for x in (run_dir / LOCK).read_text().splitlines()] == [RUN]
    lock.release()
    assert (run_dir / LOCK).read_text() == ""  # released cleanly: the next run has nothing to take over
    again = RunLock.take(run_dir, RUN)
    assert again.stale == [] and again.taken_over() == ""
    again.release()


def test_a_launchers_lock_stays_held_while_its_writer_lives(tmp_path):
    run_dir = tmp_path / "run"
    launcher = _holder(run_dir, LAUNCHER)
    writer = _holder(run_dir, RANK0)  # joins the launcher's shared lock
    try:
        with pytest.raises(RunFolderBusy, match=rf"PID {launcher.pid} \(launcher\).*PID {writer.pid} \(rank 0\)"):
            RunLock.take(run_dir, RUN)
        _kill(launcher)
        with pytest.raises(RunFolderBusy) as busy:  # the writer still holds it: named, the dead launcher not
            RunLock.take(run_dir, RUN)
        assert f"PID {writer.pid} (rank 0)" in str(busy.value) and f"PID {launcher.pid}" not in str(busy.value)
    finally:
        _kill(launcher)
        _kill(writer)
    lock = RunLock.take(run_dir, RUN)
    assert [(r["pid"], r["role"]) for r in lock.stale] == [(launcher.pid, LAUNCHER), (writer.pid, RANK0)]
    lock.release()


def test_a_run_of_this_process_holds_against_another_take(tmp_path):
    """flock is per open file: a second take in the same process is refused as well (in-process runs)."""
    lock = RunLock.take(tmp_path / "run", RUN)
    with pytest.raises(RunFolderBusy):
        RunLock.take(tmp_path / "run", RUN)
    lock.release()
    RunLock.take(tmp_path / "run", RUN).release()


def _hydra_config(run_dir, resume=False):
    from omegaconf import OmegaConf

    return OmegaConf.create({"hydra": {"run": {"dir": str(run_dir)}}, "resume": resume})


def test_a_refused_run_removes_only_the_folders_its_hydra_made(tmp_path):
    from bot_repro.trainer.run_dir import FolderGuard, discard_new_folder

    (tmp_path / "mine").mkdir()  # the user's, before the run
    run_dir = tmp_path / "mine" / "a" / "b" / "run"
    FolderGuard().on_run_start(_hydra_config(run_dir))  # before Hydra makes anything
    (run_dir / ".hydra").mkdir(parents=True)  # what Hydra then makes
    discard_new_folder(run_dir)
    assert not (tmp_path / "mine" / "a").exists() and (tmp_path / "mine").is_dir()

    old = tmp_path / "old"  # a folder from before, holding only Hydra's files: not this run's to remove
    (old / ".hydra").mkdir(parents=True)
    FolderGuard().on_run_start(_hydra_config(old, resume=True))
    discard_new_folder(old)
    assert (old / ".hydra").is_dir()


def test_a_live_runs_folder_is_refused_before_hydra_writes_there(tmp_path, capsys):
    from bot_repro.trainer.run_dir import FolderGuard

    lock = RunLock.take(tmp_path / "run", RUN)
    try:
        with pytest.raises(SystemExit) as exit_:
            FolderGuard().on_run_start(_hydra_config(tmp_path / "run", resume=True))
    finally:
        lock.release()
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"run folder in use: {tmp_path / 'run'} is in use by a run that is still alive") and \
        f"PID {os.getpid()} (run)" in err
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == [LOCK]


def test_a_forked_child_does_not_keep_the_lock(tmp_path):
    """A multiprocessing worker forked by the run shares its descriptors: it must not hold the folder once the
    run's own process is gone (the lock would look alive, naming dead PIDs)."""
    holder = subprocess.Popen([sys.executable, "-c", """
import os, signal, sys, time
from pathlib import Path
from bot_repro.run_folder.lock import RunLock
lock = RunLock.take(Path(sys.argv[1]), "run")
ready_r, ready_w = os.pipe()
child = os.fork()
if child == 0:  # the fork hooks have run by the time the child's own code does
    os.write(ready_w, b"1")
    time.sleep(600)  # a worker that outlives its run
    os._exit(0)
os.read(ready_r, 1)  # the child is past its fork hooks (else the test would race the child's first slice)
print(child, flush=True)
sys.stdin.read()
""", str(tmp_path / "run")], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    child = int(holder.stdout.readline())
    try:
        with pytest.raises(RunFolderBusy):
            check_free(tmp_path / "run")
        _kill(holder)
        assert process_alive(child)
        RunLock.take(tmp_path / "run", RUN).release()  # free, though the forked child lives on
    finally:
        _kill(holder)
        os.kill(child, signal.SIGKILL)
