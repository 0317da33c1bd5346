#!/usr/bin/env bash
# Runs every test PRISM has — unit, property, end-to-end, and the real ./prism script — after
# installing what they need. This is the command the README gives and .ci/run calls.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$root"

scripts/install-deps.sh --test
export PRISM_REQUIRE_BROWSER=1
# Python with torch (CPU) and transformers for prism-torch; its tests must run, not skip
scripts/python-venv.sh
export PRISM_REQUIRE_TORCH=1
# a one-node SLURM for the srun tests, where this machine lets us start one (root); stopped on exit
if [ "$(id -u)" -eq 0 ]; then
  trap 'scripts/slurm-down.sh' EXIT
  scripts/slurm-up.sh
  export PRISM_REQUIRE_SLURM=1
  # faultfs (the fault-injecting FUSE filesystem) mounts as root
  export PRISM_REQUIRE_FUSE=1
fi
mvn -B -Dstyle.color=never verify "$@"
