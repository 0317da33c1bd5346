#!/usr/bin/env bash
# The same samples in every training format, read by a DataLoader at 2 ranks with the page cache dropped, in one
# invocation: per format the samples per second over the ranks (a repetition's samples over its slowest rank's epoch),
# the ratio to the files format's (one file per sample: the baseline, as the paper's datasets are), the read
# amplification (the kernel's read_bytes of the ranks and their workers ÷ the bytes of the samples delivered), the
# major page faults, and the p99 of a sample and of a batch. The formats alternate by repetition inside one `prism run`.
# Usage: bench/data-formats.sh [TARGET_DIR] [REPS] [SAMPLES] [SAMPLE_SIZE] [TASKS]
#        (defaults: /var/tmp, 3, 20000, 32KiB, 2)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=${1:-/var/tmp}
reps=${2:-3}
samples=${3:-20000}
size=${4:-32KiB}
tasks=${5:-2}
work=$(mktemp -d "$target/prism-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$root/prism" --version >/dev/null
mkdir -p "$work/t"
"$root/prism" run dataloader --target "$work/t" --tasks "$tasks" --reps "$reps" --warmups 0 --json -q \
  -p format=files,parquet,arrow,tar-shards,indexed,image-folder,safetensors -p files="$samples" -p file_size="$size" \
  -p samples="$samples" -p sample_size="$size" -p drop_cache=true > "$work/formats.json"
python3 - "$work/formats.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))
def figures(r):
    rates = []
    for rep in r["repetitions"]:
        ranks = [k for k in rep["ranks"] if k.get("phaseNanos", 0) > 0 and "sample" in k["measurements"]]
        count = sum(k["measurements"]["sample"]["count"] for k in ranks)
        rates.append(count / (max(k["phaseNanos"] for k in ranks) / 1e9))
    s = r["measurements"]["sample"]
    per_rep = s["bytes"] / len(r["repetitions"])
    c = r["counters"]
    return sum(rates) / len(rates), c.get("storage_read_bytes", -1) / per_rep, c.get("major_faults", 0), s, r["measurements"]["batch"]
rows = {r["parameters"].get("format", "files"): r for r in runs}
base = figures(rows["files"])[0]
print(f"{'format':13} {'samples/s':>10} {'vs files':>9} {'read amp.':>10} {'major faults':>13} {'sample p99':>11} {'batch p99':>10}")
for fmt, r in rows.items():
    if r["status"] != "PASS":
        print(f"{fmt:13} {r['status']}: {r.get('failure', {}).get('message', '')}")
        continue
    rate, amp, major, s, b = figures(r)
    print(f"{fmt:13} {rate:10.0f} {rate / base:8.2f}x {amp:10.3f} {major:13d} {s['p99Nanos'] / 1e6:9.2f}ms {b['p99Nanos'] / 1e6:8.2f}ms")
print("(samples/s: each repetition's samples over its slowest rank's epoch, the mean over repetitions; read amp.: bytes")
print(" read from storage ÷ bytes delivered; p99 over every rank and repetition)")
PY
