#!/usr/bin/env bash
# Stops every process below PID (not PID itself), by pid: scripts/test.sh's exit trap, so an interrupted test
# command leaves nothing running that its tests started (a CPU hog, rank JVMs, a forked test JVM).
#   scripts/stop-tree.sh PID [GRACE_SECONDS]
# The whole tree is listed before anything is signalled: a process whose parent ends is re-parented to init at once
# and could no longer be found below PID. Each gets SIGTERM; what is still there after the grace (default 5 s) gets
# SIGKILL, but only if it is still the process that was listed (same start time: a pid reused meanwhile is left alone).
set -u
root=${1:?usage: stop-tree.sh PID [GRACE_SECONDS]}
grace=${2:-5}

# prints "pid ppid starttime" for every process; the name in /proc/<pid>/stat may hold spaces and parentheses, so the
# fields are read after its last ')'
table() {
  local f line rest
  for f in /proc/[0-9]*/stat; do
    { read -r line <"$f"; } 2>/dev/null || continue
    rest=${line##*) }
    # after the name: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime
    # cstime priority nice threads itrealvalue starttime
    set -- $rest
    echo "${line%% *} $2 ${20}"
  done
}

declare -A parent=() started=()
while read -r pid ppid start; do
  parent[$pid]=$ppid
  started[$pid]=$start
done < <(table)

# breadth-first from root over the listed parent links
tree=()
frontier=("$root")
while [ "${#frontier[@]}" -gt 0 ]; do
  next=()
  for p in "${!parent[@]}"; do
    for f in "${frontier[@]}"; do
      if [ "${parent[$p]}" = "$f" ] && [ "$p" != "$$" ] && [ "$p" != "$BASHPID" ]; then
        tree+=("$p")
        next+=("$p")
      fi
    done
  done
  frontier=("${next[@]}")
done
[ "${#tree[@]}" -eq 0 ] && exit 0

same() { # the process listed as $1 is still the one that was listed
  local line rest
  { read -r line <"/proc/$1/stat"; } 2>/dev/null || return 1
  rest=${line##*) }
  set -- $rest
  [ "${20}" = "${started[${line%% *}]}" ]
}

for p in "${tree[@]}"; do
  same "$p" && kill -TERM "$p" 2>/dev/null
done
micros() { echo "${EPOCHREALTIME/[.,]/}"; }
deadline=$(( $(micros) + grace * 1000000 ))
while [ "$(micros)" -lt "$deadline" ]; do
  alive=0
  for p in "${tree[@]}"; do
    if same "$p" && ! grep -q '^State:[[:space:]]*Z' "/proc/$p/status" 2>/dev/null; then alive=1; break; fi
  done
  [ "$alive" -eq 0 ] && exit 0
  sleep 0.2
done
for p in "${tree[@]}"; do
  same "$p" && kill -KILL "$p" 2>/dev/null
done
exit 0
