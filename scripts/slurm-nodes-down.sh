#!/usr/bin/env bash
# Removes what scripts/slurm-nodes-up.sh made: its slurmctld and slurmds (by their pid files, so a
# one-node SLURM beside it keeps running), their jobs' steps, the node namespaces, the bridge, the
# /etc/hosts lines and the state. munged stays (scripts/slurm-down.sh stops it).
set -u
run=/run/prism-slurm-nodes
stop() { # pid file, signal
  [ -s "$1" ] || return 0
  local pid
  pid=$(cat "$1")
  case "$(cat /proc/"$pid"/comm 2>/dev/null)" in slurmd|slurmctld) kill -"$2" "$pid" 2>/dev/null ;; esac
}
for pidfile in "$run"/slurmd-*.pid "$run"/slurmctld.pid; do stop "$pidfile" TERM; done
# steps of the simulated nodes: slurmstepd processes in a node namespace
for ns in $(ip netns list 2>/dev/null | awk '/^prism-n[0-9]/ {print $1}'); do
  for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -TERM "$pid" 2>/dev/null; done
done
for _ in $(seq 1 20); do
  alive=0
  for pidfile in "$run"/slurmd-*.pid "$run"/slurmctld.pid; do
    [ -s "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null && alive=1
  done
  [ "$alive" -eq 0 ] && break
  sleep 0.25
done
for pidfile in "$run"/slurmd-*.pid "$run"/slurmctld.pid; do stop "$pidfile" KILL; done
for ns in $(ip netns list 2>/dev/null | awk '/^prism-n[0-9]/ {print $1}'); do
  for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
  ip netns delete "$ns" 2>/dev/null
done
# a namespace outlives its name while a dying process is still in it, and its veth with it: remove those ends
for link in $(ip -br link 2>/dev/null | awk '{sub(/@.*/, "", $1); if ($1 ~ /^pv[0-9]+$/) print $1}'); do
  ip link delete "$link" 2>/dev/null
done
ip link delete prismbr0 2>/dev/null
if grep -q '# prism-slurm-nodes$' /etc/hosts 2>/dev/null; then
  # /etc/hosts may be a bind mount (containers): rewrite it in place, never replace the file
  kept=$(grep -v '# prism-slurm-nodes$' /etc/hosts)
  printf '%s\n' "$kept" > /etc/hosts
fi
rm -rf "$run" /var/spool/prism-slurm-nodes
exit 0
