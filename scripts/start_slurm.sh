#!/usr/bin/env bash
# Start a single-node Slurm (Debian's slurm-wlm 22.05 + munge) on this machine, for tests and CI.
#
# Idempotent: installs the packages only when missing (apt-get update only if the install needs it),
# keeps an existing munge key, rewrites /etc/slurm/slurm.conf only when its content would change,
# restarts only the daemons that are down (or all Slurm daemons when the config changed), and exits 0
# as soon as `sinfo` shows this node usable. Must run as root: it installs packages and starts
# munged (as the munge user), slurmctld and slurmd (as root). Containers have no systemd and often no
# cgroup delegation, so the config uses proctrack/linuxproc and task/none, and no cgroup plugin.
#
# The config is ours only if it carries the marker line below; a foreign /etc/slurm/slurm.conf is
# never overwritten unless BOT_REPRO_SLURM_FORCE=1. Stop everything with scripts/stop_slurm.sh.
#
# Environment: BOT_REPRO_SLURM_WAIT_S (default 60): how long to wait for the node to become idle.
set -euo pipefail

MARKER="# bot_repro single-node test cluster (written by scripts/start_slurm.sh)"
CONF=/etc/slurm/slurm.conf
KEY=/etc/munge/munge.key
LOGDIR=/var/log/slurm
STATE=/run/bot_repro_slurm  # one marker file per daemon this script started (read by stop_slurm.sh)
WAIT_S="${BOT_REPRO_SLURM_WAIT_S:-60}"
HOST="$(hostname -s)"

die() { echo "start_slurm.sh: error: $*" >&2; exit 1; }
say() { echo "start_slurm.sh: $*"; }

[ "$(id -u)" -eq 0 ] || die "must run as root (it installs slurm-wlm/munge and starts munged, slurmctld, slurmd); run: sudo bash $0"
[ -n "$HOST" ] || die "hostname -s is empty: Slurm needs a node name"

# ---- packages -------------------------------------------------------------------------------------
PKGS=(slurm-wlm munge)  # slurm-wlm pulls slurmctld, slurmd and slurm-client (sinfo, sbatch, scontrol)
missing() { for c in slurmctld slurmd sinfo sbatch scontrol munged munge unmunge; do command -v "$c" >/dev/null || return 0; done; return 1; }
if missing; then
    export DEBIAN_FRONTEND=noninteractive
    say "installing ${PKGS[*]} (Debian packages)"
    # Recommends would pull a mail server and docs; the daemons need none of them.
    if ! apt-get install -y --no-install-recommends "${PKGS[@]}" >/tmp/bot_repro_slurm_apt.log 2>&1; then
        say "install failed with the current package lists; running apt-get update once"
        apt-get update >>/tmp/bot_repro_slurm_apt.log 2>&1 || die "apt-get update failed (log: /tmp/bot_repro_slurm_apt.log)"
        apt-get install -y --no-install-recommends "${PKGS[@]}" >>/tmp/bot_repro_slurm_apt.log 2>&1 \
            || die "apt-get install ${PKGS[*]} failed (log: /tmp/bot_repro_slurm_apt.log)"
    fi
    missing && die "packages installed but a command is still missing (need slurmctld slurmd sinfo sbatch scontrol munged)"
fi

# ---- helpers --------------------------------------------------------------------------------------
runs() {  # runs <pid> <comm>: the pid is a live (not zombie) process of that program
    local stat
    [ -r "/proc/$1/stat" ] && [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] || return 1
    # A killed daemon whose parent has not reaped it yet still has /proc entries; its state is Z.
    stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
    stat="${stat##*) }"
    [ "${stat%% *}" != Z ]
}
alive() {  # alive <pidfile> <comm>: the pid file names a running daemon of that program
    [ -s "$1" ] && runs "$(cat "$1")" "$2"
}
stop_pidfile() {  # stop_pidfile <pidfile> <comm>: TERM the daemon named by the pid file, wait for it
    local pid
    alive "$1" "$2" || return 0
    pid="$(cat "$1")"
    kill -TERM "$pid"
    for _ in $(seq 1 50); do runs "$pid" "$2" || return 0; sleep 0.2; done
    die "$2 (pid $pid) did not stop within 10 s"
}
mkdir -p "$STATE"

# ---- munge ----------------------------------------------------------------------------------------
if [ ! -s "$KEY" ]; then
    say "creating munge key $KEY"
    install -d -o munge -g munge -m 0700 /etc/munge
    mungekey --create --keyfile="$KEY" 2>/dev/null || dd if=/dev/urandom of="$KEY" bs=1024 count=1 status=none
fi
chown munge:munge "$KEY"
chmod 0400 "$KEY"
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    say "starting munged"
    install -d -o munge -g munge -m 0755 /run/munge
    install -d -o munge -g munge -m 0700 /var/log/munge /var/lib/munge
    # munged refuses to run as root (key file ownership checks); the Debian unit runs it as munge too.
    runuser -u munge -- /usr/sbin/munged || die "munged failed to start; see /var/log/munge/munged.log"
    touch "$STATE/munged"
    for _ in $(seq 1 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.2; done
    munge -n | unmunge >/dev/null || die "munge credentials do not round-trip; see /var/log/munge/munged.log"
fi

# ---- slurm.conf -----------------------------------------------------------------------------------
if [ -f "$CONF" ] && ! grep -qxF "$MARKER" "$CONF"; then
    [ "${BOT_REPRO_SLURM_FORCE:-0}" = 1 ] \
        || die "$CONF exists and was not written by this script; set BOT_REPRO_SLURM_FORCE=1 to replace it (a copy is kept as $CONF.bak)"
    cp "$CONF" "$CONF.bak"
fi
CPUS="$(nproc)"
# RealMemory in MB: 90% of what is available now. Available memory drifts between calls (other
# processes), so keep the RealMemory of our existing config while the machine has that much in total:
# a second call then neither rewrites the config nor restarts the daemons. Without cgroups Slurm does
# not enforce memory; it only bounds how many jobs run at once.
AVAIL_KB="$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)"
TOTAL_KB="$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)"
MEM_MB=$(( AVAIL_KB * 9 / 10 / 1024 ))
OLD_MEM="$( [ -f "$CONF" ] && grep -qxF "$MARKER" "$CONF" && sed -n 's/^NodeName=.* RealMemory=\([0-9]*\) .*/\1/p' "$CONF" || true)"
if [ -n "$OLD_MEM" ] && [ "$OLD_MEM" -le $(( TOTAL_KB / 1024 )) ]; then
    MEM_MB="$OLD_MEM"
fi
[ "$MEM_MB" -ge 1024 ] || die "only $((AVAIL_KB / 1024)) MB memory available; the test cluster needs at least ~1.2 GB"

NEW_CONF="$(cat <<EOF
$MARKER
# Host $HOST: $CPUS CPUs, RealMemory $MEM_MB MB (90% of the memory available when first written).
ClusterName=botrepro
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
# No cgroups in containers: track processes through /proc and bind nothing.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
# No slurmdbd: completed jobs go to a text log that \`sacct -c\` reads.
JobCompType=jobcomp/filetxt
JobCompLoc=$LOGDIR/jobcomp.log
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
# Hardware detection inside VMs and containers disagrees with nproc; trust the values below.
SlurmdParameters=config_overrides
ReturnToService=2
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$LOGDIR/slurmctld.log
SlurmdLogFile=$LOGDIR/slurmd.log
KillWait=5
InactiveLimit=0
MinJobAge=300
# Jobs that give no --mem share the node instead of taking all of its memory.
DefMemPerCPU=$(( MEM_MB / CPUS ))
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM_MB State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
)"

CHANGED=0
if [ ! -f "$CONF" ] || [ "$(cat "$CONF")" != "$NEW_CONF" ]; then
    say "writing $CONF"
    install -d /etc/slurm
    printf '%s\n' "$NEW_CONF" >"$CONF"
    CHANGED=1
fi
install -d -m 0755 /var/spool/slurmctld /var/spool/slurmd "$LOGDIR"

# ---- daemons --------------------------------------------------------------------------------------
if [ "$CHANGED" = 1 ]; then
    # A new node or partition definition needs both daemons restarted (scontrol reconfigure is not enough).
    stop_pidfile /run/slurmd.pid slurmd
    stop_pidfile /run/slurmctld.pid slurmctld
fi
if ! alive /run/slurmctld.pid slurmctld; then
    say "starting slurmctld"
    slurmctld || die "slurmctld failed to start; last log lines:$(echo; tail -n 20 "$LOGDIR/slurmctld.log" 2>/dev/null)"
    touch "$STATE/slurmctld"
fi
if ! alive /run/slurmd.pid slurmd; then
    say "starting slurmd"
    slurmd || die "slurmd failed to start; last log lines:$(echo; tail -n 20 "$LOGDIR/slurmd.log" 2>/dev/null)"
    touch "$STATE/slurmd"
fi

# ---- wait for the node ----------------------------------------------------------------------------
resumed=0
deadline=$(( $(date +%s) + WAIT_S ))
while :; do
    state="$(sinfo -h -N -n "$HOST" -o '%T' 2>/dev/null | head -n 1 || true)"
    case "$state" in
        idle|mixed|allocated|completing)
            say "node $HOST is $state in partition debug ($CPUS CPUs, $MEM_MB MB)"
            exit 0 ;;
        down*|drain*|fail*)
            # Left over from an earlier run of the daemons (e.g. "Node unexpectedly rebooted"): resume once.
            if [ "$resumed" = 0 ]; then
                say "node $HOST is $state ($(sinfo -h -N -n "$HOST" -o '%E')); resuming it"
                scontrol update NodeName="$HOST" State=RESUME || true
                resumed=1
            fi ;;
    esac
    if [ "$(date +%s)" -ge "$deadline" ]; then
        echo "start_slurm.sh: error: node $HOST not usable after ${WAIT_S}s (state: '${state:-no answer from slurmctld}')" >&2
        sinfo -R >&2 || true
        echo "--- $LOGDIR/slurmctld.log (tail)" >&2; tail -n 20 "$LOGDIR/slurmctld.log" >&2 || true
        echo "--- $LOGDIR/slurmd.log (tail)" >&2; tail -n 20 "$LOGDIR/slurmd.log" >&2 || true
        exit 1
    fi
    sleep 1
done
