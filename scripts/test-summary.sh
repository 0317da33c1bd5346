#!/usr/bin/env bash
# Prints, per module, how many tests ran, failed (failures and errors) and were skipped, from the
# surefire and failsafe reports of the last build, then the failed tests by name. Exits 1 when any
# test failed or a module that has tests left no report (its tests never ran), else 0.
#   scripts/test-summary.sh            the modules of this checkout
# With PRISM_TESTS_SELECTED=1 (scripts/test.sh --timing runs a selection) a module without a report is no failure.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$root"

status=0
total_run=0 total_failed=0 total_skipped=0
failed_names=()
printf '%-16s %6s %7s %8s\n' module tests failed skipped
for module in $(sed -n 's|^ *<module>\(.*\)</module>.*|\1|p' pom.xml); do
  run=0 failed=0 skipped=0
  reports=$(find "$module/target/surefire-reports" "$module/target/failsafe-reports" -name 'TEST-*.xml' 2>/dev/null || true)
  for report in $reports; do
    # one pass over the report's own test cases: each failed or erroneous case (<testcase name="…" classname="…">
    # followed by <failure or <error) by name, then the counts. Not the counts on its <testsuite …> line: they miss
    # cases where a class runs on two JUnit engines (jqwik's properties beside Jupiter's tests: tests="1" for three)
    while IFS= read -r line; do
      case "$line" in
        "failed "*) failed_names+=("$module: ${line#failed }") ;;
        "counts "*) read -r _ cases bad skips <<<"$line"
                    run=$((run + cases)) failed=$((failed + bad)) skipped=$((skipped + skips)) ;;
      esac
    done < <(awk '/<testcase /{cases++; open=1; match($0, /name="[^"]*"/); n=substr($0, RSTART+6, RLENGTH-7);
                                match($0, /classname="[^"]*"/); c=substr($0, RSTART+11, RLENGTH-12)}
                  /<(failure|error)[ >]/{if (open) {bad++; open=0; print "failed " c "#" n}}
                  /<skipped[ \/>]/{skips++}
                  END{print "counts", cases+0, bad+0, skips+0}' "$report")
  done
  # -quit, not a pipe into head: under pipefail find's SIGPIPE once head has its line ended this script at random
  has_tests=$(find "$module/src/test" -name '*.java' -print -quit 2>/dev/null || true)
  note=""
  if [ -z "$reports" ] && [ -n "$has_tests" ] && [ "${PRISM_TESTS_SELECTED:-0}" != 1 ]; then
    note="  (no test report: its tests did not run)"
    status=1
  fi
  printf '%-16s %6d %7d %8d%s\n' "$module" "$run" "$failed" "$skipped" "$note"
  total_run=$((total_run + run)) total_failed=$((total_failed + failed)) total_skipped=$((total_skipped + skipped))
done
printf '%-16s %6d %7d %8d\n' all "$total_run" "$total_failed" "$total_skipped"
if [ "$total_failed" -gt 0 ]; then
  status=1
  echo "failed:"
  printf '  %s\n' "${failed_names[@]}"
fi
exit "$status"
