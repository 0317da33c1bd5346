#!/usr/bin/env bash
# Compares PRISM's create / stat / rename / unlink rates (access=native, both bindings to libc) with a C loop
# making mdtest's per-file calls relative to a directory descriptor (bench/metadata_at.c, compiled here): the
# fastest a program can reach those calls, as the kernel resolves one name per call. One invocation gives the
# ratios; rounds are interleaved (C, NATIVE-FFM, NATIVE-JNA, C, …) so drift in the filesystem hits all alike.
# The goal of issue 55, item 2: create, stat and unlink each at least 0.9× the C loop on tmpfs at 20,000 files.
#
# Usage: bench/metadata-vs-mdtest-calls.sh [TARGET_DIR] [FILES] [ROUNDS]
#   defaults: /dev/shm (tmpfs), 20000 files, 3 rounds
# Environment: JDK17 and JDK_FFM name the two java binaries (found under /usr/lib/jvm otherwise).
# Output: one row per operation: the rates (ops/s, from mean latency) and the ratios to the C loop.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
files=${2:-20000}
rounds=${3:-3}
size=4096
work=$(mktemp -d "${1:-/dev/shm}/prism-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
source "$root/bench/lib.sh"
bench_jdks_and_gcc
gcc -O2 -o "$work/metadata_at" "$root/bench/metadata_at.c"
"$root/prism" --version >/dev/null    # build the jar before timing anything
echo "bench: $(df -hT "$work" | awk 'NR==2 {print $2}') at $work; JNA on $("$jdk17" -version 2>&1 | head -1)," \
     "java.lang.foreign on $("$jdk_ffm" -version 2>&1 | head -1); $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "no git")" >&2
mkdir -p "$work/results" "$work/target"
for round in $(seq 1 "$rounds"); do
  cdir="$work/target/prism-c$round/rank-0"    # PRISM's depth: target/prism-<run id>/rank-0
  mkdir -p "$cdir"
  "$work/metadata_at" "$cdir" "$files" "$size" > "$work/results/c-$round.txt"
  rm -r "$work/target/prism-c$round"
  run=(run create_files list_files move_files delete_files --target "$work/target" -p files="$files" -p file_size="$size"
       -p access=native --json -q --out "$work/results/json")
  PRISM_JAVA="$jdk_ffm" "$root/prism" "${run[@]}" > "$work/results/ffm-$round.json"
  PRISM_JAVA="$jdk17" "$root/prism" "${run[@]}" > "$work/results/jna-$round.json"
  echo "bench: round $round of $rounds done" >&2
done
python3 - "$work/results" "$rounds" "$files" <<'PY'
import json, sys, statistics
results, rounds, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ops = {"create": "create_files", "stat": "list_files", "rename": "move_files", "unlink": "delete_files"}
def c_means(field):
    means = {op: [] for op in ops}
    for r in range(1, rounds + 1):
        for line in open(f"{results}/c-{r}.txt"):
            op, count, total, median = line.split()
            means[op].append(int(total) / int(count) if field == "meanNanos" else int(median))
    return means
def prism_means(name, binding, field):
    means = {op: [] for op in ops}
    for r in range(1, rounds + 1):
        for doc in json.load(open(f"{results}/{name}-{r}.json")):
            served = doc.get("notes", {}).get("libc binding", "")
            if not served.startswith(binding):
                sys.exit(f"bench: {name} run {r} was served by '{served}', not {binding}")
            for op, bench in ops.items():
                if doc["benchmark"] == bench:
                    means[op].append(doc["measurements"][op][field])
    return means
c, ffm, jna = c_means("meanNanos"), prism_means("ffm", "java.lang.foreign", "meanNanos"), prism_means("jna", "JNA", "meanNanos")
c50, ffm50 = c_means("p50Nanos"), prism_means("ffm", "java.lang.foreign", "p50Nanos")
rate = lambda ns: 1e9 / statistics.mean(ns)
print(f"{files:,} files of 4 KiB, {rounds} interleaved rounds, default flags; rate = 1 / mean latency")
print("C = mdtest's calls relative to a directory descriptor; NATIVE = java.lang.foreign (JDK 22+), NATIVE-JNA = JNA (JDK 17)")
print("'per round': NATIVE/C of each round alone, lowest to highest (how much the machine's noise moves it);")
print("'NATIVE/C p50': the same from median latencies, which a preempted call moves less than the mean")
print(f"{'op':8}{'C ops/s':>12}{'NATIVE ops/s':>14}{'NATIVE/C':>10}{'per round':>13}{'NATIVE-JNA ops/s':>18}"
      f"{'NATIVE-JNA/C':>14}{'NATIVE/C p50':>14}")
for op in ops:
    rc, rn, rj = rate(c[op]), rate(ffm[op]), rate(jna[op])
    rounds_ratio = sorted(cn / fn for cn, fn in zip(c[op], ffm[op]))
    spread = f"{rounds_ratio[0]:.2f}–{rounds_ratio[-1]:.2f}"
    p50 = statistics.mean(c50[op]) / statistics.mean(ffm50[op])
    print(f"{op:8}{rc:12,.0f}{rn:14,.0f}{rn / rc:10.2f}{spread:>13}{rj:18,.0f}{rj / rc:14.2f}{p50:14.2f}")
PY
