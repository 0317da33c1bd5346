#!/usr/bin/env bash
# Installs SLURM and munge from Debian when missing, writes a one-node configuration for this
# machine, and starts munged, slurmctld and slurmd (as root; state under /var/spool/prism-slurm,
# logs under /var/log/prism-slurm). Waits until the node is idle. scripts/slurm-down.sh stops them.
#   scripts/slurm-up.sh --nodes N   instead starts a simulated N-node cluster beside it
#                                  (scripts/slurm-nodes-up.sh: namespaces, its own SLURM_CONF)
set -euo pipefail
nodes=1
munge_only=false
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) nodes=${2:?--nodes takes a count}; shift 2 ;;
    --nodes=*) nodes=${1#--nodes=}; shift ;;
    --munge-only) munge_only=true; shift ;;
    *) echo "slurm-up: unknown argument $1 (usage: slurm-up.sh [--nodes N])" >&2; exit 2 ;;
  esac
done
if [ "$(id -u)" -ne 0 ]; then
  echo "slurm-up: needs root (it installs packages and starts daemons)" >&2
  exit 1
fi
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  echo "slurm-up: installing slurm-wlm and munge" >&2
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge >/dev/null
fi

if [ "$nodes" != 1 ] && [ "$munge_only" = false ]; then
  exec "$(dirname "$(readlink -f "$0")")/slurm-nodes-up.sh" "$nodes"
fi

state=/var/spool/prism-slurm
logs=/var/log/prism-slurm
mkdir -p "$state/ctld" "$state/d" "$logs" /etc/slurm /run/munge /var/lib/munge /var/log/munge /etc/munge
chown munge:munge /run/munge /var/lib/munge /var/log/munge /etc/munge 2>/dev/null || true

if [ ! -s /etc/munge/munge.key ]; then
  if command -v mungekey >/dev/null; then mungekey --create --force >/dev/null 2>&1 || true; fi
  [ -s /etc/munge/munge.key ] || dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  chown munge:munge /etc/munge/munge.key 2>/dev/null || true
  chmod 400 /etc/munge/munge.key
fi
if ! pgrep -x -r R,S,D,I munged >/dev/null; then
  su -s /bin/sh munge -c "/usr/sbin/munged" 2>/dev/null || /usr/sbin/munged --force
fi

[ "$munge_only" = true ] && exit 0

host=$(hostname -s)
node=$(slurmd -C | head -1 | sed "s/^NodeName=[^ ]*/NodeName=$host/" | sed 's/ UpTime=.*//')
cat > /etc/slurm/slurm.conf <<CONF
# Written by PRISM's scripts/slurm-up.sh: a one-node cluster for tests.
ClusterName=prism
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
$node State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF

# This cluster's daemon, found by its pid file (a simulated multi-node cluster may run its own beside it).
# A daemon killed hard can linger as a zombie where PID 1 does not reap (containers): that is not running.
alive() {
  local pid comm st
  pid=$(cat "$state/$1.pid" 2>/dev/null) || return 1
  [ -n "$pid" ] || return 1
  read -r _ comm st _ < "/proc/$pid/stat" 2>/dev/null || return 1
  [ "$comm" = "($1)" ] && [ "$st" != Z ]
}

# Daemons not running but state on disk: an earlier run was interrupted (killed, machine restarted).
# Its jobs and steps would come back as zombies holding the node, so start from clean state.
if ! alive slurmctld; then
  pkill -9 -x slurmstepd 2>/dev/null || true
  find "$state/ctld" "$state/d" -mindepth 1 -delete 2>/dev/null || true
  rm -f "$state/slurmctld.pid" "$state/slurmd.pid"
  slurmctld -c
fi
alive slurmd || slurmd -c
for _ in $(seq 1 60); do
  if timeout 5 sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
    echo "slurm-up: node $host is up" >&2
    exit 0
  fi
  timeout 5 scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true
  sleep 1
done
echo "slurm-up: the node did not become idle; see $logs" >&2
sinfo >&2 || true
exit 1
