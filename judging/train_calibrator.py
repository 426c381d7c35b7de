"""Train the judge's calibrator: logistic regression over rule-engine features.

Run ``python -m judging.train_calibrator`` from the repository root. It reads every
``*.jsonl`` in ``../shared/data/answer_equivalence/`` (fields ``question``,
``references``, ``candidate``, ``human_correct``, ``source``), runs the rule engine
(:func:`judging.equivalence.analyze`) on each pair, and fits an L2-regularised
logistic regression (numpy + ``scipy.optimize``; no scikit-learn) on the *grey*
cases -- the ones no hard rule settled, which decides them. Their reported score
is that probability through a Platt map per regime (long / short candidates), and
a hard rule's score is the share of human "correct" labels for that rule, shrunk
toward the rule's decision; both fitted with every data file weighing the same
(:func:`balanced_weights`), so that no one data set's annotators stand for all.
On top of both, the question's kind (:func:`judging.calibration.question_kind`:
"who", "when", "what/where/which", "latest/next/...") moves the scores, never the
decisions: per side of the hard rules an offset logistic regression on the rate's
logit (:func:`fit_question_hard`), and a term in the grey Platt maps
(:func:`fit_question_platt`), fitted with the same weights.

It reports grouped k-fold cross-validated accuracy (groups = questions, so one
question's candidates never straddle train and test) and writes the weights and
the CV numbers to ``judging/calibrator.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

from judging.calibration import (
    CALIBRATOR_PATH,
    FEATURE_NAMES,
    QUESTION_KIND_NAMES,
    SCRIPT_RATE_SUFFIX,
    Calibrator,
    adds_or_drops_many,
    question_kind,
)
from judging.equivalence import EQUIVALENCE_VERSION, analyze, candidate_script
from judging.features import Analysis

# ../shared/data/answer_equivalence beside the checkout; EARSHOT_JUDGING_DATA names
# another folder (a git worktree elsewhere, CI with the data mounted).
DATA_DIR = Path(os.environ.get(
    "EARSHOT_JUDGING_DATA",
    Path(__file__).resolve().parents[1].parent / "shared" / "data" / "answer_equivalence"))
# Labelled tables kept in the repository (hand-written short answers, see the
# header of each file), trained on together with DATA_DIR's files.
REPO_DATA_DIR = Path(__file__).resolve().parent / "data"
L2 = 1.0
QUESTION_L2 = 1.0  # the question kinds' coefficients in the scores
K_FOLDS = 5
SEED = 20261129


@dataclass(frozen=True)
class Row:
    """One human-labelled pair."""

    question: str
    references: tuple[str, ...]
    candidate: str
    human_correct: bool
    source: str
    file: str
    hand: bool = False  # from a table written by hand (REPO_DATA_DIR), not sampled


def load_rows(data_dir: Path = DATA_DIR, files: Iterable[str] | None = None, *,
              hand: bool = False) -> list[Row]:
    """Read the labelled pairs (all ``*.jsonl`` files, or the named ones); lines that
    start with ``#`` are comments (a table's provenance header). ``hand``: the files
    are tables written by hand (see :func:`balanced_weights`)."""
    paths = sorted(data_dir.glob("*.jsonl")) if files is None else [data_dir / f for f in files]
    rows: list[Row] = []
    for path in paths:
        with path.open(encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                if not line.strip() or line.startswith("#"):
                    continue
                try:
                    d = json.loads(line)
                    rows.append(Row(d["question"], tuple(d["references"]), d["candidate"],
                                    bool(d["human_correct"]), d.get("source", ""), path.name,
                                    hand))
                except (json.JSONDecodeError, KeyError) as exc:
                    raise ValueError(f"{path.name}:{lineno}: bad row ({exc})") from exc
    return rows


def analyze_rows(rows: Sequence[Row]) -> list[Analysis]:
    """Run the rule engine on every row."""
    return [analyze(r.candidate, r.references, r.question) for r in rows]


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = L2,
                 weights: np.ndarray | None = None) -> Calibrator:
    """L2-regularised logistic regression on standardized features.

    Minimises ``sum_i v_i log(1 + exp(-s_i z_i)) + l2/2 |w|^2`` (intercept
    unpenalised; ``v`` the sample ``weights``, all 1 by default) with L-BFGS and the
    analytic gradient.
    """
    v = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=float)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (x - mean) / scale
    d = z.shape[1]
    t = y.astype(float)

    def loss(params: np.ndarray) -> tuple[float, np.ndarray]:
        w, b = params[:d], params[d]
        logits = z @ w + b
        # log(1 + exp(l)) - t * l, stably
        nll = (np.logaddexp(0.0, logits) - t * logits) * v
        p = 1.0 / (1.0 + np.exp(-logits))
        g = (p - t) * v
        grad_w = z.T @ g + l2 * w
        grad_b = g.sum()
        return float(nll.sum() + 0.5 * l2 * w @ w), np.concatenate([grad_w, [grad_b]])

    res = minimize(loss, np.zeros(d + 1), jac=True, method="L-BFGS-B",
                   options={"maxiter": 2000})
    w, b = res.x[:d], res.x[d]
    return Calibrator(tuple(mean.tolist()), tuple(scale.tolist()), tuple(w.tolist()), float(b))


def fit_platt(logits: np.ndarray, y: np.ndarray, weights: np.ndarray,
              prior: float = 1.0) -> tuple[float, float]:
    """Platt scaling: ``(a, b)`` minimising the ``weights``-weighted log loss of
    ``sigmoid(a * logits + b)`` against ``y``, with a weak pull of ``a`` toward 1
    (``prior``: a Gaussian prior's precision; keeps a small regime near the
    uncorrected map)."""
    t = y.astype(float)
    v = np.asarray(weights, dtype=float)

    def loss(params: np.ndarray) -> tuple[float, np.ndarray]:
        a, b = params
        z = a * logits + b
        p = 1.0 / (1.0 + np.exp(-z))
        g = (p - t) * v
        nll = float(((np.logaddexp(0.0, z) - t * z) * v).sum())
        return (nll + 0.5 * prior * (a - 1.0) ** 2,
                np.array([(g * logits).sum() + prior * (a - 1.0), g.sum()]))

    res = minimize(loss, np.array([1.0, 0.0]), jac=True, method="L-BFGS-B")
    return float(res.x[0]), float(res.x[1])


def fit_regime_platt(cal: Calibrator, x: np.ndarray, y: np.ndarray,
                     weights: np.ndarray) -> tuple[tuple[float, float], ...]:
    """One Platt map per regime (long candidates, then short ones: the feature
    ``short``) over ``cal``'s logits of the grey rows ``x``."""
    logits = ((x - np.array(cal.mean)) / np.array(cal.scale)) @ np.array(cal.coef) + cal.intercept
    short = x[:, SHORT] > 0
    out = []
    for regime in (~short, short):
        if regime.sum() < 20 or len(set(y[regime].tolist())) < 2:
            out.append((1.0, 0.0))
        else:
            out.append(fit_platt(logits[regime], y[regime], weights[regime]))
    return tuple(out)


def fit_offset_logistic(offset: np.ndarray, z: np.ndarray, y: np.ndarray,
                        weights: np.ndarray, l2: float = QUESTION_L2) -> tuple[float, ...]:
    """Logistic regression on top of a fixed logit ``offset``: ``(c..., b)`` minimising
    the ``weights``-weighted log loss of ``sigmoid(offset + z @ c + b)`` against ``y``
    plus ``l2/2 (|c|^2 + b^2)`` (the bias is pulled to 0 too: with none of the
    question's kinds set, the score stays the rule's rate)."""
    t = y.astype(float)
    v = np.asarray(weights, dtype=float)
    d = z.shape[1]

    def loss(params: np.ndarray) -> tuple[float, np.ndarray]:
        c, b = params[:d], params[d]
        s = offset + z @ c + b
        g = (1.0 / (1.0 + np.exp(-s)) - t) * v
        nll = float(((np.logaddexp(0.0, s) - t * s) * v).sum())
        return (nll + 0.5 * l2 * float(params @ params),
                np.concatenate([z.T @ g + l2 * c, [g.sum() + l2 * b]]))

    res = minimize(loss, np.zeros(d + 1), jac=True, method="L-BFGS-B")
    return tuple(float(v) for v in res.x)


def fit_question_hard(base: np.ndarray, decided: np.ndarray, kinds: np.ndarray,
                      y: np.ndarray, weights: np.ndarray) -> tuple[tuple[float, ...], ...]:
    """``Calibrator.question_hard``: for the hard rows that accept, then those that
    reject (``decided``), the question kinds' coefficients and a bias on the logit of
    each row's rule rate ``base`` (:func:`fit_offset_logistic`)."""
    out = []
    for side in (decided, ~decided):
        if side.sum() < 20 or len(set(y[side].tolist())) < 2:
            out.append((0.0,) * (kinds.shape[1] + 1))
            continue
        off = np.log(base[side] / (1.0 - base[side]))
        out.append(fit_offset_logistic(off, kinds[side], y[side], weights[side]))
    return tuple(out)


def fit_question_platt(cal: Calibrator, platt: tuple[tuple[float, float], ...],
                       x: np.ndarray, kinds: np.ndarray, y: np.ndarray, weights: np.ndarray
                       ) -> tuple[tuple[tuple[float, float], ...], tuple[float, ...]]:
    """``Calibrator.question_platt``: the question kinds' coefficients added to the
    grey rows' per-regime Platt maps ``platt`` (fitted first); returns the maps with
    the fit's common bias added to both, and the coefficients."""
    probe = Calibrator(cal.mean, cal.scale, cal.coef, cal.intercept, platt=platt)
    p = np.clip(probe.probabilities(x), 1e-12, 1 - 1e-12)
    s = np.clip(probe.scores(p, x[:, SHORT]), 1e-12, 1 - 1e-12)
    *c, bias = fit_offset_logistic(np.log(s / (1.0 - s)), kinds, y, weights)
    return tuple((a, b + bias) for a, b in platt), tuple(c)


SHORT = FEATURE_NAMES.index("short")


def rule_rates(analyses: Sequence[Analysis], labels: Sequence[bool],
               prior_strength: float = 10.0,
               weights: Sequence[float] | None = None,
               scripts: Sequence[bool] | None = None) -> dict[str, float]:
    """Share of human-correct labels per hard rule (the hard rules' scores).

    Shrunk toward the rule's own decision (0.95 for rules that accept, 0.05 for rules
    that reject) with ``prior_strength`` pseudo-observations against the number of
    rows seen (with ``weights``, the share is the weighted one), so that a rule seen
    a handful of times keeps a score near its decision. With ``scripts`` (per row: the
    candidate is in another script, :func:`~judging.equivalence.candidate_script`)
    the rows in another script also count for ``"<rule>|script"``, their own rate,
    which :meth:`Calibrator.hard_score` prefers for such candidates (the rule's rate
    over all rows stays as it was).
    """
    counts: dict[str, list[float]] = {}
    ws = [1.0] * len(labels) if weights is None else weights
    sc = [False] * len(labels) if scripts is None else scripts
    for a, y, w, script in zip(analyses, labels, ws, sc, strict=True):
        if a.hard is None:
            continue
        prior = 0.95 if a.hard else 0.05
        for key in (a.rule, a.rule + SCRIPT_RATE_SUFFIX) if script else (a.rule,):
            c = counts.setdefault(key, [0.0, 0.0, prior, 0])
            c[0] += float(y) * w
            c[1] += w
            c[3] += 1
    # the weighted share, shrunk by the number of rows seen (not their weight: 27
    # rows of a small table weighted up are still 27 rows of evidence)
    return {
        rule: round((pos / wsum * n + prior_strength * prior) / (n + prior_strength), 4)
        for rule, (pos, wsum, prior, n) in sorted(counts.items())
    }


def balanced_weights(files: Sequence[str], hand: Sequence[bool] | None = None,
                     hand_weight: float = 1.0) -> np.ndarray:
    """One weight per row so that every data file weighs the same (mean weight 1),
    except that a file written by hand (``hand`` true for its rows) weighs
    ``hand_weight`` of one sampled data set.

    The scores are fitted with them (the hard rules' rates and the grey cases'
    Platt maps): data sets whose annotators judge differently -- NQ301's accept a
    fifth of the answers that share no word with the reference, EVOUNA's a
    fourteenth -- then count alike, instead of the largest set standing for all.
    A table written by hand is not a sample of answers: how many of its rows a rule
    gets right is set by how many traps its author wrote, so as evidence of how often
    annotators accept what a rule decides it may count for less than a sampled set
    (:data:`HAND_WEIGHTS`, chosen by :func:`choose_hand_weight`).
    The grey cases' *decision* is fitted without them
    (``cross_validated_predictions(..., balance=True)`` fits it with them too: that
    lowers NQ301's ECE less than the Platt maps do and costs accuracy on NQ301 and
    EVOUNA, below their floors; see docs/judging.md)."""
    names, inverse, counts = np.unique(np.asarray(files), return_inverse=True,
                                       return_counts=True)
    w = (len(files) / (len(names) * counts))[inverse]
    if hand is not None and hand_weight != 1.0:
        w = np.where(np.asarray(hand, dtype=bool), w * hand_weight, w)
        w *= len(w) / w.sum()
    return w


# What a table written by hand may weigh in the scores, as a share of one sampled
# data set: the candidates choose_hand_weight picks from (1.0 first: every file alike).
HAND_WEIGHTS = (1.0, 0.75, 0.5, 0.4, 0.3, 0.2, 0.1)


def choose_hand_weight(rows: Sequence[Row], analyses: Sequence[Analysis],
                       k: int = K_FOLDS, seed: int = SEED, l2: float = L2
                       ) -> tuple[float, dict[float, float]]:
    """The weight of hand-written tables (:data:`HAND_WEIGHTS`) whose grouped k-fold
    scores have the lowest worst ECE over the data files, and that worst ECE for each
    candidate weight.

    The scores are a compromise between annotator populations (NQ301's accept what
    the rules reject three times as often as EVOUNA's, the hand-written table's
    author a tenth as often), so the criterion is the file the compromise serves
    worst, not the pooled ECE, which the largest file would decide. Ties go to the
    larger weight. With no hand-written rows the weight is 1 (nothing to choose)."""
    if not any(r.hand for r in rows):
        return 1.0, {}
    y = np.array([r.human_correct for r in rows])
    files = np.array([r.file for r in rows])
    worst: dict[float, float] = {}
    for w in HAND_WEIGHTS:
        correct, score = cross_validated_predictions(rows, analyses, k, seed, l2,
                                                     hand_weight=w)
        worst[w] = max(calibration(score[files == f], correct[files == f],
                                   y[files == f])["ece"] for f in np.unique(files))
    best = min(HAND_WEIGHTS, key=lambda w: (worst[w], -w))
    return best, worst


def nested_cross_validated_predictions(rows: Sequence[Row], analyses: Sequence[Analysis],
                                       k: int = K_FOLDS, seed: int = SEED, l2: float = L2
                                       ) -> tuple[np.ndarray, np.ndarray, list[float]]:
    """Like :func:`cross_validated_predictions`, with the hand-written tables' weight
    chosen inside each fold: fold ``f`` is scored by a calibrator whose weight
    :func:`choose_hand_weight` chose on the other folds alone (their own grouped
    k-fold), so the reported scores never saw the rows they score, the weight's choice
    included. Returns (correct, score, the weight chosen for each fold)."""
    folds = grouped_folds([f"{r.file}\t{r.question}" for r in rows], k, seed)
    correct = np.zeros(len(rows), dtype=bool)
    score = np.zeros(len(rows))
    chosen: list[float] = []
    for f in range(k):
        train = np.flatnonzero(folds != f)
        w, _ = choose_hand_weight([rows[i] for i in train], [analyses[i] for i in train],
                                  k, seed, l2)
        chosen.append(w)
        # the full k-fold with that weight: fold f's calibrator is fitted on the
        # other folds, the rows the weight was chosen on
        c, s = cross_validated_predictions(rows, analyses, k, seed, l2, hand_weight=w)
        held = folds == f
        correct[held], score[held] = c[held], s[held]
    return correct, score, chosen


def grouped_folds(groups: Sequence[str], k: int = K_FOLDS, seed: int = SEED) -> np.ndarray:
    """Fold index per row; all rows of a group (a question) share one fold.

    Groups named ``"file\tquestion"`` are dealt into folds file by file, each file
    with its own permutation from ``seed``: adding a data set leaves the folds of
    the others as they were (their cross-validated numbers change only through
    what the new rows teach the calibrator, not through a reshuffle).
    """
    by_file: dict[str, list[str]] = {}
    for g in set(groups):
        by_file.setdefault(g.split("\t", 1)[0] if "\t" in g else "", []).append(g)
    fold_of: dict[str, int] = {}
    for name in sorted(by_file):
        uniq = sorted(by_file[name])
        rng = np.random.default_rng(seed)
        order = rng.permutation(len(uniq))
        fold_of.update({uniq[i]: pos % k for pos, i in enumerate(order)})
    return np.array([fold_of[g] for g in groups])


def cross_validated_predictions(rows: Sequence[Row], analyses: Sequence[Analysis],
                                k: int = K_FOLDS, seed: int = SEED,
                                l2: float = L2, balance: bool = False,
                                recalibrate: bool = True, hand_weight: float = 1.0
                                ) -> tuple[np.ndarray, np.ndarray]:
    """Held-out (correct, score) for every row under grouped k-fold.

    Hard-rule rows keep their rule's decision, scored with their rule's rate of
    human "correct" labels on the other folds (as the shipped judge scores them,
    :meth:`Calibrator.hard_score`: candidates in another script with that script
    bucket's rate); grey rows are decided and scored by a calibrator fitted on the
    other folds only. ``recalibrate`` (the shipped way): the rates and the grey
    scores' per-regime Platt maps are fitted with every data file weighing the same
    (:func:`balanced_weights`, hand-written tables weighing ``hand_weight``); else
    unweighted, the score being the decision's probability.
    """
    groups = [f"{r.file}\t{r.question}" for r in rows]
    folds = grouped_folds(groups, k, seed)
    file_w = balanced_weights([r.file for r in rows], [r.hand for r in rows], hand_weight)
    weights = file_w if balance else np.ones(len(rows))
    rate_w = file_w if recalibrate else weights
    y = np.array([r.human_correct for r in rows])
    grey = np.array([a.hard is None for a in analyses])
    x = np.array([a.features for a in analyses], dtype=float)
    correct = np.array([bool(a.hard) for a in analyses])
    score = np.where(correct, 0.95, 0.05)
    hard_rows = np.flatnonzero(~grey)
    scripts = {int(i): candidate_script(rows[i].candidate) for i in hard_rows}
    kinds = question_kinds(rows)
    for f in range(k):
        in_train = folds != f
        train_rows = [i for i in hard_rows if in_train[i]]
        rates = rule_rates([analyses[i] for i in train_rows], [bool(y[i]) for i in train_rows],
                           weights=[float(rate_w[i]) for i in train_rows],
                           scripts=[scripts[i] for i in train_rows])
        held = Calibrator((), (), (), 0.0, rule_rates=tuple(rates.items()))
        if recalibrate and train_rows:
            tr = np.array(train_rows)
            base = np.array([held.hard_score(analyses[i].rule, bool(analyses[i].hard),
                                             scripts[int(i)]) for i in tr])
            held = Calibrator((), (), (), 0.0, rule_rates=held.rule_rates,
                              question_hard=fit_question_hard(
                                  base, correct[tr], kinds[tr], y[tr], rate_w[tr]))
        for i in hard_rows:
            if not in_train[i]:
                a = analyses[i]
                score[i] = held.hard_score(a.rule, bool(a.hard), scripts[int(i)],
                                           tuple(kinds[i]))
        train = (folds != f) & grey
        test = (folds == f) & grey
        if not test.any():
            continue
        cal = fit_logistic(x[train], y[train], l2, weights[train])
        logits = ((x[test] - np.array(cal.mean)) / np.array(cal.scale)) @ np.array(cal.coef)
        p = 1.0 / (1.0 + np.exp(-(logits + cal.intercept)))
        correct[test] = p >= cal.threshold
        if recalibrate:
            platt = fit_regime_platt(cal, x[train], y[train], file_w[train])
            platt, qplatt = fit_question_platt(cal, platt, x[train], kinds[train], y[train],
                                               file_w[train])
            held = Calibrator((), (), (), 0.0, platt=platt, question_platt=qplatt)
            p = held.scores(p, x[test][:, SHORT], kinds[test], adds_or_drops_many(x[test]))
        score[test] = p
    return correct, score


def question_kinds(rows: Sequence[Row]) -> np.ndarray:
    """:func:`~judging.calibration.question_kind` of every row's question, one row each."""
    return np.array([question_kind(r.question) for r in rows], dtype=float).reshape(
        len(rows), len(QUESTION_KIND_NAMES))


def calibration(score: Sequence[float], pred: Sequence[bool], gold: Sequence[bool], *,
                bins: int = 10, grey: tuple[float, float] = (0.3, 0.7)) -> dict[str, float]:
    """How honest the scores are: expected calibration error (``bins`` equal-width
    bins of the score, each weighted by its share of rows), the share of the judge's
    errors whose score lies in the ``grey`` zone (sent to adjudication by default,
    ``judging.selectors.DEFAULT_GREY_ZONE``), and the wrong answers accepted with a
    score of 0.9 or more (which no one would look at again)."""
    s = np.asarray(score, dtype=float)
    p = np.asarray(pred, dtype=bool)
    g = np.asarray(gold, dtype=bool)
    n = len(s)
    if not n:
        return {"ece": math.nan, "errors_in_grey_zone": math.nan, "wrong_accepted_p90": 0}
    edges = np.minimum((s * bins).astype(int), bins - 1)
    ece = 0.0
    for b in range(bins):
        m = edges == b
        if m.any():
            ece += m.mean() * abs(s[m].mean() - g[m].mean())
    errors = p != g
    in_grey = (s >= grey[0]) & (s <= grey[1])
    caught = float((errors & in_grey).sum() / errors.sum()) if errors.any() else 1.0
    return {"ece": round(float(ece), 4), "errors_in_grey_zone": round(caught, 4),
            "wrong_accepted_p90": int(((s >= 0.9) & ~g).sum())}


def metrics(pred: Sequence[bool], gold: Sequence[bool]) -> dict[str, float]:
    """Accuracy, F1 (positive = correct) and Cohen's kappa."""
    p = np.asarray(pred, dtype=bool)
    g = np.asarray(gold, dtype=bool)
    n = len(g)
    tp = int((p & g).sum())
    fp = int((p & ~g).sum())
    fn = int((~p & g).sum())
    acc = float((p == g).mean()) if n else math.nan
    f1 = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else math.nan
    pe = p.mean() * g.mean() + (1 - p.mean()) * (1 - g.mean())
    kappa = (acc - pe) / (1 - pe) if pe < 1 else math.nan
    return {"accuracy": round(acc, 4), "f1": round(f1, 4), "kappa": round(float(kappa), 4),
            "n": n}


def train(data_dir: Path = DATA_DIR, out: Path = CALIBRATOR_PATH, *, k: int = K_FOLDS,
          seed: int = SEED, l2: float = L2, hand_weight: float | None = None,
          verbose: bool = True) -> dict:
    """Cross-validate, fit on all data, write ``out``; return the JSON written.

    ``hand_weight`` fixes the weight of the hand-written tables (REPO_DATA_DIR) in the
    scores; by default it is chosen (:func:`choose_hand_weight`) on all rows for the
    calibrator written, and inside each fold for the cross-validated numbers
    reported (:func:`nested_cross_validated_predictions`)."""
    rows = load_rows(data_dir) + load_rows(REPO_DATA_DIR, hand=True)
    if not rows:
        raise SystemExit(f"no *.jsonl data in {data_dir}")
    analyses = analyze_rows(rows)
    labels = [r.human_correct for r in rows]
    if hand_weight is None:
        cv_correct, cv_score, per_fold = nested_cross_validated_predictions(
            rows, analyses, k, seed, l2)
        hand_weight, worst = choose_hand_weight(rows, analyses, k, seed, l2)
    else:
        cv_correct, cv_score = cross_validated_predictions(rows, analyses, k, seed, l2,
                                                           hand_weight=hand_weight)
        per_fold, worst = [hand_weight] * k, {}
    cv: dict[str, dict[str, float]] = {}
    for name in sorted({r.file for r in rows}):
        idx = [i for i, r in enumerate(rows) if r.file == name]
        gold = [labels[i] for i in idx]
        cv[name] = metrics(cv_correct[idx], gold) | calibration(cv_score[idx], cv_correct[idx], gold)
    grey = [i for i, a in enumerate(analyses) if a.hard is None]
    x = np.array([analyses[i].features for i in grey], dtype=float)
    y = np.array([labels[i] for i in grey])
    cal = fit_logistic(x, y, l2)
    file_w = balanced_weights([r.file for r in rows], [r.hand for r in rows], hand_weight)
    kinds = question_kinds(rows)
    platt = fit_regime_platt(cal, x, y, file_w[grey])
    platt, qplatt = fit_question_platt(cal, platt, x, kinds[grey], y, file_w[grey])
    scripts = [candidate_script(r.candidate) for r in rows]
    rates = rule_rates(analyses, labels, weights=file_w.tolist(), scripts=scripts)
    rated = Calibrator((), (), (), 0.0, rule_rates=tuple(rates.items()))
    hard = np.array([i for i, a in enumerate(analyses) if a.hard is not None])
    base = np.array([rated.hard_score(analyses[i].rule, bool(analyses[i].hard), scripts[i])
                     for i in hard])
    qhard = fit_question_hard(base, np.array([bool(analyses[i].hard) for i in hard]),
                              kinds[hard], np.array(labels)[hard], file_w[hard])
    data = {
        "equivalence_version": EQUIVALENCE_VERSION,
        "features": list(FEATURE_NAMES),
        "mean": [round(v, 6) for v in cal.mean],
        "scale": [round(v, 6) for v in cal.scale],
        "coef": [round(v, 6) for v in cal.coef],
        "intercept": round(cal.intercept, 6),
        "threshold": cal.threshold,
        "l2": l2,
        "rule_rates": rates,
        "platt": [[round(a, 6), round(b, 6)] for a, b in platt],
        "question_kinds": list(QUESTION_KIND_NAMES),
        "question_hard": [[round(v, 6) for v in side] for side in qhard],
        "question_platt": [round(v, 6) for v in qplatt],
        "weights": "every data file weighs the same in rule_rates, platt and the question "
                   "terms, a hand-written table hand_weight of one",
        "hand_weight": hand_weight,
        "hand_weight_worst_ece": {str(w): e for w, e in worst.items()},
        "trained_on": sorted({r.file for r in rows}),
        "n_rows": len(rows),
        "n_grey": len(grey),
        "cv": {"k": k, "seed": seed, "grouped_by": "question",
               "hand_weight_per_fold": per_fold, "per_file": cv},
    }
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    if verbose:
        print(f"rows {len(rows)}, grey (calibrated) {len(grey)}; hand-written tables weigh "
              f"{hand_weight:g} of a data set (chosen per fold: "
              f"{', '.join(f'{w:g}' for w in per_fold)})")
        for w, e in worst.items():
            print(f"  hand weight {w:g}: worst file ECE {e:.4f}")
        for name, m in cv.items():
            print(f"  CV {name}: accuracy {m['accuracy']:.4f}  F1 {m['f1']:.4f}  "
                  f"kappa {m['kappa']:.4f}  ECE {m['ece']:.4f}  errors in grey zone "
                  f"{m['errors_in_grey_zone']:.2f}  wrong at p>=0.9 {m['wrong_accepted_p90']}"
                  f"  (n={m['n']})")
        for fname, w in sorted(zip(FEATURE_NAMES, cal.coef, strict=True), key=lambda t: -abs(t[1])):
            print(f"  {fname:20s} {w:+.3f}")
        print(f"wrote {out}")
    return data


def main(argv: Sequence[str] | None = None) -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA_DIR)
    parser.add_argument("--out", type=Path, default=CALIBRATOR_PATH)
    parser.add_argument("--folds", type=int, default=K_FOLDS)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--l2", type=float, default=L2)
    parser.add_argument("--hand-weight", type=float, default=None,
                        help="weight of the hand-written tables in the scores, as a share "
                             "of one data set (default: chosen by cross-validation)")
    args = parser.parse_args(argv)
    train(args.data, args.out, k=args.folds, seed=args.seed, l2=args.l2,
          hand_weight=args.hand_weight)


if __name__ == "__main__":
    main()
