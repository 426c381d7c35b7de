"""Rule 8u: a temperature in another scale, compared by value (pure Python, no Django).

"373.15 K" for "100 °C" is the same temperature (NQ301, EVOUNA: "express this in SI
units"), and so are "212 °F" and "-40 °F" for "-40 °C". The number rules compare the
numbers, which differ; this rule reads a short answer that is one temperature with its
scale, converts both sides to kelvin, and decides only when the scales differ (in the
same scale the number rules read the numbers as they do for any unit).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from judging.numbers import UNITS

# a temperature said whole: "373.15 K", "100°C", "212 degrees Fahrenheit", "-40 °F"
_TEMPERATURE: Final = re.compile(
    r"^(?:about|around|approximately|roughly|exactly)?\s*([-+]?\d+(?:[.,]\d+)?)\s*"
    r"(?:°|º|degrees?\s+|deg\s+)?\s*(\w+)\.?$", re.IGNORECASE)
# the scales' words of every seed language are the temperature units of
# judging.numbers.UNITS; the letters are said after a degree sign or alone ("373.15 K")
_SCALE: Final = {"c": "C", "f": "F", "k": "K", **{
    w: unit.upper() for w, kinds in UNITS.items() for kind, unit in kinds
    if kind == "temperature"}}


@lru_cache(maxsize=16384)
def temperature(text: str) -> tuple[float, str, float] | None:
    """(kelvin, the scale said, half a unit of the last digit said: how far the value
    may be rounded) when ``text`` is one temperature with its scale, else ``None``."""
    s = unicodedata.normalize("NFKC", text).strip().replace("\u2212", "-").rstrip(".")
    m = _TEMPERATURE.match(s)
    if m is None:
        return None
    scale = _SCALE.get(m.group(2).lower())
    if scale is None:
        return None
    number = m.group(1).replace(",", ".")
    value = float(number)
    digits = len(number.partition(".")[2])
    half = 0.5 / 10 ** digits
    if scale == "C":
        return value + 273.15, scale, half
    if scale == "F":
        return (value - 32) * 5 / 9 + 273.15, scale, half * 5 / 9
    return value, scale, half


def asked_scale(question_words: frozenset[str]) -> str:
    """The scale a question asks for ("at how many degrees Fahrenheit", "in SI units":
    kelvin), or ``""``."""
    # (the scale to say it in before the one a question gives: "100 degrees celsius,
    # express this in SI units")
    if "kelvin" in question_words or ("si" in question_words and (
            "unit" in question_words or "units" in question_words)):
        return "K"
    if "fahrenheit" in question_words:
        return "F"
    if "celsius" in question_words or "centigrade" in question_words:
        return "C"
    return ""


def same_temperature(candidate: str, answers: Sequence[str], asked: str = ""
                     ) -> tuple[bool, str] | None:
    """(right, the answer compared) when the candidate and an acceptable answer are
    temperatures in different scales: right when they are the same within the rounding
    of the less precise one, unless the question asks for another scale than the
    candidate's (``asked``: "100°C" at "how many degrees Fahrenheit ...?" is wrong).
    ``None`` otherwise."""
    mine = temperature(candidate)
    if mine is None:
        return None
    compared = None
    for a in answers:
        theirs = temperature(a)
        if theirs is None or theirs[1] == mine[1]:
            continue
        if abs(mine[0] - theirs[0]) <= max(mine[2], theirs[2]) + 1e-9:
            if asked and asked != mine[1]:
                return False, a
            return True, a
        compared = compared or a
    return None if compared is None else (False, compared)


def answer_temperatures(alt_texts: str, words: frozenset[str] | None = None
                        ) -> tuple[str, ...]:
    """The acceptable answers (one per line) that are a temperature with its scale
    (``words``: the text's words in lower case, when the caller has them)."""
    if "°" not in alt_texts and "º" not in alt_texts and _SCALE_WORDS.isdisjoint(
            alt_texts.lower().split() if words is None else words):
        return ()
    return tuple(t for t in alt_texts.split("\n") if temperature(t) is not None)


_SCALE_WORDS: Final = frozenset(_SCALE)
