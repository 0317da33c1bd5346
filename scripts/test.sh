#!/usr/bin/env bash
# Runs every test PRISM has — unit, property, end-to-end, and the real ./prism script — after
# installing what they need. This is the command the README gives and .ci/run calls.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$root"

scripts/install-deps.sh
mvn -B -Dstyle.color=never verify "$@"
