"""The IRT core must not import Django (it runs in notebooks and GPU workers)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "module",
    [
        pytest.param(m, id=m)
        for m in ("irt.two_pl", "irt.fit", "irt.mml", "irt.simulate", "irt.ids", "irt.report", "irt.plots")
    ],
)
def test_pure_module_does_not_import_django(module: str) -> None:
    code = f"import sys, {module}; assert 'django' not in sys.modules, sorted(m for m in sys.modules if 'django' in m)"
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
