#!/usr/bin/env bash
# The paper's §4.4 (Figure 9) on this machine: create, list, move, delete and md5 through libc (native), java.nio
# (nio), Python's open and os.* (python) and fsspec, the four run in one invocation, printed as each interface's mean
# per call and its slowest rank's phase, and their ratio to native. Needs the project's .venv with fsspec
# (scripts/python-venv.sh).
# Usage: bench/interfaces.sh [TARGET_DIR] [TASKS] [FILES] [REPS]   (defaults: /var/tmp, 16, 5000, 3)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=${1:-/var/tmp}
tasks=${2:-16}
files=${3:-5000}
reps=${4:-3}
work=$(mktemp -d "$target/prism-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$root/prism" --version >/dev/null
mkdir -p "$work/t"
"$root/prism" run create_files list_files move_files delete_files md5_check --target "$work/t" --tasks "$tasks" \
  --reps "$reps" --warmups 1 -p files="$files" -p access=native,nio,python,fsspec -p md5_check.total_size=256MiB \
  --json -q > "$work/runs.json"
python3 - "$work/runs.json" <<'PY'
import json, sys, statistics
runs = json.load(open(sys.argv[1]))
ops = {"create_files": "create", "list_files": "stat", "move_files": "rename", "delete_files": "unlink", "md5_check": "file"}
interfaces = ["native", "nio", "python", "fsspec"]
table = {}
for r in runs:
    phase = statistics.mean(rep["rankSpread"]["maxNanos"] for rep in r["repetitions"])
    m = r["measurements"][ops[r["benchmark"]]]
    table[(r["benchmark"], r["parameters"]["access"])] = (m["meanNanos"], phase)
print(f"{'benchmark':13} {'op':7} " + " ".join(f"{a:>24}" for a in interfaces))
for b, op in ops.items():
    base_mean, base_phase = table[(b, "native")]
    cells = []
    for a in interfaces:
        mean, phase = table[(b, a)]
        cells.append(f"{mean / 1e3:7.1f} µs {phase / 1e6:7.0f} ms {mean / base_mean:4.2f}x")
    print(f"{b:13} {op:7} " + " ".join(f"{c:>24}" for c in cells))
print(f"(per interface: mean per call, slowest rank's phase (mean over repetitions), call mean / native's)")
PY
