#!/usr/bin/env bash
# Compares PRISM's create / stat / unlink rates (access=native, both bindings to libc) with mdtest itself (IOR's
# metadata benchmark, one task), on the same filesystem, in one invocation, rounds interleaved (mdtest, NATIVE-FFM,
# NATIVE-JNA, mdtest, …) so drift in the filesystem hits all alike. Both sides' rates are phase rates, as mdtest
# reports them: files done / the phase's wall time (PRISM's: count over the rank's timed phase; for stat, list_files'
# phase less the time its readdir took, which mdtest's stat phase does not do). mdtest makes its calls by path (open(O_CREAT), write, close;
# stat; unlink); PRISM relative to a held directory's descriptor. Issue 55, item 2's goal: each ≥ 0.9× mdtest.
# bench/metadata-vs-mdtest-calls.sh is the stricter baseline: a C loop making those calls relative to a descriptor.
#
# Usage: bench/metadata-vs-mdtest.sh [TARGET_DIR] [FILES] [ROUNDS]
#   defaults: /dev/shm (tmpfs), 20000 files of 4 KiB, 3 rounds
# Environment: MDTEST names the mdtest binary (else `mdtest` on PATH). mdtest is not packaged by Debian; it builds
#   from https://github.com/hpc/ior (apt-get install libopenmpi-dev openmpi-bin autoconf automake; ./bootstrap &&
#   ./configure --prefix=DIR && make install), and runs here as one MPI task without mpirun. JDK17 and JDK_FFM
#   name the two java binaries (found under /usr/lib/jvm otherwise).
# Output: one row per operation: the median of each side's round rates (ops/s), and PRISM/mdtest.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
files=${2:-20000}
rounds=${3:-3}
size=4096
mdtest=${MDTEST:-$(command -v mdtest || true)}
[ -n "$mdtest" ] && [ -x "$mdtest" ] || {
  echo "bench: no mdtest (set MDTEST, or build it from https://github.com/hpc/ior as this script's header says)" >&2
  exit 2
}
work=$(mktemp -d "${1:-/dev/shm}/prism-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
source "$root/bench/lib.sh"
bench_jdks_and_gcc
"$root/prism" --version >/dev/null    # build the jar before timing anything
echo "bench: $(df -hT "$work" | awk 'NR==2 {print $2}') at $work; mdtest $mdtest (its version heads each round's output);" \
     "JNA on $("$jdk17" -version 2>&1 | head -1), java.lang.foreign on $("$jdk_ffm" -version 2>&1 | head -1);" \
     "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "no git")" >&2
mkdir -p "$work/results" "$work/target"
for round in $(seq 1 "$rounds"); do
  # one MPI task, no mpirun; as root, Open MPI asks for both variables
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    "$mdtest" -n "$files" -w "$size" -F -d "$work/target/mdtest-$round" > "$work/results/mdtest-$round.txt"
  rm -rf "$work/target/mdtest-$round"
  run=(run create_files list_files delete_files --target "$work/target" -p files="$files" -p file_size="$size"
       -p access=native --json -q --out "$work/results/json")
  PRISM_JAVA="$jdk_ffm" "$root/prism" "${run[@]}" > "$work/results/ffm-$round.json"
  PRISM_JAVA="$jdk17" "$root/prism" "${run[@]}" > "$work/results/jna-$round.json"
  echo "bench: round $round of $rounds done" >&2
done
python3 - "$work/results" "$rounds" "$files" <<'PY'
import json, re, sys, statistics
results, rounds, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ops = {"create": ("File creation", "create_files"), "stat": ("File stat", "list_files"),
       "unlink": ("File removal", "delete_files")}
def mdtest_rates():
    rates = {op: [] for op in ops}
    for r in range(1, rounds + 1):
        text = open(f"{results}/mdtest-{r}.txt").read()
        for op, (row, _) in ops.items():
            m = re.search(rf"^\s*{row}\s+([0-9.]+)", text, re.M)
            if not m:
                sys.exit(f"bench: mdtest round {r} printed no '{row}' row")
            rates[op].append(float(m.group(1)))
    return rates
def prism_rates(name, binding):
    rates = {op: [] for op in ops}
    for r in range(1, rounds + 1):
        for doc in json.load(open(f"{results}/{name}-{r}.json")):
            served = doc.get("notes", {}).get("libc binding", "")
            if not served.startswith(binding):
                sys.exit(f"bench: {name} run {r} was served by '{served}', not {binding}")
            for op, (_, bench) in ops.items():
                if doc["benchmark"] == bench:
                    m = doc["measurements"]
                    # list_files' phase also lists the directory, which mdtest's stat phase does not: left out
                    listing = m["readdir"]["count"] * m["readdir"]["meanNanos"] if "readdir" in m else 0
                    rates[op].append(m[op]["count"] / ((m[op]["elapsedNanos"] - listing) / 1e9))
    return rates
md, ffm, jna = mdtest_rates(), prism_rates("ffm", "java.lang.foreign"), prism_rates("jna", "JNA")
version = re.search(r"(mdtest-\S+) was launched", open(f"{results}/mdtest-1.txt").read())
print(f"{files:,} files of 4 KiB, {rounds} interleaved rounds, one task; rate = files / the phase's wall time;"
      f" {version.group(1) if version else 'mdtest'}")
print("mdtest = IOR's mdtest, calls by path; NATIVE = PRISM on java.lang.foreign (JDK 22+), NATIVE-JNA = JNA (JDK 17);")
print("rates are each side's median round; 'per round': NATIVE/mdtest of each round alone, lowest to highest")
print(f"{'op':8}{'mdtest ops/s':>14}{'NATIVE ops/s':>14}{'NATIVE/mdtest':>15}{'per round':>13}{'NATIVE-JNA ops/s':>18}"
      f"{'NATIVE-JNA/mdtest':>19}")
for op in ops:
    m, f, j = statistics.median(md[op]), statistics.median(ffm[op]), statistics.median(jna[op])
    per = sorted(fr / mr for fr, mr in zip(ffm[op], md[op]))
    print(f"{op:8}{m:14,.0f}{f:14,.0f}{f / m:15.2f}{per[0]:>7.2f}–{per[-1]:<5.2f}{j:18,.0f}{j / m:19.2f}")
PY
