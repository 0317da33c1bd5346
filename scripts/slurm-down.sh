#!/usr/bin/env bash
# Stops what scripts/slurm-up.sh started: slurmd, slurmctld and munged, and a simulated multi-node
# cluster with its namespaces, bridge and /etc/hosts lines (scripts/slurm-nodes-down.sh).
#   scripts/slurm-down.sh --nodes   removes the simulated cluster only, leaving the one-node SLURM up
set -u
"$(dirname "$(readlink -f "$0")")/slurm-nodes-down.sh"
[ "${1:-}" = "--nodes" ] && exit 0
for daemon in slurmd slurmctld munged; do
  pkill -x "$daemon" 2>/dev/null || true
done
for _ in $(seq 1 20); do
  pgrep -x -r R,S,D,I slurmd >/dev/null || pgrep -x -r R,S,D,I slurmctld >/dev/null || pgrep -x -r R,S,D,I munged >/dev/null || exit 0
  sleep 0.5
done
pkill -9 -x slurmd 2>/dev/null; pkill -9 -x slurmctld 2>/dev/null; pkill -9 -x munged 2>/dev/null
exit 0
