#!/usr/bin/env bash
# md5_check's throughput on cached data (one rank, page cache kept, after a warm-up repetition) against OpenSSL on
# one core, in one invocation:
#   - `openssl md5` over the same files, the same number of passes: the same work (read from the page cache, MD5);
#     the claim is md5_check / openssl md5, the median of rounds in which the two tools take turns going first;
#   - `openssl speed -evp md5` on 16 KiB blocks already in memory: the hashing ceiling, no read at all.
# Usage: bench/md5-vs-openssl.sh [TARGET_DIR] [ROUNDS]   (defaults: /dev/shm, 5)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=${1:-/dev/shm}
rounds=${2:-5}
passes=3
command -v openssl >/dev/null || { echo "bench: openssl is needed (apt-get install openssl)" >&2; exit 2; }
work=$(mktemp -d "$target/prism-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$root/prism" --version >/dev/null
mkdir -p "$work/data" "$work/t"
for i in 1 2 3 4; do head -c 64M /dev/urandom > "$work/data/file-$i.bin"; done
bytes=$((4 * 64 * 1024 * 1024 * passes))
files=()
for _ in $(seq 1 "$passes"); do files+=("$work"/data/file-*.bin); done
prism_rate() {
  "$root/prism" run md5_check --target "$work/t" -p dataset="$work/data" -p chunk_size=1MiB -p epochs="$passes" \
    --warmups 1 --json -q --out "$work/json" | python3 -c '
import json, sys
m = json.loads(sys.stdin.read())[0]["measurements"]["file"]
print(m["bytes"] / (m["meanNanos"] * m["count"]) * 1e9)'
}
openssl_rate() {  # wall time of one openssl process hashing every pass's files (its start-up is a few ms of ~1 s)
  local start end
  start=$(date +%s%N)
  openssl md5 "${files[@]}" >/dev/null
  end=$(date +%s%N)
  python3 -c "print($bytes / (($end - $start) / 1e9))"
}
openssl_rate >/dev/null   # the files into the page cache, and openssl's own start-up warm
prism=(); openssl=()
for round in $(seq 1 "$rounds"); do
  if (( round % 2 )); then prism+=("$(prism_rate)"); openssl+=("$(openssl_rate)")
  else openssl+=("$(openssl_rate)"); prism+=("$(prism_rate)"); fi
done
speed=$(openssl speed -evp md5 -seconds 3 -bytes 16384 2>/dev/null | awk '/^md5/ {v=$NF; sub("k","",v); print v * 1000}')
python3 - "$rounds" "$speed" "${prism[@]}" "${openssl[@]}" <<'PY'
import sys, statistics
n = int(sys.argv[1]); speed = float(sys.argv[2]); v = [float(x) for x in sys.argv[3:]]
p, o = v[:n], v[n:]
mib = 1 << 20
ratios = [a / b for a, b in zip(p, o)]
print("round by round (first tool alternating), MiB/s:")
print("  md5_check     " + " ".join(f"{x / mib:5,.0f}" for x in p))
print("  openssl md5   " + " ".join(f"{x / mib:5,.0f}" for x in o))
print(f"md5_check on cached data (1 MiB reads + MD5): {statistics.median(p) / mib:,.0f} MiB/s; "
      f"openssl md5 on the same files: {statistics.median(o) / mib:,.0f} MiB/s (medians)")
print(f"ratio md5_check / openssl md5: median of rounds {statistics.median(ratios):.2f} (rounds {min(ratios):.2f}-{max(ratios):.2f})")
print(f"openssl speed -evp md5 (16 KiB blocks in memory, no reads): {speed / mib:,.0f} MiB/s; "
      f"md5_check / that ceiling {statistics.median(p) / speed:.2f}")
PY
