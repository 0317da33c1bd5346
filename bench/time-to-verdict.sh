#!/usr/bin/env bash
# How long PRISM takes to a verdict, against a baseline build of another commit, in one invocation: `./prism suite
# quick` of each, interleaved (baseline, this tree, baseline, …) ROUNDS times on the same target filesystem, and
# `./prism run create_files -p files=5 --launcher processes --tasks 2 --reps 3 --warmups 0` the same way, and five
# each of `./prism --version` and `./prism list` every round. Prints each one's wall times (mean and best), the ratio
# this/baseline, and this tree's own account of them (the `time:` line: the timed phases' share of the wall time).
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
source "$root/bench/lib.sh"
git -C "$root" worktree add --detach "$work/baseline" "$base" >/dev/null 2>&1
echo "bench: building the baseline $(git -C "$root" rev-parse --short "$base") and this tree" >&2
"$work/baseline/prism" --version >/dev/null
"$root/prism" --version >/dev/null

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
    for _ in 1 2 3 4 5; do
      for cmd in --version list; do
        start=$(now)
        "$prism" $cmd >/dev/null
        echo "$side prism-${cmd#--} $(since "$start")" >> "$work/times"
      done
    done
  done
  echo "bench: round $round of $rounds done" >&2
done
side_table "$work/times" this baseline
echo "this tree's account of its last rounds:"
grep -h "^time:" "$work"/suite-this-"$rounds".err "$work"/run-this-"$rounds".err || true
