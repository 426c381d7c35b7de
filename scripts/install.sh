#!/usr/bin/env bash
# Create .venv with Python 3.11+ and install Earshot (torch's CPU build first).
# Usage: scripts/install.sh [--dev]
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-}"
if [ -z "$PYTHON" ]; then
  for candidate in python3.11 python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
      PYTHON="$candidate"; break
    fi
  done
fi
[ -n "$PYTHON" ] || { echo "Earshot needs Python 3.11 or newer (set PYTHON=...)." >&2; exit 1; }

if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
# torch first, pinned: the CPU build. A looser requirement would pull a multi-GB CUDA build.
.venv/bin/python -m pip install --quiet "torch==2.13.0"
if [ "${1:-}" = "--dev" ]; then
  .venv/bin/python -m pip install --quiet -e ".[dev]"
else
  .venv/bin/python -m pip install --quiet -e .
fi
