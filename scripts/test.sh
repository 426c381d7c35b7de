#!/usr/bin/env bash
# Install everything (dev extras and Debian's Chromium for browser tests) and run the
# whole test suite. Uses SQLite unless DATABASE_URL points at PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh --dev
if ! command -v chromium >/dev/null 2>&1 && [ ! -x "${EARSHOT_CHROMIUM:-/usr/bin/chromium}" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's chromium for the browser tests..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Browser tests need Chromium: run 'sudo apt-get install chromium' (or set EARSHOT_CHROMIUM)." >&2
    exit 1
  fi
fi
exec .venv/bin/python -m pytest "$@"
