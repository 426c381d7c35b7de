"""MUSHRA post-screening of listeners per ITU-R BS.1534-3, §4.1.2 (pure: no Django).

The Recommendation screens assessors after the test with two rules on the conditions
whose true score is known:

* **hidden reference** — an assessor who rates the hidden reference *lower than 90*
  for *more than 15 %* of the test items is excluded;
* **mid-range anchor** — an assessor who rates the mid-range anchor (the 7 kHz
  low-pass) *higher than 90* for *more than 15 %* of the test items may also be
  excluded (on by default here; ``PostScreenConfig.anchor_rule=False`` turns it into
  a flag).

"Items" are the test items (trials) in which the assessor rated that condition: an
item without a mid-range anchor does not count towards the anchor rule's share. A
score of exactly 90 breaks neither rule, and a share of exactly 15 % is not "more than
15 %". Every excluded assessor is reported with the rule, the counts and a sentence.

Input: a long DataFrame with ``rater_id``, ``item_id``, ``role`` (``hidden_reference``,
``anchor``, ``system``, ...), ``condition`` (the anchor's name, e.g. ``lp7000``) and
``score`` (0–100); one row per rated stimulus.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = ["Exclusion", "PostScreenConfig", "PostScreenResult", "mushra_post_screen"]


@dataclass(frozen=True)
class PostScreenConfig:
    """Thresholds of BS.1534-3 §4.1.2 (the defaults are the Recommendation's)."""

    threshold: float = 90.0
    max_share: float = 0.15
    hidden_reference_role: str = "hidden_reference"
    anchor_role: str = "anchor"
    mid_anchor_conditions: frozenset[str] = field(default_factory=lambda: frozenset({"lp7000"}))
    anchor_rule: bool = True  # False: the mid-anchor rule flags but does not exclude


@dataclass(frozen=True)
class Exclusion:
    """One listener excluded (or flagged) by one rule, with the counts behind it."""

    rater_id: str
    rule: str  # "hidden_reference" or "mid_anchor"
    n_items: int
    n_violations: int
    share: float
    excluded: bool
    reason: str


@dataclass(frozen=True)
class PostScreenResult:
    """Per-listener table and the exclusions.

    ``raters``: index ``rater_id``; columns ``n_items_reference``,
    ``n_reference_below``, ``reference_share``, ``n_items_anchor``,
    ``n_anchor_above``, ``anchor_share``, ``excluded`` and ``reasons`` (``""`` when
    kept). ``exclusions``: one :class:`Exclusion` per broken rule, excluded or flagged.
    """

    raters: pd.DataFrame
    exclusions: tuple[Exclusion, ...]
    config: PostScreenConfig

    @property
    def excluded_raters(self) -> list[str]:
        """Ids of the listeners whose ratings are dropped, sorted."""
        return sorted(self.raters.index[self.raters["excluded"]])

    def kept(self, ratings: pd.DataFrame) -> pd.DataFrame:
        """``ratings`` without the excluded listeners' rows."""
        return ratings[~ratings["rater_id"].isin(self.excluded_raters)]


def _rule_counts(frame: pd.DataFrame, mask: pd.Series, violates: pd.Series) -> pd.DataFrame:
    """Per rater: items with a rated stimulus of this kind, and items where one violates."""
    rows = frame[mask].assign(bad=violates[mask])
    per_item = rows.groupby(["rater_id", "item_id"], sort=True)["bad"].any()
    return per_item.groupby(level="rater_id").agg(n="size", bad="sum")


def mushra_post_screen(ratings: pd.DataFrame, config: PostScreenConfig | None = None, *,
                       mid_anchor_conditions: Collection[str] | None = None) -> PostScreenResult:
    """Apply BS.1534-3's post-screening rules to MUSHRA ratings.

    ``mid_anchor_conditions`` overrides the config's names of the mid-range anchor.
    Raises ``ValueError`` naming a missing column or a score outside 0–100.
    """
    config = config or PostScreenConfig()
    if mid_anchor_conditions is not None:
        config = PostScreenConfig(**{**config.__dict__, "mid_anchor_conditions": frozenset(mid_anchor_conditions)})
    missing = [c for c in ("rater_id", "item_id", "role", "condition", "score") if c not in ratings]
    if missing:
        raise ValueError(f"ratings: missing column(s) {', '.join(missing)}")
    frame = ratings[["rater_id", "item_id", "role", "condition", "score"]].copy()
    frame["rater_id"] = frame["rater_id"].astype(str)
    frame["score"] = pd.to_numeric(frame["score"], errors="coerce")
    bad = frame["score"].isna() | (frame["score"] < 0) | (frame["score"] > 100)
    if bad.any():
        row = frame[bad].iloc[0]
        raise ValueError(f"ratings: score {row['score']!r} of rater {row['rater_id']} on item "
                         f"{row['item_id']} is not a number from 0 to 100")
    ref_mask = frame["role"] == config.hidden_reference_role
    anchor_mask = (frame["role"] == config.anchor_role) & frame["condition"].isin(config.mid_anchor_conditions)
    ref = _rule_counts(frame, ref_mask, frame["score"] < config.threshold)
    anchor = _rule_counts(frame, anchor_mask, frame["score"] > config.threshold)
    raters = pd.DataFrame(index=pd.Index(sorted(frame["rater_id"].unique()), name="rater_id"))
    raters["n_items_reference"] = ref["n"].reindex(raters.index, fill_value=0).astype(int)
    raters["n_reference_below"] = ref["bad"].reindex(raters.index, fill_value=0).astype(int)
    raters["n_items_anchor"] = anchor["n"].reindex(raters.index, fill_value=0).astype(int)
    raters["n_anchor_above"] = anchor["bad"].reindex(raters.index, fill_value=0).astype(int)
    with np.errstate(invalid="ignore", divide="ignore"):
        raters["reference_share"] = raters["n_reference_below"] / raters["n_items_reference"].replace(0, np.nan)
        raters["anchor_share"] = raters["n_anchor_above"] / raters["n_items_anchor"].replace(0, np.nan)
    pct = f"{config.max_share:.0%}"
    exclusions: list[Exclusion] = []
    for rater, row in raters.iterrows():
        if row["reference_share"] > config.max_share:
            exclusions.append(Exclusion(
                str(rater), "hidden_reference", int(row["n_items_reference"]), int(row["n_reference_below"]),
                float(row["reference_share"]), True,
                f"rated the hidden reference below {config.threshold:g} in {int(row['n_reference_below'])} of "
                f"{int(row['n_items_reference'])} items ({row['reference_share']:.0%}, more than {pct})"))
        if row["anchor_share"] > config.max_share:
            exclusions.append(Exclusion(
                str(rater), "mid_anchor", int(row["n_items_anchor"]), int(row["n_anchor_above"]),
                float(row["anchor_share"]), config.anchor_rule,
                f"rated the mid-range anchor above {config.threshold:g} in {int(row['n_anchor_above'])} of "
                f"{int(row['n_items_anchor'])} items ({row['anchor_share']:.0%}, more than {pct})"
                + ("" if config.anchor_rule else "; flagged only")))
    by_rater: dict[str, list[Exclusion]] = {}
    for e in exclusions:
        by_rater.setdefault(e.rater_id, []).append(e)
    raters["excluded"] = [any(e.excluded for e in by_rater.get(r, [])) for r in raters.index]
    raters["reasons"] = ["; ".join(e.reason for e in by_rater.get(r, [])) for r in raters.index]
    return PostScreenResult(raters=raters, exclusions=tuple(exclusions), config=config)
