"""Readable headers and cell formats for the seed-paper tables (no Django).

CSV and JSON keep the machine keys; the page and the HTML report show these labels
(the key stays in the header's tooltip), as :mod:`frontend.columns` does for the
dashboard.
"""

from __future__ import annotations

import math

from .columns import column_label

LABELS = {
    "source": "Source", "category": "Category", "questions": "Questions", "share_of_bank": "% of bank",
    "clips": "Clips", "mean_clip_duration_s": "Mean clip duration (s)",
    "mean_question_words": "Mean question length (words)", "mean_question_chars": "Mean question length (characters)",
    "system": "Model", "failure_mode": "Failure mode", "n": "n", "correct": "Right", "accuracy": "Accuracy",
    "ci_low": "95% CI low", "ci_high": "95% CI high", "interval": "Interval",
    "question_id": "Question", "audio": "Right with audio", "transcript": "Right with transcript",
    "text": "Right from the text alone", "kind": "Who", "label": "Name", "group": "Group",
    "responder_id": "Responder #", "candidates": "Competitors", "mode": "Mode", "clue": "Clue",
    "dimension": "By", "value": "Value", "responders": "Responders", "theta": "θ",
    "theta_low": "θ 95% low", "theta_high": "θ 95% high", "fit_id": "Fit #", "joint_theta": "θ joint fit",
    "fit": "Fit", "fit_responses": "Responses in the fit",
    "followed": "Followed the counterfactual speech", "sf_score": "Speech faithfulness",
    "sf_ci_low": "Faithfulness 95% low", "sf_ci_high": "Faithfulness 95% high",
    "known_n": "n known (right on factual)", "known_followed": "Known and followed",
    "sf_known": "Faithfulness when known", "sf_known_ci_low": "When known 95% low",
    "sf_known_ci_high": "When known 95% high", "override": "Gave the factual answer instead",
    "case": "Case", "description": "What happened", "pairs": "Pairs", "share": "Share",
    "prompt_variant": "Prompt", "k": "Prompts (k)", "mean_accuracy": "Mean over prompts",
    "sd_accuracy": "SD over prompts", "mean_ci_low": "Mean 95% low", "mean_ci_high": "Mean 95% high",
    "mean_interval": "Interval of the mean", "best_prompt": "Best prompt", "best_n": "n (best prompt)",
    "best_accuracy": "Best prompt accuracy", "best_ci_low": "Best 95% low", "best_ci_high": "Best 95% high",
    "best_of_k": "Best-of-k", "best_of_k_ci_low": "Best-of-k 95% low", "best_of_k_ci_high": "Best-of-k 95% high",
    "campaign": "Campaign", "criterion": "Criterion", "subjects": "Subjects", "ratings": "Ratings",
    "kappa": "Fleiss' κ", "reason": "Why undefined", "step": "Step", "items": "Items", "kept": "Kept",
    "bin": "Clip duration", "bin_low": "From (s)", "prompt_language": "Prompt language",
    "reference": "Reference language", "reference_n": "n (reference)", "reference_accuracy": "Reference accuracy",
    "pas": "Prompt Advantage Score", "pas_ci_low": "PAS 95% low", "pas_ci_high": "PAS 95% high",
    "pas_relative": "PAS relative to the reference", "round": "Audit round", "batch": "Batch",
    "all_passed": "Passed every axis", "all_rate": "Pass rate, every axis", "lowest_axis": "Lowest axis",
    "status": "Status", "threshold": "Threshold",
}

MODE_WORDS = {"free": "Free answer", "mcq": "Multiple choice"}
AXIS_SUFFIXES = {"_passed": "passed", "_rate": "pass rate", "_ci_low": "95% low", "_ci_high": "95% high"}
PCT_SUFFIXES = ("accuracy", "share", "share_of_bank", "_rate", "ci_low", "ci_high", "sf_score", "sf_known",
                "best_of_k", "pas", "pas_relative", "threshold")


def seed_label(key: str) -> str:
    """The header a person reads for a seed-table column ``key``."""
    if key in LABELS:
        return LABELS[key]
    head, _, rest = key.partition("_")
    if head in MODE_WORDS and rest:
        return f"{MODE_WORDS[head]}: {seed_label(rest)}"
    for suffix, word in AXIS_SUFFIXES.items():
        if key.endswith(suffix):
            return f"{key[: -len(suffix)].replace('_', ' ').capitalize()}: {word}"
    return column_label(key)


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
