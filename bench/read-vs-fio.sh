#!/usr/bin/env bash
# Sequential read of one file with the page cache dropped: md5_check (read + MD5, 1 MiB chunks)
# against fio (psync, 1 MiB blocks, invalidate=1 so it drops the cache too), interleaved, same file.
# Prints md5_check's rate inside its read calls (the I/O path, comparable to fio) and end to end
# (MD5 on one core included, which bounds it on fast storage).
# Usage: bench/read-vs-fio.sh [TARGET_DIR] [FILE_SIZE] [ROUNDS]   (defaults: this directory, 1GiB, 3)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=${1:-$PWD}
size=${2:-1GiB}
rounds=${3:-3}
if ! command -v fio >/dev/null; then
  if [ "$(id -u)" -eq 0 ]; then apt-get install -y -q fio >/dev/null; else echo "bench: fio is needed (apt-get install fio)" >&2; exit 2; fi
fi
work=$(mktemp -d "$target/prism-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$root/prism" --version >/dev/null
mkdir -p "$work/data" "$work/t"
bytes=$(python3 -c "import sys; u={'K':10,'M':20,'G':30}; s=sys.argv[1]; print(int(s.rstrip('iB').rstrip('KMG')) << u[s.rstrip('iB')[-1]])" "$size")
head -c "$bytes" /dev/urandom > "$work/data/big.bin"
sync
prism=(); reads=(); fiorates=()
for round in $(seq 1 "$rounds"); do
  json=$("$root/prism" run md5_check --target "$work/t" -p dataset="$work/data" -p cache=drop -p chunk_size=1MiB --json -q --out "$work/json")
  prism+=("$(python3 -c 'import json,sys; m=json.loads(sys.stdin.read())[0]["measurements"]["file"]; print(m["bytes"] / (m["meanNanos"] * m["count"]) * 1e9)' <<<"$json")")
  reads+=("$(python3 -c 'import json,sys; m=json.loads(sys.stdin.read())[0]["measurements"]["read"]; print(m["bytes"] / (m["meanNanos"] * m["count"]) * 1e9)' <<<"$json")")
  fiorates+=("$(fio --name=seqread --filename="$work/data/big.bin" --rw=read --bs=1M --ioengine=psync --invalidate=1 \
    --output-format=json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["read"]["bw_bytes"])')")
done
python3 - "$rounds" "${prism[@]}" "${reads[@]}" "${fiorates[@]}" <<'PY'
import sys, statistics
n = int(sys.argv[1]); v = [float(x) for x in sys.argv[2:]]
p, r, f = statistics.mean(v[:n]), statistics.mean(v[n:2 * n]), statistics.mean(v[2 * n:])
mib = 1 << 20
print(f"fio sequential read, cache dropped: {f / mib:,.0f} MiB/s")
print(f"md5_check, time inside read calls only: {r / mib:,.0f} MiB/s, ratio {r / f:.2f}")
print(f"md5_check end to end (read + MD5, one core): {p / mib:,.0f} MiB/s, ratio {p / f:.2f}")
PY
