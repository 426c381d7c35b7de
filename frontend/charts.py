"""Dashboard charts: server-rendered with matplotlib (Agg), no JavaScript, no network.

Each dashboard table has one chart, drawn from the table itself, so the chart,
its CSV and the page always show the same numbers. SVG output is deterministic
(fixed hash salt, no date) so identical data gives identical files.
"""

from __future__ import annotations

import io
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

plt.rcParams["svg.hashsalt"] = "earshot"
plt.rcParams["svg.fonttype"] = "none"

COLORS = {"human": "#2f6fdb", "model": "#e07a1f", "topline": "#1c9a6c", "free": "#6b5bd6", "mcq": "#d14f7a",
          "agreement": "#2f6fdb", "kappa": "#1c9a6c"}
PALETTE = ["#2f6fdb", "#e07a1f", "#1c9a6c", "#d14f7a", "#6b5bd6", "#8a8f98"]


def _figsize(n_labels: int, n_series: int) -> tuple[float, float]:
    """Figure size in inches of a bar chart: its height grows with the bars."""
    n, k = max(n_labels, 1), max(n_series, 1)
    return 8.5, 1.2 + 0.42 * n * max(k, 2) / 2 + 0.4


def _bars(labels: list[str], series: dict[str, list[float | None]], *, title: str, xlabel: str,
          ref: float | None = None, xmax: float = 1.0) -> Figure:
    """Horizontal grouped bars: one group per label, one bar per series."""
    n = max(len(labels), 1)
    k = max(len(series), 1)
    height = 0.8 / k
    fig = Figure(figsize=_figsize(len(labels), len(series)))
    ax = fig.add_subplot()
    y = np.arange(n)
    for i, (name, values) in enumerate(series.items()):
        vals = [np.nan if v is None or pd.isna(v) else float(v) for v in values]
        color = COLORS.get(name.split(" ")[0].lower(), PALETTE[i % len(PALETTE)])
        bars = ax.barh(y + (i - (k - 1) / 2) * height, vals, height=height * 0.92, label=name, color=color)
        for bar, v in zip(bars, vals, strict=True):
            if not np.isnan(v):
                ax.text(bar.get_width() + 0.01 * xmax, bar.get_y() + bar.get_height() / 2, f"{v:.2f}",
                        va="center", fontsize=7)
    if ref is not None:
        ax.axvline(ref, color="#8a8f98", linestyle="--", linewidth=1)
    ax.set_yticks(y, [str(label)[:48] for label in labels] or [""])
    ax.invert_yaxis()
    ax.set_xlim(0, xmax * 1.12)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=11, loc="left")
    ax.spines[["top", "right"]].set_visible(False)
    if series:
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    fig.tight_layout()
    return fig


def _spec(name: str, table: pd.DataFrame, title: str) -> tuple[list, dict, dict]:
    """Labels, series and options of the bar chart of a dashboard table."""
    if name == "headline":
        return (list(table["mode"]),
                {"human": list(table["human_accuracy"]), "topline humans": list(table["topline_accuracy"]),
                 "model": list(table["model_accuracy"])},
                {"title": title, "xlabel": "accuracy"})
    if name in ("category", "source", "qtype"):
        return (list(table["label"]), {"human": list(table["human_accuracy"]), "model": list(table["model_accuracy"])},
                {"title": title, "xlabel": "accuracy"})
    if name in ("condition", "models"):
        return (list(table["label"]), {"free": list(table["free_accuracy"]), "mcq": list(table["mcq_accuracy"])},
                {"title": title, "xlabel": "accuracy"})
    if name == "mcq_positions":
        return (list(table["group"]), {f"chose {p}": list(table[f"chose_{p}"]) for p in "ABCD"},
                {"title": title, "xlabel": "share of answers (chance 0.25)", "ref": 0.25})
    if name == "mcq_distractors":
        return (list(table["group"]), {"top distractor": list(table["top_share"]),
                                       "second": list(table["second_share"]), "third": list(table["third_share"])},
                {"title": title, "xlabel": "share of errors (uniform 0.33)", "ref": 1 / 3})
    if name == "agreement":
        return (list(table["group"]), {"agreement": list(table["agreement"]), "kappa": list(table["kappa"])},
                {"title": title, "xlabel": "pairwise agreement / kappa"})
    raise KeyError(name)


def chart_for(name: str, table: pd.DataFrame, title: str) -> Figure:
    """The figure for a dashboard table (see ``frontend.selectors.TABLES``)."""
    labels, series, options = _spec(name, table, title)
    return _bars(labels, series, **options)


def chart_size(name: str, table: pd.DataFrame) -> tuple[int, int]:
    """The SVG chart's displayed size in CSS pixels, without drawing it.

    The SVG says its size in points (inches × 72); a browser shows it at 96 px per
    inch. The page gives each ``<img>`` these as ``width``/``height`` so the browser
    reserves the chart's box before the lazy image arrives (no empty gaps that fill
    in one by one, D20).
    """
    labels, series, _options = _spec(name, table, "")
    width, height = _figsize(len(labels), len(series))
    return round(width * 96), round(height * 96)


def render(fig: Figure, fmt: str = "svg", *, dpi: int = 110) -> bytes:
    """Serialize a figure as ``svg`` or ``png`` bytes (no timestamps in the file)."""
    buffer = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else {"Software": None}
    fig.savefig(buffer, format=fmt, dpi=dpi, metadata=metadata)
    return buffer.getvalue()


CHARTED = ("headline", "category", "source", "qtype", "condition", "models",
           "mcq_positions", "mcq_distractors", "agreement")


_SVG_STYLE = re.compile(r"<style[^>]*>.*?</style>", re.DOTALL)


def svg_for_html(svg: str | bytes) -> str:
    """Matplotlib's SVG ready to inline in a page: from ``<svg`` on (no XML prolog), and
    without its ``<style>`` element, which the Content-Security-Policy would block
    (``style-src-elem 'self'``); its one rule lives in earshot.css (``figure.chart svg *``)."""
    text = svg.decode("utf-8") if isinstance(svg, bytes) else svg
    start = text.find("<svg")
    return _SVG_STYLE.sub("", text[start:] if start >= 0 else text, count=1)
