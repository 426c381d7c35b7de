"""Crowd operations: time on item as a quality signal, and the approval/bonus report (pure).

Time on item
------------
A rating is **too fast** when the time from serving the item to the submission is
below ``max(min_seconds, duration_factor × the item's audio duration)``: with the
defaults (2 s, 1.0) nobody can have heard a 4-second clip and answered in less than
4 seconds, and no text-only item is answered honestly in under 2. A rater is
**flagged** when more than ``max_fast_share`` of their ratings are too fast (and they
have at least ``min_ratings``). The thresholds are in the result, so the report shows
the rule it applied. A flag is a signal, not an exclusion: the approval report below
withholds the bonus of a flagged rater, and says why.

Approval report
---------------
One row per participant in the shape Prolific's bulk tools and the P.808 result
parser's accept/reject and bonus lists use: ``participant_id`` (the platform's id,
e.g. the PROLIFIC_PID; the pseudonymous rater id for direct links), ``decision``,
``bonus``, ``reason``, plus the pseudonymous ``rater_id`` and the ``outcome``. The
decision follows the campaign's integrity rules (completion codes only for real work):

==============  =============================================================  ========
outcome         decision                                                       bonus
==============  =============================================================  ========
completed       ``approve``; ``reject`` when a rule in ``reject_on`` (by        only when
                default the attention checks: ``trap``, ``gold``) excluded       approved
                the rater                                                        and clean
screened_out    ``screen_out`` (Prolific pays its fixed screen-out amount)     none
no_work         ``return`` (asked to return the study: nothing to pay for)     none
(unfinished)    ``pending`` (no decision yet)                                  none
==============  =============================================================  ========

"Clean" means no quality exclusion (any rule) and no time-on-item flag; an approved
rater who is not clean is approved without bonus, with the reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal

import numpy as np
import pandas as pd

__all__ = [
    "PAYMENT_COLUMNS",
    "Participant",
    "PaymentConfig",
    "TimeOnItemConfig",
    "TimeOnItemResult",
    "payment_rows",
    "time_on_item",
]


@dataclass(frozen=True)
class TimeOnItemConfig:
    """Thresholds of the time-on-item rule (see the module docstring)."""

    min_seconds: float = 2.0
    duration_factor: float = 1.0
    max_fast_share: float = 0.2
    min_ratings: int = 3

    def __post_init__(self) -> None:
        if self.min_seconds < 0 or self.duration_factor < 0:
            raise ValueError("min_seconds and duration_factor must be >= 0")
        if not 0 <= self.max_fast_share <= 1:
            raise ValueError("max_fast_share must be between 0 and 1")

    def describe(self) -> str:
        """The rule in one sentence, for the report."""
        return (f"a rating is too fast below max({self.min_seconds:g} s, {self.duration_factor:g} × the item's "
                f"audio duration); a rater with at least {self.min_ratings} ratings is flagged when more "
                f"than {self.max_fast_share:.0%} of them are too fast")


@dataclass(frozen=True)
class TimeOnItemResult:
    """``ratings``: one row per item rated (``rater_id``, ``item_id``, ``seconds``,
    ``threshold_s``, ``fast``); ``raters``: index ``rater_id`` with ``n``, ``n_fast``,
    ``fast_share``, ``median_s``, ``flagged`` and ``reason``."""

    ratings: pd.DataFrame
    raters: pd.DataFrame
    config: TimeOnItemConfig

    @property
    def flagged(self) -> list[str]:
        """Ids of the flagged raters, sorted."""
        return sorted(self.raters.index[self.raters["flagged"]])


def time_on_item(frame: pd.DataFrame, config: TimeOnItemConfig | None = None) -> TimeOnItemResult:
    """Flag too-fast ratings and raters. ``frame``: ``rater_id``, ``item_id``,
    ``elapsed_ms`` and ``duration_s`` (the item's audio, NaN without audio); one row
    per rated item (several criteria of one item: pass it once)."""
    config = config or TimeOnItemConfig()
    missing = [c for c in ("rater_id", "item_id", "elapsed_ms", "duration_s") if c not in frame]
    if missing:
        raise ValueError(f"time on item: missing column(s) {', '.join(missing)}")
    rows = frame[["rater_id", "item_id", "elapsed_ms", "duration_s"]].drop_duplicates(["rater_id", "item_id"])
    seconds = pd.to_numeric(rows["elapsed_ms"], errors="coerce").to_numpy(dtype=float) / 1000.0
    duration = pd.to_numeric(rows["duration_s"], errors="coerce").fillna(0.0).to_numpy(dtype=float)
    threshold = np.maximum(config.min_seconds, config.duration_factor * duration)
    ratings = pd.DataFrame({"rater_id": rows["rater_id"].astype(str).to_numpy(),
                            "item_id": rows["item_id"].to_numpy(), "seconds": seconds,
                            "threshold_s": threshold, "fast": seconds < threshold})
    grouped = ratings.groupby("rater_id", sort=True)
    raters = pd.DataFrame({"n": grouped.size(), "n_fast": grouped["fast"].sum().astype(int),
                           "median_s": grouped["seconds"].median()})
    raters["fast_share"] = raters["n_fast"] / raters["n"]
    raters["flagged"] = (raters["n"] >= config.min_ratings) & (raters["fast_share"] > config.max_fast_share)
    raters["reason"] = [
        (f"{r.n_fast} of {r.n} ratings faster than the item's threshold ({r.fast_share:.0%}, more than "
         f"{config.max_fast_share:.0%}); median {r.median_s:.1f} s") if r.flagged else ""
        for r in raters.itertuples()]
    raters.index.name = "rater_id"
    return TimeOnItemResult(ratings=ratings, raters=raters, config=config)


# ---------------------------------------------------------------------------- payment

PAYMENT_COLUMNS = ("participant_id", "decision", "bonus", "reason", "rater_id", "outcome")


@dataclass(frozen=True)
class PaymentConfig:
    """``bonus``: the amount per clean approved participant (0: no bonuses);
    ``reject_on``: quality rules whose exclusion rejects a completed submission."""

    bonus: Decimal = Decimal("0")
    reject_on: frozenset[str] = field(default_factory=lambda: frozenset({"trap", "gold"}))

    def __post_init__(self) -> None:
        if Decimal(self.bonus) < 0:
            raise ValueError("bonus must be >= 0")


@dataclass(frozen=True)
class Participant:
    """What the report needs about one annotator (plain data from the caller).

    ``excluded_by``: quality rules that excluded them (e.g. ``trap``, ``gold``,
    ``flat``, ``hidden_reference``); ``flags``: reasons that only withhold a bonus.
    """

    rater_id: str
    participant_id: str
    outcome: str  # "completed", "screened_out", "no_work" or "" (unfinished)
    excluded_by: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    screening_reason: str = ""


def _decide(p: Participant, config: PaymentConfig) -> tuple[str, Decimal, str]:
    zero = Decimal("0")
    if p.outcome == "screened_out":
        return "screen_out", zero, p.screening_reason or "failed the screening"
    if p.outcome == "no_work":
        return "return", zero, "no work was left for this participant"
    if p.outcome != "completed":
        return "pending", zero, "has not finished"
    rejecting = sorted(set(p.excluded_by) & set(config.reject_on))
    if rejecting:
        return "reject", zero, "failed the attention checks: " + ", ".join(rejecting)
    problems = [f"excluded by {rule}" for rule in sorted(set(p.excluded_by))] + list(p.flags)
    if problems:
        return "approve", zero, "completed; no bonus: " + "; ".join(problems)
    bonus = Decimal(config.bonus)
    return "approve", bonus, "completed; passed every check" + ("; bonus" if bonus > 0 else "")


def payment_rows(participants: Iterable[Participant], config: PaymentConfig | None = None
                 ) -> list[Mapping[str, str]]:
    """The approval/bonus report rows (:data:`PAYMENT_COLUMNS`), sorted by participant."""
    config = config or PaymentConfig()
    rows = []
    for p in participants:
        decision, bonus, reason = _decide(p, config)
        rows.append({"participant_id": p.participant_id or p.rater_id, "decision": decision,
                     "bonus": f"{bonus:.2f}", "reason": reason, "rater_id": p.rater_id, "outcome": p.outcome})
    return sorted(rows, key=lambda r: (r["participant_id"], r["rater_id"]))
