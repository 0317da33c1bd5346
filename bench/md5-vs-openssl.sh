#!/usr/bin/env bash
# md5_check's throughput on cached data (one rank, page cache kept, after a warm-up) against
# `openssl speed -evp md5` on one core, on 16 KiB blocks: how close PRISM's read+hash loop is to
# the best MD5 this CPU does.
# Usage: bench/md5-vs-openssl.sh [TARGET_DIR] [ROUNDS]   (defaults: /dev/shm, 3)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=${1:-/dev/shm}
rounds=${2:-3}
command -v openssl >/dev/null || { echo "bench: openssl is needed (apt-get install openssl)" >&2; exit 2; }
work=$(mktemp -d "$target/prism-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$root/prism" --version >/dev/null
mkdir -p "$work/t"
prism_rates=()
for round in $(seq 1 "$rounds"); do
  json=$("$root/prism" run md5_check --target "$work/t" -p size_classes=64MiB -p files_per_class=4 -p total_size=256MiB \
    -p chunk_size=1MiB -p epochs=3 --warmups 1 --json -q --out "$work/json")
  prism_rates+=("$(python3 -c 'import json,sys; m=json.loads(sys.stdin.read())[0]["measurements"]["file"]; print(m["bytes"] / (m["meanNanos"] * m["count"]) * 1e9)' <<<"$json")")
done
openssl_rate=$(openssl speed -evp md5 -seconds 3 -bytes 16384 2>/dev/null | awk '/^md5/ {v=$NF; sub("k","",v); print v * 1000}')
python3 - "$openssl_rate" "${prism_rates[@]}" <<'PY'
import sys, statistics
openssl = float(sys.argv[1]); prism = statistics.mean(float(x) for x in sys.argv[2:])
mib = 1 << 20
print(f"openssl speed -evp md5 (16 KiB blocks, one core): {openssl / mib:,.0f} MiB/s")
print(f"md5_check on cached data (1 MiB chunks, read + MD5): {prism / mib:,.0f} MiB/s, ratio {prism / openssl:.2f}")
PY
