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


def _out(fig, fmt: str):
    """``"html"``: SVG text to inline in a page; ``"svg"`` / ``"png"``: file bytes."""
    if fmt == "html":
        return _svg(fig)
    if fmt not in ("svg", "png"):
        plt.close(fig)
        raise ValueError(f"fmt must be html, svg or png, got {fmt!r}")
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, bbox_inches="tight", dpi=110)
    plt.close(fig)
    return buf.getvalue()


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


def condition_plot(values: pd.DataFrame, *, label: str = "label", value: str = "value",
                   order: list[str] | None = None, title: str = "",
                   scale: tuple[float, float] | None = None, fmt: str = "html") -> str | bytes | None:
    """Scores per condition as violins with a box plot inside (median, quartiles, 1.5 IQR
    whiskers) and the mean as a dot; ``order`` top to bottom (default: best mean first).

    For MUSHRA (0–100), CCR (−3…+3), DCR/SMOS (1–5) and ranks. ``None`` when empty.
    """
    data = values.loc[values[value].notna(), [label, value]]
    if data.empty:
        return None
    data = data.assign(**{value: data[value].astype(float), label: data[label].astype(str)})
    means = data.groupby(label)[value].mean()
    names = order or list(means.sort_values(ascending=False).index)
    groups = [data.loc[data[label] == n, value].to_numpy() for n in names]
    keep = [i for i, g in enumerate(groups) if len(g)]
    names, groups = [names[i] for i in keep], [groups[i] for i in keep]
    fig, ax = plt.subplots(figsize=(6.5, 0.55 * len(names) + 1.4))
    pos = np.arange(len(names))[::-1]
    spread = [i for i, g in enumerate(groups) if np.ptp(g) > 0]
    if spread:  # a violin needs some spread
        parts = ax.violinplot([groups[i] for i in spread], positions=pos[spread], orientation="horizontal",
                              showextrema=False, widths=0.8)
        for body in parts["bodies"]:
            body.set_facecolor(ACCENT)
            body.set_alpha(0.18)
    ax.boxplot(groups, positions=pos, orientation="horizontal", widths=0.3, showfliers=True,
               medianprops={"color": ACCENT, "linewidth": 2}, flierprops={"markersize": 3})
    ax.plot([g.mean() for g in groups], pos, "o", color="#c92a2a", markersize=5, label="mean")
    ax.set_yticks(pos, names)
    if scale is not None:
        pad = 0.03 * (scale[1] - scale[0])
        ax.set_xlim(scale[0] - pad, scale[1] + pad)
    ax.set_xlabel(f"{value} (box: median and quartiles; dot: mean)")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return _out(fig, fmt)


def _share_bars(labels: list[str], share: np.ndarray, low: np.ndarray, high: np.ndarray, *,
                xlabel: str, title: str, fmt: str = "html") -> str | bytes:
    fig, ax = plt.subplots(figsize=(6.5, 0.5 * len(labels) + 1.3))
    y = np.arange(len(labels))[::-1]
    err = np.vstack([np.nan_to_num(share - low), np.nan_to_num(high - share)]).clip(min=0)
    ax.barh(y, np.nan_to_num(share), color=ACCENT, alpha=0.8, xerr=err, capsize=4)
    ax.axvline(0.5, color="0.3", linestyle="--", linewidth=1)
    ax.set_xlim(0, 1)
    ax.set_yticks(y, labels)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return _out(fig, fmt)


def preference_plot(pairs: pd.DataFrame, *, fmt: str = "html") -> str | bytes | None:
    """AB preference: share of the first system per pair with its Wilson 95 % CI; the
    dashed line is no preference (50 %)."""
    if pairs.empty:
        return None
    labels = [f"{a} over {b} (n={n})" for a, b, n in
              zip(pairs["first"], pairs["second"], pairs["n_first"] + pairs["n_second"], strict=True)]
    return _share_bars(labels, pairs["share_first"].to_numpy(dtype=float),
                       pairs["ci_low"].to_numpy(dtype=float), pairs["ci_high"].to_numpy(dtype=float),
                       xlabel="preference share (95 % Wilson CI; ties left out)", title="AB preference",
                       fmt=fmt)


def abx_plot(abx: pd.DataFrame, *, by: str = "pair", fmt: str = "html") -> str | bytes | None:
    """ABX accuracy per pair with its Wilson 95 % CI; the dashed line is guessing (50 %)."""
    if abx.empty:
        return None
    labels = [f"{p} (n={n})" for p, n in zip(abx[by], abx["n"], strict=True)]
    return _share_bars(labels, abx["accuracy"].to_numpy(dtype=float), abx["ci_low"].to_numpy(dtype=float),
                       abx["ci_high"].to_numpy(dtype=float),
                       xlabel="share correct (95 % Wilson CI); dashed: chance", title="ABX accuracy",
                       fmt=fmt)
