#!/usr/bin/env bash
# What one of PRISM's timings costs: bench/timer/TimerCost.java times an empty operation TIMINGS times per repetition
# through ctx.time(...) in a real scenario (threads launcher, its rehearsal the same loop) and, in the same JVM, takes
# back-to-back System.nanoTime pairs as the floor any timer has. Prints, per JDK (17 and the newest), the best
# repetition's figures: inside the timer (the recorded mean: what a sample holds beyond the operation), a timing's
# whole cost (the timed phase / TIMINGS: clock reads, histogram recording, the loop), and inside/floor.
# Usage: bench/timer-cost.sh [TARGET_DIR] [TIMINGS] [REPETITIONS]   (defaults: /dev/shm, 5000000, 3)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
source "$root/bench/lib.sh"
target=${1:-/dev/shm}
timings=${2:-5000000}
repetitions=${3:-3}
work=$(mktemp -d "$target/prism-timer-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$root/prism" --version >/dev/null   # builds the jar
jar="$root/prism-cli/target/prism.jar"
jdk17=$(jdk_between 17 21)
newest=$(jdk_between 22 999)
printf '%-44s %10s %10s %10s %12s\n' "JDK" "inside ns" "whole ns" "floor ns" "inside/floor"
for java in $jdk17 $newest; do
  "$(dirname "$java")/javac" -cp "$jar" -d "$work/classes" "$root/bench/timer/TimerCost.java"
  mkdir -p "$work/t"
  out=$("$java" --enable-native-access=ALL-UNNAMED -XX:CompileThresholdScaling=0.1 -cp "$jar:$work/classes" TimerCost \
    "$work/t" "$timings" "$repetitions")
  inside=$(awk '/^inside/ {print $2}' <<<"$out"); whole=$(awk '/^whole/ {print $2}' <<<"$out")
  floor=$(awk '/^floor/ {print $2}' <<<"$out")
  printf '%-44s %10s %10s %10s %12s\n' "$("$java" -version 2>&1 | head -1)" "$inside" "$whole" "$floor" \
    "$(awk -v a="$inside" -v b="$floor" 'BEGIN { printf "%.2f", a / b }')"
  rm -rf "$work/classes"
done
