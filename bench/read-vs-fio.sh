#!/usr/bin/env bash
# Sequential read of one file with the page cache dropped: PRISM's md5_check with hash=false (open, 1 MiB read
# calls, close: the read path alone; its rate inside the read calls) against fio (psync, 1 MiB blocks, invalidate=1
# so it drops the cache too, fadvise_hint=0 so it gives the kernel no more hint than PRISM does), on the same file,
# cold and then cached. Each round is two reads by each tool, the faster counting (one read of this VM's disk can stall
# for a second), the tools' order alternating round by round; the claim is the median of the rounds' ratios. It also prints md5_check with hashing, end to
# end, which MD5 on one core bounds on fast storage (compare that with bench/md5-vs-openssl.sh, not with fio).
# A steady device for the comparison: an ext4 loop device whose image lives in tmpfs, e.g.
#   truncate -s 3G /dev/shm/prism.img && mkfs.ext4 -q /dev/shm/prism.img && mount -o loop /dev/shm/prism.img /mnt/x
# Usage: bench/read-vs-fio.sh [TARGET_DIR] [FILE_SIZE] [ROUNDS]   (defaults: this directory, 1GiB, 10)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=${1:-$PWD}
size=${2:-1GiB}
rounds=${3:-10}
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
# one read's rate by each tool: cold (cache dropped before it; PRISM checks that no page was cached) or cached (the
# file read just before; the read path's own cost at memory speed, where a device's noise cannot hide it)
prism_read() {  # hash cache: the faster of two runs' rates inside their read calls (the I/O phase fio times)
  for _ in 1 2; do
    "$root/prism" run md5_check --target "$work/t" -p dataset="$work/data" -p cache="$2" -p chunk_size=1MiB \
      -p hash="$1" --json -q --out "$work/json" | python3 -c '
import json, sys
d = json.load(sys.stdin)[0]
assert sys.argv[1] != "drop" or d["counters"]["resident_pages_before_read"] == 0, "cached before a cold read: " + str(d["counters"])
m = d["measurements"]["read" if sys.argv[2] == "false" else "file"]
print(m["bytes"] / (m["meanNanos"] * m["count"]) * 1e9)' "$2" "$1"
  done | sort -g | tail -1
}
fio_read() {  # cache
  local invalidate=1; [ "$1" = keep ] && invalidate=0
  for _ in 1 2; do
    fio --name=seqread --filename="$work/data/big.bin" --rw=read --bs=1M --ioengine=psync --invalidate=$invalidate \
      --fadvise_hint=0 --output-format=json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["read"]["bw_bytes"])'
  done | sort -g | tail -1
}
# a file just written reads slower the first time or two, whatever reads it (1.7 s, then 0.65 s, then 0.2 s on the
# loop device above): both tools read it before the rounds
prism_read false drop >/dev/null; fio_read drop >/dev/null
rounds_of() {  # cache: prints the PRISM rates, then fio's, one per line
  local p=() f=()
  for round in $(seq 1 "$rounds"); do
    if (( round % 2 )); then p+=("$(prism_read false "$1")"); f+=("$(fio_read "$1")")
    else f+=("$(fio_read "$1")"); p+=("$(prism_read false "$1")"); fi
  done
  printf '%s\n' "${p[@]}" "${f[@]}"
}
mapfile -t cold < <(rounds_of drop)
mapfile -t cached < <(rounds_of keep)
hashed=("$(prism_read true drop)" "$(prism_read true drop)" "$(prism_read true drop)")
python3 - "$rounds" "${cold[@]}" "${cached[@]}" "${hashed[@]}" <<'PY'
import sys, statistics
n = int(sys.argv[1]); v = [float(x) for x in sys.argv[2:]]
mib = 1 << 20
for name, p, f in (("cold (cache dropped)", v[:n], v[n:2 * n]), ("cached", v[2 * n:3 * n], v[3 * n:4 * n])):
    ratios = [a / b for a, b in zip(p, f)]
    print(f"{name}: round by round (first tool alternating), the faster of two reads each, MiB/s:")
    print("  md5_check hash=false  " + " ".join(f"{x / mib:6,.0f}" for x in p))
    print("  fio                   " + " ".join(f"{x / mib:6,.0f}" for x in f))
    print(f"  md5_check {statistics.median(p) / mib:,.0f} MiB/s, fio {statistics.median(f) / mib:,.0f} MiB/s (medians); "
          f"ratio: median of rounds {statistics.median(ratios):.2f}, rounds {min(ratios):.2f}-{max(ratios):.2f}")
print(f"md5_check with MD5 (one core), cold, end to end: {statistics.median(v[4 * n:]) / mib:,.0f} MiB/s (median of 3)")
PY
