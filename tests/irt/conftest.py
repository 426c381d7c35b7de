"""Shared fixtures for the IRT tests: paths to the reference data and small data sets."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "irt"


def load_lsat(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
    """Expand ``lsatN.csv`` (patterns x freq) to long format plus the reference fit."""
    if not (DATA / f"{name}.csv").exists():
        pytest.skip(f"reference data {DATA / name}.csv is missing (../shared/data/irt)")
    df = pd.read_csv(DATA / f"{name}.csv")
    pat = df.drop(columns="freq").to_numpy()
    mat = np.repeat(pat, df["freq"].to_numpy(), axis=0)
    n, j = mat.shape
    ref = json.loads((DATA / "lsat_reference.json").read_text())[name]
    return np.repeat(np.arange(n), j), np.tile(np.arange(j), n), mat.ravel(), ref


@pytest.fixture(scope="session")
def lsat7() -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
    return load_lsat("lsat7")


@pytest.fixture(scope="session")
def lsat6() -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
    return load_lsat("lsat6")



@pytest.fixture(scope="session")
def lsat7_mml(lsat7):  # type: ignore[no-untyped-def]
    """The default fit of LSAT7 (shared: several tests read it)."""
    from irt.fit import fit

    s, i, y, _ = lsat7
    return fit(s, i, y)


@pytest.fixture(scope="session")
def lsat6_mml(lsat6):  # type: ignore[no-untyped-def]
    from irt.fit import fit

    s, i, y, _ = lsat6
    return fit(s, i, y, method="mml")
