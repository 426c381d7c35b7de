"""Server-rendered report plots (matplotlib Agg → SVG text); no Django, no network."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

ACCENT = "#3b5bdb"


def _svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    from frontend.charts import svg_for_html

    return svg_for_html(buf.getvalue())


def mos_plot(mos: pd.DataFrame, *, by: str, criterion: str | None = None) -> str | None:
    """MOS with its 95 % CI per value of ``by`` (horizontal error bars); ``None`` when
    nothing to plot.

    Finer groups are pooled back to ``by`` with n-weighted means (plot only; tables are
    exact); the bars span the lowest ``ci_low`` and highest ``ci_high`` of the pooled
    sub-groups, which :func:`annotation.report.mos_table` keeps inside the scale. Groups
    without an interval (too few ratings) show the point alone.
    """
    if mos.empty or by not in mos:
        return None
    frame = mos
    if criterion is not None and "criterion" in frame:
        frame = frame[frame["criterion"] == criterion]
    g = frame.groupby(by, dropna=False)
    n = g["n"].sum()
    if n.empty:
        return None
    mean = g.apply(lambda d: np.average(d["mos"], weights=d["n"]), include_groups=False).to_numpy()
    low = g["ci_low"].min().to_numpy(dtype=float)
    high = g["ci_high"].max().to_numpy(dtype=float)
    labels = [str(x) if str(x) else "—" for x in n.index]
    fig, ax = plt.subplots(figsize=(6, 0.45 * len(labels) + 1.2))
    y = np.arange(len(labels))
    err = np.vstack([np.nan_to_num(mean - low), np.nan_to_num(high - mean)]).clip(min=0)
    ax.errorbar(mean, y, xerr=err, fmt="o", color=ACCENT, capsize=4)
    ax.set_yticks(y, labels)
    ax.set_xlabel("MOS (95 % CI, inside the scale: widest sub-group)")
    ax.set_title(f"MOS by {by}" + (f" — {criterion}" if criterion else ""))
    ax.grid(axis="x", alpha=0.3)
    return _svg(fig)


def agreement_plot(agreement: pd.DataFrame) -> str | None:
    """Agreement statistic per criterion as bars, Landis–Koch bands in the background."""
    if agreement.empty:
        return None
    fig, ax = plt.subplots(figsize=(6, 0.5 * len(agreement) + 1.2))
    y = np.arange(len(agreement))
    for lo, hi, shade in ((0, .2, .97), (.2, .4, .93), (.4, .6, .89), (.6, .8, .85), (.8, 1, .81)):
        ax.axvspan(lo, hi, color=str(shade), zorder=0)
    ax.barh(y, np.nan_to_num(agreement["value"].to_numpy(dtype=float)), color=ACCENT, zorder=2)
    ax.set_yticks(y, [f"{c} ({s.replace('_', ' ')})" for c, s in
                      zip(agreement["criterion"], agreement["statistic"], strict=True)])
    ax.set_xlim(min(-0.2, float(np.nanmin(agreement["value"].to_numpy(dtype=float), initial=0))), 1)
    ax.set_xlabel("agreement (κ or α); bands: Landis–Koch")
    return _svg(fig)
