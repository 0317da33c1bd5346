#!/usr/bin/env bash
# Asynchronous against synchronous DCP saves of llama3-8b's job checkpoint (ranks 0.. of tp=1 dp=64), at 2 and 4
# ranks, in one invocation: each save's four clocks (blocked, staged, durable, visible; see docs/benchmarks.md), and
# the ratio of async's durable to sync's save and of async's blocked to sync's save. Run the sync and async
# configurations interleaved by the repetitions of one `prism run`, so both see the same machine.
# Usage: bench/async-vs-sync-save.sh [TARGET_DIR] [REPS]   (defaults: /var/tmp, 3; async_mode=thread, DCP's default)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=${1:-/var/tmp}
reps=${2:-3}
work=$(mktemp -d "$target/prism-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$root/prism" --version >/dev/null
mkdir -p "$work/t"
"$root/prism" run fsdp_save --target "$work/t" --tasks 2,4 --reps "$reps" --warmups 1 -p model=llama3-8b -p dp=64 \
  -p async_save=false,true --json -q > "$work/runs.json"
python3 - "$work/runs.json" <<'PY'
import json, sys, statistics
runs = json.load(open(sys.argv[1]))
def mean(r, op):
    m = r["measurements"].get(op)
    return m["meanNanos"] / 1e9 if m else float("nan")
rows = {}
for r in runs:
    p = r["parameters"]
    mode = "sync" if p["async_save"] == "false" else "async " + p.get("async_mode", "thread")
    rows[(r["tasks"], mode)] = {op: mean(r, op) for op in ("blocked", "staged", "durable", "visible")}
print(f"{'tasks':>5} {'save':14} {'blocked':>9} {'staged':>9} {'durable':>9} {'visible':>9} {'durable/sync':>13} {'blocked/sync':>13}")
for (tasks, mode), c in sorted(rows.items()):
    sync = rows[(tasks, "sync")]["durable"]
    print(f"{tasks:>5} {mode:14} {c['blocked']:8.2f}s {c['staged']:8.2f}s {c['durable']:8.2f}s {c['visible']:8.2f}s"
          f" {c['durable'] / sync:12.2f}x {c['blocked'] / sync:12.2f}x")
print("(mean per rank over the repetitions; sync's blocked = staged = durable: dcp.save returns once durable)")
PY
