#!/usr/bin/env bash
# Create .venv with Python 3.11+ and install Earshot.
# Usage: scripts/install.sh [--dev] [--web] [--pure]
#   --dev  also the test and lint tools
#   --web  without the `irt` extra (torch, Pyro): a web-only host never imports torch;
#          IRT fits then run on a worker host installed without --web
#   --pure without compiling the judge (the `native` extra, mypyc, a C compiler): the
#          rules core runs from its Python sources, a third slower cold (a build made
#          before stays in use while it matches the sources; build_native.py --remove)
# The judge's rules core is compiled with mypyc into build/native/ (scripts/build_native.py,
# judging/native.py; about 2.5 min on two cores, skipped when up to date). Without a C
# compiler and Python's headers the build fails with a warning and the judge runs from
# its sources; EARSHOT_REQUIRE_NATIVE=1 (CI) makes that failure fatal.
# torch comes first, pinned, as the CPU build: PyPI's default torch wheel for Linux is
# a ~2 GB CUDA build. On Linux it is taken from PyTorch's CPU wheel index when that
# answers within a few seconds, else (offline mirrors, firewalls) from the plain pin.
# A GPU worker installs its CUDA torch itself before running this script.
set -euo pipefail
cd "$(dirname "$0")/.."

TORCH_VERSION="2.13.0"
TORCH_CPU_INDEX="${EARSHOT_TORCH_INDEX:-https://download.pytorch.org/whl/cpu}"
DEV=0
IRT=1
NATIVE=1
for arg in "$@"; do
  case "$arg" in
    --dev) DEV=1 ;;
    --web) IRT=0 ;;
    --pure) NATIVE=0 ;;
    *) echo "usage: scripts/install.sh [--dev] [--web] [--pure]" >&2; exit 2 ;;
  esac
done

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
PIP=(.venv/bin/python -m pip)
"${PIP[@]}" install --quiet --upgrade pip

torch_installed() {
  .venv/bin/python - "$TORCH_VERSION" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(version("torch").split("+")[0] != sys.argv[1])
PY
}

index_answers() {
  .venv/bin/python - "$1" <<'PY' 2>/dev/null
import sys, urllib.request
urllib.request.urlopen(sys.argv[1].rstrip("/") + "/torch/", timeout=5).close()
PY
}

if [ "$IRT" = 1 ] && ! torch_installed; then
  if [ "$(uname -s)" = "Linux" ] && index_answers "$TORCH_CPU_INDEX"; then
    echo "Installing torch $TORCH_VERSION (CPU build) from PyTorch's CPU wheel index..."
    "${PIP[@]}" install --quiet --timeout 60 --index-url "$TORCH_CPU_INDEX" "torch==$TORCH_VERSION" \
      || "${PIP[@]}" install --quiet "torch==$TORCH_VERSION"
  else
    echo "PyTorch's CPU wheel index is not reachable: installing torch==$TORCH_VERSION from the configured index."
    "${PIP[@]}" install --quiet "torch==$TORCH_VERSION"
  fi
fi

EXTRAS=()
[ "$IRT" = 1 ] && EXTRAS+=(irt)
[ "$DEV" = 1 ] && EXTRAS+=(dev)
[ "$NATIVE" = 1 ] && EXTRAS+=(native)
if [ "${#EXTRAS[@]}" -gt 0 ]; then
  SPEC=".[$(IFS=,; echo "${EXTRAS[*]}")]"
else
  SPEC="."
fi
"${PIP[@]}" install --quiet -e "$SPEC"

if [ "$NATIVE" = 1 ]; then
  if ! .venv/bin/python scripts/build_native.py; then
    if [ "${EARSHOT_REQUIRE_NATIVE:-0}" = 1 ]; then
      echo "The judge's compiled build failed (EARSHOT_REQUIRE_NATIVE=1)." >&2
      exit 1
    fi
    echo "warning: the judge's compiled build failed; it runs from its Python sources." >&2
  fi
fi
