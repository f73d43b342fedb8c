#!/usr/bin/env bash
# Stop the single-node Slurm that scripts/start_slurm.sh started: slurmd, slurmctld, then munged.
#
# Only daemons that start_slurm.sh marked as started by it (files under /run/bot_repro_slurm) are
# signalled, through the pid in their own pid file and only if that pid still runs the expected
# program, so a munged or Slurm that the script did not start (a real cluster's) is left alone.
# Queued and running test jobs are lost with slurmd; slurmctld keeps its state in /var/spool.
set -euo pipefail

STATE=/run/bot_repro_slurm

die() { echo "stop_slurm.sh: error: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "must run as root (the daemons run as root and munge)"
[ -d "$STATE" ] || { echo "stop_slurm.sh: nothing to stop (no $STATE: start_slurm.sh started no daemon here)"; exit 0; }

runs() {  # runs <pid> <comm>: the pid is a live (not zombie) process of that program
    local stat
    [ -r "/proc/$1/stat" ] && [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] || return 1
    stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
    stat="${stat##*) }"
    [ "${stat%% *}" != Z ]  # a zombie has exited; only its parent has not reaped it yet
}

stop() {  # stop <name> <pidfile>: TERM the daemon if start_slurm.sh started it and it still runs
    local pid
    [ -e "$STATE/$1" ] || return 0
    if [ -s "$2" ]; then
        pid="$(cat "$2")"
        if runs "$pid" "$1"; then
            echo "stop_slurm.sh: stopping $1 (pid $pid)"
            kill -TERM "$pid"
            for _ in $(seq 1 50); do runs "$pid" "$1" || break; sleep 0.2; done
            runs "$pid" "$1" && die "$1 (pid $pid) did not stop within 10 s"
        fi
    fi
    rm -f "$STATE/$1"
}

stop slurmd /run/slurmd.pid
stop slurmctld /run/slurmctld.pid
stop munged /run/munge/munged.pid
rmdir "$STATE" 2>/dev/null || true
