#!/usr/bin/env bash
# Runs every test PRISM has — unit, property, end-to-end, and the real ./prism script — after
# installing what they need. This is the command the README gives and .ci/run calls.
#
# scripts/test.sh --timing runs only the tests whose outcome depends on timing (faults, liveness,
# signals, many ranks, history's shifts: the classes tagged @Tag("timing")), as a loaded machine runs them: Maven pinned to one core
# (taskset -c 0) beside a CPU hog (yes) this script starts and stops by its PID.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$root"
timing=0
if [ "${1:-}" = "--timing" ]; then
  timing=1
  shift
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
# offline and runs it under exec:java, so its plugin is fetched here, into the local repository like every other
mvn -B -q -Dstyle.color=never dependency:get -Dartifact=org.codehaus.mojo:exec-maven-plugin:3.5.0
# a one-node SLURM for the srun tests, where this machine lets us start one (root); stopped on exit
hog=""
cli_lane=""
on_exit() {
  if [ -n "$hog" ]; then kill "$hog" 2>/dev/null || true; fi
  # an interrupted run stops the CLI lane's Maven too (its forked test JVMs end with it)
  if [ -n "$cli_lane" ]; then kill "$cli_lane" 2>/dev/null || true; fi
  if [ "$(id -u)" -eq 0 ]; then scripts/slurm-down.sh; fi
}
trap on_exit EXIT
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
fi
# the run secret the srun tests' ranks prove they belong to a run with (a fresh one per test run, as prism sbatch
# makes one per job); without it every task would take ~/.prism/run-secret, made on first use
export PRISM_RUN_SECRET=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
# every module's tests run even when an earlier module's fail (a failed test no longer stops the
# build; compile errors still do), then the summary says per module what ran and failed, and decides
rm -rf prism-*/target/surefire-reports prism-*/target/failsafe-reports
mvn_status=0
pin=()
if [ "$timing" -eq 1 ]; then
  # the test classes tagged @Tag("timing"), unit tests and the CLI's integration tests alike
  set -- -Dgroups=timing -Dsurefire.failIfNoSpecifiedTests=false -Dit.failIfNoSpecifiedTests=false "$@"
  yes >/dev/null &
  hog=$!
  pin=(taskset -c 0)
  export PRISM_TESTS_SELECTED=1
  echo "test: --timing: the timing-dependent tests on one core (taskset -c 0) beside a CPU hog (yes, pid $hog)" >&2
fi
mvn_flags=(-B -Dstyle.color=never --fail-at-end -Dmaven.test.failure.ignore=true)
if [ "$timing" -eq 1 ]; then
  "${pin[@]}" mvn "${mvn_flags[@]}" verify "$@" || mvn_status=$?
else
  # Two lanes at once, as much of the suite waits on child processes (ranks, torchrun, srun, FUSE) rather than on
  # its own CPU: prism-cli (its unit tests, then the end-to-end runs of ./prism, SLURM and the simulated nodes) with
  # prism-examples and prism-report, beside every other module in the foreground (about 14 and 17 minutes at 2
  # cores). A third lane (torch apart) ended a minute or two sooner (18 min, twice) but loaded the machine past what
  # the timing tests are held to: at load average 20–31 four failed once (a 20 ms injected delay read 23.4 ms), and
  # history's quiet night read twice its neighbours another time. First every module is built
  # and installed once, so no lane builds what the other one uses: each takes the other's jars from the local
  # repository, and only the CLI lane writes prism-cli/target (./prism's jar).
  mvn "${mvn_flags[@]}" -q -DskipTests install "$@" || mvn_status=$?
  if [ "$mvn_status" -eq 0 ]; then
    mkdir -p target
    cli_modules=prism-cli,prism-examples,prism-report
    cli_log="target/test-${cli_modules//,/+}.log"
    echo "test: the tests of $cli_modules run beside the others'; their output goes to $cli_log, printed when they end" >&2
    mvn "${mvn_flags[@]}" -pl "$cli_modules" verify "$@" >"$cli_log" 2>&1 &
    cli_lane=$!
    mvn "${mvn_flags[@]}" -pl "!${cli_modules//,/,!}" verify "$@" || mvn_status=$?
    cli_status=0
    wait "$cli_lane" || cli_status=$?
    cli_lane=""
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
