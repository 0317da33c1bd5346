#!/usr/bin/env bash
# Creates the project's Python environment (.venv) with torch (CPU) and transformers for prism-torch, pyarrow,
# datasets and safetensors for the dataloader's formats, and fsspec for the file benchmarks' access=fsspec,
# from pip's configured local wheel directories (--no-index: PyPI itself may be unreachable).
# Idempotent: does nothing when .venv already has torch >= 2.4 and the other packages.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
venv="$root/.venv"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c '
import sys, torch, transformers, fsspec, pyarrow, datasets, safetensors
major, minor = (int(x) for x in torch.__version__.split(".")[:2])
sys.exit(0 if (major, minor) >= (2, 4) else 1)' 2>/dev/null; then
  exit 0
fi
python=${PRISM_BASE_PYTHON:-python3}
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
  echo "python-venv: $python cannot create virtual environments; installing python3-venv" >&2
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv >/dev/null
  fi
fi
echo "python-venv: creating $venv with torch and transformers (about a minute)" >&2
"$python" -m venv "$venv"
if [ -d /opt/pypi/simple ]; then
  # this workplace's local indexes replace PyPI (unreachable here), so pip never waits on the network
  "$venv/bin/python" -m pip install -q --index-url file:///opt/pypi/simple --extra-index-url file:///opt/pypi-more/simple \
    --find-links /opt/wheels torch transformers numpy fsspec pyarrow datasets safetensors
else
  "$venv/bin/python" -m pip install -q torch transformers numpy fsspec pyarrow datasets safetensors
fi
"$venv/bin/python" -c 'import torch, transformers; print("python-venv: torch", torch.__version__, "transformers", transformers.__version__)' >&2
