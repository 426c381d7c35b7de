"""The judging core is pure: importing it must not load Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "module",
    [
        pytest.param("judging.normalize", id="normalize"),
        pytest.param("judging.answerline", id="answerline"),
        pytest.param("judging.equivalence", id="equivalence"),
        pytest.param("judging.train_calibrator", id="train_calibrator"),
        pytest.param("judging.numbers", id="numbers"),
        pytest.param("judging.scripts", id="scripts"),
        pytest.param("judging.entities", id="entities"),
        pytest.param("judging.corrections", id="corrections"),
        pytest.param("judging.short_rules", id="short_rules"),
        pytest.param("judging.number_rules", id="number_rules"),
        pytest.param("judging.date_rules", id="date_rules"),
        pytest.param("judging.calibration", id="calibration"),
        pytest.param("judging.preparation", id="preparation"),
        pytest.param("judging.features", id="features"),
        pytest.param("judging.names", id="names"),
        pytest.param("judging.sounds", id="sounds"),
        pytest.param("judging.name_rules", id="name_rules"),
    ],
)
def test_module_imports_without_django(module: str) -> None:
    code = (
        f"import sys, {module}\n"
        "assert 'django' not in sys.modules, sorted(m for m in sys.modules if 'django' in m)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
