#!/usr/bin/env bash
# Scale-out on a real Slurm: starts a one-node cluster on loopback, submits docs/scale-out/slurm-array.sbatch
# as an array job of 2 tasks plus its dependent merge job (--dependency=afterok), waits, and checks that the
# merged catalogue is byte for byte what one `render --all` writes. Everything the cluster uses (munge key
# and socket, slurm.conf, state, spool, logs, pid files, the jobs' folder) lives in one temporary folder;
# the daemons are stopped and the folder removed on every way out.
#
#   Tests/ScaleOut/slurm-test.sh [RENDER OPTIONS…]
#
# Needs root (the daemons), Debian's slurmctld, slurmd, slurm-client and munge (installed when missing),
# and a built tool: $SMOKESCREEN_BIN, or .build/release/smokescreen, or .build/debug/smokescreen.
# RENDER OPTIONS go to every `render` (default: a small catalogue, the four nav-p* transitions at @1x and
# 20 fps, so the test takes seconds, not minutes). SMOKESCREEN_SLURM_TIMEOUT: seconds to wait for the jobs
# (default 600).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ "$#" -eq 0 ]; then set -- --scale 1 --fps 20 --match 'nav-p*'; fi
timeout=${SMOKESCREEN_SLURM_TIMEOUT:-600}
say() { echo "slurm-test: $*"; }
fail() { echo "slurm-test: FAILED: $*" >&2; exit 1; }

tool=${SMOKESCREEN_BIN:-}
if [ -z "$tool" ]; then
    for candidate in "$root/.build/release/smokescreen" "$root/.build/debug/smokescreen"; do
        if [ -x "$candidate" ]; then tool=$candidate; break; fi
    done
fi
[ -n "$tool" ] && [ -x "$tool" ] || fail "no built tool: run swift build first, or set SMOKESCREEN_BIN"
[ "$(id -u)" -eq 0 ] || fail "run as root: slurmd and munged are started here"

missing=()
for pkg in slurmctld slurmd slurm-client munge; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
    say "installing: ${missing[*]}"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi

work=$(mktemp -d /tmp/smokescreen-slurm.XXXXXX)
chmod 700 "$work"
jobs_submitted=()
cleanup() {
    local status=$?
    set +e
    if [ "${#jobs_submitted[@]}" -gt 0 ] && [ -f "$work/slurmctld.pid" ]; then
        scancel "${jobs_submitted[@]}" 2>/dev/null
    fi
    # The daemons by their own pid files, then wait for each to be gone (a pid file names our process only).
    for pidfile in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munge/munged.pid"; do
        [ -f "$pidfile" ] || continue
        local pid; pid=$(cat "$pidfile")
        kill "$pid" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null
    done
    if [ "$status" -ne 0 ]; then
        for log in "$work"/slurmctld.log "$work"/slurmd.log "$work"/run/*.log; do
            [ -f "$log" ] && { echo "--- $log (last lines)"; tail -n 20 "$log"; }
        done
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Two free TCP ports on loopback for slurmctld and slurmd (another Slurm may be running).
free_port() {
    local port
    for port in $(seq "$1" $(($1 + 200))); do
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
    done
    fail "no free port from $1"
}
ctld_port=$(free_port 17817)
slurmd_port=$(free_port $((ctld_port + 1)))

# munge: our own key, socket, pid, log and seed, so a system munged (if any) is never touched.
mkdir -m 700 "$work/munge"
mungekey --create --keyfile="$work/munge/munge.key"
chmod 400 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed"

# slurm.conf with this node's real CPUs, sockets, cores and memory (slurmd -C), on loopback.
host=$(hostname -s)
node=$(slurmd -C | head -n 1)
case "$node" in NodeName=*) ;; *) fail "slurmd -C printed no node line: $node" ;; esac
mkdir "$work/state" "$work/spool" "$work/run"
cat > "$work/slurm.conf" <<CONF
ClusterName=smokescreen
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
MailProg=/bin/true
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmdSpoolDir=$work/spool
StateSaveLocation=$work/state
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
DependencyParameters=kill_invalid_depend
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=smokescreen Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 100); do
    state=$(sinfo -h -n "$host" -o '%t' 2>/dev/null || true)
    [ "$state" = "idle" ] && break
    sleep 0.2
done
[ "$state" = "idle" ] || fail "the node did not come up (state '${state:-none}')"
say "cluster up: $node"

# The jobs find the tool by name on PATH (sbatch passes the environment on), as an installed tool.
mkdir "$work/bin"
ln -s "$tool" "$work/bin/smokescreen"
export PATH="$work/bin:$PATH"
cd "$work/run"
start=$(date +%s)
# --cpus-per-task=1: both tasks fit at once on a 2-CPU node (and the array still runs on a 1-CPU one).
array=$(sbatch --parsable --array=1-2 --cpus-per-task=1 "$root/docs/scale-out/slurm-array.sbatch" "$@")
jobs_submitted+=("$array")
merge=$(sbatch --parsable --dependency=afterok:"$array" --output=merge-%j.log \
    --wrap "smokescreen merge results/part-* --out results/catalogue")
jobs_submitted+=("$merge")
say "submitted array job $array (2 tasks) and merge job $merge (afterok:$array)"

# Wait until no job is pending or running; then every task and the merge must have COMPLETED.
while :; do
    states=$(squeue -h -t all -j "$array,$merge" -o '%i %T' 2>/dev/null || true)
    if ! grep -qE ' (PENDING|CONFIGURING|RUNNING|COMPLETING)$' <<<"$states" && [ -n "$states" ]; then break; fi
    [ $(( $(date +%s) - start )) -lt "$timeout" ] || fail "jobs not done after $timeout s: $states"
    sleep 1
done
say "jobs done in $(( $(date +%s) - start )) s:"$'\n'"$states"
[ "$(grep -c ' COMPLETED$' <<<"$states")" -eq 3 ] || fail "not every job completed: $states"
[ -d results/part-1 ] && [ -d results/part-2 ] || fail "the array did not write results/part-1 and results/part-2"

# The merged catalogue against one render --all with the same options, outside Slurm: the same files,
# byte for byte.
"$tool" render --all --quiet --out reference "$@"
diff -r reference results/catalogue || fail "the merged catalogue differs from one render --all"
files=$(find results/catalogue -type f | wc -l)
[ "$files" -gt 1 ] || fail "the merged catalogue holds $files files"
say "OK: $files files merged from 2 array tasks are byte-identical to one render --all"
