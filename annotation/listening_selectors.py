"""Reads for the reports of multi-stimulus listening tests (AB … ranking).

``stimulus_ratings_frame`` builds the long table :mod:`annotation.listening_report`
expects (one row per stored value, with the stimulus' role and label and, for AB/ABX,
the item's A/B labels and which of them X is); ``listening_report_for`` runs the
statistics per criterion after the exclusions (rater QC, and for MUSHRA the
BS.1534-3 post-screening). Researcher-only: labels name systems and roles.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from . import listening_tests, plots
from .listening_report import ListeningReport, listening_report
from .models import Campaign, ItemKind, Rating, Stimulus
from .report import CampaignReport
from .scales import numeric_bounds

__all__ = ["LISTENING_TABLES", "ListeningSummary", "is_listening_test", "listening_figures",
           "listening_report_for", "listening_tables",
           "per_stimulus_units", "stimulus_ratings_frame", "stimulus_table", "stimulus_units"]


def is_listening_test(campaign: Campaign) -> bool:
    """Whether the campaign is a multi-stimulus listening test (AB, ABX, CCR, ... ranking)."""
    return listening_tests.spec_for(campaign.template) is not None


def per_stimulus_units(campaign: Campaign) -> bool:
    """Whether each stimulus is rated (CCR/DCR/SMOS/MUSHRA/ranking), not chosen (AB/ABX)."""
    spec = listening_tests.spec_for(campaign.template)
    return spec is not None and bool(spec.rated)


def _label(role: str, system: str, condition: str) -> str:
    if role == listening_tests.HIDDEN_REFERENCE:
        return "hidden_reference"
    return system or condition or role


def stimulus_table(campaign: Campaign) -> pd.DataFrame:
    """Every stimulus of the campaign's items: ``pk, item_pk, item_id, position, role,
    system, condition, clip_id, label, kind`` (``item_id`` is the item's external id)."""
    rows = list(Stimulus.objects.filter(item__campaign=campaign).order_by("item_id", "position").values_list(
        "pk", "item_id", "item__external_id", "position", "role", "system", "condition", "clip_id", "item__kind"))
    frame = pd.DataFrame.from_records(rows, columns=["pk", "item_pk", "item_id", "position", "role", "system",
                                                     "condition", "clip_id", "kind"])
    frame["label"] = [_label(r, s, c) for r, s, c in
                      zip(frame["role"], frame["system"], frame["condition"], strict=True)]
    return frame


def stimulus_units(campaign: Campaign, out: pd.DataFrame, stimulus_ids: np.ndarray) -> pd.DataFrame:
    """``ratings_frame`` rows re-keyed to the rated stimulus: ``item_id`` becomes
    ``<item>#<position>`` and ``system``/``condition`` the stimulus' label/condition."""
    stim = stimulus_table(campaign)
    pos = pd.Index(stim["pk"]).get_indexer(stimulus_ids)
    has = pos >= 0
    unit = np.array([f"{i}#{p}" for i, p in zip(stim["item_id"], stim["position"], strict=True)], dtype=object)
    item = out["item_id"].astype(str).to_numpy(dtype=object)
    item[has] = unit[pos[has]]
    system = np.full(len(out), "", dtype=object)
    system[has] = stim["label"].to_numpy(dtype=object)[pos[has]]
    condition = np.full(len(out), "", dtype=object)
    cond = np.where(stim["condition"] != "", stim["condition"], stim["role"]).astype(object)
    condition[has] = cond[pos[has]]
    return out.assign(item_id=pd.Categorical(item), system=pd.Categorical(system),
                      condition=pd.Categorical(condition))


def stimulus_ratings_frame(campaign: Campaign, *, min_heard: float | None = None) -> pd.DataFrame:
    """One row per value of the campaign's regular items, for :func:`listening_report`.

    Columns: ``item_id, rater_id, criterion, value, role, label, condition`` (the
    stimulus rated or chosen; empty for "no preference"), and for AB/ABX ``a_label``,
    ``b_label`` and ``x_is`` (``A``/``B``: the stimulus with X's clip). ``min_heard``
    leaves out values whose stimulus was heard less than that share.
    """
    qs = Rating.objects.filter(campaign=campaign, item__kind=ItemKind.REGULAR)
    if min_heard is not None:
        qs = qs.exclude(heard_fraction__lt=min_heard)
    rows = list(qs.order_by("pk").values_list("item_id", "annotator__public_id", "criterion", "value",
                                              "stimulus_id"))
    cols = ["item_id", "rater_id", "criterion", "value", "role", "label", "condition",
            "a_label", "b_label", "x_is"]
    if not rows:
        return pd.DataFrame(columns=cols)
    raw = pd.DataFrame.from_records(rows, columns=["item_pk", "rater_id", "criterion", "value", "stimulus_id"])
    stim = stimulus_table(campaign)
    sid = raw["stimulus_id"].fillna(0).astype(int).to_numpy()
    pos = pd.Index(stim["pk"]).get_indexer(sid)
    has = pos >= 0

    def pick(col: str) -> np.ndarray:
        out = np.full(len(raw), "", dtype=object)
        out[has] = stim[col].to_numpy(dtype=object)[pos[has]]
        return out

    external = dict(zip(stim["item_pk"], stim["item_id"], strict=False))
    frame = pd.DataFrame({
        "item_id": [external.get(pk, str(pk)) for pk in raw["item_pk"]],
        "rater_id": raw["rater_id"].to_numpy(),
        "criterion": raw["criterion"].to_numpy(),
        "value": raw["value"].to_numpy(),
        "role": pick("role"), "label": pick("label"), "condition": pick("condition"),
    })
    # AB / ABX: the labels of each item's A and B, and which of them X's audio is
    ab = stim[stim["role"].isin(["A", "B", "X"])]
    a_label = dict(zip(ab.loc[ab["role"] == "A", "item_pk"], ab.loc[ab["role"] == "A", "label"], strict=True))
    b_label = dict(zip(ab.loc[ab["role"] == "B", "item_pk"], ab.loc[ab["role"] == "B", "label"], strict=True))
    clips = {(r.item_pk, r.role): r.clip_id for r in ab.itertuples(index=False)}
    x_is = {}
    for item_pk in {k[0] for k in clips if k[1] == "X"}:
        x = clips[(item_pk, "X")]
        x_is[item_pk] = "A" if clips.get((item_pk, "A")) == x else ("B" if clips.get((item_pk, "B")) == x else "")
    frame["a_label"] = [a_label.get(pk, "") for pk in raw["item_pk"]]
    frame["b_label"] = [b_label.get(pk, "") for pk in raw["item_pk"]]
    frame["x_is"] = [x_is.get(pk, "") for pk in raw["item_pk"]]
    return frame[cols]


@dataclass(frozen=True)
class ListeningSummary:
    """The listening-test part of a campaign report.

    ``reports``: criterion key → :class:`ListeningReport`; ``screening``: the
    post-screening table per listener (MUSHRA; empty otherwise) and ``excluded``: every
    listener left out with the reason (rater QC or post-screening). ``values``: the
    values the statistics used (after the exclusions), for the plots.
    """

    template: str
    reports: Mapping[str, ListeningReport]
    excluded: pd.DataFrame
    screening: pd.DataFrame = field(default_factory=pd.DataFrame)
    notes: tuple[str, ...] = ()
    values: pd.DataFrame = field(default_factory=pd.DataFrame)


def _post_screen(frame: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, str], str]:
    """BS.1534-3 post-screening when the screening module is installed."""
    try:
        from .post_screening import mushra_post_screen  # type: ignore[import-not-found]
    except ImportError:  # pragma: no cover - the module ships with the screening work
        return pd.DataFrame(), {}, "BS.1534-3 post-screening is not available in this installation."
    num = frame.assign(score=pd.to_numeric(frame["value"], errors="coerce"))
    num = num.loc[num["score"].notna()]
    if num.empty:
        return pd.DataFrame(), {}, ""
    mid = {c for c in num.loc[num["role"] == "anchor", "condition"].astype(str)
           if c.replace(" ", "").lower() in {"lp7000", "lp7k", "lp7khz", "7khz", "7k"}}
    result = mushra_post_screen(num[["rater_id", "item_id", "role", "condition", "score"]],
                                mid_anchor_conditions=mid or None)
    reasons = {str(r): result.raters.loc[r, "reasons"] for r in result.excluded_raters}
    return result.raters.reset_index(), reasons, ("BS.1534-3 post-screening applied (hidden reference "
                                                   "below 90 in more than 15 % of items; mid-range anchor "
                                                   "above 90 in more than 15 %).")


def listening_report_for(campaign: Campaign, report: CampaignReport | None = None, *,
                         min_heard: float | None = None) -> ListeningSummary | None:
    """Statistics of a listening-test campaign per criterion; ``None`` for other templates.

    Listeners excluded by the campaign's rater QC (``report.exclusions``) and, for
    MUSHRA, by post-screening are left out of every table; ``excluded`` lists them
    with the reason.
    """
    if not is_listening_test(campaign):
        return None
    frame = stimulus_ratings_frame(campaign, min_heard=min_heard)
    reasons: dict[str, str] = {}
    if report is not None and len(report.exclusions.excluded):
        for rater, row in report.exclusions.excluded.iterrows():
            reasons[str(rater)] = "rater QC: " + str(row.get("reasons", ""))
    notes: list[str] = []
    screening = pd.DataFrame()
    if campaign.template == "mushra" and not frame.empty:
        screening, post, note = _post_screen(frame)
        if note:
            notes.append(note)
        for rater, why in post.items():
            reasons[rater] = (reasons[rater] + "; " if rater in reasons else "") + "post-screening: " + why
    excluded = pd.DataFrame({"rater_id": list(reasons), "reason": list(reasons.values())})
    reports: dict[str, ListeningReport] = {}
    for crit in campaign.criteria:
        key = crit["key"]
        sub = frame[frame["criterion"] == key] if not frame.empty else frame
        bounds = numeric_bounds(crit)
        reports[key] = listening_report(sub, campaign.template, excluded=list(reasons),
                                        scale=bounds if bounds and not any(map(math.isinf, bounds)) else None)
    kept = frame[~frame["rater_id"].isin(list(reasons))] if len(frame) else frame
    return ListeningSummary(campaign.template, reports, excluded, screening, tuple(notes), kept)


SCALES = {"mushra": (0.0, 100.0), "ccr": (-3.0, 3.0), "dcr": (1.0, 5.0), "smos": (1.0, 5.0)}


def listening_figures(summary: ListeningSummary, criterion: str, *, fmt: str = "html") -> list:
    """The plots of one criterion: violins + boxes per condition (scores, ranks),
    preference bars (AB) or accuracy bars (ABX), each with its 95 % CI. ``fmt`` as
    :func:`annotation.plots.condition_plot` (page SVG, or SVG/PNG file bytes)."""
    rep = summary.reports[criterion]
    values = summary.values
    crit = values[values["criterion"] == criterion] if len(values) else values
    figures = []
    if summary.template in SCALES and len(crit):
        num = crit.assign(value=pd.to_numeric(crit["value"], errors="coerce"))
        figures.append(plots.condition_plot(num, scale=SCALES[summary.template],
                                            title=f"{rep.measure} — {criterion}", fmt=fmt))
    elif summary.template == "ranking" and len(crit) and "ranks" in rep.tables:
        figures.append(plots.condition_plot(crit.assign(value=pd.to_numeric(crit["value"], errors="coerce")),
                                            order=list(rep.tables["ranks"]["system"]),
                                            title=f"Ranks — {criterion} (1 = best)", fmt=fmt))
    elif summary.template == "ab" and "preference" in rep.tables:
        figures.append(plots.preference_plot(rep.tables["preference"], fmt=fmt))
    elif summary.template == "abx" and "abx" in rep.tables:
        figures.append(plots.abx_plot(rep.tables["abx"], fmt=fmt))
    return [f for f in figures if f]


#: export names of the listening-test tables (each one CSV / JSON / Parquet download)
LISTENING_TABLES: tuple[str, ...] = ("systems", "pairwise", "preference", "preference_systems", "abx",
                                     "ranks", "friedman", "listening_excluded", "post_screening")


def listening_tables(summary: ListeningSummary | None) -> dict[str, pd.DataFrame]:
    """The export tables of a listening test, each with a leading ``criterion`` column
    (the criteria stacked); only the tables the template has. ``friedman`` has one row
    per criterion; ``listening_excluded`` lists the excluded listeners with reasons."""
    if summary is None:
        return {}
    parts: dict[str, list[pd.DataFrame]] = {}
    for key, rep in summary.reports.items():
        for name, table in rep.tables.items():
            parts.setdefault(name, []).append(table.assign(criterion=key)[["criterion", *table.columns]])
        f = rep.friedman
        if f is not None:
            parts.setdefault("friedman", []).append(pd.DataFrame([{
                "criterion": key, "statistic": f.statistic, "df": f.df, "p_value": f.p_value,
                "n_blocks": f.n_blocks, "k": f.k, "kendall_w": f.kendall_w, "reason": f.reason}]))
    out = {name: pd.concat(frames, ignore_index=True) for name, frames in parts.items()}
    out["listening_excluded"] = summary.excluded
    if not summary.screening.empty:
        out["post_screening"] = summary.screening
    return {name: out[name] for name in LISTENING_TABLES if name in out}
