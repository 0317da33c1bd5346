#!/usr/bin/env bash
# How long PRISM takes to a verdict, against a baseline build of another commit, in one invocation: `./prism suite
# quick` of each, interleaved (baseline, this tree, baseline, …) ROUNDS times on the same target filesystem, and
# `./prism run create_files -p files=5 --launcher processes --tasks 2 --reps 3 --warmups 0` the same way. Prints each
# one's wall times (mean and best), the ratio this/baseline, and this tree's own account of them (the `time:` line:
# the timed phases' share of the wall time).
#
# Usage: bench/time-to-verdict.sh [BASELINE_COMMIT] [ROUNDS] [TARGET_DIR]
#   defaults: 167ef87 (the commit before issue 29's work), 3 rounds, a fresh directory under /var/tmp
# The baseline is checked out and built in a temporary worktree (git worktree), removed afterwards.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
base=${1:-167ef87}
rounds=${2:-3}
work=$(mktemp -d "${3:-/var/tmp}/prism-verdict-XXXXXX")
cleanup() {
  git -C "$root" worktree remove --force "$work/baseline" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
git -C "$root" worktree add --detach "$work/baseline" "$base" >/dev/null 2>&1
echo "bench: building the baseline $(git -C "$root" rev-parse --short "$base") and this tree" >&2
"$work/baseline/prism" --version >/dev/null
"$root/prism" --version >/dev/null

now() { date +%s%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
for round in $(seq 1 "$rounds"); do
  for side in baseline this; do
    prism="$root/prism"
    [ "$side" = baseline ] && prism="$work/baseline/prism"
    target="$work/target"
    mkdir -p "$target"
    start=$(now)
    "$prism" suite quick --target "$target" --out "$work/out" >/dev/null 2>"$work/suite-$side-$round.err"
    echo "$side suite-quick $(since "$start")" >> "$work/times"
    start=$(now)
    "$prism" run create_files --target "$target" -p files=5 --launcher processes --tasks 2 --reps 3 --warmups 0 \
      --out "$work/out" >/dev/null 2>"$work/run-$side-$round.err"
    echo "$side processes-3-reps $(since "$start")" >> "$work/times"
  done
  echo "bench: round $round of $rounds done" >&2
done
python3 - "$work/times" <<'PY'
import sys, statistics, collections
times = collections.defaultdict(list)
for line in open(sys.argv[1]):
    side, what, seconds = line.split()
    times[(what, side)].append(float(seconds))
print(f"{'what':20}{'baseline mean':>15}{'best':>8}{'this mean':>11}{'best':>8}{'this/baseline':>15}")
for what in dict.fromkeys(w for w, _ in times):
    b, t = times[(what, "baseline")], times[(what, "this")]
    print(f"{what:20}{statistics.mean(b):14.1f}s{min(b):7.1f}s{statistics.mean(t):10.1f}s{min(t):7.1f}s"
          f"{statistics.mean(t) / statistics.mean(b):15.2f}")
PY
echo "this tree's account of its last rounds:"
grep -h "^time:" "$work"/suite-this-"$rounds".err "$work"/run-this-"$rounds".err || true
