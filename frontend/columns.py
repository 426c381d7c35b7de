"""Readable headers for the dashboard's and the report's table columns (no Django).

Tables keep machine keys (``human_n``, ``free_theta_fit_id``) in CSV, JSON and
Parquet, where scripts read them; pages and the HTML report show these labels
instead (the key stays in the header's tooltip), so a reader never has to decode
``human n`` or ``mcq theta``.
"""

from __future__ import annotations

from collections.abc import Callable


def gettext_noop(message: str) -> str:
    """Mark ``message`` for extraction by ``makemessages``; return it unchanged.

    This module imports no Django: the labels stay English here (CSV, JSON and the
    report bundle keep them so), and a page passes ``translate`` (Django's ``gettext``)
    to show them in the reader's language.
    """
    return message


def _same(text: str) -> str:
    return text


#: Whole keys with their own wording.
EXACT = {
    "rank": gettext_noop("Rank"),
    "label": gettext_noop("Name"),
    "group": gettext_noop("Group"),
    "mode": gettext_noop("Mode"),
    "category": gettext_noop("Category"),
    "source": gettext_noop("Source"),
    "prompt": gettext_noop("Prompt"),
    "external_id": gettext_noop("Question"),
    "best_model": gettext_noop("Best model"),
    "best_model_accuracy": gettext_noop("Best model: accuracy"),
    "gap": gettext_noop("Gap, humans − models (points)"),
    "topline_gap": gettext_noop("Gap, top humans − best model (points)"),
    "free_theta": gettext_noop("θ free answer"),
    "mcq_theta": gettext_noop("θ multiple choice"),
    "n": gettext_noop("Answers"),
    "accuracy": gettext_noop("Accuracy"),
    "errors": gettext_noop("Wrong answers"),
    "questions": gettext_noop("Questions"),
    "top_share": gettext_noop("Errors on the most-chosen distractor"),
    "second_share": gettext_noop("Errors on the second"),
    "third_share": gettext_noop("Errors on the third"),
    "items": gettext_noop("Items (question × mode)"),
    "pairs": gettext_noop("Pairs of humans"),
    "agreeing_pairs": gettext_noop("Agreeing pairs"),
    "agreement": gettext_noop("Agreement"),
    "kappa": gettext_noop("κ (chance-corrected)"),
    "landis_koch": gettext_noop("Landis–Koch"),
}
#: First word of a key → who or what the column is about.
PREFIXES = {
    "human": gettext_noop("Humans"),
    "model": gettext_noop("Models"),
    "topline": gettext_noop("Top humans"),
    "free": gettext_noop("Free answer"),
    "mcq": gettext_noop("Multiple choice"),
    "overall": gettext_noop("Overall"),
}
#: The rest of a key → what is counted.
SUFFIXES = {
    "n": gettext_noop("answers"),
    "correct": gettext_noop("correct"),
    "accuracy": gettext_noop("accuracy"),
    "theta": "θ",
    "theta_fit_id": gettext_noop("θ fit #"),
    "theta_fit_mode": gettext_noop("θ fit mode"),
    "theta_fit_model": gettext_noop("θ fit model"),
    "theta_fit_filters": gettext_noop("θ fit filters"),
    "mean_b": gettext_noop("mean difficulty b"),
    "fitted_items": gettext_noop("fitted questions"),
    "b_fit_id": gettext_noop("difficulty fit #"),
}


def column_label(key: str, translate: Callable[[str], str] = _same) -> str:
    """The header a person reads for a table column ``key``.

    ``translate`` (e.g. Django's ``gettext``) turns the English words into the
    reader's language; the default keeps them English.
    """
    if key in EXACT:
        return translate(EXACT[key])
    if key.startswith("chose_"):
        return translate(gettext_noop("Chose %(option)s")) % {"option": key[6:]}
    if key.startswith("error_"):
        return translate(gettext_noop("Errors on %(option)s")) % {"option": key[6:]}
    head, _, rest = key.partition("_")
    if head in PREFIXES and rest in SUFFIXES:
        return f"{translate(PREFIXES[head])}: {translate(SUFFIXES[rest])}"
    return key.replace("_", " ").capitalize()
