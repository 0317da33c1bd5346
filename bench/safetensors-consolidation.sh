#!/usr/bin/env bash
# Merging FSDP's safetensors files into full ones: rank 0 alone against every rank its share, at 2 and 4 ranks, in
# one invocation. Per configuration: the ranks' own save of their shards, each rank's own merging (consolidate), the
# wall time until every full file is written (consolidated, the same on every rank), and every-rank's consolidated as a
# ratio of one-rank's; then fsdp_load of the full files through mmap against reading them, with the page cache dropped.
# The configurations alternate by repetition inside one `prism run`, so they see the same machine.
# Usage: bench/safetensors-consolidation.sh [TARGET_DIR] [REPS] [PARAMS]   (defaults: /var/tmp, 3, 100000000)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=${1:-/var/tmp}
reps=${2:-3}
params=${3:-100000000}
work=$(mktemp -d "$target/prism-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$root/prism" --version >/dev/null
mkdir -p "$work/t"
common=(--target "$work/t" --reps "$reps" --warmups 1 -p "params=$params" -p layers=8 -p format=safetensors
  -p shard_size=64MiB --json -q)
"$root/prism" run fsdp_save --tasks 2,4 "${common[@]}" -p consolidate=one-rank,every-rank > "$work/save.json"
"$root/prism" run fsdp_load --tasks 2 "${common[@]}" -p consolidate=every-rank -p drop_cache=true -p mmap=false,true \
  > "$work/load.json"
python3 - "$work/save.json" "$work/load.json" <<'PY'
import json, sys
def mean(r, op):
    m = r["measurements"].get(op)
    return m["meanNanos"] / 1e9 if m else float("nan")
def rate(r, op):
    m = r["measurements"].get(op)
    return m["bytes"] / (m["meanNanos"] * m["count"] / 1e9) / 2**20 if m and m["count"] else float("nan")
rows = {(r["tasks"], r["parameters"]["consolidate"]): r for r in json.load(open(sys.argv[1]))}
print(f"{'tasks':>5} {'consolidate':12} {'save':>8} {'consolidate':>12} {'consolidated':>13} {'vs one-rank':>12}")
for (tasks, who), r in sorted(rows.items()):
    base = mean(rows[(tasks, "one-rank")], "consolidated")
    print(f"{tasks:>5} {who:12} {mean(r, 'save'):7.2f}s {mean(r, 'consolidate'):11.2f}s {mean(r, 'consolidated'):12.2f}s"
          f" {mean(r, 'consolidated') / base:11.2f}x")
print("(mean per rank over the repetitions; consolidate is a rank's own merging, consolidated until every full file)")
loads = {r["parameters"]["mmap"]: r for r in json.load(open(sys.argv[2]))}
print(f"\n{'mmap':>5} {'load':>8} {'MiB/s':>8} {'read() bytes':>14} {'faults':>10} {'vs read':>8}")
for mmap, r in sorted(loads.items()):
    c = r["counters"]
    print(f"{mmap:>5} {mean(r, 'load'):7.2f}s {rate(r, 'load'):8.1f} {c.get('load_read_call_bytes', 0):14,}"
          f" {c.get('load_minor_faults', 0) + c.get('load_major_faults', 0):10,}"
          f" {mean(r, 'load') / mean(loads['false'], 'load'):7.2f}x")
print("(every rank loads every full file, the page cache dropped first; counters are per repetition, all ranks)")
PY
