"""Readable headers for the dashboard's and the report's table columns (no Django).

Tables keep machine keys (``human_n``, ``free_theta_fit_id``) in CSV, JSON and
Parquet, where scripts read them; pages and the HTML report show these labels
instead (the key stays in the header's tooltip), so a reader never has to decode
``human n`` or ``mcq theta``.
"""

from __future__ import annotations

#: Whole keys with their own wording.
EXACT = {
    "rank": "Rank", "label": "Name", "group": "Group", "mode": "Mode", "category": "Category",
    "source": "Source", "prompt": "Prompt", "external_id": "Question", "best_model": "Best model",
    "best_model_accuracy": "Best model: accuracy",
    "gap": "Gap, humans − models (points)", "topline_gap": "Gap, top humans − best model (points)",
    "free_theta": "θ free answer", "mcq_theta": "θ multiple choice",
    "n": "Answers", "accuracy": "Accuracy", "errors": "Wrong answers", "questions": "Questions",
    "top_share": "Errors on the most-chosen distractor", "second_share": "Errors on the second",
    "third_share": "Errors on the third",
    "items": "Items (question × mode)", "pairs": "Pairs of humans", "agreeing_pairs": "Agreeing pairs",
    "agreement": "Agreement", "kappa": "κ (chance-corrected)", "landis_koch": "Landis–Koch",
}
#: First word of a key → who or what the column is about.
PREFIXES = {
    "human": "Humans", "model": "Models", "topline": "Top humans", "free": "Free answer",
    "mcq": "Multiple choice", "overall": "Overall",
}
#: The rest of a key → what is counted.
SUFFIXES = {
    "n": "answers", "correct": "correct", "accuracy": "accuracy", "theta": "θ",
    "theta_fit_id": "θ fit #", "theta_fit_mode": "θ fit mode", "theta_fit_model": "θ fit model",
    "theta_fit_filters": "θ fit filters", "mean_b": "mean difficulty b", "fitted_items": "fitted questions",
    "b_fit_id": "difficulty fit #",
}


def column_label(key: str) -> str:
    """The header a person reads for a table column ``key``."""
    if key in EXACT:
        return EXACT[key]
    if key.startswith("chose_"):
        return f"Chose {key[6:]}"
    if key.startswith("error_"):
        return f"Errors on {key[6:]}"
    head, _, rest = key.partition("_")
    if head in PREFIXES and rest in SUFFIXES:
        return f"{PREFIXES[head]}: {SUFFIXES[rest]}"
    return key.replace("_", " ").capitalize()
