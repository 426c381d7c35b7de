"""The annotation core modules are pure: importing them must not load Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _test_settings():
    """Pure tests need no Django settings: overrides the shared conftest's autouse fixture,
    so this module also runs with ``pytest -p no:django``."""


MODULES = ("annotation.agreement", "annotation.quality", "annotation.assignment",
           "annotation.report", "annotation.listening_stats", "annotation.listening_report",
           "annotation.listening_tests", "annotation.scales")


def test_pure_modules_import_without_django() -> None:
    # one fresh interpreter for all four (if together they load no Django, none does);
    # scipy/pandas imports dominate the cost, so one process keeps the test quick
    code = (
        "import sys, importlib\n"
        f"for name in {MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "    loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "    assert not loaded, (name, loaded)\n"
        "print('ok')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
