#!/usr/bin/env bash
# A real Slurm cluster on this one machine for the tests: slurmctld, two
# slurmd (n1 with 2 fake MI300X GPUs, n2 with 1 fake Radeon PRO W7900) and a
# private munged, every file under DIR (config, state, spool, logs, sockets).
# The GPUs are GRES backed by files: Slurm schedules and accounts them like
# real ones, nothing here can run GPU code. n1's are character devices (with
# /dev/null's numbers, where mknod is allowed), so Slurm sets SLURM_JOB_GPUS
# in its jobs as it does on a cluster of real GPUs; n2's is an empty file,
# for which Slurm sets none and the batch script asks scontrol.
# Usage: slurm-cluster.sh start DIR   prints `export SLURM_CONF=…` on success
#        slurm-cluster.sh stop DIR    stops every daemon started from DIR
#        slurm-cluster.sh forget-jobs DIR   restarts slurmctld from a clean state
# Exit: 0 ok; 125 (1 under CI=true) Slurm or munge is not installed; 1 the
# cluster did not come up (its logs are printed).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/skip.sh"
action="${1:?usage: slurm-cluster.sh start|stop|forget-jobs DIR}"
dir="$(mkdir -p "${2:?usage: slurm-cluster.sh start|stop DIR}" && cd "$2" && pwd)"
conf="$dir/slurm.conf"
host="$(hostname -s)"
base_port="${JGRID_SLURM_PORT:-17800}"
# GPUs of n1 (benchmarks give it many more GPUs than CPUs, so that Slurm
# keeps most jobs pending while the grid tracks them).
n1_gpus="${JGRID_SLURM_N1_GPUS:-2}"

stop() {
  for pid_file in "$dir"/run/*.pid; do
    [ -e "$pid_file" ] || continue
    kill "$(cat "$pid_file")" 2>/dev/null || true
  done
  rm -f "$dir"/run/*.pid
  # Job scripts still running from DIR's spool (their slurmstepd ends with them).
  pkill -f "$dir/spool/" 2>/dev/null || true
}

write_config() {
  mkdir -p "$dir"/{state,spool,log,run,gpus}
  for i in $(seq 0 $((n1_gpus - 1))); do
    [ -c "$dir/gpus/mi300x$i" ] || mknod "$dir/gpus/mi300x$i" c 1 3 2>/dev/null || : >"$dir/gpus/mi300x$i"
  done
  : >"$dir/gpus/w79000"
  cat >"$conf" <<CONF
ClusterName=jgridtest
SlurmctldHost=$host
SlurmctldPort=$base_port
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/run/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
ReturnToService=2
MinJobAge=600
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
NodeName=n1 NodeHostname=$host Port=$((base_port + 1)) CPUs=2 RealMemory=4000 Gres=gpu:mi300x:$n1_gpus Feature=amd,mi300x,gfx942,rocm6.2 State=UNKNOWN
NodeName=n2 NodeHostname=$host Port=$((base_port + 2)) CPUs=2 RealMemory=4000 Gres=gpu:w7900:1 Feature=amd,w7900,gfx1100,rocm6.2 State=UNKNOWN
PartitionName=gpu Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP
CONF
  cat >"$dir/gres.conf" <<CONF
NodeName=n1 Name=gpu Type=mi300x File=$dir/gpus/mi300x[0-$((n1_gpus - 1))]
NodeName=n2 Name=gpu Type=w7900 File=$dir/gpus/w79000
CONF
}

start_munge() {
  [ -e "$dir/run/munge.key" ] || { head -c 1024 /dev/urandom >"$dir/run/munge.key"; chmod 400 "$dir/run/munge.key"; }
  munged --force --key-file="$dir/run/munge.key" --socket="$dir/run/munge.socket" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/run/munge.seed"
}

wait_idle() {
  for _ in $(seq 1 100); do
    if [ "$(sinfo -h -N -o '%N %t' 2>/dev/null | grep -c 'idle')" = 2 ]; then return 0; fi
    sleep 0.2
  done
  echo "slurm-cluster: the nodes did not become idle:" >&2
  sinfo -N >&2 || true
  tail -n 20 "$dir"/log/*.log >&2
  return 1
}

start() {
  for tool in slurmctld slurmd sbatch munged; do
    command -v "$tool" >/dev/null || skip_or_fail "$tool not installed (apt-get install slurmctld slurmd slurm-client munge)"
  done
  stop
  write_config
  export SLURM_CONF="$conf"
  start_munge
  slurmctld -c -f "$conf"
  slurmd -N n1 -f "$conf"
  slurmd -N n2 -f "$conf"
  wait_idle
  echo "export SLURM_CONF=$conf"
}

# The controller restarted from a clean state (`slurmctld -c`): it forgets
# every job, as after a lost state save; the nodes kill what they still run.
forget_jobs() {
  export SLURM_CONF="$conf"
  kill "$(cat "$dir/run/slurmctld.pid")"
  for _ in $(seq 1 100); do kill -0 "$(cat "$dir/run/slurmctld.pid")" 2>/dev/null || break; sleep 0.1; done
  slurmctld -c -f "$conf"
  wait_idle
}

case "$action" in
  start) start ;;
  stop) stop ;;
  forget-jobs) forget_jobs ;;
  *) echo "usage: slurm-cluster.sh start|stop|forget-jobs DIR" >&2; exit 2 ;;
esac
