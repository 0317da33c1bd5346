#!/usr/bin/env bash
# PRISM's launch overhead for torch benchmarks: `prism run ddp_save --tasks 2` against running the
# same bundled script with `python -m torch.distributed.run` by hand, interleaved, wall time each.
# Usage: bench/torch-overhead.sh [TARGET_DIR] [ROUNDS] [PARAMS]   (defaults: this directory, 3, 25000000)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=${1:-$PWD}
rounds=${2:-3}
params=${3:-25000000}
python=${PRISM_PYTHON:-$root/.venv/bin/python}
[ -x "$python" ] || { echo "bench: no Python with torch; run scripts/python-venv.sh" >&2; exit 2; }
work=$(mktemp -d "$target/prism-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$root/prism" --version >/dev/null
script="$root/prism-torch/src/main/resources/dev/prism/torch/prism_torch_bench.py"
prism=(); hand=()
for round in $(seq 1 "$rounds"); do
  t0=$(date +%s%N)
  "$root/prism" run ddp_save --target "$work" --tasks 2 -p params="$params" -q --out "$work/out" >/dev/null
  t1=$(date +%s%N)
  rm -rf "$work/hand"
  OMP_NUM_THREADS=1 "$python" -m torch.distributed.run --nnodes 1 --nproc-per-node 2 --rdzv-backend c10d \
    --rdzv-endpoint 127.0.0.1:0 --local-addr 127.0.0.1 "$script" --benchmark ddp_save --out "$work/hand/out" \
    --shared-dir "$work/hand/ckpt" --params "$params" >/dev/null 2>&1
  t2=$(date +%s%N)
  prism+=($((t1 - t0))); hand+=($((t2 - t1)))
done
python3 - "${prism[@]}" "${hand[@]}" <<'PY'
import sys, statistics
v = [int(x) / 1e9 for x in sys.argv[1:]]; n = len(v) // 2
p, h = statistics.mean(v[:n]), statistics.mean(v[n:])
print(f"prism run ddp_save --tasks 2: {p:.2f} s; torchrun by hand: {h:.2f} s; overhead {p - h:+.2f} s ({p / h:.2f}x)")
PY
