"""Listening evidence: what part of a clip a participant really heard (pure: no Django).

Earshot's own player (``frontend/static/frontend/js/player.js``) reports the played
intervals of a clip as ``[[start, end], ...]`` in clip seconds: each interval is a
stretch the audio actually advanced through at normal speed (a forward seek starts a
new interval, it never extends one). The server must not take the client's word for
it, so :func:`check_evidence` checks the report against what the server knows:

* the clip's duration: intervals outside ``[0, duration]`` (beyond a small
  tolerance), NaN/Infinity, reversed or malformed pairs are *invalid evidence*;
* the server-side timeline: the wall time between serving the clip and receiving the
  answer must cover the heard time (you cannot hear 8 s of audio in 3 s).

Overlapping intervals (a replay) are merged, so hearing the first second twice counts
once. The result is a frozen :class:`ListeningCheck` whose ``reason`` is one sentence a
participant can read. Quiz and annotation use the same rules::

    check = check_evidence(played, duration_s, served_at=served, submitted_at=now,
                           min_fraction=1.0)
    if not check.ok:
        raise RatingError("played", check.reason)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = [
    "END_TOLERANCE_S",
    "FRACTION_SLACK",
    "MAX_INTERVALS",
    "TIMELINE_SLACK_S",
    "EvidenceError",
    "ListeningCheck",
    "check_evidence",
    "heard_seconds",
    "merge_intervals",
    "parse_intervals",
]

#: how far past the clip's end an interval may reach (decoders round durations)
END_TOLERANCE_S = 0.25
#: a clip counts as fully heard at ``min_fraction - FRACTION_SLACK`` (the last
#: ``timeupdate`` before ``ended`` arrives up to ~250 ms early)
FRACTION_SLACK = 0.02
#: served-at is before playback can start and the answer arrives after it ends, so wall
#: time always covers heard time; this only absorbs clock and decoder rounding
TIMELINE_SLACK_S = 0.1
#: more intervals than this is junk, not listening
MAX_INTERVALS = 500


class EvidenceError(ValueError):
    """The played-intervals report is malformed (not a list of [start, end] numbers)."""


@dataclass(frozen=True)
class ListeningCheck:
    """The verdict on one clip's listening evidence.

    ``intervals``: the merged, clipped intervals (what is stored); ``heard_s``: their
    total length; ``heard_fraction``: ``heard_s / duration`` in [0, 1] (``None`` when
    the evidence was invalid); ``ok``: whether it meets ``min_fraction`` and the
    timeline; ``reason``: why not (empty when ok), readable by a participant.
    """

    intervals: tuple[tuple[float, float], ...]
    heard_s: float
    heard_fraction: float | None
    ok: bool
    reason: str


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise EvidenceError(f"{where}: must be a number of seconds")
    number = float(value)
    if not math.isfinite(number):
        raise EvidenceError(f"{where}: must be a finite number")
    return number


def parse_intervals(raw: Any) -> list[tuple[float, float]]:
    """Validate the client's report: a list of ``[start, end]`` pairs, start <= end.

    Raises :class:`EvidenceError` naming the offending pair (``played[2]: ...``).
    Range checks against the clip are :func:`check_evidence`'s job.
    """
    if raw is None:
        return []
    if not isinstance(raw, list | tuple):
        raise EvidenceError("played: must be a list of [start, end] pairs")
    if len(raw) > MAX_INTERVALS:
        raise EvidenceError(f"played: at most {MAX_INTERVALS} intervals")
    out: list[tuple[float, float]] = []
    for i, pair in enumerate(raw):
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise EvidenceError(f"played[{i}]: must be a [start, end] pair")
        start, end = _number(pair[0], f"played[{i}][0]"), _number(pair[1], f"played[{i}][1]")
        if end < start:
            raise EvidenceError(f"played[{i}]: ends before it starts")
        out.append((start, end))
    return out


def merge_intervals(intervals: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """Sorted union of intervals (touching or overlapping ones become one)."""
    merged: list[list[float]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(s, e) for s, e in merged]


def heard_seconds(intervals: Sequence[tuple[float, float]]) -> float:
    """Total length of the union of ``intervals``."""
    return sum(e - s for s, e in merge_intervals(intervals))


def check_evidence(intervals: Any, duration: float, *, served_at: datetime | None = None,
                   submitted_at: datetime | None = None, min_fraction: float = 1.0) -> ListeningCheck:
    """Check a played-intervals report against the clip and the server's timeline.

    ``intervals``: the raw report (validated here; malformed input gives ``ok=False``
    with the reason, never an exception). ``duration``: the clip's length in seconds
    as the server measured it. ``served_at`` / ``submitted_at``: when the server
    handed out the clip and received the answer (both or neither). ``min_fraction``:
    the share of the clip that must have been heard (0 disables the requirement but
    still validates the report).
    """
    try:
        pairs = parse_intervals(intervals)
    except EvidenceError as exc:
        return ListeningCheck((), 0.0, None, False, f"The playback report is not valid ({exc}).")
    if not (isinstance(duration, int | float) and math.isfinite(duration) and duration > 0):
        return ListeningCheck((), 0.0, None, False, "The clip has no usable duration.")
    for i, (start, end) in enumerate(pairs):
        if start < -END_TOLERANCE_S or end > duration + END_TOLERANCE_S:
            return ListeningCheck((), 0.0, None, False,
                                  f"The playback report is not valid (played[{i}]: outside the clip, "
                                  f"which lasts {duration:.2f} s).")
    clipped = [(max(0.0, s), min(float(duration), e)) for s, e in pairs]
    merged = tuple(merge_intervals([p for p in clipped if p[1] > p[0]]))
    heard = sum(e - s for s, e in merged)
    fraction = min(1.0, heard / duration)
    if served_at is not None and submitted_at is not None:
        wall = (submitted_at - served_at).total_seconds()
        if wall + TIMELINE_SLACK_S < heard:
            return ListeningCheck(merged, heard, fraction, False,
                                  f"The answer arrived {max(wall, 0):.1f} s after the clip was served, "
                                  f"too soon to have heard {heard:.1f} s of it.")
    if min_fraction > 0 and fraction < min_fraction - FRACTION_SLACK:
        if min_fraction >= 1:
            need = "the whole clip"
        else:
            need = f"at least {round(100 * min_fraction)}% of the clip"
        return ListeningCheck(merged, heard, fraction, False,
                              f"Please listen to {need} before answering "
                              f"(heard so far: {round(100 * fraction)}%).")
    return ListeningCheck(merged, heard, fraction, True, "")
