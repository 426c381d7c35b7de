"""The IRT core must not import Django (it runs in notebooks and GPU workers).

One subprocess imports the modules one by one and records, after each import,
whether Django got loaded (one interpreter start instead of seven keeps this fast
on the shared box); each module then gets its own table-driven assertion.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.irt._pure import _test_settings  # noqa: F401  (pure test: no Django settings)

ROOT = Path(__file__).resolve().parents[2]
MODULES = ("irt.ids", "irt.bank", "irt.adaptive", "irt.priors", "irt.map_np", "irt.two_pl", "irt.mml", "irt.simulate", "irt.fit", "irt.fit_torch", "irt.report", "irt.plots")

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
    assert django_after_import[module] == [], f"{module} pulled in {django_after_import[module]}"
