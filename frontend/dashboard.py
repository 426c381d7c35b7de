"""Model-vs-human dashboard: pure computations on aggregated counts (no Django).

The database does the heavy lifting (``frontend.selectors`` groups a million
responses into a few hundred count rows); this module turns those count rows into
the tables a researcher reads: headline accuracies and gaps, breakdowns, MCQ
diagnostics and inter-human agreement. Everything here takes and returns plain
Python data or pandas DataFrames, so it is tested against hand-computed numbers
without a database and reusable from a notebook.

Count rows always carry ``n`` (responses) and ``correct`` (responses judged
correct); accuracies are ``correct / n`` and ``None`` when ``n`` is 0.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd

from .provenance import FIT_COLUMNS, ThetaFit

HUMAN = "human"
MODEL = "model"
MODES = ("free", "mcq")
POSITIONS = "ABCD"

#: Default human topline: the best 20% of participants with at least 5 answers.
TOP_SHARE = 0.2
MIN_ANSWERS = 5


@dataclass(frozen=True)
class Filters:
    """Dashboard filters (GET parameters); empty string means "all".

    ``condition`` restricts *model* responses to one condition (the Audita
    modality ablation); human responses have no condition and are always kept.
    """

    mode: str = ""
    category: str = ""
    source: str = ""
    condition: str = ""
    #: "" counts independent (stage 1) answers only; "all" adds the multiple-choice
    #: second stage of the *free then MCQ* design; "2" shows the second stage alone.
    stage: str = ""
    #: keep only responses whose listened fraction is at least this (e.g. "0.9");
    #: responses without listening evidence (models, scripts) are dropped then.
    min_listened: str = ""

    KEYS = ("mode", "category", "source", "condition", "stage", "min_listened")

    @classmethod
    def from_query(cls, params: Mapping[str, str]) -> Filters:
        """Read filters from a query dict; an unknown mode is ignored."""
        values = {key: str(params.get(key, "") or "").strip()[:120] for key in cls.KEYS}
        if values["mode"] not in MODES:
            values["mode"] = ""
        if values["stage"] not in ("", "all", "1", "2"):
            values["stage"] = ""
        try:
            if values["min_listened"] and not 0 <= float(values["min_listened"]) <= 1:
                values["min_listened"] = ""
        except ValueError:
            values["min_listened"] = ""
        return cls(**values)

    def as_query(self) -> dict[str, str]:
        """The non-empty filters, for building links."""
        return {key: getattr(self, key) for key in self.KEYS if getattr(self, key)}


def accuracy(correct: float, n: float) -> float | None:
    """``correct / n``, or ``None`` when there is nothing to divide."""
    return float(correct) / float(n) if n else None


def gap(human: float | None, model: float | None) -> float | None:
    """Human minus model accuracy (positive: people are ahead)."""
    if human is None or model is None:
        return None
    return human - model


def qtype_label(mode: str, pyramidal: bool, clue_index: int | None) -> str:
    """Question type of a response: ``free``, ``mcq`` or ``pyramidal-<clue number>``.

    A pyramidal question answered in free mode after clue ``k`` (0-based) counts as
    ``pyramidal-<k+1>``: early buzzes on few clues are harder than late ones.
    """
    if mode == "mcq":
        return "mcq"
    if pyramidal and clue_index is not None and not (isinstance(clue_index, float) and math.isnan(clue_index)):
        return f"pyramidal-{int(clue_index) + 1}"
    return "free"


def _frame(rows: Iterable[Mapping] | pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    frame = rows.copy() if isinstance(rows, pd.DataFrame) else pd.DataFrame(list(rows))
    for column in columns:
        if column not in frame.columns:
            frame[column] = pd.Series(dtype="object")
    return frame


def _acc_columns(frame: pd.DataFrame, prefix: str) -> None:
    n, c = frame[f"{prefix}_n"], frame[f"{prefix}_correct"]
    frame[f"{prefix}_accuracy"] = [accuracy(ci, ni) for ci, ni in zip(c, n, strict=True)]


# --------------------------------------------------------------------------- headline


@dataclass(frozen=True)
class ModeHeadline:
    """Humans vs models in one mode."""

    mode: str
    human_n: int
    human_correct: int
    human_accuracy: float | None
    model_n: int
    model_correct: int
    model_accuracy: float | None
    gap: float | None
    topline_n: int
    topline_correct: int
    topline_accuracy: float | None
    topline_gap: float | None
    best_model: str | None
    best_model_accuracy: float | None


@dataclass(frozen=True)
class Topline:
    """The best participants: who they are (responder ids) and how they were chosen."""

    responder_ids: tuple[int, ...]
    eligible: int
    share: float
    min_answers: int


@dataclass(frozen=True)
class Headline:
    """The dashboard's top numbers."""

    modes: tuple[ModeHeadline, ...]
    topline: Topline
    counts: dict[str, int] = field(default_factory=dict)


def topline(per_responder: pd.DataFrame, *, share: float = TOP_SHARE,
            min_answers: int = MIN_ANSWERS) -> Topline:
    """Choose the best human participants.

    ``per_responder`` has one row per (human ``responder_id``, ``mode``) with ``n``
    and ``correct``. Participants with at least ``min_answers`` answers (all modes
    together) are ranked by accuracy (ties: more answers first, then lower id) and
    the top ``ceil(share × eligible)`` are kept (at least one when any is eligible).
    """
    frame = _frame(per_responder, ["responder_id", "n", "correct"])
    if frame.empty:
        return Topline((), 0, share, min_answers)
    totals = frame.groupby("responder_id", as_index=False)[["n", "correct"]].sum()
    totals = totals[totals["n"] >= min_answers]
    if totals.empty:
        return Topline((), 0, share, min_answers)
    totals = totals.assign(acc=totals["correct"] / totals["n"])
    totals = totals.sort_values(["acc", "n", "responder_id"], ascending=[False, False, True])
    keep = max(1, math.ceil(share * len(totals) - 1e-9))
    ids = tuple(int(i) for i in totals["responder_id"].head(keep))
    return Topline(ids, len(totals), share, min_answers)


def headline(per_responder: pd.DataFrame, *, share: float = TOP_SHARE,
             min_answers: int = MIN_ANSWERS, counts: dict[str, int] | None = None) -> Headline:
    """Human vs model accuracy per mode, the gap, the human topline and the best model.

    ``per_responder`` has one row per (``responder_id``, ``kind``, ``label``,
    ``mode``) with ``n`` and ``correct``.
    """
    frame = _frame(per_responder, ["responder_id", "kind", "label", "mode", "n", "correct"])
    humans = frame[frame["kind"] == HUMAN]
    models = frame[frame["kind"] == MODEL]
    top = topline(humans, share=share, min_answers=min_answers)
    rows = []
    for mode in MODES:
        h = humans[humans["mode"] == mode]
        m = models[models["mode"] == mode]
        t = h[h["responder_id"].isin(top.responder_ids)]
        h_n, h_c = int(h["n"].sum()), int(h["correct"].sum())
        m_n, m_c = int(m["n"].sum()), int(m["correct"].sum())
        t_n, t_c = int(t["n"].sum()), int(t["correct"].sum())
        best_label, best_acc = None, None
        if not m.empty:
            by_model = m.groupby("label", as_index=False)[["n", "correct"]].sum()
            by_model = by_model.assign(acc=by_model["correct"] / by_model["n"])
            by_model = by_model.sort_values(["acc", "n", "label"], ascending=[False, False, True])
            best_label, best_acc = str(by_model.iloc[0]["label"]), float(by_model.iloc[0]["acc"])
        h_acc, m_acc, t_acc = accuracy(h_c, h_n), accuracy(m_c, m_n), accuracy(t_c, t_n)
        rows.append(ModeHeadline(
            mode=mode, human_n=h_n, human_correct=h_c, human_accuracy=h_acc,
            model_n=m_n, model_correct=m_c, model_accuracy=m_acc, gap=gap(h_acc, m_acc),
            topline_n=t_n, topline_correct=t_c, topline_accuracy=t_acc,
            topline_gap=gap(t_acc, best_acc), best_model=best_label, best_model_accuracy=best_acc,
        ))
    return Headline(tuple(rows), top, dict(counts or {}))


def headline_table(head: Headline) -> pd.DataFrame:
    """The headline as a table (one row per mode) for export."""
    return pd.DataFrame([asdict(row) for row in head.modes])


# ------------------------------------------------------------------------ the scan

#: Grouping keys of the item cells (see :class:`Scan`).
CELL_KEYS = ["grp", "qid", "mode", "clue", "pos", "ch", "v"]


@dataclass(frozen=True)
class Scan:
    """The filtered responses grouped two ways, with effective verdicts.

    ``per_responder``: ``rid``, ``mode``, ``n``, ``correct``. ``cells``: one row per
    (``grp``, ``qid``, ``mode``, ``clue``, ``pos``, ``ch``, ``v``) with ``n``, where
    ``grp`` is 0 for every human (pooled) and the responder id for a model,
    ``clue``/``pos``/``ch`` are the clue index, chosen screen position and chosen
    option (:data:`NONE` when not applicable) and ``v`` the verdict. ``changes``: the
    responses whose effective verdict differs from the stored one (already applied
    to both groupings; kept for the topline's own counts).
    """

    per_responder: pd.DataFrame
    cells: pd.DataFrame
    changes: pd.DataFrame


#: Stands for "none" (SQL NULL) in the scan's integer key columns ``clue``, ``pos``, ``ch``.
NONE = -1


def _none_for_missing(values: pd.Series) -> pd.Series:
    """An integer key column with :data:`NONE` read back as ``None`` (for output tables)."""
    return pd.Series([None if v == NONE else int(v) for v in values], index=values.index, dtype=object)


def _sum_by(frame: pd.DataFrame, keys: list[str], values: list[str]) -> pd.DataFrame:
    """``frame`` summed per ``keys``."""
    if frame.empty:
        return pd.DataFrame(columns=[*keys, *values])
    return frame.groupby(keys, sort=False, as_index=False)[values].sum()


def _columns(rows: Iterable[Sequence], types: dict[str, str]) -> pd.DataFrame:
    """Database rows as a DataFrame with the given column types, built column by column.

    Types: ``int`` (NULL read as 0: only counts can be NULL, from an empty SUM),
    ``key`` (NULL read as :data:`NONE`), ``bool`` and ``str``. Much faster than
    ``DataFrame.from_records`` on tens of thousands of tuples.
    """
    rows = list(rows)
    names = list(types)
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in names]
    data = {}
    for name, values in zip(names, columns, strict=True):
        kind = types[name]
        if kind in ("int", "key"):
            try:  # no NULL in the column (always so for the tallies): one C loop
                data[name] = np.fromiter(values, dtype=np.int64, count=len(values))
            except TypeError:
                missing = 0 if kind == "int" else NONE
                data[name] = np.array([missing if v is None else v for v in values], dtype=np.int64)
        elif kind == "bool":
            data[name] = np.array([bool(v) for v in values], dtype=bool)
        else:
            data[name] = np.array(values, dtype=object)
    return pd.DataFrame(data, columns=names)


def scan_from_rows(per_responder: Iterable[Sequence], cells: Iterable[Sequence],
                   changes: Iterable[Sequence] = ()) -> Scan:
    """Build a :class:`Scan` from database rows and apply the verdict changes.

    ``per_responder`` rows: (rid, mode, n, correct) counted with the *stored*
    verdicts; ``cells`` rows: (grp, qid, mode, clue, pos, ch, v, n) likewise;
    ``changes``: (rid, grp, qid, mode, clue, pos, ch, effective, stored) of the
    responses whose effective verdict differs. A change moves one response from
    its stored-verdict cell to its effective-verdict cell and shifts its
    responder's ``correct`` by ±1, so the result equals grouping effective verdicts.
    """
    resp = _columns(per_responder, {"rid": "int", "mode": "str", "n": "int", "correct": "int"})
    cell = _columns(cells, {"grp": "int", "qid": "int", "mode": "str", "clue": "key", "pos": "key", "ch": "key",
                            "v": "bool", "n": "int"})
    change = _columns(changes, {"rid": "int", "grp": "int", "qid": "int", "mode": "str", "clue": "key", "pos": "key",
                                "ch": "key", "v": "bool", "stored": "bool"})
    change = change[change["v"] != change["stored"]].reset_index(drop=True)
    if not change.empty:
        shift = change.assign(d=change["v"].astype(int) * 2 - 1).groupby(["rid", "mode"])["d"].sum()
        resp = resp.set_index(["rid", "mode"])
        resp.loc[shift.index, "correct"] += shift
        resp = resp.reset_index()
        moved = pd.concat([
            change.assign(v=change["stored"], n=-1)[[*CELL_KEYS, "n"]],
            change.assign(n=1)[[*CELL_KEYS, "n"]],
        ])
        cell = _sum_by(pd.concat([cell, moved], ignore_index=True), CELL_KEYS, ["n"])
        cell = cell[cell["n"] != 0].reset_index(drop=True)
    return Scan(resp, cell, change)


def _labelled(frame: pd.DataFrame, models: Mapping[int, tuple]) -> pd.DataFrame:
    """Rows keyed by ``grp`` with ``kind``, ``group`` (``humans`` or the model's label)
    and ``condition`` added. Call it on aggregated rows: the mapping is per distinct
    ``grp``, the grouping before it on integers."""
    grps = frame["grp"]
    info = {g: (HUMAN, "humans", "") if g == 0 else tuple(str(x) for x in models.get(g, (MODEL, "", ""))[:3])
            for g in grps.unique().tolist()}
    return frame.assign(
        kind=grps.map({g: i[0] for g, i in info.items()}).astype(object),
        group=grps.map({g: i[1] for g, i in info.items()}).astype(object),
        condition=grps.map({g: i[2] for g, i in info.items()}).astype(object),
    )


def _by_label(frame: pd.DataFrame, keys: list[str], values: list[str]) -> pd.DataFrame:
    """Rows summed per ``keys`` (which name groups by label); a no-op unless two
    model responders share a label."""
    if frame.empty or not frame.duplicated(keys).any():
        return frame[[*keys, *values]].reset_index(drop=True)
    return _sum_by(frame, keys, values)


def _correct_counts(cells: pd.DataFrame) -> pd.DataFrame:
    return cells.assign(correct=cells["n"].where(cells["v"].astype(bool), 0))


def cube_rows(scan: Scan, *, models: Mapping[int, tuple], questions: Mapping[int, tuple]) -> pd.DataFrame:
    """Counts by kind, condition, category, source, mode, pyramidal and clue index.

    ``models``: responder id → (kind, label, condition); ``questions``: question id →
    (category id, source, pyramidal). Humans have no condition (``""``). Grouped on
    integers first (per kind/condition and question), then labelled.
    """
    cells = _correct_counts(scan.cells)
    grps = cells["grp"].unique().tolist()
    # Responders of the same kind and condition count together: one integer per pair.
    pairs: dict[tuple, int] = {}
    code = {}
    for g in grps:
        pair = (HUMAN, "") if g == 0 else (str(models.get(g, (MODEL,))[0]), str(models.get(g, ("", "", ""))[2]))
        code[g] = pairs.setdefault(pair, len(pairs))
    frame = cells.assign(pair=cells["grp"].map(code))
    frame = _sum_by(frame, ["pair", "qid", "mode", "clue"], ["n", "correct"])
    names = {c: pair for pair, c in pairs.items()}
    qids = frame["qid"]
    info = {q: questions.get(q, (None, "", False)) for q in qids.unique().tolist()}
    frame = frame.assign(
        kind=frame["pair"].map({c: p[0] for c, p in names.items()}).astype(object),
        condition=frame["pair"].map({c: p[1] for c, p in names.items()}).astype(object),
        category_id=qids.map({q: i[0] for q, i in info.items()}).astype(object),
        source=qids.map({q: i[1] for q, i in info.items()}).astype(object),
        pyramidal=qids.map({q: bool(i[2]) for q, i in info.items()}).astype(bool),
        clue_index=frame["clue"],
    )
    keys = ["kind", "condition", "category_id", "source", "mode", "pyramidal", "clue_index"]
    out = _sum_by(frame, keys, ["n", "correct"])
    out["clue_index"] = _none_for_missing(out["clue_index"])
    return out


def mcq_position_rows(scan: Scan, models: Mapping[int, tuple]) -> pd.DataFrame:
    """MCQ answers counted by group (humans / model label), chosen position and verdict."""
    cells = scan.cells[scan.cells["mode"] == "mcq"]
    frame = _labelled(_sum_by(cells, ["grp", "pos", "v"], ["n"]), models)
    frame = frame.assign(choice_position=frame["pos"], correct=frame["v"].astype(bool))
    out = _by_label(frame, ["group", "kind", "choice_position", "correct"], ["n"])
    out["choice_position"] = _none_for_missing(out["choice_position"])
    return out


def mcq_distractor_rows(scan: Scan, models: Mapping[int, tuple]) -> pd.DataFrame:
    """Wrong MCQ answers counted by group, question and chosen option."""
    cells = scan.cells
    wrong = cells[(cells["mode"] == "mcq") & ~cells["v"].astype(bool)]
    frame = _labelled(_sum_by(wrong, ["grp", "qid", "ch"], ["n"]), models)
    frame = frame.assign(question_id=frame["qid"], choice=frame["ch"])
    out = _by_label(frame, ["group", "kind", "question_id", "choice"], ["n"])
    out["choice"] = _none_for_missing(out["choice"])
    return out


def human_item_rows(scan: Scan) -> pd.DataFrame:
    """Human answers per item (question × mode): ``n`` and ``correct``."""
    cells = _correct_counts(scan.cells[scan.cells["grp"] == 0])
    return _sum_by(cells.assign(question_id=cells["qid"]), ["question_id", "mode"], ["n", "correct"])


def items_with_changes(items: pd.DataFrame, changes: pd.DataFrame, responder_ids: set[int]) -> pd.DataFrame:
    """Per-item counts (``question_id``, ``mode``, ``n``, ``correct``, stored verdicts)
    corrected by the verdict changes of ``responder_ids``."""
    frame = items.copy()
    frame["correct"] = frame["correct"].astype(int)
    mine = changes[changes["rid"].isin(responder_ids) & (changes["v"] != changes["stored"])]
    if mine.empty:
        return frame
    index = {(q, m): i for i, (q, m) in enumerate(zip(frame["question_id"], frame["mode"], strict=True))}
    correct = frame["correct"].tolist()
    for qid, mode, v in zip(mine["qid"], mine["mode"], mine["v"], strict=True):
        correct[index[(qid, mode)]] += 1 if v else -1
    frame["correct"] = correct
    return frame


# ------------------------------------------------------------------------- breakdowns


def breakdown(rows: Iterable[Mapping] | pd.DataFrame, *, index: str, series: str = "kind",
              series_values: tuple[str, ...] = (HUMAN, MODEL), label: str | None = None) -> pd.DataFrame:
    """Pivot count rows into one row per ``index`` value and columns per series.

    Columns: ``group`` (the index value), ``label`` (display name), and for each
    series value ``s``: ``s_n``, ``s_correct``, ``s_accuracy``; when the series
    is human/model also ``gap`` (human minus model accuracy). Count rows are few
    (they come out of a GROUP BY), so a plain dictionary pass is the fastest way.
    """
    frame = _frame(rows, [index, series, "n", "correct"] + ([label] if label else []))
    sums: dict = {}
    labels: dict = {}
    label_col = frame[label] if label else frame[index]
    for group, kind, n, c, name in zip(frame[index], frame[series], frame["n"], frame["correct"], label_col,
                                       strict=True):
        if kind not in series_values:
            continue
        acc = sums.setdefault(group, {v: [0, 0] for v in series_values})
        acc[kind][0] += int(n)
        acc[kind][1] += int(c)
        labels.setdefault(group, str(name))
    out = []
    for group in sorted(sums, key=str):
        row: dict = {"group": group, "label": labels[group]}
        for value in series_values:
            n, c = sums[group][value]
            row[f"{value}_n"], row[f"{value}_correct"], row[f"{value}_accuracy"] = n, c, accuracy(c, n)
        if set(series_values) == {HUMAN, MODEL}:
            row["gap"] = gap(row["human_accuracy"], row["model_accuracy"])
        out.append(row)
    columns = ["group", "label"] + [f"{v}_{k}" for v in series_values for k in ("n", "correct", "accuracy")]
    if set(series_values) == {HUMAN, MODEL}:
        columns.append("gap")
    return pd.DataFrame(out, columns=columns)


def condition_table(cube: pd.DataFrame) -> pd.DataFrame:
    """Accuracy per model condition and mode, with humans as the reference row.

    ``cube`` rows: ``kind``, ``condition``, ``mode``, ``n``, ``correct``. Humans
    form the group ``humans``; each model condition is its own group.
    """
    frame = _frame(cube, ["kind", "condition", "mode", "n", "correct"]).copy()
    frame["group"] = [
        "humans" if kind == HUMAN else (cond or "default")
        for kind, cond in zip(frame["kind"], frame["condition"], strict=True)
    ]
    table = breakdown(frame, index="group", series="mode", series_values=MODES)
    table["overall_n"] = table["free_n"] + table["mcq_n"]
    table["overall_correct"] = table["free_correct"] + table["mcq_correct"]
    _acc_columns(table, "overall")
    order = {"humans": 0}
    return table.sort_values("group", key=lambda s: s.map(lambda g: (order.get(g, 1), g))).reset_index(drop=True)


def qtype_rows(cube: pd.DataFrame) -> pd.DataFrame:
    """Add a ``qtype`` column (see :func:`qtype_label`) to cube rows."""
    frame = _frame(cube, ["mode", "pyramidal", "clue_index"]).copy()
    frame["qtype"] = [
        qtype_label(mode, bool(pyr), None if pd.isna(clue) else int(clue))
        for mode, pyr, clue in zip(frame["mode"], frame["pyramidal"], frame["clue_index"], strict=True)
    ]
    return frame


def model_ranking(per_responder: pd.DataFrame, thetas: Mapping[str, ThetaFit] | None = None) -> pd.DataFrame:
    """One row per model responder (system × condition): accuracy per mode and overall.

    Sorted by overall accuracy (best first). ``thetas`` maps a mode to the
    :class:`~frontend.provenance.ThetaFit` of that mode in this view: ``free_theta``
    is θ from the free-answer fit matching the view, ``mcq_theta`` from the MCQ fit,
    each followed (at the end of the table) by that fit's id, mode, model and
    filters (``free_theta_fit_id`` ...). A mode without a matching fit, or outside
    the view, has empty θ and provenance columns; there is no overall θ (fits are
    per mode).
    """
    frame = _frame(per_responder, ["responder_id", "kind", "label", "mode", "n", "correct"])
    frame = frame[frame["kind"] == MODEL]
    if frame.empty:
        return pd.DataFrame(columns=RANKING_COLUMNS)
    table = breakdown(frame, index="responder_id", series="mode", series_values=MODES, label="label")
    table["overall_n"] = table["free_n"] + table["mcq_n"]
    table["overall_correct"] = table["free_correct"] + table["mcq_correct"]
    _acc_columns(table, "overall")
    for mode in MODES:
        source = (thetas or {}).get(mode)
        abilities = source.abilities if source is not None else {}
        table[f"{mode}_theta"] = pd.Series([abilities.get(int(g)) for g in table["group"]], index=table.index,
                                           dtype=object)
        columns = source.columns() if source is not None else dict.fromkeys(FIT_COLUMNS)
        for key, value in columns.items():
            table[f"{mode}_{key}"] = pd.Series([value] * len(table), index=table.index, dtype=object)
    table["_sort"] = table["overall_accuracy"].fillna(-1)
    table = table.sort_values(["_sort", "label"], ascending=[False, True]).drop(columns="_sort")
    table.insert(0, "rank", range(1, len(table) + 1))
    return table[RANKING_COLUMNS].reset_index(drop=True)


#: Columns of :func:`model_ranking`, in order (θ beside its mode's accuracy, provenance last).
RANKING_COLUMNS = [
    "rank", "group", "label",
    "free_n", "free_correct", "free_accuracy", "free_theta",
    "mcq_n", "mcq_correct", "mcq_accuracy", "mcq_theta",
    "overall_n", "overall_correct", "overall_accuracy",
    *[f"{mode}_{key}" for mode in MODES for key in FIT_COLUMNS],
]


def category_vs_difficulty(category: pd.DataFrame, items: Mapping[str, pd.DataFrame | None],
                           fits: Mapping[str, ThetaFit]) -> pd.DataFrame:
    """Category accuracy next to the mean IRT difficulty ``b`` of its questions, per mode.

    ``fits`` maps each mode of the view to the fit matching it (see
    :mod:`frontend.provenance`); ``items[mode]``: ``question__category__name``,
    ``b`` per question of that fit. Columns per mode: ``{mode}_mean_b``,
    ``{mode}_fitted_items`` and ``{mode}_b_fit_id`` (empty / 0 when no fit matches),
    so a difficulty is never read from a fit of another mode or filter.
    """
    out = category[["label", "human_accuracy", "model_accuracy"]].rename(columns={"label": "category"})
    for mode, source in fits.items():
        frame = items.get(mode)
        if frame is None or frame.empty or not source.found:
            out = out.assign(**{f"{mode}_mean_b": None, f"{mode}_fitted_items": 0, f"{mode}_b_fit_id": None})
            continue
        diff = frame.groupby("question__category__name", as_index=False).agg(
            **{f"{mode}_mean_b": ("b", "mean"), f"{mode}_fitted_items": ("b", "size")})
        out = out.merge(diff.rename(columns={"question__category__name": "category"}), on="category", how="left")
        out[f"{mode}_fitted_items"] = out[f"{mode}_fitted_items"].fillna(0).astype(int)
        out[f"{mode}_b_fit_id"] = pd.Series([source.fit_id] * len(out), index=out.index, dtype=object)
    return out
