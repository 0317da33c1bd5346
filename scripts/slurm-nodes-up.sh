#!/usr/bin/env bash
# A simulated N-node SLURM cluster on this one machine, for PRISM's multi-node tests (called by
# scripts/slurm-up.sh --nodes N). Each node is a network namespace (prism-nK, address 10.77.0.1K on
# a bridge, no default route) with its own UTS host name nK, running its own slurmd; slurmctld runs in
# the root network namespace as host prismctl (10.77.0.1, the bridge's address). Its own
# configuration (/etc/slurm-prism-nodes/slurm.conf: use it with SLURM_CONF=…), ports 6917/6918 and
# state, so the one-node SLURM of scripts/slurm-up.sh can run beside it. One munged serves both
# (its socket is a file every namespace sees). Traffic stays on the bridge and inside the
# namespaces this script creates. Each node also has a mount namespace of its own with a tmpfs at
# /run/prism-slurm-nodes/local: a node-local target (as /tmp or a local NVMe on real nodes) that the
# other nodes and the root namespace never see. scripts/slurm-down.sh --nodes removes all of it.
set -euo pipefail
nodes=${1:?usage: slurm-nodes-up.sh N}
if ! [[ "$nodes" =~ ^[0-9]+$ ]] || [ "$nodes" -lt 2 ] || [ "$nodes" -gt 9 ]; then
  echo "slurm-nodes-up: N must be 2..9, was $nodes" >&2
  exit 2
fi
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
conf_dir=/etc/slurm-prism-nodes
conf=$conf_dir/slurm.conf
state=/var/spool/prism-slurm-nodes
logs=/var/log/prism-slurm-nodes
run=/run/prism-slurm-nodes
bridge=prismbr0
net=10.77.0

"$here/slurm-nodes-down.sh" >/dev/null 2>&1 || true
local_dir=$run/local
mkdir -p "$conf_dir" "$state/ctld" "$logs" "$run" "$local_dir"

# the network: a bridge in the root namespace, one veth into each node's namespace
ip link add "$bridge" type bridge
ip addr add "$net.1/24" dev "$bridge"
ip link set "$bridge" up
for k in $(seq 1 "$nodes"); do
  ns=prism-n$k
  ip netns add "$ns"
  ip link add "pv$k" type veth peer name "pn$k"
  ip link set "pv$k" master "$bridge" up
  ip link set "pn$k" netns "$ns"
  ip -n "$ns" addr add "$net.1$k/24" dev "pn$k"
  ip -n "$ns" link set "pn$k" up
  ip -n "$ns" link set lo up
done

# names every namespace resolves (the mount namespace, /etc/hosts included, is shared)
{
  echo "$net.1 prismctl # prism-slurm-nodes"
  for k in $(seq 1 "$nodes"); do echo "$net.1$k n$k # prism-slurm-nodes"; done
} >> /etc/hosts

cpus=$(nproc)
node_lines=""
for k in $(seq 1 "$nodes"); do
  node_lines+="NodeName=n$k NodeAddr=$net.1$k NodeHostname=n$k CPUs=$cpus RealMemory=1000 State=UNKNOWN"$'\n'
done
cat > "$conf" <<CONF
# Written by PRISM's scripts/slurm-nodes-up.sh: a simulated $nodes-node cluster for tests.
ClusterName=prismnodes
SlurmctldHost=prismctl($net.1)
SlurmctldPort=6917
SlurmdPort=6918
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d-%n
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd-%n.pid
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd-%n.log
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
${node_lines}PartitionName=nodes Nodes=n[1-$nodes] Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF

# munge as scripts/slurm-up.sh starts it (shared with the one-node cluster)
"$here/slurm-up.sh" --munge-only

export SLURM_CONF=$conf
# slurmctld under its own UTS host name, in the root network namespace (it listens on the bridge)
unshare --uts sh -c "hostname prismctl; exec slurmctld -c -f $conf"
for k in $(seq 1 "$nodes"); do
  mkdir -p "$state/d-n$k"
  # nsenter, not ip netns exec: that remounts /sys and hides the cgroup mount slurmd reads
  # and its own mount namespace, where a tmpfs of its own covers $local_dir (gone with the namespace)
  nsenter --net=/run/netns/prism-n$k unshare --uts --mount --propagation private sh -c \
    "hostname n$k; mount -t tmpfs -o size=512m,mode=0755 prism-local-n$k $local_dir; exec slurmd -c -f $conf -N n$k"
done
for _ in $(seq 1 60); do
  if [ "$(timeout 5 sinfo -h -N -o '%t' 2>/dev/null | grep -cE '^(idle|mix|alloc)')" -eq "$nodes" ]; then
    echo "slurm-nodes-up: $nodes nodes up (SLURM_CONF=$conf)" >&2
    exit 0
  fi
  timeout 5 scontrol update nodename="n[1-$nodes]" state=resume >/dev/null 2>&1 || true
  sleep 0.5
done
echo "slurm-nodes-up: the nodes did not become idle; see $logs" >&2
sinfo -N >&2 || true
exit 1
