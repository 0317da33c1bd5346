#!/usr/bin/env bash
# JNA direct mapping (what LibC uses) against interface mapping: the same libc calls, a million
# each, three rounds in one JVM, on tmpfs so the filesystem adds as little as possible.
# Usage: bench/jna-mapping.sh
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
"$root/prism" --version >/dev/null                       # makes sure the modules are built
jna=$(find "$HOME/.m2/repository/net/java/dev/jna/jna" -name 'jna-*.jar' | sort | tail -1)
cp="$root/prism-posix/target/classes:$root/prism-core/target/classes:$jna"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
javac -cp "$cp" -d "$out" "$root/bench/jna/dev/prism/posix/internal/JnaMappingBench.java"
java -cp "$out:$cp" dev.prism.posix.internal.JnaMappingBench
