#!/usr/bin/env bash
# What PRISM's start costs, with its class-data-sharing archive and without (PRISM_NO_CLASS_ARCHIVE=1), in one
# invocation, interleaved: `prism --version` and `prism list` (ROUNDS each, the mean and the best), and a launch of
# TASKS rank processes (`run create_files --launcher processes --tasks TASKS -p files=1`) timed from the command's
# start to the first file a rank creates in its timed phase, found by polling the target every 10 ms: by then every
# rank JVM has started, connected, rehearsed and passed the first barrier. The JDK is the one ./prism picks.
#
# Usage: bench/startup.sh [TARGET_DIR] [ROUNDS] [TASKS]   (defaults: a fresh directory under /dev/shm, 5, 64)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
rounds=${2:-5}
tasks=${3:-64}
work=$(mktemp -d "${1:-/dev/shm}/prism-startup-XXXXXX")
trap 'rm -rf "$work"' EXIT
source "$root/bench/lib.sh"
"$root/prism" --version >/dev/null   # build the jar and the archive before timing anything

# time to the first file of a timed phase: rank-N/ directories hold the timed files, rehearsal-N/ the rehearsal's
first_file() {
  local target=$1 start=$2
  while :; do
    if compgen -G "$target/prism-*/rank-*/*" >/dev/null; then
      since "$start"
      return
    fi
    sleep 0.01
  done
}
for round in $(seq 1 "$rounds"); do
  for mode in archive plain; do
    flag=0
    [ "$mode" = plain ] && flag=1
    for cmd in --version list; do
      start=$(now)
      PRISM_NO_CLASS_ARCHIVE=$flag "$root/prism" $cmd >/dev/null
      echo "$mode $cmd $(since "$start")" >> "$work/times"
    done
    target="$work/target-$mode-$round"
    mkdir -p "$target"
    start=$(now)
    PRISM_NO_CLASS_ARCHIVE=$flag "$root/prism" run create_files --target "$target" --launcher processes --tasks "$tasks" \
      -p files=1 --reps 1 --warmups 0 -q --out "$work/out" >/dev/null &
    run=$!
    echo "$mode launch-$tasks $(first_file "$target" "$start")" >> "$work/times"
    wait "$run"
    echo "$mode run-$tasks $(since "$start")" >> "$work/times"
  done
  echo "bench: round $round of $rounds done" >&2
done
"$root/prism" --version | tail -1
side_table "$work/times" archive plain
