"""The quiz's file-handling cores import without Django (usable from scripts and notebooks)."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["quiz.audio", "quiz.importing", "quiz.validation", "quiz.synth", "quiz.demo"])
def test_module_does_not_import_django(module):
    code = f"import sys, {module}; sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr or f"{module} imported Django"
