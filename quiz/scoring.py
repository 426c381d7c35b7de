"""Game scoring: points for a buzz, streaks, rounds, deadlines and the daily set (no Django).

Pure functions over plain values, so single-player play, the daily challenge and
live rooms (a later issue) score the same way, and a notebook can re-score an
export. Everything is decided from what the *server* recorded: the clue it had
revealed when the buzz arrived, and the seconds since that reveal
(docs/playing.md).

Points follow quizbowl practice: a correct answer is worth ``correct`` points,
plus an early bonus that falls linearly from ``early_bonus`` (buzzing at the very
start of the first clue) to 0 (buzzing once the whole pyramid has been heard). A
wrong answer given while more of the pyramid remained costs ``wrong_early``
points (a "neg"); a wrong answer after everything was heard, a skip ("I don't
know") and a time-out cost nothing.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

#: What happened to a served question. ``answer``: judged; ``skip``: the player said
#: "I don't know"; ``timeout``: no answer in time after a buzz or before the question timer.
OUTCOMES = ("answer", "skip", "timeout")

#: Seconds the server adds to every deadline for network and rendering delays.
GRACE_S = 2.0


@dataclass(frozen=True)
class PointsRule:
    """A project's points settings (``QuizStudy.points_*``); quizbowl-style defaults."""

    correct: int = 10
    early_bonus: int = 10
    wrong_early: int = 5

    def __post_init__(self) -> None:
        for name in ("correct", "early_bonus", "wrong_early"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1000:
                raise ValueError(f"{name}: must be a whole number from 0 to 1000")


def buzz_position(clue_index: int | None, clue_time_s: float | None,
                  durations: Sequence[float]) -> float | None:
    """How far into the pyramid a buzz came, from 0 (at once) to 1 (all heard).

    ``clue_index`` is the last clue the server had revealed, ``clue_time_s`` the
    seconds since it revealed it, ``durations`` the clips' lengths in clue order.
    Within a clue the position grows with the time since its reveal, capped at the
    clue's length. ``None`` for a question that is not a pyramid (no clue index).

    >>> buzz_position(0, 1.0, [4.0, 4.0])
    0.125
    >>> buzz_position(1, 99.0, [4.0, 4.0])
    1.0
    """
    if clue_index is None or not durations:
        return None
    n = len(durations)
    index = min(max(int(clue_index), 0), n - 1)
    duration = float(durations[index])
    elapsed = max(float(clue_time_s or 0.0), 0.0)
    within = min(elapsed / duration, 1.0) if duration > 0 else 1.0
    return round((index + within) / n, 4)


def points(rule: PointsRule, *, outcome: str, correct: bool, position: float | None) -> int:
    """Points for one served question.

    ``position`` is :func:`buzz_position` (``None`` when the question is not a
    pyramid: no early bonus, and no neg, since everything was heard at once).

    >>> points(PointsRule(), outcome="answer", correct=True, position=0.25)
    18
    >>> points(PointsRule(), outcome="answer", correct=False, position=0.25)
    -5
    >>> points(PointsRule(), outcome="skip", correct=False, position=0.25)
    0
    """
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome: must be one of {', '.join(OUTCOMES)}")
    if outcome != "answer":
        return 0
    if correct:
        bonus = 0.0 if position is None else rule.early_bonus * (1.0 - min(max(position, 0.0), 1.0))
        return rule.correct + math.floor(bonus + 0.5)  # half up, not to even
    if position is not None and position < 1.0:
        return -rule.wrong_early
    return 0


@dataclass(frozen=True)
class Streaks:
    """``current``: correct answers in a row up to the latest; ``best``: the longest run."""

    current: int
    best: int


def streaks(results: Iterable[bool]) -> Streaks:
    """Runs of correct answers in answer order (a skip or a time-out ends a run).

    >>> streaks([True, True, False, True])
    Streaks(current=1, best=2)
    """
    current = best = 0
    for ok in results:
        current = current + 1 if ok else 0
        best = max(best, current)
    return Streaks(current, best)


@dataclass(frozen=True)
class Deadline:
    """Whether an answer arriving ``elapsed_s`` after its start is still on time."""

    limit_s: float | None
    elapsed_s: float

    @property
    def remaining_s(self) -> float | None:
        """Seconds left before the limit (no grace), ``None`` without a limit."""
        if self.limit_s is None:
            return None
        return max(self.limit_s - self.elapsed_s, 0.0)

    @property
    def expired(self) -> bool:
        """True once the limit *and* the grace (:data:`GRACE_S`) have passed."""
        return self.limit_s is not None and self.elapsed_s > self.limit_s + GRACE_S


def deadline(limit_s: float | int | None, elapsed_s: float) -> Deadline:
    """A :class:`Deadline`; a limit of 0 or ``None`` means no limit."""
    return Deadline(float(limit_s) if limit_s else None, max(float(elapsed_s), 0.0))


@dataclass(frozen=True)
class RoundItem:
    """One served question of a round, as scored: enough to summarise it."""

    category: str
    outcome: str
    correct: bool
    points: int


@dataclass(frozen=True)
class RoundSummary:
    """A round's totals: answered, right, skipped, points, streaks, per-category accuracy."""

    n: int
    n_correct: int
    n_skipped: int
    n_timeout: int
    points: int
    streaks: Streaks
    by_category: tuple[tuple[str, int, int], ...]  # (category, n, n_correct) in first-seen order

    @property
    def accuracy(self) -> float | None:
        return self.n_correct / self.n if self.n else None


def summarise(items: Sequence[RoundItem]) -> RoundSummary:
    """Totals of a round's items, in the order they were answered.

    Skips and time-outs count as answered-and-not-correct in the accuracy, the
    same rule the research side uses (docs/quiz-studies.md, "I don't know").
    """
    per: dict[str, list[int]] = {}
    for item in items:
        if item.outcome not in OUTCOMES:
            raise ValueError(f"outcome: must be one of {', '.join(OUTCOMES)}")
        row = per.setdefault(item.category, [0, 0])
        row[0] += 1
        row[1] += int(item.correct)
    return RoundSummary(
        n=len(items),
        n_correct=sum(1 for i in items if i.correct),
        n_skipped=sum(1 for i in items if i.outcome == "skip"),
        n_timeout=sum(1 for i in items if i.outcome == "timeout"),
        points=sum(i.points for i in items),
        streaks=streaks(i.correct for i in items),
        by_category=tuple((name, n, k) for name, (n, k) in per.items()),
    )


def daily_key(project_key: str, day: date, question_key: str) -> str:
    """The sort key of one question in a day's challenge: SHA-256 of project, date and question."""
    return hashlib.sha256(f"earshot-daily:{project_key}:{day.isoformat()}:{question_key}".encode()).hexdigest()


def daily_set(project_key: str, day: date, question_keys: Iterable[str], size: int) -> list[str]:
    """The day's challenge: the ``size`` questions with the smallest :func:`daily_key`.

    The same on every server and for every player, whatever the order the keys come
    in; a different day (or project) gives an independent draw. Adding a question to
    the bank changes a day's set only if the new question's key sorts into it.
    """
    keys = sorted(set(question_keys), key=lambda k: (daily_key(project_key, day, k), k))
    return keys[: max(int(size), 0)]


def share_text(*, title: str, day: date, marks: Sequence[bool | None], points_total: int | None,
               url: str, points_label: str = "pts") -> str:
    """A plain-text result to paste anywhere: one square per question, no answers.

    ``marks``: ``True`` right, ``False`` wrong, ``None`` skipped or not shown;
    ``points_label`` is the (translated) unit after the points.
    """
    squares = "".join("🟩" if m is True else "🟥" if m is False else "⬜" for m in marks)
    right = sum(1 for m in marks if m is True)
    line = f"{right}/{len(marks)}" + (f" · {points_total} {points_label}" if points_total is not None else "")
    return f"{title} {day.isoformat()}\n{squares} {line}\n{url}"
