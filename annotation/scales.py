"""Rating scales, campaign templates and value validation (pure: no Django).

A campaign's questions are a list of criteria, each a dict::

    {"key": "mos", "label": "Overall quality", "scale": "acr5",
     "labels": ["Bad", "Poor", "Fair", "Good", "Excellent"],   # optional override
     "values": [...],                                           # custom scales only
     "comment": false}                                          # optional free-text box

Scales: ``acr5`` (1–5, ITU-T P.800 ACR), ``natural`` (natural / unnatural),
``yes_no`` (yes / no), ``score0_5`` (0–5) and ``custom`` (explicit ``values`` and
``labels``); for listening tests with several stimuli ``ccr7`` (−3…+3), ``dcr5``,
``smos5``, ``preference`` (A / B / none), ``forced_ab`` (A / B), ``mushra100`` (0–100)
and ``rank`` (1…N, N the item's rated stimuli). Labels may be in any language; stored values never change with them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ITEM_SCALES",
    "SCALES",
    "TEMPLATES",
    "Choice",
    "CriterionError",
    "choices_for",
    "normalize_criteria",
    "template_criteria",
    "validate_value",
]

def gettext_noop(message: str) -> str:
    """Mark ``message`` for extraction by ``makemessages`` without translating it.

    This module imports no Django, so default labels stay English here; the pages and
    the rater API translate them when they show them (``annotation.selectors``), and a
    campaign's own labels, in any language, pass through unchanged.
    """
    return message


#: scale -> (values, default labels, keyboard keys)
SCALES: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "acr5": (("1", "2", "3", "4", "5"),
             (gettext_noop("Bad"), gettext_noop("Poor"), gettext_noop("Fair"), gettext_noop("Good"),
              gettext_noop("Excellent")),
             ("1", "2", "3", "4", "5")),
    "natural": (("natural", "unnatural"), (gettext_noop("Natural"), gettext_noop("Unnatural")), ("y", "n")),
    "yes_no": (("yes", "no"), (gettext_noop("Yes"), gettext_noop("No")), ("y", "n")),
    "score0_5": (("0", "1", "2", "3", "4", "5"), ("0", "1", "2", "3", "4", "5"),
                 ("0", "1", "2", "3", "4", "5")),
    # listening tests with several stimuli (annotation.listening_tests)
    # ITU-T P.800 / P.808 comparison category rating: the second sample against the first
    "ccr7": (("-3", "-2", "-1", "0", "1", "2", "3"),
             (gettext_noop("Much worse"), gettext_noop("Worse"), gettext_noop("Slightly worse"),
              gettext_noop("About the same"), gettext_noop("Slightly better"), gettext_noop("Better"),
              gettext_noop("Much better")), ("1", "2", "3", "4", "5", "6", "7")),
    # ITU-T P.800 Annex D degradation category rating
    "dcr5": (("1", "2", "3", "4", "5"),
             (gettext_noop("Degradation is very annoying"), gettext_noop("Degradation is annoying"),
              gettext_noop("Degradation is slightly annoying"),
              gettext_noop("Degradation is audible but not annoying"),
              gettext_noop("Degradation is inaudible")),
             ("1", "2", "3", "4", "5")),
    "smos5": (("1", "2", "3", "4", "5"),
              (gettext_noop("Not at all similar"), gettext_noop("Slightly similar"),
               gettext_noop("Moderately similar"), gettext_noop("Very similar"),
               gettext_noop("Extremely similar")), ("1", "2", "3", "4", "5")),
    # AB: the value is the chosen stimulus' role (A or B), never its on-screen place
    "preference": (("A", "B", "none"), ("A", "B", gettext_noop("No preference")), ("a", "b", "n")),
    "forced_ab": (("A", "B"), ("A", "B"), ("a", "b")),
    # ITU-R BS.1534-3: a 0-100 continuous quality scale, stored as whole numbers
    "mushra100": (tuple(str(v) for v in range(101)), tuple(str(v) for v in range(101)),
                  ("",) * 101),
}

#: scales whose values depend on the item (ranking: 1..N stimuli); checked by
#: annotation.listening_tests, and by validate_value only as a positive whole number
ITEM_SCALES = ("rank",)
MAX_RANK = 16

TEMPLATES: dict[str, list[dict[str, Any]]] = {
    "mos": [{"key": "mos", "label": gettext_noop("Overall quality"), "scale": "acr5"}],
    "naturalness": [{"key": "natural", "label": gettext_noop("Does this sound natural?"),
                     "scale": "natural"}],
    "multi_criteria": [
        {"key": "grammatical", "label": gettext_noop("Grammatical"), "scale": "yes_no"},
        {"key": "natural_aloud", "label": gettext_noop("Natural when read aloud"), "scale": "yes_no"},
        {"key": "plausible", "label": gettext_noop("Plausible replacement"), "scale": "yes_no"},
    ],
    "qa_audit": [
        {"key": "grounded", "label": gettext_noop("Factually grounded in the audio"), "scale": "yes_no"},
        {"key": "correct", "label": gettext_noop("Answer is correct"), "scale": "yes_no"},
        {"key": "diverse", "label": gettext_noop("Question type adds diversity"),
         "scale": "yes_no", "comment": True},
    ],
    "quality_0_5": [{"key": "quality", "label": gettext_noop("Response quality"),
                     "scale": "score0_5", "comment": True}],
    "custom": [],
    "ab": [{"key": "preference", "label": gettext_noop("Which sample do you prefer?"),
            "scale": "preference"}],
    "abx": [{"key": "abx", "label": gettext_noop("Is X the same as A or as B?"), "scale": "forced_ab"}],
    "ccr": [{"key": "cmos", "label": gettext_noop("Compared with the first sample, the second sample is"),
             "scale": "ccr7"}],
    "dcr": [{"key": "dmos", "label": gettext_noop("Degradation compared with the reference"),
             "scale": "dcr5"}],
    "smos": [{"key": "smos", "label": gettext_noop("How similar is the voice to the reference?"),
              "scale": "smos5"}],
    "mushra": [{"key": "mushra", "label": gettext_noop("Basic audio quality"), "scale": "mushra100"}],
    "ranking": [{"key": "rank", "label": gettext_noop("Order the samples from best (1) to worst"),
                 "scale": "rank"}],
}


class CriterionError(ValueError):
    """A criteria configuration or a value that does not fit its scale."""


@dataclass(frozen=True)
class Choice:
    """One button of a scale: stored value, shown label, keyboard key."""

    value: str
    label: str
    key: str


def template_criteria(template: str) -> list[dict[str, Any]]:
    """A fresh copy of a template's criteria (``custom`` has none)."""
    if template not in TEMPLATES:
        raise CriterionError(f"unknown template {template!r}; known: {sorted(TEMPLATES)}")
    return [dict(c) for c in TEMPLATES[template]]


def normalize_criteria(criteria: Any) -> list[dict[str, Any]]:
    """Check a criteria list and return it cleaned; raise :class:`CriterionError`."""
    if not isinstance(criteria, list) or not criteria:
        raise CriterionError("criteria must be a non-empty list")
    out: list[dict[str, Any]] = []
    keys: set[str] = set()
    for i, raw in enumerate(criteria):
        if not isinstance(raw, Mapping):
            raise CriterionError(f"criteria[{i}] must be an object")
        key = str(raw.get("key", "")).strip()
        if not key or not key.replace("_", "").isalnum() or len(key) > 60:
            raise CriterionError(f"criteria[{i}].key must be a short identifier (letters, digits, _)")
        if key in keys:
            raise CriterionError(f"criteria[{i}].key {key!r} is used twice")
        keys.add(key)
        scale = str(raw.get("scale", "")).strip()
        crit: dict[str, Any] = {"key": key, "label": str(raw.get("label") or key), "scale": scale,
                                "comment": bool(raw.get("comment", False))}
        if scale == "custom":
            values = [str(v).strip() for v in raw.get("values") or []]
            if len(values) < 2 or len(set(values)) != len(values):
                raise CriterionError(f"criteria[{i}]: a custom scale needs 2 or more distinct values")
            if any(not v or len(v) > 60 or any(ch in v for ch in "\t\r\n") for v in values):
                raise CriterionError(f"criteria[{i}]: custom values must be 1-60 characters, one line")
            crit["values"] = values
            n = len(values)
        elif scale in SCALES:
            n = len(SCALES[scale][0])
        elif scale in ITEM_SCALES:
            if raw.get("labels") is not None:
                raise CriterionError(f"criteria[{i}]: a {scale} scale takes no labels")
            out.append(crit)
            continue
        else:
            raise CriterionError(
                f"criteria[{i}].scale {scale!r} is not one of {sorted([*SCALES, *ITEM_SCALES, 'custom'])}")
        labels = raw.get("labels")
        if labels is not None:
            if not isinstance(labels, Sequence) or isinstance(labels, str) or len(labels) != n:
                raise CriterionError(f"criteria[{i}].labels needs exactly {n} labels")
            crit["labels"] = [str(x) for x in labels]
        out.append(crit)
    return out


def choices_for(criterion: Mapping[str, Any]) -> list[Choice]:
    """The buttons of a criterion: values, labels (campaign's own or the defaults), keys."""
    scale = criterion["scale"]
    if scale in ITEM_SCALES:
        return []  # the values depend on the item (ranking: one rank per stimulus)
    if scale == "custom":
        values = tuple(criterion["values"])
        labels = tuple(criterion.get("labels") or values)
        keys = tuple(str(i + 1) if i < 9 else "" for i in range(len(values)))
    else:
        values, labels, keys = SCALES[scale]
        labels = tuple(criterion.get("labels") or labels)
    return [Choice(v, lab, k) for v, lab, k in zip(values, labels, keys, strict=True)]


def validate_value(criterion: Mapping[str, Any], value: Any) -> str:
    """The stored text of ``value`` if it is on the criterion's scale; else raise."""
    if value is None or isinstance(value, bool | list | dict):
        raise CriterionError(f"{criterion['key']}: a value is required")
    text = str(value).strip()
    if isinstance(value, float) and value.is_integer():
        text = str(int(value))
    if criterion["scale"] in ITEM_SCALES:
        if not text.isdigit() or not 1 <= int(text) <= MAX_RANK:
            raise CriterionError(f"{criterion['key']}: {text[:20]!r} is not a rank (1-{MAX_RANK})")
        return str(int(text))
    allowed = [c.value for c in choices_for(criterion)]
    if text not in allowed:
        raise CriterionError(f"{criterion['key']}: {text!r} is not on the scale ({', '.join(allowed)})")
    return text


def numeric_bounds(criterion: Mapping[str, Any]) -> tuple[float, float] | None:
    """``(lowest, highest)`` possible score of a numeric criterion, else ``None``.

    Reports cut confidence intervals to these ends (D21). A criterion may state its
    range as ``min``/``max`` (continuous sliders); otherwise the bounds are the smallest
    and largest of its scale's values when every value is a number (``acr5`` → 1–5,
    ``score0_5`` → 0–5); label scales (natural, yes/no) have none.
    """
    if "min" in criterion and "max" in criterion:
        try:
            return float(criterion["min"]), float(criterion["max"])
        except (TypeError, ValueError):
            return None
    try:
        values = [float(c.value) for c in choices_for(criterion)]
    except (KeyError, TypeError, ValueError):
        return None
    return (min(values), max(values)) if len(values) >= 2 else None
