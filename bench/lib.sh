# Shared by the bench/ scripts (source "$root/bench/lib.sh"): clocks, finding JDKs, and the table of two sides.

# now: nanoseconds since the epoch; since START: seconds from START to now, three decimals
now() { date +%s%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'; }

# jdk_between MIN MAX: the java of the newest JDK under /usr/lib/jvm whose release file says a feature version
# from MIN to MAX, or nothing
jdk_between() {
  local best="" best_version=0 home version
  for home in /usr/lib/jvm/*/; do
    version=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release" 2>/dev/null || true)
    if [ -n "$version" ] && [ -x "$home/bin/java" ] && [ "$version" -ge "$1" ] && [ "$version" -le "$2" ] \
        && [ "$version" -gt "$best_version" ]; then
      best="${home%/}/bin/java"
      best_version=$version
    fi
  done
  echo "$best"
}

# bench_jdks_and_gcc: sets jdk17 (the JNA side: $JDK17, else the newest JDK 17–21) and jdk_ffm (java.lang.foreign:
# $JDK_FFM, else the newest JDK 22 or later) and checks that gcc is there; exits 2 naming what is missing
bench_jdks_and_gcc() {
  jdk17=${JDK17:-$(jdk_between 17 21)}
  jdk_ffm=${JDK_FFM:-$(jdk_between 22 999)}
  [ -n "$jdk17" ] || { echo "bench: no JDK 17–21 under /usr/lib/jvm for the JNA side (set JDK17)" >&2; exit 2; }
  [ -n "$jdk_ffm" ] || { echo "bench: no JDK 22 or later under /usr/lib/jvm for java.lang.foreign (set JDK_FFM)" >&2; exit 2; }
  command -v gcc >/dev/null || { echo "bench: gcc is needed (apt-get install gcc)" >&2; exit 2; }
}

# side_table FILE FIRST SECOND: FILE holds lines "SIDE WHAT SECONDS"; prints, for every WHAT in the order first
# seen, both sides' mean and best and the ratio FIRST/SECOND of the means
side_table() {
  python3 - "$@" <<'PY'
import sys, statistics, collections
path, first, second = sys.argv[1:4]
times = collections.defaultdict(list)
for line in open(path):
    side, what, seconds = line.split()
    times[(what, side)].append(float(seconds))
print(f"{'what':20}{first + ' mean':>16}{'best':>8}{second + ' mean':>16}{'best':>8}{first + '/' + second:>18}")
for what in dict.fromkeys(w for w, _ in times):
    a, b = times[(what, first)], times[(what, second)]
    print(f"{what:20}{statistics.mean(a):15.2f}s{min(a):7.2f}s{statistics.mean(b):15.2f}s{min(b):7.2f}s"
          f"{statistics.mean(a) / statistics.mean(b):18.2f}")
PY
}
