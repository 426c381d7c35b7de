"""The dashboard's computations import no Django (they are reused from notebooks, and
tested against hand-computed numbers without a database)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = ("frontend.dashboard", "frontend.diagnostics", "frontend.provenance", "frontend.columns",
           "frontend.seed_stats", "frontend.seed_audita", "frontend.seed_koala", "frontend.seed_sea",
           "frontend.seed_irt", "frontend.seed_columns")

_CODE = (
    "import importlib, json, sys\n"
    "out = {}\n"
    f"for m in {MODULES!r}:\n"
    "    importlib.import_module(m)\n"
    "    out[m] = sorted(k for k in sys.modules if k == 'django' or k.startswith('django.'))\n"
    "print(json.dumps(out))\n"
)


@pytest.fixture(scope="module")
def django_after_import() -> dict[str, list[str]]:
    res = subprocess.run([sys.executable, "-c", _CODE], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("module", [pytest.param(m, id=m) for m in MODULES])
def test_pure_module_does_not_import_django(module: str, django_after_import: dict[str, list[str]]) -> None:
    assert django_after_import[module] == [], f"{module} loaded {django_after_import[module][:3]}"
