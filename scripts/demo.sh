#!/usr/bin/env bash
# Install everything and serve the demo on the embedded default (SQLite, inline jobs)
# at http://127.0.0.1:8000.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh --pure  # (the demo needs no compiled judge: a quicker install)
export DJANGO_DEBUG="${DJANGO_DEBUG:-1}"
.venv/bin/python manage.py migrate --noinput
.venv/bin/python manage.py quiz_demo
echo "Earshot demo: http://127.0.0.1:8000/  (researcher / earshot-demo)"
exec .venv/bin/python manage.py runserver 127.0.0.1:8000
