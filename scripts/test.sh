#!/usr/bin/env bash
# Runs every test PRISM has — unit, property, end-to-end, and the real ./prism script — after
# installing what they need. This is the command the README gives and .ci/run calls.
#
# scripts/test.sh --timing runs only the tests whose outcome depends on timing (faults, liveness,
# signals, many ranks, history's shifts: the classes tagged @Tag("timing")), as a loaded machine runs them: Maven pinned to one core
# (taskset -c 0) beside a CPU hog (yes) this script starts and stops by its PID.
#   --repeat N   runs them N times in a row (each repetition's summary is printed; any failure fails the command):
#                three green in a row is the bar before a change to a timing test is submitted
#   --hogs N     N CPU hogs beside them instead of one
# Further arguments go to Maven. Interrupted (Ctrl-C, SIGTERM) or not, on exit it stops every process below it that
# is still running (scripts/stop-tree.sh), and the SLURM it started.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$root"
timing=0
repeat=1
hogs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --timing) timing=1; shift ;;
    --repeat) repeat=${2:?--repeat needs a count}; shift 2 ;;
    --hogs) hogs=${2:?--hogs needs a count}; shift 2 ;;
    *) break ;;
  esac
done
if ! [[ "$repeat" =~ ^[1-9][0-9]{0,2}$ && "$hogs" =~ ^[0-9]{1,2}$ ]]; then
  echo "test: --repeat must be in 1..999 and --hogs in 0..99, were '$repeat' and '$hogs'" >&2
  exit 2
fi
if [ "$timing" -eq 0 ] && { [ "$repeat" -ne 1 ] || [ "$hogs" -ne 1 ]; }; then
  echo "test: --repeat and --hogs go with --timing" >&2
  exit 2
fi

scripts/install-deps.sh --test
export PRISM_REQUIRE_BROWSER=1
# the metrics' observers: promtool and a Pushgateway the test starts on loopback
export PRISM_REQUIRE_PROMETHEUS=1
# a JDK 22 or later (java.lang.foreign) beside the JDK 17 the build runs on: BindingTest compares the two bindings
# to libc call by call. This project's machines have Temurin 25 under /usr/lib/jvm; where none is, set
# PRISM_REQUIRE_FFM=0 to let that test skip
export PRISM_REQUIRE_FFM=${PRISM_REQUIRE_FFM:-1}
# Python with torch (CPU) and transformers for prism-torch; its tests must run, not skip
scripts/python-venv.sh
export PRISM_REQUIRE_TORCH=1
# the one plugin a test needs that PRISM's own build does not: ConsumerProjectTest builds a separate Maven project
# offline under exec:java, so its plugin is fetched here, into the local repository like every other; its version is
# the root pom's exec-maven-plugin.version, which the test reads too
exec_version=$(sed -n 's:.*<exec-maven-plugin.version>\([0-9.]*\)</exec-maven-plugin.version>.*:\1:p' pom.xml)
mvn -B -q -Dstyle.color=never dependency:get -Dartifact="org.codehaus.mojo:exec-maven-plugin:${exec_version:?no exec-maven-plugin.version in pom.xml}"
# a one-node SLURM for the srun tests, where this machine lets us start one (root); stopped on exit
hog_pids=()
on_exit() {
  # the whole tree, listed before anything is signalled: Maven, its forked test JVMs, and what the tests started
  # (a CPU hog, rank JVMs), which a test JVM killed mid-test leaves to init otherwise; the hogs are in it too
  scripts/stop-tree.sh $$
  if [ "$(id -u)" -eq 0 ]; then scripts/slurm-down.sh; fi
}
trap on_exit EXIT
# a signal ends the script (and so runs on_exit) at once: Maven runs in the background below and is waited for, as
# bash holds a trap back until a foreground command ends
trap 'exit 130' INT
trap 'exit 143' TERM
if [ "$(id -u)" -eq 0 ]; then
  scripts/slurm-up.sh
  export PRISM_REQUIRE_SLURM=1
  # faultfs (the fault-injecting FUSE filesystem) mounts as root, and so does sshfs through the test's own sshd
  export PRISM_REQUIRE_FUSE=1
  export PRISM_REQUIRE_SSHFS=1
  # bpftrace traces the file calls of the programs benchmarks run (syscalls=kernel), as root
  export PRISM_REQUIRE_BPF=1
  # the neighbour tests make an unprivileged user of their own (useradd, setpriv), as root
  export PRISM_REQUIRE_NEIGHBOUR=1
  # tests that give a file or directory to another user, and loop-mounted ext4 images (full disk, ENOSPC, EIO)
  export PRISM_REQUIRE_ROOT=1
  export PRISM_REQUIRE_LOOP=1
fi
# the tmpfs at /dev/shm some tests compare a disk with (Linux mounts one; a container may not)
export PRISM_REQUIRE_TMPFS=1
# /dev as the kernel mounts it (devtmpfs): a target there is refused before anything is written
export PRISM_REQUIRE_DEVTMPFS=1
# the run secret the srun tests' ranks prove they belong to a run with (a fresh one per test run, as prism sbatch
# makes one per job); without it every task would take ~/.prism/run-secret, made on first use
export PRISM_RUN_SECRET=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
# every module's tests run even when an earlier module's fail (a failed test no longer stops the
# build; compile errors still do), then the summary says per module what ran and failed, and decides
rm -rf prism-*/target/surefire-reports prism-*/target/failsafe-reports
mvn_status=0
# runs a command in the background and waits for it, so a signal reaches the trap while it runs
waited() {
  "$@" &
  local pid=$!
  local status=0
  wait "$pid" || status=$?
  return "$status"
}
mvn_flags=(-B -Dstyle.color=never --fail-at-end -Dmaven.test.failure.ignore=true)
if [ "$timing" -eq 1 ]; then
  # the test classes tagged @Tag("timing"), unit tests and the CLI's integration tests alike
  set -- -Dgroups=timing -Dsurefire.failIfNoSpecifiedTests=false -Dit.failIfNoSpecifiedTests=false "$@"
  for _ in $(seq 1 "$hogs"); do
    yes >/dev/null &
    hog_pids+=("$!")
  done
  export PRISM_TESTS_SELECTED=1
  echo "test: --timing: the timing-dependent tests on one core (taskset -c 0) beside $hogs CPU hog(s) (yes, pid(s)" \
    "${hog_pids[*]:-none}), $repeat time(s)" >&2
  failed_repetitions=()
  for repetition in $(seq 1 "$repeat"); do
    rm -rf prism-*/target/surefire-reports prism-*/target/failsafe-reports
    status=0
    waited taskset -c 0 mvn "${mvn_flags[@]}" verify "$@" || status=$?
    if [ "$status" -ne 0 ]; then
      echo "test: the build itself failed (exit $status) in repetition $repetition: see the output above" >&2
      exit "$status"
    fi
    echo "test: --timing repetition $repetition of $repeat:" >&2
    scripts/test-summary.sh || failed_repetitions+=("$repetition")
  done
  if [ "${#failed_repetitions[@]}" -gt 0 ]; then
    echo "test: --timing: repetition(s) ${failed_repetitions[*]} of $repeat had failures" >&2
    exit 1
  fi
  echo "test: --timing: all $repeat repetition(s) passed beside $hogs hog(s)" >&2
  exit 0
else
  # Two lanes at once, as much of the suite waits on child processes (ranks, torchrun, srun, FUSE) rather than on
  # its own CPU: prism-cli (its unit tests, then the end-to-end runs of ./prism, SLURM and the simulated nodes) with
  # prism-examples and prism-report, beside every other module in the foreground (about 14 and 17 minutes at 2
  # cores). A third lane (torch apart) ended a minute or two sooner (18 min, twice) but loaded the machine past what
  # the timing tests are held to: at load average 20–31 four failed once (a 20 ms injected delay read 23.4 ms), and
  # history's quiet night read twice its neighbours another time. First every module is built
  # and installed once, so no lane builds what the other one uses: each takes the other's jars from the local
  # repository, and only the CLI lane writes prism-cli/target (./prism's jar).
  waited mvn "${mvn_flags[@]}" -q -DskipTests install "$@" || mvn_status=$?
  if [ "$mvn_status" -eq 0 ]; then
    mkdir -p target
    cli_modules=prism-cli,prism-examples,prism-report
    cli_log="target/test-${cli_modules//,/+}.log"
    echo "test: the tests of $cli_modules run beside the others'; their output goes to $cli_log, printed when they end" >&2
    mvn "${mvn_flags[@]}" -pl "$cli_modules" verify "$@" >"$cli_log" 2>&1 &
    cli_lane=$!
    waited mvn "${mvn_flags[@]}" -pl "!${cli_modules//,/,!}" verify "$@" || mvn_status=$?
    cli_status=0
    wait "$cli_lane" || cli_status=$?
    echo "test: the tests of $cli_modules ($cli_log):" >&2
    cat "$cli_log"
    if [ "$cli_status" -ne 0 ]; then mvn_status=$cli_status; fi
  fi
fi
summary_status=0
scripts/test-summary.sh || summary_status=$?
if [ "$mvn_status" -ne 0 ]; then
  echo "test: the build itself failed (exit $mvn_status): see the output above" >&2
  exit "$mvn_status"
fi
exit "$summary_status"
