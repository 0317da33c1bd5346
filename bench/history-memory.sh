#!/usr/bin/env bash
# Analysis in bounded memory: a year of nightly quick suites through `prism history` in a 512 MiB heap. One real
# night's documents (a `prism suite quick` run here, or the results directory given as SOURCE) are hard-linked NIGHTS
# times into a history (375 nights x 32 documents = 12,000, a year of a nightly quick suite), then `prism history`
# runs over it with -Xmx512m, timed, its peak heap read from its GC log (the most heap in use when a collection
# began). A baseline build of another commit runs the same over BASE_NIGHTS nights in the same invocation, so the two
# compare per document; a side that runs out of memory says so.
#
# Usage: bench/history-memory.sh [NIGHTS] [BASELINE_COMMIT] [BASE_NIGHTS] [SOURCE]
#   defaults: 375 nights, 45f94df (before issue 38), 40 baseline nights, a fresh quick suite under /var/tmp
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
nights=${1:-375}
base=${2:-45f94df}
base_nights=${3:-40}
source_dir=${4:-}
work=$(mktemp -d /var/tmp/prism-history-XXXXXX)
cleanup() {
  git -C "$root" worktree remove --force "$work/baseline" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
source "$root/bench/lib.sh"

if [ -z "$source_dir" ]; then
  echo "bench: one night: prism suite quick" >&2
  mkdir -p "$work/target"
  "$root/prism" suite quick --target "$work/target" --out "$work/night" --run-id night -q >/dev/null
  source_dir="$work/night/night"
fi
documents=("$source_dir"/[0-9]*-*-t*.json)
echo "bench: ${#documents[@]} documents a night, $(du -shc "${documents[@]}" | tail -1 | cut -f1) on disk" >&2

# history NAME COUNT: a history of COUNT nights, each night's documents hard links to the one real night's
history() {
  local dir="$work/$1" i
  for i in $(seq -w 1 "$2"); do
    mkdir -p "$dir/night-$i"
    ln "${documents[@]}" "$dir/night-$i/"
  done
  echo "$dir"
}

# measure SIDE PRISM DIR NIGHTS: one `prism history` in -Xmx512m; prints SIDE, documents, seconds, peak heap (the most in
# use when a collection began: G1 lets the heap fill towards -Xmx before it collects), live heap (the most left after a
# collection: what the run kept), outcome
measure() {
  local side=$1 prism=$2 dir=$3 count=$4 start status peak live
  start=$(now)
  status=0
  PRISM_JAVA_OPTS="-Xmx512m -Xlog:gc:file=$work/gc-$side.log" "$prism" history "$dir" -o "$work/history-$side.html" \
    >"$work/history-$side.out" 2>"$work/history-$side.err" || status=$?
  local seconds
  seconds=$(since "$start")
  peak=$(grep -o '[0-9]*M->[0-9]*M' "$work/gc-$side.log" | sed 's/M->.*//' | sort -n | tail -1)
  live=$(grep -o '[0-9]*M->[0-9]*M' "$work/gc-$side.log" | sed 's/.*->//; s/M$//' | sort -n | tail -1)
  local outcome="exit $status"
  if grep -q "OutOfMemoryError" "$work/history-$side.err"; then
    outcome="out of memory"
  fi
  printf "%-10s %8d docs %9.1f s %8s MiB peak heap %8s MiB live  %s\n" "$side" $((count * ${#documents[@]})) \
    "$seconds" "${peak:-?}" "${live:-?}" "$outcome"
  echo "$side $seconds $count" >> "$work/times"
}

git -C "$root" worktree add --detach "$work/baseline" "$base" >/dev/null 2>&1
echo "bench: building the baseline $(git -C "$root" rev-parse --short "$base") and this tree" >&2
"$work/baseline/prism" --version >/dev/null
"$root/prism" --version >/dev/null

measure baseline "$work/baseline/prism" "$(history base "$base_nights")" "$base_nights"
measure this "$root/prism" "$(history this "$nights")" "$nights"
measure this-small "$root/prism" "$work/base" "$base_nights"
python3 - "$work/times" "${#documents[@]}" <<'PY'
import sys
rows = {side: (float(s), int(n)) for side, s, n in (l.split() for l in open(sys.argv[1]))}
per = int(sys.argv[2])
b, t = rows["baseline"], rows["this-small"]
print(f"per document, same {b[1] * per} documents: baseline {b[0] / (b[1] * per) * 1e3:.2f} ms, this "
      f"{t[0] / (t[1] * per) * 1e3:.2f} ms (this/baseline {t[0] / b[0]:.2f})")
PY
