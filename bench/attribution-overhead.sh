#!/usr/bin/env bash
# What attributing file calls costs the figures it sits beside: the same loads with syscalls=off and with the kernel
# trace (syscalls=kernel, bpftrace) — and for torch, with Python interposition (syscalls=python) — interleaved round by
# round in one invocation, printed as the ratio of each timed operation's mean with attribution to its mean without.
# Needs root and bpftrace for the kernel trace; torch (scripts/python-venv.sh) for fsdp_load.
# Usage: bench/attribution-overhead.sh [TARGET_DIR] [ROUNDS]   (defaults: /var/tmp, 3)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=${1:-/var/tmp}
rounds=${2:-3}
work=$(mktemp -d "$target/prism-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$root/prism" --version >/dev/null
mkdir -p "$work/t" "$work/r"
run() {  # name mode benchmark op args...
  local name=$1 mode=$2 bench=$3; shift 3
  "$root/prism" run "$bench" --target "$work/t" -p syscalls="$mode" --reps 3 --warmups 1 --json -q "$@" \
    > "$work/r/$name-$mode-$round.json"
}
torch=no
if "$root/prism" describe fsdp_load >/dev/null 2>&1 && [ -x "$root/.venv/bin/python" ]; then torch=yes; fi
for round in $(seq 1 "$rounds"); do
  for mode in off kernel; do
    run git_clone "$mode" git_clone -p files=500 -p clones=3
    run tar_extract "$mode" tar_extract -p files=2000 -p repeats=3
  done
  if [ "$torch" = yes ]; then
    for mode in off kernel python; do
      run fsdp_load "$mode" fsdp_load -p params=50000000 --tasks 2
    done
  fi
done
python3 - "$work/r" "$rounds" "$torch" <<'PY'
import json, sys, statistics
d, rounds, torch = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "yes"
def mean(name, mode, op):
    values = []
    for r in range(1, rounds + 1):
        m = json.load(open(f"{d}/{name}-{mode}-{r}.json"))[0]["measurements"][op]
        values.append(m["meanNanos"])
    return statistics.mean(values)
def calls(name, mode):
    doc = json.load(open(f"{d}/{name}-{mode}-1.json"))[0]["measurements"]
    return sum(m["count"] + m.get("errors", 0) for k, m in doc.items() if k.startswith("syscall:"))
cases = [("git_clone", "clone", ["kernel"]), ("tar_extract", "extract", ["kernel"])]
if torch:
    cases.append(("fsdp_load", "load", ["kernel", "python"]))
print(f"{'benchmark':12} {'op':8} {'off':>10} " + "  ".join(f"{'with ' + m:>22}" for m in ["kernel", "python"]))
for name, op, modes in cases:
    off = mean(name, "off", op)
    cells = []
    for m in modes:
        cells.append(f"{mean(name, m, op) / 1e6:9.2f} ms {mean(name, m, op) / off:5.2f}x ({calls(name, m):,} calls)")
    print(f"{name:12} {op:8} {off / 1e6:7.2f} ms  " + "  ".join(cells))
PY
