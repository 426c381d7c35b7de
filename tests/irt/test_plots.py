"""Plot helpers render PNG/SVG bytes from report tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irt import plots, report
from irt.fit import IrtResult
from tests.irt._pure import _test_settings  # noqa: F401  (pure test: no Django settings)


@pytest.fixture
def res() -> IrtResult:
    th = np.array([-1.0, 0.0, 1.0, 2.0])
    sd = np.full(4, 0.3)
    return IrtResult(theta=th, theta_sd=sd, theta_ci=np.stack([th - 0.6, th + 0.6], 1),
                     a=np.array([1.0, 1.5, 0.7]), a_sd=np.zeros(3), b=np.array([-1.0, 0.0, 1.0]),
                     b_sd=np.zeros(3), c=None, loss=np.zeros(1), method="map", model="2pl", seed=0,
                     timings={}, n_obs=0)


def _figs(res: IrtResult):  # type: ignore[no-untyped-def]
    rt = pd.DataFrame({"responder_id": list("abcd"), "kind": ["human", "human", "model", "model"],
                       "name": list("ABCD"), "theta": res.theta, "theta_lo": res.theta_ci[:, 0],
                       "theta_hi": res.theta_ci[:, 1]})
    cat = pd.DataFrame({"category": ["x", "y"], "mean_b": [-0.5, 0.7], "accuracy_human": [0.7, 0.4],
                        "accuracy_model": [0.9, 0.6]})
    return {
        "abilities": plots.ability_distributions(rt),
        "categories": plots.category_accuracy_vs_difficulty(cat),
        "icc": plots.icc_plot(report.item_characteristic_curves(res)),
        "information": plots.test_information_plot(report.test_information(res)),
    }


@pytest.mark.parametrize("fmt", [pytest.param("png", id="png"), pytest.param("svg", id="svg")])
def test_figures_render(res: IrtResult, fmt: str) -> None:
    for name, fig in _figs(res).items():
        data = plots.to_bytes(fig, fmt)
        if fmt == "png":
            assert data.startswith(b"\x89PNG"), name
        else:
            assert b"<svg" in data[:500], name


def test_unknown_format_is_rejected(res: IrtResult) -> None:
    with pytest.raises(ValueError, match="unsupported format"):
        plots.to_bytes(_figs(res)["icc"], "gif")
