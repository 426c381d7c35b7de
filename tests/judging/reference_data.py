"""Where the human-labelled answer-equivalence sets live, and a skip for when they don't."""

from __future__ import annotations

import pytest

from judging import native
from judging.train_calibrator import DATA_DIR as DATA

needs_data = pytest.mark.skipif(
    not (DATA / "evouna_nq.jsonl").exists(),
    reason=f"reference data not found in {DATA} (see ../shared/data/README)",
)

# Tests that replace or copy the judge's Python functions and objects run on the sources
# only; CI runs the judging tests once more with EARSHOT_PURE=1 (see judging/native.py).
needs_pure = pytest.mark.skipif(
    native.compiled(),
    reason="reads the judge's Python code (monkeypatching, copies); runs under EARSHOT_PURE=1",
)
