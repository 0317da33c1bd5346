#!/usr/bin/env bash
# Is generating verifiable content the bottleneck of create_dataset? Runs create_dataset with the
# generated (sha256) pattern and with zeros, interleaved, on tmpfs by default (so storage does not
# hide the generator), and prints the generator's own throughput and the write-rate ratio.
# Usage: bench/dataset-generation.sh [TARGET_DIR] [TOTAL_SIZE] [ROUNDS]   (defaults: /dev/shm, 512MiB, 3)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=${1:-/dev/shm}
total=${2:-512MiB}
rounds=${3:-3}
work=$(mktemp -d "$target/prism-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$root/prism" --version >/dev/null
mkdir -p "$work/t" "$work/r"
for round in $(seq 1 "$rounds"); do
  for pattern in sha256 zeros; do
    "$root/prism" run create_dataset --target "$work/t" -p size_classes=1MiB,16MiB,64MiB -p files_per_class=16 \
      -p total_size="$total" -p pattern="$pattern" --warmups 1 --json -q --out "$work/r/json" > "$work/r/$pattern-$round.json"
  done
done
python3 - "$work/r" "$rounds" <<'PY'
import json, sys, statistics
d, rounds = sys.argv[1], int(sys.argv[2])
def doc(p, r): return json.load(open(f"{d}/{p}-{r}.json"))[0]
def generated_per_second(r):
    g = doc("sha256", r)["measurements"]["generate"]
    return g["bytes"] / (g["meanNanos"] * g["count"]) * 1e9
gen = [generated_per_second(r) for r in range(1, rounds + 1)]
def rate(p, r):
    m = doc(p, r)["measurements"]["write"]
    return m["bytes"] / doc(p, r)["repetitions"][0]["rankSpread"]["maxNanos"] * 1e9
sha = [rate("sha256", r) for r in range(1, rounds + 1)]
zer = [rate("zeros", r) for r in range(1, rounds + 1)]
mib = 1 << 20
print(f"generator alone: {statistics.mean(gen) / mib:,.0f} MiB/s (bytes generated / time inside 'generate')")
print(f"create_dataset rate: sha256 {statistics.mean(sha) / mib:,.0f} MiB/s, zeros {statistics.mean(zer) / mib:,.0f} MiB/s, "
      f"ratio sha256/zeros {statistics.mean(sha) / statistics.mean(zer):.2f}")
PY
