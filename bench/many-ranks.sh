#!/usr/bin/env bash
# PRISM at many ranks on the simulated SLURM cluster of scripts/slurm-up.sh --nodes N (root): for each task count,
# `srun -N NODES -n TASKS -O ./prism run create_files list_files --launcher slurm -p files=FILES --reps 2`, ROUNDS
# times in a row. Per run it records the outcome (srun's exit code and each benchmark's status), the wall time from
# srun's start to its end, the time to the timed phase (srun's start to the first file a rank creates: every rank has
# started, connected and passed the first barrier), the peak memory of all PRISM JVMs together (RSS, sampled every
# 0.5 s), the slowest rank's phase against the fastest, and what was left in the target. The baseline, run first in
# the same invocation, is one rank per node (NODES ranks); every run's wall time is also given as a ratio to it. One
# line per run, then a summary; the whole log stays in the work directory it names.
# Usage: bench/many-ranks.sh [NODES] [TASKS,TASKS…] [ROUNDS] [FILES]   (defaults: 8, 64,128, 1, 100)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
nodes=${1:-8}
counts=${2:-64,128}
rounds=${3:-1}
files=${4:-100}
if [ "$(id -u)" -ne 0 ]; then
  echo "bench: the simulated cluster needs root" >&2
  exit 2
fi
work=$(mktemp -d /var/tmp/prism-many-ranks-XXXXXX)
conf=/etc/slurm-prism-nodes/slurm.conf
"$root/prism" --version >/dev/null
"$root/scripts/slurm-up.sh" --nodes "$nodes" >"$work/cluster.log" 2>&1
stop() {
  local running
  running=$(jobs -p)
  [ -z "$running" ] || kill $running 2>/dev/null || true
  "$root/scripts/slurm-down.sh" --nodes >/dev/null 2>&1 || true
}
trap stop EXIT
# a first step on a cluster just started can be cancelled while its slurmds settle: one trivial step first
for _ in 1 2 3; do
  SLURM_CONF=$conf srun --time=1 -N "$nodes" -n "$nodes" true >/dev/null 2>&1 && break
done
echo "bench: $nodes simulated nodes on $(nproc) CPUs, $(free -g | awk '/Mem:/ {print $2}') GiB; work in $work"
passed=0; total=0; baseline=""
for tasks in baseline ${counts//,/ }; do
  runs=$rounds
  if [ "$tasks" = baseline ]; then tasks=$nodes; runs=1; fi
  for round in $(seq 1 "$runs"); do
    total=$((total + 1))
    id="t$tasks-r$round-$total"
    target="$work/target-$id"
    mkdir -p "$target"
    start=$(date +%s.%N)
    SLURM_CONF=$conf srun --time=30 -N "$nodes" -n "$tasks" -O "$root/prism" run create_files list_files \
        -p files="$files" --reps 2 --target "$target" --launcher slurm --timeout 10m --run-id "$id" \
        --out "$work/out" -q >"$work/$id.stdout" 2>"$work/$id.stderr" &
    srun_pid=$!
    first=""; peak=0
    while kill -0 "$srun_pid" 2>/dev/null; do
      if [ -z "$first" ] && find "$target" -path '*/rank-*/file-*' -print -quit 2>/dev/null | grep -q .; then
        first=$(date +%s.%N)
      fi
      rss=$( (ps -C java -o rss= || true) | awk '{s += $1} END {print s + 0}')
      [ "$rss" -gt "$peak" ] && peak=$rss
      sleep 0.5
    done
    code=0; wait "$srun_pid" || code=$?
    end=$(date +%s.%N)
    left=$(find "$target" -mindepth 1 | wc -l)
    [ -n "$baseline" ] || baseline=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$end")
    line=$(python3 - "$work/out/$id" "$start" "$end" "${first:-}" "$peak" "$code" "$left" "$tasks" "$baseline" <<'PY'
import glob, json, sys
out, start, end, first, peak, code, left, tasks, baseline = sys.argv[1:]
statuses, spread = [], ""
for f in sorted(glob.glob(out + "/0*-*.json")):
    run = json.load(open(f))
    statuses.append(run["benchmark"] + " " + run["status"])
    if run["benchmark"] == "create_files" and run.get("rankSpread"):
        s = run["rankSpread"]
        if s.get("minNanos"):
            spread = f", slowest rank {s['maxNanos'] / s['minNanos']:.0f}x the fastest"
to_phase = f"{float(first) - float(start):.0f} s" if first else "never"
wall = float(end) - float(start)
print(f"{tasks} ranks: srun exit {code} ({', '.join(statuses) or 'no result'}), wall {wall:.0f} s "
      f"({wall / float(baseline):.1f}x the baseline's), "
      f"to the timed phase {to_phase}, peak JVM memory {int(peak) / 1048576:.1f} GiB{spread}, {left} entries left in the target")
PY
)
    echo "$line"
    if [ "$code" -eq 0 ] && [ "$left" -eq 0 ]; then passed=$((passed + 1)); else tail -5 "$work/$id.stderr" | sed 's/^/    /'; fi
    rm -rf "$target"
  done
done
echo "bench: $passed of $total runs passed with nothing left behind"
[ "$passed" -eq "$total" ]
