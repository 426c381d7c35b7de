"""Where the human-labelled answer-equivalence sets live, and a skip for when they don't."""

from __future__ import annotations

import pytest

from judging.train_calibrator import DATA_DIR as DATA

needs_data = pytest.mark.skipif(
    not (DATA / "evouna_nq.jsonl").exists(),
    reason=f"reference data not found in {DATA} (see ../shared/data/README)",
)
