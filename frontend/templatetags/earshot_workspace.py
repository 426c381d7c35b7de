"""Template helpers for the researcher workspace."""

from __future__ import annotations

import math

from django import template
from django.urls import NoReverseMatch, reverse

register = template.Library()


@register.simple_tag
def optional_url(name: str, *args) -> str:
    """``reverse(name, args)``, or ``""`` when that URL does not exist (yet).

    Lets the workspace link to other apps' pages (IRT, judging, annotation) without
    breaking while those pages have not landed.
    """
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


@register.filter
def pct(value) -> str:
    """A 0–1 share as a percentage with one decimal; "–" when missing."""
    if value is None or value == "":
        return "–"
    try:
        value = float(value)
    except (TypeError, ValueError):
        return str(value)
    if math.isnan(value):
        return "–"
    return f"{100 * value:.1f}%"


@register.filter
def num(value) -> str:
    """A number for a table cell: floats with three decimals, missing as "–"."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return "–" if math.isnan(value) else f"{value:.3f}"
    return str(value)


@register.filter
def get(mapping, key):
    """``mapping[key]`` in templates (``None`` when absent)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def letter(position) -> str:
    """Screen position 0–9 of an MCQ option as A–J."""
    try:
        return "ABCDEFGHIJ"[int(position)]
    except (TypeError, ValueError, IndexError):
        return ""
