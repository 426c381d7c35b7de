"""Matplotlib figures for IRT reports (Agg backend; no display, no Django).

Every function returns a ``matplotlib.figure.Figure`` attached to an Agg canvas;
:func:`to_bytes` renders it to PNG or SVG bytes for a download or an HTML report.
Figures are built with the object API (``Figure()`` + ``FigureCanvasAgg``), never
``pyplot``, so no global backend is switched and threads in a web worker do not
share state.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = [
    "ability_distributions",
    "category_accuracy_vs_difficulty",
    "icc_plot",
    "test_information_plot",
    "to_bytes",
]


def _new(figsize: tuple[float, float]) -> Figure:
    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    return fig


def to_bytes(fig: Figure, fmt: str = "png", *, dpi: int = 120) -> bytes:
    """Render ``fig`` as ``"png"`` or ``"svg"`` bytes."""
    if fmt not in ("png", "svg"):
        raise ValueError(f"unsupported format {fmt!r}; use 'png' or 'svg'")
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=dpi, bbox_inches="tight")
    return buf.getvalue()


def ability_distributions(responder_table: pd.DataFrame, *, bins: int = 30) -> Figure:
    """Humans' and models' abilities on one theta scale: a histogram of human theta
    and one marker per model system with its 95 % interval.

    ``responder_table``: output of :func:`irt.report.responder_table`.
    """
    fig = _new((8, 4.5))
    ax = fig.add_subplot(1, 1, 1)
    hum = responder_table[responder_table["kind"] == "human"]
    mod = responder_table[responder_table["kind"] == "model"].sort_values("theta")
    if len(hum):
        ax.hist(hum["theta"], bins=bins, color="#8fb3d9", edgecolor="white", label=f"humans (n={len(hum)})")
    ymax = max(ax.get_ylim()[1], 1.0)
    if len(mod):
        ys = np.linspace(0.15, 0.9, len(mod)) * ymax
        ax.errorbar(
            mod["theta"], ys,
            xerr=[mod["theta"] - mod["theta_lo"], mod["theta_hi"] - mod["theta"]],
            fmt="o", color="#c0392b", capsize=3, label=f"models (n={len(mod)}), 95% CI",
        )
        for x, y, name in zip(mod["theta"], ys, mod.get("name", mod["responder_id"]), strict=False):
            ax.annotate(str(name), (x, y), xytext=(4, 3), textcoords="offset points", fontsize=7)
    ax.set_xlabel("ability θ (logit scale; humans anchor N(0, 1))")
    ax.set_ylabel("humans per bin")
    ax.set_title("Abilities of humans and models")
    ax.legend(loc="upper left", fontsize=8)
    return fig


def category_accuracy_vs_difficulty(category_table: pd.DataFrame) -> Figure:
    """Accuracy of each category against its mean item difficulty ``b``.

    ``category_table``: output of :func:`irt.report.category_difficulty`; plots the
    per-kind accuracies when present.
    """
    fig = _new((6.5, 4.5))
    ax = fig.add_subplot(1, 1, 1)
    cols = [c for c in category_table.columns if c.startswith("accuracy_")] or ["accuracy"]
    for col in cols:
        ax.scatter(category_table["mean_b"], category_table[col], label=col.replace("accuracy_", "") or "all")
    for _, r in category_table.iterrows():
        ax.annotate(str(r["category"]), (r["mean_b"], r[cols[0]]), xytext=(3, 3), textcoords="offset points", fontsize=7)
    ax.set_xlabel("mean item difficulty b")
    ax.set_ylabel("accuracy")
    ax.set_ylim(0, 1)
    ax.set_title("Category accuracy vs mean difficulty")
    ax.legend(fontsize=8)
    return fig


def icc_plot(curves: pd.DataFrame, *, labels: dict[int, str] | None = None) -> Figure:
    """Item characteristic curves from :func:`irt.report.item_characteristic_curves`."""
    fig = _new((6.5, 4.5))
    ax = fig.add_subplot(1, 1, 1)
    for item, grp in curves.groupby("item", sort=True):
        ax.plot(grp["theta"], grp["p"], label=(labels or {}).get(int(item), f"item {item}"))
    ax.set_xlabel("ability θ")
    ax.set_ylabel("P(correct)")
    ax.set_ylim(0, 1)
    ax.set_title("Item characteristic curves")
    if curves["item"].nunique() <= 12:
        ax.legend(fontsize=7)
    return fig


def test_information_plot(info: pd.DataFrame) -> Figure:
    """Test information and its SE from :func:`irt.report.test_information`."""
    fig = _new((6.5, 4.5))
    ax = fig.add_subplot(1, 1, 1)
    ax.plot(info["theta"], info["information"], color="#2c3e50", label="information")
    ax.set_xlabel("ability θ")
    ax.set_ylabel("test information")
    ax2 = ax.twinx()
    ax2.plot(info["theta"], info["se"], color="#e67e22", linestyle="--", label="SE = 1/√I")
    ax2.set_ylabel("standard error of θ")
    ax.set_title("Test information")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=8)
    return fig
