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


@pytest.mark.parametrize(
    "module",
    [
        pytest.param("annotation.agreement", id="agreement"),
        pytest.param("annotation.quality", id="quality"),
        pytest.param("annotation.assignment", id="assignment"),
        pytest.param("annotation.report", id="report"),
    ],
)
def test_module_imports_without_django(module: str) -> None:
    code = (
        f"import sys, importlib; importlib.import_module({module!r}); "
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
        "assert not loaded, loaded; print('ok')"
    )
    env_free = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert env_free.returncode == 0, env_free.stderr
    assert env_free.stdout.strip() == "ok"
