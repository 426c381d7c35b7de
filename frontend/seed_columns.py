"""Readable headers and cell formats for the seed-paper tables (no Django).

CSV and JSON keep the machine keys; the page and the HTML report show these labels
(the key stays in the header's tooltip), as :mod:`frontend.columns` does for the
dashboard.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .columns import _same, column_label, gettext_noop

LABELS = {
    "source": gettext_noop("Source"),
    "category": gettext_noop("Category"),
    "questions": gettext_noop("Questions"),
    # xgettext:no-python-format
    "share_of_bank": gettext_noop("% of bank"),
    "clips": gettext_noop("Clips"),
    "mean_clip_duration_s": gettext_noop("Mean clip duration (s)"),
    "mean_question_words": gettext_noop("Mean question length (words)"),
    "mean_question_chars": gettext_noop("Mean question length (characters)"),
    "system": gettext_noop("Model"),
    "failure_mode": gettext_noop("Failure mode"),
    "n": "n",
    "correct": gettext_noop("Right"),
    "accuracy": gettext_noop("Accuracy"),
    # xgettext:no-python-format
    "ci_low": gettext_noop("95% CI low"),
    # xgettext:no-python-format
    "ci_high": gettext_noop("95% CI high"),
    "interval": gettext_noop("Interval"),
    "question_id": gettext_noop("Question"),
    "audio": gettext_noop("Right with audio"),
    "transcript": gettext_noop("Right with transcript"),
    "text": gettext_noop("Right from the text alone"),
    "kind": gettext_noop("Who"),
    "label": gettext_noop("Name"),
    "group": gettext_noop("Group"),
    "responder_id": gettext_noop("Responder #"),
    "candidates": gettext_noop("Competitors"),
    "mode": gettext_noop("Mode"),
    "clue": gettext_noop("Clue"),
    "dimension": gettext_noop("By"),
    "value": gettext_noop("Value"),
    "responders": gettext_noop("Responders"),
    "theta": "θ",
    # xgettext:no-python-format
    "theta_low": gettext_noop("θ 95% low"),
    # xgettext:no-python-format
    "theta_high": gettext_noop("θ 95% high"),
    "fit_id": gettext_noop("Fit #"),
    "joint_theta": gettext_noop("θ joint fit"),
    "fit": gettext_noop("Fit"),
    "fit_responses": gettext_noop("Responses in the fit"),
    "followed": gettext_noop("Followed the counterfactual speech"),
    "sf_score": gettext_noop("Speech faithfulness"),
    # xgettext:no-python-format
    "sf_ci_low": gettext_noop("Faithfulness 95% low"),
    # xgettext:no-python-format
    "sf_ci_high": gettext_noop("Faithfulness 95% high"),
    "known_n": gettext_noop("n known (right on factual)"),
    "known_followed": gettext_noop("Known and followed"),
    "sf_known": gettext_noop("Faithfulness when known"),
    # xgettext:no-python-format
    "sf_known_ci_low": gettext_noop("When known 95% low"),
    # xgettext:no-python-format
    "sf_known_ci_high": gettext_noop("When known 95% high"),
    "override": gettext_noop("Gave the factual answer instead"),
    "case": gettext_noop("Case"),
    "description": gettext_noop("What happened"),
    "pairs": gettext_noop("Pairs"),
    "share": gettext_noop("Share"),
    "prompt_variant": gettext_noop("Prompt variant"),
    "k": gettext_noop("Prompts (k)"),
    "mean_accuracy": gettext_noop("Mean over prompts"),
    "sd_accuracy": gettext_noop("SD over prompts"),
    # xgettext:no-python-format
    "mean_ci_low": gettext_noop("Mean 95% low"),
    # xgettext:no-python-format
    "mean_ci_high": gettext_noop("Mean 95% high"),
    "mean_interval": gettext_noop("Interval of the mean"),
    "best_prompt": gettext_noop("Best prompt"),
    "best_n": gettext_noop("n (best prompt)"),
    "best_accuracy": gettext_noop("Best prompt accuracy"),
    # xgettext:no-python-format
    "best_ci_low": gettext_noop("Best 95% low"),
    # xgettext:no-python-format
    "best_ci_high": gettext_noop("Best 95% high"),
    "best_of_k": gettext_noop("Best-of-k"),
    # xgettext:no-python-format
    "best_of_k_ci_low": gettext_noop("Best-of-k 95% low"),
    # xgettext:no-python-format
    "best_of_k_ci_high": gettext_noop("Best-of-k 95% high"),
    "campaign": gettext_noop("Campaign"),
    "criterion": gettext_noop("Criterion"),
    "subjects": gettext_noop("Subjects"),
    "ratings": gettext_noop("Ratings"),
    "kappa": gettext_noop("Fleiss' κ"),
    "reason": gettext_noop("Why undefined"),
    "step": gettext_noop("Step"),
    "items": gettext_noop("Items"),
    "kept": gettext_noop("Kept"),
    "bin": gettext_noop("Clip duration"),
    "bin_low": gettext_noop("From (s)"),
    "prompt_language": gettext_noop("Prompt language"),
    "reference": gettext_noop("Reference language"),
    "reference_n": gettext_noop("n (reference)"),
    "reference_accuracy": gettext_noop("Reference accuracy"),
    "pas": gettext_noop("Prompt Advantage Score"),
    # xgettext:no-python-format
    "pas_ci_low": gettext_noop("PAS 95% low"),
    # xgettext:no-python-format
    "pas_ci_high": gettext_noop("PAS 95% high"),
    "pas_relative": gettext_noop("PAS relative to the reference"),
    "round": gettext_noop("Audit round"),
    "batch": gettext_noop("Batch"),
    "all_passed": gettext_noop("Passed every axis"),
    "all_rate": gettext_noop("Pass rate, every axis"),
    "lowest_axis": gettext_noop("Lowest axis"),
    "status": gettext_noop("Status"),
    "threshold": gettext_noop("Threshold"),
}

MODE_WORDS = {
    "free": gettext_noop("Free answer"),
    "mcq": gettext_noop("Multiple choice"),
}
AXIS_SUFFIXES = {
    "_passed": gettext_noop("passed"),
    "_rate": gettext_noop("pass rate"),
    # xgettext:no-python-format
    "_ci_low": gettext_noop("95% low"),
    # xgettext:no-python-format
    "_ci_high": gettext_noop("95% high"),
}
PCT_SUFFIXES = ("accuracy", "share", "share_of_bank", "_rate", "ci_low", "ci_high", "sf_score", "sf_known",
                "best_of_k", "pas", "pas_relative", "threshold")


def seed_label(key: str, translate: Callable[[str], str] = _same) -> str:
    """The header a person reads for a seed-table column ``key``.

    ``translate`` (e.g. Django's ``gettext``, as the seed page passes) turns the
    English words into the reader's language; the default keeps them English.
    """
    if key in LABELS:
        return translate(LABELS[key])
    head, _, rest = key.partition("_")
    if head in MODE_WORDS and rest:
        return f"{translate(MODE_WORDS[head])}: {seed_label(rest, translate)}"
    for suffix, word in AXIS_SUFFIXES.items():
        if key.endswith(suffix):
            return f"{key[: -len(suffix)].replace('_', ' ').capitalize()}: {translate(word)}"
    return column_label(key, translate)


def seed_cell(key: str, value) -> str:
    """A cell as shown: shares as percentages (signed for differences), θ and κ to 2-3 places."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if "theta" in key or "kappa" in key or key.startswith(("mean_question", "mean_clip")):
            return f"{value:.2f}"
        if key.endswith(PCT_SUFFIXES) and "sd_" not in key:
            signed = key.startswith("pas")
            return f"{100 * value:+.1f}%" if signed else f"{100 * value:.1f}%"
        if value.is_integer():
            return str(int(value))
        return f"{value:.3f}"
    return str(value)
