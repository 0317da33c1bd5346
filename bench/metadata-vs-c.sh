#!/usr/bin/env bash
# Compares PRISM's create / stat / rename / unlink rates with a C program making the same calls, on the
# same filesystem, in one invocation, through both of PRISM's bindings to libc: java.lang.foreign (the
# newest JDK, 22 or later, which ./prism prefers) and JNA (JDK 17, or -Dprism.posix.binding=jna). Runs
# are interleaved (C, floors, NATIVE-FFM, NATIVE-JNA, NIO, C, …) so drift in the filesystem hits all
# alike. PRISM runs at its default flags (no warm-up repetition: each rank rehearses its timed path
# untimed before the clock), and NATIVE-FFM once more with --warmups 1, to show what a warm-up
# repetition would still add. The floor under each binding is measured too: the same four loops
# through that binding alone (bench/floor/…/FloorBench.java: no timers, contexts or results), so
# "NATIVE/floor" is what PRISM's own code costs and "floor/C" what the JVM and the binding cost. The
# FFM floor warms up as PRISM does, with a first round of 2,000 files (PRISM's rehearsal,
# Rehearsal.ITERATIONS steps), and once more with a first round of all FILES (as it did before
# issue 39's measurements): "NATIVE/floor warmed by FILES" shows what the longer warm-up adds.
#
# Usage: bench/metadata-vs-c.sh [TARGET_DIR] [FILES] [ROUNDS]
#   defaults: a fresh directory under the current one (removed afterwards), 5000 files, 5 rounds
# Environment: JDK17 and JDK_FFM name the two java binaries (found under /usr/lib/jvm otherwise).
# Output: one row per operation with the mean rates (ops/s, from mean latency) and the ratios to C.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
files=${2:-5000}
rounds=${3:-5}
size=4096
work=$(mktemp -d "${1:-$PWD}/prism-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT

# the java of the newest JDK under /usr/lib/jvm whose feature version is within [$1, $2]
source "$root/bench/lib.sh"
bench_jdks_and_gcc
gcc -O2 -o "$work/metadata_rate" "$root/bench/metadata_rate.c"
"$root/prism" --version >/dev/null    # build the jar before timing anything
jna=$(find "$HOME/.m2/repository/net/java/dev/jna/jna" -name 'jna-*.jar' | sort | tail -1)
floor_cp="$work/floor:$root/prism-posix/target/classes:$root/prism-core/target/classes:$jna"
"$(dirname "$jdk17")/javac" -cp "$floor_cp" -d "$work/floor" "$root/bench/floor/dev/prism/posix/internal/FloorBench.java"
echo "bench: JNA on $("$jdk17" -version 2>&1 | head -1), java.lang.foreign on $("$jdk_ffm" -version 2>&1 | head -1)" >&2

prism_with() { # java binary, then prism's arguments
  PRISM_JAVA="$1" "$root/prism" "${@:2}"
}
mkdir -p "$work/results" "$work/target"
for round in $(seq 1 "$rounds"); do
  # the same depth as PRISM's rank directory (target/prism-<run id>/rank-0), so path lookups cost the same
  cdir="$work/target/prism-c$round/rank-0"
  mkdir -p "$cdir"
  "$work/metadata_rate" "$cdir" "$files" "$size" > "$work/results/c-$round.txt"
  rm -r "$work/target/prism-c$round"
  for floor in jna:2000 ffm:2000 ffm:"$files"; do
    side=${floor%%:*} warm=${floor#*:}
    java=$jdk17
    [ "$side" = ffm ] && java=$jdk_ffm
    name=floor-$side
    [ "$warm" = 2000 ] || name=floor-$side-long
    fdir="$work/target/prism-$side$round/rank-0"
    mkdir -p "$fdir"
    "$java" --enable-native-access=ALL-UNNAMED -XX:CompileThresholdScaling=0.1 -Dprism.posix.binding="$side" \
      -cp "$floor_cp" dev.prism.posix.internal.FloorBench "$fdir" "$files" "$size" "$warm" \
      > "$work/results/$name-$round.txt" 2>/dev/null
    rm -r "$work/target/prism-$side$round"
  done
  run=(run create_files list_files move_files delete_files --target "$work/target" -p files="$files" -p file_size="$size"
       --json -q --out "$work/results/json")
  prism_with "$jdk_ffm" "${run[@]}" -p access=native > "$work/results/native-$round.json"
  prism_with "$jdk17" "${run[@]}" -p access=native > "$work/results/jna-$round.json"
  prism_with "$jdk_ffm" "${run[@]}" -p access=nio > "$work/results/nio-$round.json"
  prism_with "$jdk_ffm" "${run[@]}" -p access=native --warmups 1 > "$work/results/warm-$round.json"
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
def prism_means(name, binding):
    means = {op: [] for op in ops}
    for r in range(1, rounds + 1):
        for doc in json.load(open(f"{results}/{name}-{r}.json")):
            served = doc.get("notes", {}).get("libc binding", "")
            if binding and not served.startswith(binding):
                sys.exit(f"bench: {name} run {r} was served by '{served}', not {binding}")
            for op, bench in ops.items():
                if doc["benchmark"] == bench:
                    means[op].append(doc["measurements"][op]["meanNanos"])
    return means
c, ffm_floor, jna_floor = loop_means("c"), loop_means("floor-ffm"), loop_means("floor-jna")
ffm_long = loop_means("floor-ffm-long")
native, jna = prism_means("native", "java.lang.foreign"), prism_means("jna", "JNA")
nio, warm = prism_means("nio", None), prism_means("warm", "java.lang.foreign")
rate = lambda ns: 1e9 / statistics.mean(ns)
print(f"{files} files of 4 KiB, {rounds} interleaved rounds, default flags; rate = 1 / mean latency")
print("NATIVE = java.lang.foreign (JDK 22+), NATIVE-JNA = JNA (JDK 17); floors: each binding's loops alone,")
print(f"warmed by 2,000 files as PRISM's rehearsal is; 'warmed by {files:,}': the FFM floor after a first round of all")
print(f"{'op':8}{'C ops/s':>11}{'NATIVE ops/s':>14}{'NATIVE/C':>10}{'NATIVE-JNA/C':>14}{'NIO/C':>7}"
      f"{'NATIVE+warmup/C':>17}{'FFM floor/C':>13}{'JNA floor/C':>13}{'NATIVE/FFM floor':>18}"
      f"{'NATIVE/floor warmed by ' + format(files, ','):>30}")
for op in ops:
    rc, rn, rj, ri, rw = rate(c[op]), rate(native[op]), rate(jna[op]), rate(nio[op]), rate(warm[op])
    rff, rjf, rfl = rate(ffm_floor[op]), rate(jna_floor[op]), rate(ffm_long[op])
    print(f"{op:8}{rc:11,.0f}{rn:14,.0f}{rn / rc:10.2f}{rj / rc:14.2f}{ri / rc:7.2f}{rw / rc:17.2f}"
          f"{rff / rc:13.2f}{rjf / rc:13.2f}{rn / rff:18.2f}{rn / rfl:30.2f}")
PY
