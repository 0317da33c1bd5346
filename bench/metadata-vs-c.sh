#!/usr/bin/env bash
# Compares PRISM's create / stat / rename / unlink rates, through NATIVE and NIO access, with a C
# program making the same calls, on the same filesystem, in one invocation. Runs are interleaved
# (C, NATIVE, NIO, C, …) so drift in the filesystem hits all three alike. PRISM runs at its default
# flags (no warm-up repetition: each rank rehearses its timed path untimed before the clock), and
# NATIVE once more with --warmups 1, to show what a warm-up repetition would still add. The floor
# under NATIVE is measured too: the same four loops through PRISM's JNA binding alone
# (bench/jna/…/JnaFloorBench.java: no timers, contexts or results), so "NATIVE/floor" is what PRISM's
# own code costs and "floor/C" what the JVM and JNA cost.
#
# Usage: bench/metadata-vs-c.sh [TARGET_DIR] [FILES] [ROUNDS]
#   defaults: a fresh directory under the current one (removed afterwards), 5000 files, 5 rounds
# Output: one row per operation with the mean rates (ops/s, from mean latency) and the ratios to C.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
files=${2:-5000}
rounds=${3:-5}
size=4096
work=$(mktemp -d "${1:-$PWD}/prism-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT

command -v gcc >/dev/null || { echo "bench: gcc is needed (apt-get install gcc)" >&2; exit 2; }
gcc -O2 -o "$work/metadata_rate" "$root/bench/metadata_rate.c"
"$root/prism" --version >/dev/null    # build the jar before timing anything
jna=$(find "$HOME/.m2/repository/net/java/dev/jna/jna" -name 'jna-*.jar' | sort | tail -1)
floor_cp="$work/floor:$root/prism-posix/target/classes:$root/prism-core/target/classes:$jna"
javac -cp "$floor_cp" -d "$work/floor" "$root/bench/jna/dev/prism/posix/internal/JnaFloorBench.java"

mkdir -p "$work/results" "$work/target"
for round in $(seq 1 "$rounds"); do
  # the same depth as PRISM's rank directory (target/prism-<run id>/rank-0), so path lookups cost the same
  cdir="$work/target/prism-c$round/rank-0"
  mkdir -p "$cdir"
  "$work/metadata_rate" "$cdir" "$files" "$size" > "$work/results/c-$round.txt"
  rm -r "$work/target/prism-c$round"
  jdir="$work/target/prism-j$round/rank-0"
  mkdir -p "$jdir"
  java -XX:CompileThresholdScaling=0.1 -cp "$floor_cp" dev.prism.posix.internal.JnaFloorBench "$jdir" "$files" "$size" \
    > "$work/results/floor-$round.txt"
  rm -r "$work/target/prism-j$round"
  for access in native nio; do
    "$root/prism" run create_files list_files move_files delete_files --target "$work/target" \
      -p files="$files" -p file_size="$size" -p access="$access" --json -q --out "$work/results/json" \
      > "$work/results/$access-$round.json"
  done
  "$root/prism" run create_files list_files move_files delete_files --target "$work/target" \
    -p files="$files" -p file_size="$size" -p access=native --warmups 1 --json -q --out "$work/results/json" \
    > "$work/results/warm-$round.json"
  echo "bench: round $round of $rounds done" >&2
done

python3 - "$work/results" "$rounds" "$files" <<'PY'
import json, sys, statistics
results, rounds, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ops = {"create": "create_files", "stat": "list_files", "rename": "move_files", "unlink": "delete_files"}
def loop_means(name):
    means = {op: [] for op in ops}
    for r in range(1, rounds + 1):
        for line in open(f"{results}/{name}-{r}.txt"):
            op, count, total = line.split()
            means[op].append(int(total) / int(count))
    return means
def prism_means(access):
    means = {op: [] for op in ops}
    for r in range(1, rounds + 1):
        for doc in json.load(open(f"{results}/{access}-{r}.json")):
            for op, bench in ops.items():
                if doc["benchmark"] == bench:
                    means[op].append(doc["measurements"][op]["meanNanos"])
    return means
c, floor = loop_means("c"), loop_means("floor")
native, nio, warm = prism_means("native"), prism_means("nio"), prism_means("warm")
rate = lambda ns: 1e9 / statistics.mean(ns)
print(f"{files} files of 4 KiB, {rounds} interleaved rounds, default flags; rate = 1 / mean latency")
print(f"{'op':8}{'C ops/s':>12}{'NATIVE ops/s':>14}{'NATIVE/C':>10}{'NIO ops/s':>12}{'NIO/C':>8}"
      f"{'NATIVE+warmup/C':>17}{'JNA floor/C':>13}{'NATIVE/floor':>14}")
for op in ops:
    rc, rn, ri, rw, rf = rate(c[op]), rate(native[op]), rate(nio[op]), rate(warm[op]), rate(floor[op])
    print(f"{op:8}{rc:12,.0f}{rn:14,.0f}{rn / rc:10.2f}{ri:12,.0f}{ri / rc:8.2f}{rw / rc:17.2f}{rf / rc:13.2f}{rn / rf:14.2f}")
PY
