"""Report tables of a multi-stimulus listening test, by template (pure: no Django).

Input: one row per stored value of the test (a long table built by
``annotation.selectors.stimulus_ratings_frame``):

=============  ===========================================================================
column         meaning
=============  ===========================================================================
item_id        the item's external id
rater_id       the annotator's pseudonymous id
value          the stored value (text): ``A``/``B``/``none`` (AB, ABX), −3…+3 (CCR), 1–5
               (DCR, SMOS), 0–100 (MUSHRA), 1…N (ranking)
role           the rated (or chosen) stimulus' role; empty for "no preference"
label          what the report calls that stimulus: its system, else its condition, else
               its role (the hidden reference is always ``hidden_reference``)
a_label,       AB / ABX: the labels of the item's A and B stimuli
b_label
x_is           ABX: ``A`` or ``B``, the stimulus whose audio X is
=============  ===========================================================================

:func:`listening_report` turns it into the tables of the template (see
``docs/annotation-statistics.md``, *Listening tests*): per system means with CIs,
pairwise Wilcoxon tests with Holm's correction, preference shares, ABX accuracy, MUSHRA
means and medians after post-screening, mean ranks with Friedman's test.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from annotation.listening_stats import (
    FriedmanResult,
    abx_table,
    mean_table,
    mushra_table,
    pairwise_table,
    preference_table,
    rank_table,
    wilson_interval,
)

__all__ = ["LISTENING_TEMPLATES", "SCORED_TEMPLATES", "ListeningReport", "listening_report"]

#: templates with several stimuli per item whose report this module builds
LISTENING_TEMPLATES: tuple[str, ...] = ("ab", "abx", "ccr", "dcr", "smos", "mushra", "ranking")
#: templates whose values are scores of one stimulus (means per system)
SCORED_TEMPLATES: dict[str, str] = {"ccr": "CMOS", "dcr": "DMOS", "smos": "SMOS", "mushra": "MUSHRA"}


@dataclass(frozen=True)
class ListeningReport:
    """The tables of one listening test; every table is a plain DataFrame to export.

    ``tables`` keys, present when the template has them: ``systems`` (mean ± CI per
    system, or MUSHRA per condition), ``pairwise`` (Wilcoxon + Holm), ``preference``
    (per pair) and ``preference_systems`` (per system), ``abx``, ``ranks``.
    ``friedman`` is the test over the ranks (ranking, MUSHRA). ``notes`` are sentences
    the report prints (how ties were handled, who was excluded, which pairing).
    """

    template: str
    measure: str
    tables: Mapping[str, pd.DataFrame]
    friedman: FriedmanResult | None = None
    excluded: tuple[Any, ...] = ()
    notes: tuple[str, ...] = ()
    counts: Mapping[str, int] = field(default_factory=dict)


def _as(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """``frame`` with ``label`` renamed to ``name`` (an existing ``name`` column dropped)."""
    return frame.drop(columns=[name], errors="ignore").rename(columns={"label": name})


def _numeric(frame: pd.DataFrame) -> pd.DataFrame:
    values = pd.to_numeric(frame["value"].astype(str), errors="coerce")
    return frame.assign(value=values.to_numpy(dtype=float)).loc[values.notna().to_numpy()]


def _system_preference(pairs: pd.DataFrame, confidence: float) -> pd.DataFrame:
    """Wins over all comparisons of each system (ties left out), with a Wilson CI."""
    wins: dict[str, int] = {}
    losses: dict[str, int] = {}
    ties: dict[str, int] = {}
    for row in pairs.itertuples(index=False):
        for me, w, lo in ((row.first, row.n_first, row.n_second), (row.second, row.n_second, row.n_first)):
            wins[me] = wins.get(me, 0) + int(w)
            losses[me] = losses.get(me, 0) + int(lo)
            ties[me] = ties.get(me, 0) + int(row.n_tie)
    rows = []
    for sys_ in sorted(wins):
        n = wins[sys_] + losses[sys_]
        lo, hi = wilson_interval(wins[sys_], n, confidence)
        rows.append({"system": sys_, "wins": wins[sys_], "losses": losses[sys_], "ties": ties[sys_],
                     "win_share": wins[sys_] / n if n else math.nan, "ci_low": lo, "ci_high": hi})
    out = pd.DataFrame(rows, columns=["system", "wins", "losses", "ties", "win_share", "ci_low", "ci_high"])
    return out.sort_values("win_share", ascending=False, kind="stable").reset_index(drop=True)


def listening_report(
    frame: pd.DataFrame,
    template: str,
    *,
    excluded: Collection[Any] = (),
    scale: tuple[float, float] | None = None,
    ties: str = "exclude",
    confidence: float = 0.95,
) -> ListeningReport:
    """All statistics of one listening test (``template`` one of :data:`LISTENING_TEMPLATES`).

    ``excluded``: rater ids left out of everything (MUSHRA post-screening, QC);
    ``scale``: the score range for the means' CIs (CCR −3…3, DCR/SMOS 1–5, MUSHRA
    0–100); ``ties``: "no preference" in AB tests (``"exclude"`` or ``"split"``).
    """
    if template not in LISTENING_TEMPLATES:
        raise ValueError(f"not a listening-test template: {template!r}; one of {LISTENING_TEMPLATES}")
    for col in ("item_id", "rater_id", "value"):
        if col not in frame:
            raise ValueError(f"listening ratings need a {col!r} column")
    excluded = tuple(excluded)
    n_in = len(frame)
    data = frame.loc[~frame["rater_id"].isin(list(excluded))] if excluded else frame
    counts = {"values_in": n_in, "values_excluded": n_in - len(data), "values_used": len(data),
              "raters": int(data["rater_id"].nunique()), "items": int(data["item_id"].nunique())}
    notes: list[str] = []
    if excluded:
        notes.append(f"{len(excluded)} listener(s) excluded before every statistic "
                     f"({counts['values_excluded']} values).")
    tables: dict[str, pd.DataFrame] = {}
    friedman = None
    measure = SCORED_TEMPLATES.get(template, {"ab": "preference", "abx": "ABX accuracy",
                                              "ranking": "rank"}.get(template, template))
    if data.empty:
        return ListeningReport(template, measure, tables, None, excluded, tuple(notes), counts)

    if template == "ab":
        pairs = preference_table(data.assign(system_a=data["a_label"], system_b=data["b_label"],
                                             choice=data["value"]), ties=ties, confidence=confidence)  # type: ignore[arg-type]
        tables["preference"] = pairs
        tables["preference_systems"] = _system_preference(pairs, confidence)
        notes.append("Ties ('no preference') are counted but left out of shares and sign tests."
                     if ties == "exclude" else
                     "Ties ('no preference') count half to each system; the exact test gives an odd "
                     "tie to the system with fewer wins.")
        notes.append("p (Holm): sign-test p-values corrected over all pairs of systems.")
    elif template == "abx":
        a, b = data["a_label"].astype(str), data["b_label"].astype(str)
        pair = np.where(a <= b, a + " vs " + b, b + " vs " + a)
        abx = data.assign(pair=pair, correct=data["value"].astype(str) == data["x_is"].astype(str))
        tables["abx"] = abx_table(abx, "pair", confidence=confidence)
        notes.append("p: one-sided exact binomial test against guessing (50 %).")
    elif template in ("ccr", "dcr", "smos"):
        num = _numeric(data)
        tables["systems"] = mean_table(num, "label", scale=scale, confidence=confidence,
                                       medians=True).rename(columns={"label": "system"})
        # one system stimulus per item: systems are compared within listeners
        tables["pairwise"] = pairwise_table(num, system="label", block=("rater_id",)).rename(
            columns={"first": "system_1", "second": "system_2"})
        notes.append("Pairwise: Wilcoxon signed-rank on each listener's mean score per system "
                     "(listeners who rated both), Holm-corrected over all pairs.")
    elif template == "mushra":
        num = _numeric(data)
        tables["systems"] = mushra_table(_as(num, "condition"),
                                         scale=scale or (0.0, 100.0), confidence=confidence)
        tables["pairwise"] = pairwise_table(num, system="label").rename(
            columns={"first": "system_1", "second": "system_2"})
        ranks, friedman = rank_table(_as(num, "system"), value="value",
                                     higher_is_better=True)
        tables["ranks"] = ranks
        notes.append("Pairwise: Wilcoxon signed-rank on paired scores (same listener, same item), "
                     "Holm-corrected over all pairs; ranks: 1 = best within each screen.")
    else:  # ranking
        num = _numeric(data)
        ranks, friedman = rank_table(_as(num, "system"), value="value")
        tables["ranks"] = ranks
        tables["pairwise"] = pairwise_table(num, system="label").rename(
            columns={"first": "system_1", "second": "system_2"})
        notes.append("Mean rank: 1 = best. Friedman's test over complete screens; pairwise "
                     "Wilcoxon on ranks, Holm-corrected (mean_diff < 0: system 1 ranked better).")
    return ListeningReport(template, measure, tables, friedman, excluded, tuple(notes), counts)
