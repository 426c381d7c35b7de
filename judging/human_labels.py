"""Human labels from an annotation campaign's ratings (pure: standard library only).

A campaign that shows annotators a question, its reference answer and a model's
answer (``qa_audit``: criterion ``correct`` yes/no; ``quality_0_5``: criterion
``quality`` 0-5; or a custom campaign with either key) rates quiz responses; each
item names its response in ``metadata.response_id``. :func:`aggregate_item` turns
one item's ratings into one human label: the majority of the ``correct`` votes
(a tie decides nothing), the median ``quality`` (rounded half up), and, when only
qualities were asked, correct = median quality >= 3.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

__all__ = ["ItemLabel", "aggregate_item"]

_YES = {"yes", "y", "true", "1", "correct"}
_NO = {"no", "n", "false", "0", "wrong", "incorrect"}


@dataclass(frozen=True)
class ItemLabel:
    """The aggregated human label of one rated item (``correct`` None: undecided)."""

    correct: bool | None
    quality: int | None
    n_raters: int
    reason: str


def aggregate_item(correct_votes: Sequence[str], quality_votes: Sequence[str]) -> ItemLabel:
    """One label from an item's ``correct`` (yes/no) and ``quality`` (0-5) ratings."""
    yes = sum(1 for v in correct_votes if str(v).strip().lower() in _YES)
    no = sum(1 for v in correct_votes if str(v).strip().lower() in _NO)
    qualities = []
    for v in quality_votes:
        try:
            q = float(v)
        except (TypeError, ValueError):
            continue
        if 0 <= q <= 5:
            qualities.append(q)
    quality = math.floor(median(qualities) + 0.5) if qualities else None
    n = max(yes + no, len(qualities))
    if yes + no:
        if yes == no:
            return ItemLabel(None, quality, n, f"tie: {yes} yes, {no} no")
        return ItemLabel(yes > no, quality, n, f"majority of {yes + no}: {yes} yes, {no} no")
    if quality is not None:
        return ItemLabel(quality >= 3, quality, n, f"median quality {quality} of {len(qualities)}")
    return ItemLabel(None, None, 0, "no usable ratings")
