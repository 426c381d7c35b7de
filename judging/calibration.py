"""The judge's calibrator: the grey cases' features by name, what the question asks,
and the logistic regression that decides a grey case and scores every verdict (pure
Python and numpy, no Django).

:mod:`judging.equivalence` computes the features (:data:`FEATURE_NAMES`, in order) and
loads the committed weights once (``CALIBRATOR``); ``python -m
judging.train_calibrator`` fits them and writes ``judging/calibrator.json``. Kept apart
from the rules so that training, tests and the rules each read one concept's module.
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

__all__ = [
    "ADD_DROP_CAP",
    "CALIBRATOR_PATH",
    "FEATURE_NAMES",
    "QUESTION_KIND_NAMES",
    "SCRIPT_RATE_SUFFIX",
    "Calibrator",
    "adds_or_drops",
    "adds_or_drops_many",
    "load_calibrator",
    "question_kind",
]

CALIBRATOR_PATH = Path(__file__).with_name("calibrator.json")
# a hard rule's rate over candidates in another script is stored under "<rule>|script"
SCRIPT_RATE_SUFFIX = "|script"

FEATURE_NAMES: tuple[str, ...] = (
    "contains",          # an acceptable answer occurs contiguously in the candidate
    "contains_short",    # ... and the candidate is short (<= 6 tokens)
    "recall",            # share of the answer's content tokens found in the candidate
    "recall_fuzzy",      # same, a token counts if it is a close spelling variant
    "recall_noq",        # same, over answer tokens that the question does not contain
    "answer_in_question",  # every answer token also occurs in the question
    "surname_in",        # person-like answer whose surname occurs in the candidate
    "ratio",             # fuzzy similarity of the candidate's core with the answer
    "partial",           # best partial (substring) similarity of the answer in the candidate
    "precision",         # share of the candidate's new content tokens that are answer tokens
    "precision_short",   # precision x short candidate
    "num_match",         # the answer has numbers and all occur in the candidate
    "num_partial",       # some but not all of the answer's numbers occur
    "num_miss",          # the answer has numbers, the candidate has others, none shared
    "log_len",           # log(1 + candidate tokens)
    "short",             # candidate has <= 4 tokens
    "negated_mention",   # a mention of the answer is preceded by a negation
    "refusal",           # "I don't know", "no information", "cannot", ...
    "first_pos",         # relative position of the first mention (0 = start, 1 = none)
    "recall_x_short",    # recall x short
    "recall_full",       # recall == 1
    "n_new_tokens",      # log(1 + candidate content tokens absent from answer and question)
    "last_in",           # the answer's last word (surname, head noun) occurs in the candidate
    "given_only",        # a person's given name occurs but not the surname
    "month_miss",        # the answer names a month, the candidate names only other months
    "day_miss",          # same month, different day of the month
    "log_n_alts",        # log(number of acceptable answers)
    "frac_alts",         # share of the acceptable answers mentioned
    "disclaimer",        # "As an AI language model, I do not have access ..."
    "given_conflict",    # a person's surname preceded by a different given name
    "ratio_x_short",     # interactions: short answers are judged on their own terms
    "rfuzzy_x_short",
    "last_x_short",
    "new_x_short",
    "comma_head",        # "Madison" for "Madison, Wisconsin": the part before the comma
    "recall_weighted",   # recall weighted by word length (a cheap stand-in for rarity)
    "longest_missing",   # the answer's longest new word is absent (Camden for Antietam)
    "recall_stem",       # recall after crude stemming (cells ~ cell, French ~ France)
    "family_short",      # short answer: share of answer words with a same-family word
    "question_only",     # every answer word the candidate shares is a question word
    # regime features (issue 13): short trivia answers are not long LLM sentences
    "answer_short",      # the shortest acceptable answer has <= 2 words
    "short_pair",        # ... and the candidate's core has <= 4 words
    "swap_evidence",     # short candidate sharing some, not all, answer words, with new words
    "script",            # the candidate has letters outside ASCII after folding
)

# columns of a feature row that the scores read
SHORT_FEATURE = FEATURE_NAMES.index("short")
RECALL_FEATURE = FEATURE_NAMES.index("recall")
PRECISION_FEATURE = FEATURE_NAMES.index("precision")


# What the question asks (issue 13): how often a human accepts an answer the rules
# call wrong, or rejects one they call right, depends on it. A "who" question has one
# person for an answer, so another name is nearly always wrong; "where"/"what"
# questions and ones about the latest or next thing have references that are often
# incomplete or out of date, and annotators accept other answers two to three times
# as often (on EVOUNA-NQ and NQ301 alike). The scores, not the decisions, read them.
QUESTION_KIND_NAMES: tuple[str, ...] = ("q_who", "q_when", "q_what_where", "q_recent")
_Q_RECENT = frozenset({"latest", "last", "new", "next", "current", "currently", "recent",
                       "now", "today", "newest", "upcoming", "present"})
# "this" asks about the current thing only before a span of time ("this year", "this
# season's"): quiz questions say "Name this composer", "this type of decay".
_Q_THIS_TIME = frozenset({"year", "years", "season", "seasons", "week", "weekend", "month",
                          "summer", "winter", "spring", "autumn", "fall", "decade", "term",
                          "century", "morning", "evening", "tonight"})
_Q_STRIP = ".,;:?!\"'()"  # what is stripped from a word's ends before the test
_NO_KIND: tuple[float, ...] = (0.0,) * len(QUESTION_KIND_NAMES)


@lru_cache(maxsize=16384)
def question_kind(question: str) -> tuple[float, ...]:
    """The question's kind as 0/1 values, :data:`QUESTION_KIND_NAMES`: its first word
    is "who", "when", or "what"/"where"/"which"; it asks about the latest, next or
    current thing ("this" only before a span of time: "this season's winner", not
    "Name this composer"). English words only: a question in another language (or none) has
    every value 0, like an English question of another kind."""
    if not question:
        return _NO_KIND
    words = question.lower().split()
    if not words:
        return _NO_KIND
    first = words[0].strip("\"'¿¡(")
    # Word by word, not one regular expression: trying a dozen words at every
    # character cost a tenth of a cold batch's verdicts.
    bare = [w.strip(_Q_STRIP) for w in words]
    recent = not _Q_RECENT.isdisjoint(bare) or ("this" in bare and any(
        w == "this" and i + 1 < len(bare) and _Q_THIS_TIME.intersection(
            (bare[i + 1], bare[i + 1].removesuffix("'s").removesuffix("\u2019s")))
        for i, w in enumerate(bare)))
    return (float(first == "who"), float(first == "when"),
            float(first in ("what", "where", "which")), float(recent))


# The highest score of a grey verdict on a short candidate that adds words to an
# acceptable answer, drops some of its words, or both (adds_or_drops): humans accept
# ~9 in 10 of them, but that is where other entities hide that no rule sees without
# world knowledge (`London, Ontario` for `London`, `New Guinea` for `Papua New Guinea`,
# `Cộng hòa Dominica` for `Dominica`, `Washington State` for `Washington, D.C.`), so
# none is scored past 0.9, the line above which a verdict is taken as settled and not
# looked at again.
ADD_DROP_CAP = 0.89


def adds_or_drops(features: Sequence[float]) -> bool:
    """A grey pair's features say: a short candidate (core of at most four words,
    feature ``short``) that shares words with an acceptable answer without being it:
    every content word of the answer and words of its own (``recall`` 1,
    ``precision`` under 1), only some of the answer's words (``recall`` between 0 and
    1), with or without words of its own (since 2026.12.5: a word swapped is where
    another entity hides most). Its score is capped at :data:`ADD_DROP_CAP`."""
    if not features[SHORT_FEATURE]:
        return False
    recall, precision = features[RECALL_FEATURE], features[PRECISION_FEATURE]
    return (recall >= 1.0 and precision < 1.0) or 0.0 < recall < 1.0


def adds_or_drops_many(x: np.ndarray) -> np.ndarray:
    """:func:`adds_or_drops` of every row of a (n, n_features) feature matrix."""
    recall, precision = x[:, RECALL_FEATURE], x[:, PRECISION_FEATURE]
    return (x[:, SHORT_FEATURE] > 0) & (((recall >= 1.0) & (precision < 1.0))
                                         | ((recall > 0.0) & (recall < 1.0)))


@dataclass(frozen=True)
class Calibrator:
    """Logistic regression over :data:`FEATURE_NAMES` (standardized inputs).

    The regression *decides* a grey case (``p >= threshold``); its probability is
    then *scored* per regime by a Platt map ``sigmoid(a * logit(p) + b)`` fitted on
    data sets weighted equally (``platt``: ``(a, b)`` for long candidates, then for
    short ones, feature ``short``; empty: the score is ``p``). The decision keeps
    the accuracy of the pooled fit; the score does not let the largest data set's
    annotators stand for everyone's (see docs/judging.md, "The calibrator")."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    threshold: float = 0.5
    rule_rates: tuple[tuple[str, float], ...] = ()
    platt: tuple[tuple[float, float], ...] = ()
    # the question's kind (QUESTION_KIND_NAMES) in the scores: per side (rules that
    # accept, then rules that reject) its coefficients and a bias on the logit of the
    # rule's rate; and its coefficients in the grey cases' Platt maps (empty: unused)
    question_hard: tuple[tuple[float, ...], ...] = ()
    question_platt: tuple[float, ...] = ()

    def hard_score(self, rule: str, correct: bool, script: bool = False,
                   kind: tuple[float, ...] = _NO_KIND) -> float:
        """Score of a hard-rule verdict: the smoothed share of human "correct" labels
        for that rule in the training data, kept on the decided side of 0.5.

        ``script``: the candidate has letters outside ASCII after folding (the regime
        feature ``script``); its rate is the rule's rate over such candidates
        (``"<rule>|script"`` in ``rule_rates``) where the training data had any, as a
        rule's rejections of other scripts' answers are surer than of English ones.
        ``kind``: the question's :func:`question_kind`; with ``question_hard`` the
        rate's logit moves by that side's coefficients (a rejected answer to a "who"
        question is surer wrong than one to a "where" question). Memoized per
        instance: a batch has a few dozen distinct arguments."""
        key = (rule, correct, script, kind)
        memo = self._hard_memo
        score = memo.get(key)
        if score is None:
            score = memo[key] = self._hard_score(rule, correct, script, kind)
        return score

    def _hard_score(self, rule: str, correct: bool, script: bool,
                    kind: tuple[float, ...]) -> float:
        """:meth:`hard_score`, computed."""
        rates = self._rates
        rate = rates.get(rule + SCRIPT_RATE_SUFFIX) if script else None
        if rate is None:
            rate = rates.get(rule, 0.95 if correct else 0.05)
        rate = max(rate, 0.51) if correct else min(rate, 0.49)
        if self.question_hard:
            coef = self.question_hard[0 if correct else 1]
            z = math.log(rate / (1.0 - rate)) + coef[-1] + sum(map(operator.mul, kind, coef))
            rate = 1.0 / (1.0 + math.exp(-z)) if z >= 0 else 1.0 - 1.0 / (1.0 + math.exp(z))
            rate = max(round(rate, 4), 0.51) if correct else min(round(rate, 4), 0.49)
        return rate

    def __post_init__(self) -> None:
        # Fold the standardization into the weights once: z = b' + sum(w'_i x_i).
        w = tuple(c / s for c, s in zip(self.coef, self.scale, strict=True))
        b = self.intercept - sum(c * m for c, m in zip(w, self.mean, strict=True))
        object.__setattr__(self, "_w", w)
        object.__setattr__(self, "_b", b)
        object.__setattr__(self, "_rates", dict(self.rule_rates))
        object.__setattr__(self, "_hard_memo", {})

    def probability(self, feats: Sequence[float]) -> float:
        """P(correct) for one feature vector."""
        z = self._b + sum(map(operator.mul, feats, self._w))
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """P(correct) for a (n, n_features) matrix of feature rows."""
        z = x @ np.asarray(self._w) + self._b
        return 1.0 / (1.0 + np.exp(-z))

    def scores(self, p: np.ndarray, short: np.ndarray,
               kinds: np.ndarray | None = None,
               capped: np.ndarray | None = None) -> np.ndarray:
        """:meth:`score` of an array of probabilities (``short``: the feature per row;
        ``kinds``: the questions' kinds, one row each; ``capped``: per row, the
        candidate adds or drops words, :func:`adds_or_drops_many`)."""
        if capped is not None and capped.any():
            return np.where(capped, np.minimum(self.scores(p, short, kinds), ADD_DROP_CAP),
                            self.scores(p, short, kinds))
        if not self.platt:
            return p
        (a0, b0), (a1, b1) = self.platt
        a = np.where(short > 0, a1, a0)
        b = np.where(short > 0, b1, b0)
        if self.question_platt and kinds is not None:
            b = b + kinds @ np.asarray(self.question_platt)
        with np.errstate(divide="ignore"):
            z = a * np.log(p / (1.0 - p)) + b
        out = 1.0 / (1.0 + np.exp(-z))
        return np.where((p <= 0.0) | (p >= 1.0), p, out)

    def score(self, p: float, short: float, kind: tuple[float, ...] = _NO_KIND,
              capped: bool = False) -> float:
        """The reported score of a grey case decided with probability ``p``: its
        regime's Platt map (``short``: the feature ``short``), moved by the question's
        ``kind`` (:func:`question_kind`) where ``question_platt`` is set, or ``p``;
        at most :data:`ADD_DROP_CAP` when ``capped`` (:func:`adds_or_drops`)."""
        if capped:
            return min(self.score(p, short, kind), ADD_DROP_CAP)
        if not self.platt:
            return p
        a, b = self.platt[1 if short else 0]
        if p <= 0.0 or p >= 1.0:
            return p
        if self.question_platt:
            b += sum(map(operator.mul, kind, self.question_platt))
        z = a * math.log(p / (1.0 - p)) + b
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)

    @classmethod
    def from_dict(cls, data: dict) -> Calibrator:
        if tuple(data["features"]) != FEATURE_NAMES:
            raise ValueError("calibrator.json was trained on other features; retrain it")
        return cls(
            mean=tuple(float(x) for x in data["mean"]),
            scale=tuple(float(x) for x in data["scale"]),
            coef=tuple(float(x) for x in data["coef"]),
            intercept=float(data["intercept"]),
            threshold=float(data.get("threshold", 0.5)),
            rule_rates=tuple(sorted((str(k), float(v))
                                    for k, v in data.get("rule_rates", {}).items())),
            platt=tuple((float(a), float(b)) for a, b in data.get("platt", ())),
            **cls._question_terms(data),
        )

    @staticmethod
    def _question_terms(data: dict) -> dict:
        """``question_hard`` and ``question_platt`` from calibrator.json, where they
        were fitted on today's question kinds (else none)."""
        if tuple(data.get("question_kinds", ())) != QUESTION_KIND_NAMES:
            return {}
        n = len(QUESTION_KIND_NAMES)
        hard = tuple(tuple(float(v) for v in side) for side in data.get("question_hard", ()))
        platt = tuple(float(v) for v in data.get("question_platt", ()))
        if len(hard) != 2 or any(len(side) != n + 1 for side in hard) or len(platt) != n:
            raise ValueError("calibrator.json: malformed question terms; retrain it")
        return {"question_hard": hard, "question_platt": platt}


def _default_calibrator() -> Calibrator:
    """Hand-set weights used only when ``calibrator.json`` is missing or stale."""
    coef = [0.0] * len(FEATURE_NAMES)
    for name, w in (("contains", 2.5), ("recall_noq", 2.0), ("ratio", 2.0),
                    ("num_miss", -2.0), ("negated_mention", -2.0), ("refusal", -1.5)):
        coef[FEATURE_NAMES.index(name)] = w
    return Calibrator(tuple([0.0] * len(coef)), tuple([1.0] * len(coef)), tuple(coef), -3.0)


def load_calibrator(path: Path = CALIBRATOR_PATH) -> Calibrator:
    """Load committed weights; fall back to hand-set ones if the file is absent."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Calibrator.from_dict(data)
    except (OSError, ValueError, KeyError):
        return _default_calibrator()
