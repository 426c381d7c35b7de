"""Load a project's data for the seed-paper tables and compute them (reads only).

The pure cores do the arithmetic (:mod:`frontend.seed_audita`, :mod:`~frontend.seed_koala`,
:mod:`~frontend.seed_sea`, :mod:`~frontend.seed_irt`, :mod:`annotation.seed_audit`);
this module turns the database into their input frames, a handful of queries per
project, and names every table with its paper and a readable title
(:data:`SEED_TABLES`). The page (``frontend.seed_views``), the CSV/JSON exports and
the report bundle all call :func:`seed_tables`.

Human answers count as everywhere else in Earshot: stage 1 only, effective verdict
(a human judgement or LLM verdict wins over the rules, ``frontend.selectors.with_verdict``).
Variant model answers (:class:`quiz.models.VariantAnswer`) feed the counterfactual,
per-clue and prompt tables.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np
import pandas as pd
from django.db.models import Count, Sum
from django.utils.translation import gettext_noop

from accounts.models import Project
from annotation import seed_audit
from quiz.models import Question, QuestionClip, Response, VariantAnswer

from . import seed_audita, seed_irt, seed_koala, seed_sea
from .selectors import _guarded, with_verdict

log = logging.getLogger(__name__)

HUMANS = "Humans"

#: table key -> (paper, paper's table, title). Page and bundle order.
SEED_TABLES: dict[str, tuple[str, str, str]] = {
    "bank_source": ("Audita", "Table 1", gettext_noop("Bank composition by source")),
    "bank_category": ("Audita", "Table 5", gettext_noop("Bank composition by category")),
    "bank_source_category": ("Audita", "Table 6", gettext_noop("Bank composition by source and category")),
    "failure_modes": ("Audita", "App. J.2", gettext_noop("Failure modes from audio / transcript / text-only outcomes")),
    "failure_items": ("Audita", "App. J.2", gettext_noop("Failure mode of every question and model")),
    "best_per_category": ("Audita", "", gettext_noop("Best participant per category")),
    "clue_curves": ("Audita", "", gettext_noop("Accuracy after each clue of the pyramidal questions")),
    "clue_curves_systems": ("Audita", "", gettext_noop("Accuracy after each clue, per model")),
    "theta_subsets": ("Audita", "Table 10", gettext_noop("θ per source, per category and per condition (one fit per mode)")),
    "joint_modes": ("Audita", "Table 3", gettext_noop("Free answer and multiple choice side by side (one joint fit)")),
    "faithfulness": ("KoALa", "Table 4", gettext_noop("Speech faithfulness")),
    "faithfulness_cases": ("KoALa", "Fig. 2", gettext_noop("Faithfulness cases 1–4")),
    "by_metadata": ("KoALa", "Table 3", gettext_noop("Accuracy by question metadata")),
    "prompt_variants": ("KoALa", "Tables 2, 17, 18", gettext_noop("Prompt variants: mean, best prompt and best-of-k")),
    "prompt_variant_accuracy": ("KoALa", "Tables 17, 18", gettext_noop("Accuracy of every prompt variant")),
    "pooled_kappa": ("KoALa", "", gettext_noop("Fleiss' κ per criterion and pooled")),
    "all_pass": ("KoALa", "", gettext_noop("Keep only if every criterion passes")),
    "duration_bins": ("SEA-SpeechBench", "Table 9", gettext_noop("Accuracy by clip duration")),
    "prompt_advantage": ("SEA-SpeechBench", "App. C", gettext_noop("Prompt Advantage Score across prompt languages")),
    "qa_audit": ("SEA-SpeechBench", "App. B.3", gettext_noop("QA audit: pass rate per batch and axis, flagged batches, re-audit")),
}


@dataclass(frozen=True)
class SeedResult:
    """Every seed table (keyed as :data:`SEED_TABLES`) and a note per table that is empty."""

    tables: dict[str, pd.DataFrame]
    notes: dict[str, str]
    metadata_fields: list[str]
    metadata_field: str


# ----------------------------------------------------------------------------- loading


def questions_frame(project: Project) -> pd.DataFrame:
    """One row per active question: ids, prompt, source, category, pyramidal, clips, audio seconds."""
    clips = {r["question_id"]: (r["n"], r["dur"] or 0.0) for r in
             QuestionClip.objects.filter(question__project=project).values("question_id")
             .annotate(n=Count("id"), dur=Sum("clip__duration_s"))}
    rows = []
    for q in Question.objects.filter(project=project, is_active=True).values(
            "id", "external_id", "prompt", "source", "category__name", "pyramidal", "metadata"):
        n, dur = clips.get(q["id"], (0, 0.0))
        rows.append({"qid": q["id"], "question_id": q["external_id"], "prompt": q["prompt"],
                     "source": q["source"] or "(none)", "category": q["category__name"],
                     "pyramidal": q["pyramidal"], "metadata": q["metadata"] or {}, "n_clips": n,
                     "duration_s": float(dur)})
    return pd.DataFrame(rows, columns=["qid", "question_id", "prompt", "source", "category", "pyramidal",
                                       "metadata", "n_clips", "duration_s"])


def answers_frame(project: Project) -> pd.DataFrame:
    """Stage-1 answers with their effective verdict, responder kind, label, system and condition."""
    qs = with_verdict(Response.objects.filter(project=project, stage=1), project).values_list(
        "responder_id", "responder__kind", "responder__label", "responder__system__name",
        "responder__condition", "question_id", "mode", "clue_index", "verdict")
    frame = pd.DataFrame(list(qs), columns=["responder_id", "kind", "label", "system", "condition", "qid",
                                            "mode", "clue_index", "correct"])
    frame["correct"] = frame["correct"].astype(int)
    frame["group"] = np.where(frame["kind"] == "human", HUMANS, frame["label"])
    return frame


def variants_frame(project: Project) -> pd.DataFrame:
    """Every variant model answer with its responder's label, system and condition."""
    qs = VariantAnswer.objects.filter(project=project).values_list(
        "responder_id", "responder__label", "responder__system__name", "responder__condition", "question_id",
        "mode", "context", "prompt_variant", "prompt_language", "clue_index", "correct", "matches_factual",
        "matches_counterfactual")
    frame = pd.DataFrame(list(qs), columns=["responder_id", "label", "system", "condition", "qid", "mode",
                                            "context", "prompt_variant", "prompt_language", "clue_index",
                                            "correct", "matches_factual", "matches_counterfactual"])
    frame["correct"] = frame["correct"].astype(int)
    frame["kind"] = "model"
    return frame


def variant_answers_table(project: Project) -> pd.DataFrame:
    """Every variant model answer as stored (pseudonymous: responder labels only), for export."""
    qs = VariantAnswer.objects.filter(project=project).order_by("id").values_list(
        "id", "question__external_id", "responder__label", "responder__system__name", "responder__condition",
        "mode", "context", "prompt_variant", "prompt_language", "clue_index", "answer_text", "choice",
        "correct", "matches_factual", "matches_counterfactual", "rule", "rule_version", "judged_at")
    return pd.DataFrame(list(qs), columns=[
        "variant_answer_id", "question_id", "responder", "system", "condition", "mode", "context",
        "prompt_variant", "prompt_language", "clue_index", "answer_text", "choice", "correct",
        "matches_factual", "matches_counterfactual", "rule", "rule_version", "judged_at"])


# ----------------------------------------------------------------------------- tables


def _with_question(frame: pd.DataFrame, questions: pd.DataFrame) -> pd.DataFrame:
    return frame.merge(questions.drop(columns=["prompt"]), on="qid", how="inner")


def _audita(questions: pd.DataFrame, answers: pd.DataFrame, variants: pd.DataFrame) -> dict[str, pd.DataFrame]:
    out = {
        "bank_source": seed_audita.bank_composition(questions, ["source"]),
        "bank_category": seed_audita.bank_composition(questions, ["category"]),
        "bank_source_category": seed_audita.bank_composition(questions, ["source", "category"]),
    }
    a = _with_question(answers, questions)
    models = a[(a["kind"] == "model") & (a["mode"] == "free")]
    outcomes = models[["system", "question_id", "condition", "correct"]]
    out["failure_modes"] = seed_audita.failure_modes(outcomes)
    out["failure_items"] = seed_audita.failure_items(outcomes)
    per = a.groupby(["mode", "category", "kind", "responder_id", "label"], as_index=False).agg(
        n=("correct", "size"), correct=("correct", "sum"))
    parts = [seed_audita.best_per_category(g.drop(columns=["mode"])).assign(mode=m)
             for m, g in per.groupby("mode", sort=True)]
    out["best_per_category"] = (pd.concat(parts, ignore_index=True) if parts
                                else seed_audita.best_per_category(per))
    pyr = a[a["pyramidal"] & (a["mode"] == "free")].assign(per_clue=lambda f: f["kind"] == "model")
    v = _with_question(variants, questions)
    v = v[v["pyramidal"] & v["clue_index"].notna() & (v["context"] == "factual")
          & (v["prompt_variant"] == "") & (v["prompt_language"] == "") & (v["mode"] == "free")]
    cols = ["kind", "label", "responder_id", "question_id", "clue_index", "n_clues", "correct", "per_clue"]
    rows = pd.concat([pyr.assign(n_clues=pyr["n_clips"], label=pyr["group"])[cols],
                      v.assign(n_clues=v["n_clips"], per_clue=True)[cols]], ignore_index=True)
    rows = rows[rows["n_clues"] > 0]
    out["clue_curves"] = seed_audita.clue_curves(rows, ["kind"])
    out["clue_curves_systems"] = seed_audita.clue_curves(rows[rows["kind"] == "model"], ["label"])
    return out


def _table10(project: Project, questions: pd.DataFrame) -> pd.DataFrame:
    """Table 10 from the newest succeeded fit of each mode (empty without IRT)."""
    from irt.selectors import fit_data, latest_fits_by_mode

    parts = []
    for mode, fit in sorted(latest_fits_by_mode(project).items()):
        d = fit_data(fit)
        items = pd.DataFrame({"qid": list(d.item_map.ids), "a": d.result.a, "b": d.result.b})
        items = items.merge(questions[["qid", "question_id"]], on="qid")
        resp = d.responses.rename(columns={"item_id": "qid"}).merge(
            questions[["qid", "question_id", "source", "category"]], on="qid")
        who = d.responders.rename(columns={"name": "label"})
        resp = resp.merge(who[["responder_id", "kind", "label"]], on="responder_id")
        abilities = pd.DataFrame({"responder_id": list(d.subject_map.ids), "theta": d.result.theta}).merge(
            who, on="responder_id")
        parts.append(seed_irt.theta_by_subset(resp, items, abilities).assign(mode=mode, fit_id=fit.pk))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


#: The joint fit of Table 3: Earshot's 2PL by MAP with its default priors (the MML of
#: :mod:`irt.mml` runs away on small banks, where a few items are answered alike by all).
JOINT_FIT = {"model": "2pl", "method": "map", "seed": 0}


def _table3_cached(project: Project, answers: pd.DataFrame, questions: pd.DataFrame) -> pd.DataFrame:
    """:func:`_table3`, cached until the project's data changes (the fit takes seconds)."""
    from django.core.cache import cache

    from .selectors import data_version

    key = f"earshot:seed:joint:{project.pk}:{data_version(project)}"
    found = cache.get(key)
    if found is None:
        found = _table3(answers, questions)
        cache.set(key, found, 24 * 3600)
    return found


def _table3(answers: pd.DataFrame, questions: pd.DataFrame) -> pd.DataFrame:
    """Table 3 from one joint 2PL fit whose items are (question, mode) pairs."""
    a = _with_question(answers, questions)
    if a.empty or a["mode"].nunique() < 2 or (a["kind"] == "model").sum() == 0:
        return pd.DataFrame()
    from irt.fit import fit as irt_fit

    s_codes, s_ids = pd.factorize(a["responder_id"], sort=True)
    i_codes, i_keys = pd.factorize(pd.MultiIndex.from_frame(a[["question_id", "mode"]]), sort=True)
    kind_of = a.groupby("responder_id")["kind"].first().reindex(s_ids)
    groups = (kind_of != "human").to_numpy(dtype=np.int64)  # 0 = humans (the anchor), 1 = models
    result = irt_fit(s_codes, i_codes, a["correct"].to_numpy(), **JOINT_FIT,
                     groups=groups if 0 < groups.sum() < len(groups) else None,
                     n_subjects=len(s_ids), n_items=len(i_keys))
    items = pd.DataFrame(list(i_keys), columns=["question_id", "mode"]).assign(a=result.a, b=result.b)
    kinds = a.groupby("responder_id")["kind"].first()
    abilities = pd.DataFrame({"responder_id": list(s_ids), "theta": result.theta})
    abilities["kind"] = abilities["responder_id"].map(kinds)
    return seed_irt.joint_modes_table(a, items, abilities).assign(fit="joint 2PL (free + MCQ items), MAP, seed 0",
                                                                   fit_responses=len(a))


def _koala(questions: pd.DataFrame, answers: pd.DataFrame, variants: pd.DataFrame,
           field: str) -> dict[str, pd.DataFrame]:
    out: dict[str, pd.DataFrame] = {}
    v = _with_question(variants, questions)
    key = ["responder_id", "question_id", "mode", "prompt_variant", "prompt_language", "clue_index"]
    cf = v[v["context"] == "counterfactual"]
    fact = v[v["context"] == "factual"][[*key, "correct"]].rename(columns={"correct": "factual_correct"})
    pairs = cf.merge(fact, on=key, how="left")
    plain = _with_question(answers, questions)
    plain = plain[plain["kind"] == "model"][["responder_id", "question_id", "mode", "correct"]].rename(
        columns={"correct": "plain_correct"})
    pairs = pairs.merge(plain, on=["responder_id", "question_id", "mode"], how="left")
    use_plain = (pairs["prompt_variant"] == "") & (pairs["prompt_language"] == "") & pairs["clue_index"].isna()
    pairs["factual_correct"] = pairs["factual_correct"].where(pairs["factual_correct"].notna(),
                                                              pairs["plain_correct"].where(use_plain))
    pairs = pairs.assign(system=pairs["label"] + " · " + pairs["mode"], cf_follows=pairs["correct"].astype(bool),
                         cf_says_factual=pairs["matches_factual"].astype(bool))
    pairs = pairs.dropna(subset=["factual_correct"])
    out["faithfulness"] = seed_koala.faithfulness(pairs)
    out["faithfulness_cases"] = seed_koala.faithfulness_cases(pairs)
    a = _with_question(answers, questions)
    if field:
        a = a.assign(**{field: [m.get(field) if isinstance(m, dict) else None for m in a["metadata"]]})
        out["by_metadata"] = seed_koala.accuracy_by(a, field, by=("mode", "kind", "group"))
    else:
        out["by_metadata"] = pd.DataFrame()
    pv = v[(v["prompt_variant"] != "") & (v["context"] == "factual") & v["clue_index"].isna()]
    pv = pv.assign(label=pv["label"] + " · " + pv["mode"]
                   + np.where(pv["prompt_language"] != "", " · " + pv["prompt_language"], ""))
    out["prompt_variants"] = seed_koala.prompt_variants(pv)
    out["prompt_variant_accuracy"] = seed_koala.prompt_variant_table(pv)
    return out


def _sea(questions: pd.DataFrame, answers: pd.DataFrame, variants: pd.DataFrame) -> dict[str, pd.DataFrame]:
    a = _with_question(answers, questions)
    out = {"duration_bins": seed_sea.duration_bins(a, by=("mode", "kind", "group"))}
    v = _with_question(variants, questions)
    pl = v[(v["prompt_language"] != "") & (v["context"] == "factual") & v["clue_index"].isna()
           & (v["prompt_variant"] == "")]
    out["prompt_advantage"] = seed_sea.prompt_advantage(pl.assign(label=pl["label"] + " · " + pl["mode"]))
    return out


def _annotation(project: Project) -> dict[str, pd.DataFrame]:
    """Pooled κ, all-pass funnel and the QA-audit loop of every campaign with yes/no criteria."""
    from annotation.models import Item
    from annotation.selectors import campaigns_for_project, ratings_frame

    kappa, funnel, audit = [], [], []
    for campaign in campaigns_for_project(project):
        frame = ratings_frame(campaign)
        if frame.empty:
            continue
        controls = np.zeros(len(frame), dtype=bool)
        for col in ("gold_value", "trap_value"):
            if col in frame:
                controls |= frame[col].notna().to_numpy()
        frame = frame.loc[~controls].astype({"item_id": str, "criterion": str, "value": str})
        labels = [c["key"] for c in campaign.criteria if c.get("scale") in ("yes_no", "natural")]
        frame = frame[frame["criterion"].isin(labels)]
        if frame.empty:
            continue
        kappa.append(seed_audit.pooled_kappa(frame).assign(campaign=campaign.slug))
        if len(labels) > 1:
            funnel.append(seed_audit.all_pass_decisions(frame)[1].assign(campaign=campaign.slug))
        if "batch" in frame:
            rounds = {ext: int((meta or {}).get("audit_round", 1) or 1) for ext, meta in
                      Item.objects.filter(campaign=campaign).values_list("external_id", "metadata")}
            looped = frame.assign(batch=frame["batch"].astype(str), round=frame["item_id"].map(rounds).fillna(1))
            audit.append(seed_audit.qa_audit_loop(looped).assign(campaign=campaign.slug))

    def cat(parts: list[pd.DataFrame]) -> pd.DataFrame:
        if not parts:
            return pd.DataFrame()
        joined = pd.concat(parts, ignore_index=True)
        return joined[["campaign", *[c for c in joined.columns if c != "campaign"]]]

    return {"pooled_kappa": cat(kappa), "all_pass": cat(funnel), "qa_audit": cat(audit)}


NOTES = {
    "failure_modes": gettext_noop("Needs a model's free answers in the audio, transcript and text-only conditions."),
    "failure_items": gettext_noop("Needs a model's free answers in the audio, transcript and text-only conditions."),
    "clue_curves": gettext_noop("Needs answers to pyramidal questions."),
    "clue_curves_systems": gettext_noop("Needs model answers to pyramidal questions."),
    "theta_subsets": gettext_noop("Needs a succeeded IRT fit (run one from the IRT page)."),
    "joint_modes": gettext_noop("Needs model and human answers in both modes (and the IRT extra installed)."),
    "faithfulness": gettext_noop("Needs model outputs with context 'counterfactual' on questions with a counterfactual_answerline."),
    "faithfulness_cases": gettext_noop("Needs model outputs with context 'counterfactual'."),
    "by_metadata": gettext_noop("The bank's questions carry no metadata fields."),
    "prompt_variants": gettext_noop("Needs model outputs with a prompt_variant."),
    "prompt_variant_accuracy": gettext_noop("Needs model outputs with a prompt_variant."),
    "prompt_advantage": gettext_noop("Needs model outputs with a prompt_language, including the reference 'en'."),
    "pooled_kappa": gettext_noop("Needs a campaign with yes/no criteria and ratings."),
    "all_pass": gettext_noop("Needs a campaign with two or more yes/no criteria."),
    "qa_audit": gettext_noop("Needs a campaign with yes/no criteria whose items carry a batch."),
}


def metadata_fields(questions: pd.DataFrame) -> list[str]:
    """The metadata keys any question of the bank carries, sorted."""
    return sorted({k for m in questions["metadata"] if isinstance(m, dict) for k in m})


#: Which computation produces which tables (an export of one table runs only its part).
PARTS: dict[str, tuple[str, ...]] = {
    "audita": ("bank_source", "bank_category", "bank_source_category", "failure_modes", "failure_items",
               "best_per_category", "clue_curves", "clue_curves_systems"),
    "table10": ("theta_subsets",),
    "table3": ("joint_modes",),
    "koala": ("faithfulness", "faithfulness_cases", "by_metadata", "prompt_variants", "prompt_variant_accuracy"),
    "sea": ("duration_bins", "prompt_advantage"),
    "annotation": ("pooled_kappa", "all_pass", "qa_audit"),
}


def _joint(project: Project, answers: pd.DataFrame, questions: pd.DataFrame) -> pd.DataFrame:
    try:
        return _guarded(lambda: _table3_cached(project, answers, questions), pd.DataFrame())
    except (ValueError, RuntimeError) as exc:  # a degenerate matrix the fit refuses
        log.info("joint free+MCQ fit not possible: %s", exc)
        return pd.DataFrame()


def seed_tables(project: Project, *, field: str = "", only: str | None = None) -> SeedResult:
    """The seed tables of ``project`` (all, or only the part that makes table ``only``).

    ``field``: the metadata field of ``by_metadata`` (default: the first the bank has).
    Tables outside the computed part are empty and have no note.
    """
    questions = questions_frame(project)
    answers = answers_frame(project)
    variants = variants_frame(project)
    fields = metadata_fields(questions)
    field = field if field in fields else (fields[0] if fields else "")
    wanted = {part for part, keys in PARTS.items() if only is None or only in keys}
    tables: dict[str, pd.DataFrame] = {}
    if "audita" in wanted:
        tables.update(_audita(questions, answers, variants))
    if "table10" in wanted:
        tables["theta_subsets"] = _guarded(lambda: _table10(project, questions), pd.DataFrame())
    if "table3" in wanted:
        tables["joint_modes"] = _joint(project, answers, questions)
    if "koala" in wanted:
        tables.update(_koala(questions, answers, variants, field))
    if "sea" in wanted:
        tables.update(_sea(questions, answers, variants))
    if "annotation" in wanted:
        tables.update(_annotation(project))
    computed = {key for part in wanted for key in PARTS[part]}
    tables = {key: tables.get(key, pd.DataFrame()) for key in SEED_TABLES}
    notes = {key: NOTES.get(key, gettext_noop("No data yet.")) for key, t in tables.items() if t.empty and key in computed}
    return SeedResult(tables, notes, fields, field)
