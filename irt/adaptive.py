"""Computerised adaptive testing (CAT) over a calibrated item bank: pure numpy, no Django.

A bank is the frozen item parameters of a fit (:class:`ItemBank`: ``a``, ``b`` and
optionally a guessing floor ``c`` and an upper asymptote ``d``, the 4PL
``P = c + (d - c) * sigmoid(a * (theta - b))``). A responder's ability is tracked as
a posterior on a fixed theta grid (prior ``N(mean, sd)``); after each answer the
posterior is updated and its mean (EAP) and SD are read off. The next item is the
eligible one that is most informative at the current estimate:

``"fisher"``
    Fisher information at the EAP (Lord 1980; Birnbaum's closed form for the 3PL/4PL).
``"posterior"``
    Fisher information averaged over the current posterior (maximum posterior-weighted
    information, van der Linden 1998): less greedy early on, when the EAP is poor.
``"kl"``
    Kullback-Leibler information between the item's response distribution at the EAP
    and at every other theta, averaged over the posterior (Chang & Ying 1996).
``"random"``
    Uniform over the eligible items (the baseline).

Exposure control (so a public bank is not learnt from its most informative items):
*randomesque* selection picks at random among the ``top_k`` best items (Kingsbury &
Zara 1989); *Sympson-Hetter* gives each item a probability ``K_j`` of being given once
selected, calibrated by simulation (:func:`sympson_hetter`) so no item's exposure rate
exceeds ``r_max``. *Content balancing* (Kingsbury & Zara) first picks the category
furthest below its target share, then the best item in it. The test stops when the
posterior SD reaches ``sd_stop`` (after ``min_items``), at ``max_items`` or when
nothing eligible is left.

:func:`efficient_evaluation` is the tinyBenchmarks use: score a system that answered
the whole bank from k adaptively chosen items and report the error against its
full-bank score.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

__all__ = [
    "CRITERIA",
    "CatConfig",
    "CatRun",
    "EvalRow",
    "ItemBank",
    "Posterior",
    "eap",
    "efficient_evaluation",
    "exposure_rates",
    "fisher_information",
    "item_scores",
    "posterior",
    "probability",
    "run_cat",
    "select_next",
    "stop_reason",
    "sympson_hetter",
]

CRITERIA = ("fisher", "posterior", "kl", "random")

#: the theta grid the posterior lives on: wide enough for model systems far above humans
GRID = np.linspace(-6.0, 6.0, 121)

_EPS = 1e-12


# --------------------------------------------------------------------------- the model


def probability(theta: np.ndarray | float, a: np.ndarray | float, b: np.ndarray | float,
                c: np.ndarray | float = 0.0, d: np.ndarray | float = 1.0) -> np.ndarray:
    """4PL probability of a correct answer, broadcast over ``theta`` and the item arrays."""
    z = np.clip(np.asarray(a) * (np.asarray(theta) - np.asarray(b)), -50.0, 50.0)
    return np.asarray(c) + (np.asarray(d) - np.asarray(c)) / (1.0 + np.exp(-z))


def fisher_information(theta: np.ndarray | float, a: np.ndarray | float, b: np.ndarray | float,
                       c: np.ndarray | float = 0.0, d: np.ndarray | float = 1.0) -> np.ndarray:
    """Item Fisher information ``P'(theta)^2 / (P (1 - P))`` of the 4PL, in closed form.

    ``a^2 (P - c)^2 (d - P)^2 / ((d - c)^2 P (1 - P))``; with ``d = 1`` it is Birnbaum's
    3PL information and with ``c = 0, d = 1`` the 2PL's ``a^2 P (1 - P)``.
    """
    a, c, d = np.asarray(a, dtype=float), np.asarray(c, dtype=float), np.asarray(d, dtype=float)
    p = probability(theta, a, b, c, d)
    num = a**2 * (p - c) ** 2 * (d - p) ** 2
    den = (d - c) ** 2 * np.clip(p * (1.0 - p), _EPS, None)
    return num / den


@dataclass(frozen=True)
class ItemBank:
    """Frozen item parameters, one entry per item (index ``0..n_items-1``).

    ``category`` holds an integer code per item (``-1`` = none) for content balancing;
    ``ids`` are the caller's item ids (e.g. question primary keys) in index order.
    """

    a: np.ndarray
    b: np.ndarray
    c: np.ndarray
    d: np.ndarray
    category: np.ndarray
    ids: tuple = ()

    @classmethod
    def from_arrays(
        cls, a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray,
        c: Sequence[float] | np.ndarray | float | None = None,
        d: Sequence[float] | np.ndarray | float | None = None,
        category: Sequence[int] | np.ndarray | None = None, ids: Sequence = (),
    ) -> ItemBank:
        """Check and freeze the parameters; bad values raise ``ValueError`` naming ``field[index]``."""
        a_arr = np.asarray(a, dtype=float).ravel()
        n = a_arr.shape[0]

        def arr(name: str, value: object, default: float) -> np.ndarray:
            if value is None:
                return np.full(n, default)
            out = np.asarray(value, dtype=float)
            out = np.full(n, float(out)) if out.ndim == 0 else out.ravel()
            if out.shape[0] != n:
                raise ValueError(f"{name}: has {out.shape[0]} entries, a has {n}")
            return out

        b_arr, c_arr, d_arr = arr("b", b, 0.0), arr("c", c, 0.0), arr("d", d, 1.0)
        cat = np.full(n, -1, dtype=np.int64) if category is None else np.asarray(category, dtype=np.int64).ravel()
        if cat.shape[0] != n:
            raise ValueError(f"category: has {cat.shape[0]} entries, a has {n}")
        if ids and len(ids) != n:
            raise ValueError(f"ids: has {len(ids)} entries, a has {n}")
        for name, values in (("a", a_arr), ("b", b_arr), ("c", c_arr), ("d", d_arr)):
            bad = np.flatnonzero(~np.isfinite(values))
            if bad.size:
                raise ValueError(f"{name}[{bad[0]}]: must be a finite number, got {values[bad[0]]}")
        for name, ok in (("a", a_arr > 0), ("c", (c_arr >= 0) & (c_arr < d_arr)), ("d", d_arr <= 1)):
            bad = np.flatnonzero(~ok)
            if bad.size:
                rule = {"a": "must be > 0", "c": "must satisfy 0 <= c < d", "d": "must be <= 1"}[name]
                raise ValueError(f"{name}[{bad[0]}]: {rule}")
        return cls(a_arr, b_arr, c_arr, d_arr, cat, tuple(ids))

    @property
    def n_items(self) -> int:
        return int(self.a.shape[0])

    def p(self, theta: np.ndarray | float) -> np.ndarray:
        """``(len(theta), n_items)`` probabilities of a correct answer."""
        th = np.atleast_1d(np.asarray(theta, dtype=float))[:, None]
        return probability(th, self.a, self.b, self.c, self.d)

    def information(self, theta: np.ndarray | float) -> np.ndarray:
        """``(len(theta), n_items)`` Fisher information."""
        th = np.atleast_1d(np.asarray(theta, dtype=float))[:, None]
        return fisher_information(th, self.a, self.b, self.c, self.d)


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Posterior:
    """A responder's posterior over ``grid`` as unnormalised log weights."""

    grid: np.ndarray
    log_w: np.ndarray

    @property
    def weights(self) -> np.ndarray:
        w = np.exp(self.log_w - self.log_w.max())
        return w / w.sum()

    @property
    def theta(self) -> float:
        """EAP: the posterior mean."""
        return float(self.weights @ self.grid)

    @property
    def sd(self) -> float:
        """Posterior standard deviation."""
        w = self.weights
        m = w @ self.grid
        return float(np.sqrt(max(w @ (self.grid - m) ** 2, 0.0)))

    def update(self, bank: ItemBank, item: int, correct: bool | int) -> Posterior:
        """The posterior after one more answer (``correct`` 1/0) to ``item``."""
        p = probability(self.grid, bank.a[item], bank.b[item], bank.c[item], bank.d[item])
        lik = p if correct else 1.0 - p
        return Posterior(self.grid, self.log_w + np.log(np.clip(lik, _EPS, None)))


def posterior(bank: ItemBank, items: Sequence[int] | np.ndarray = (), correct: Sequence[int] | np.ndarray = (),
              *, prior_mean: float = 0.0, prior_sd: float = 1.0, grid: np.ndarray = GRID,
              refine: bool = True) -> Posterior:
    """The posterior over theta after answers ``correct`` (0/1) to bank indices ``items``.

    With ``refine`` (the default) and any answers, the result lives on a grid fitted
    to the posterior itself, for exact reported scores; ``refine=False`` keeps ``grid``
    (what a CAT updates answer by answer: :meth:`Posterior.update` keeps its grid).
    """
    items = np.asarray(items, dtype=np.int64)
    y = np.asarray(correct, dtype=float)
    if items.shape != y.shape:
        raise ValueError(f"correct: has {y.size} entries, items has {items.size}")
    if prior_sd <= 0 or not np.isfinite(prior_sd) or not np.isfinite(prior_mean):
        raise ValueError("prior_sd: must be a finite number > 0 (and prior_mean finite)")
    def on(g: np.ndarray) -> Posterior:
        log_w = -0.5 * ((g - prior_mean) / prior_sd) ** 2
        if items.size:
            p = np.clip(probability(g[:, None], bank.a[items], bank.b[items], bank.c[items], bank.d[items]),
                        _EPS, 1 - _EPS)
            log_w = log_w + np.log(p) @ y + np.log(1.0 - p) @ (1.0 - y)
        return Posterior(g, log_w)

    coarse = on(grid)
    if not refine or items.size == 0:
        return coarse
    # Many answers make the posterior narrow next to the grid's spacing: integrate again on
    # a grid fitted to it (mean +- 8 SD), so the EAP and SD stay exact to ~1e-8.
    m, sd = coarse.theta, max(coarse.sd, 1e-3)
    return on(np.linspace(m - 8 * sd, m + 8 * sd, grid.size))


def eap(bank: ItemBank, items: Sequence[int] | np.ndarray, correct: Sequence[int] | np.ndarray,
        *, prior_mean: float = 0.0, prior_sd: float = 1.0) -> tuple[float, float]:
    """EAP theta and posterior SD of one responder against the bank."""
    post = posterior(bank, items, correct, prior_mean=prior_mean, prior_sd=prior_sd)
    return post.theta, post.sd


# --------------------------------------------------------------------------- selection


@dataclass(frozen=True)
class CatConfig:
    """How a CAT selects and when it stops.

    ``top_k`` > 1 is randomesque selection; ``exposure`` the Sympson-Hetter ``K_j`` per
    item (``None``: no lottery); ``content_targets`` the share of each category code in
    a test (normalised; categories not named are not balanced).
    """

    criterion: str = "fisher"
    top_k: int = 1
    exposure: np.ndarray | None = None
    content_targets: Mapping[int, float] | None = None
    sd_stop: float = 0.0
    min_items: int = 1
    max_items: int = 40
    prior_mean: float = 0.0
    prior_sd: float = 1.0

    def __post_init__(self) -> None:
        if self.criterion not in CRITERIA:
            raise ValueError(f"criterion: must be one of {', '.join(CRITERIA)}, got {self.criterion!r}")
        if self.top_k < 1:
            raise ValueError("top_k: must be at least 1")
        if self.max_items < 1 or self.min_items < 0:
            raise ValueError("max_items: must be at least 1 (min_items at least 0)")
        if self.content_targets is not None:
            shares = np.asarray(list(self.content_targets.values()), dtype=float)
            if shares.size == 0 or np.any(shares < 0) or shares.sum() <= 0:
                raise ValueError("content_targets: shares must be >= 0 and not all 0")


def item_scores(bank: ItemBank, post: Posterior, criterion: str = "fisher") -> np.ndarray:
    """How informative each bank item is for this responder now (higher is better)."""
    if criterion == "fisher":
        return bank.information(post.theta)[0]
    w = post.weights
    if criterion == "posterior":
        return w @ bank.information(post.grid)
    if criterion == "kl":
        p0 = np.clip(bank.p(post.theta)[0], _EPS, 1 - _EPS)
        pg = np.clip(bank.p(post.grid), _EPS, 1 - _EPS)
        kl = p0 * np.log(p0 / pg) + (1 - p0) * np.log((1 - p0) / (1 - pg))
        return w @ kl
    if criterion == "random":
        return np.zeros(bank.n_items)
    raise ValueError(f"criterion: must be one of {', '.join(CRITERIA)}, got {criterion!r}")


def _balanced_category(bank: ItemBank, eligible: np.ndarray, administered: np.ndarray,
                       targets: Mapping[int, float]) -> int | None:
    """The category furthest below its target share that still has an eligible item."""
    codes = np.asarray(list(targets), dtype=np.int64)
    shares = np.asarray([targets[int(k)] for k in codes], dtype=float)
    shares = shares / shares.sum()
    given = bank.category[administered] if administered.size else np.zeros(0, dtype=np.int64)
    counts = np.asarray([(given == k).sum() for k in codes], dtype=float)
    n_next = counts.sum() + 1
    deficit = shares * n_next - counts
    for idx in np.argsort(-deficit, kind="stable"):
        if np.any(eligible & (bank.category == codes[idx])):
            return int(codes[idx])
    return None


def select_next(
    bank: ItemBank, post: Posterior, administered: Sequence[int] | np.ndarray, config: CatConfig,
    rng: np.random.Generator, *, available: np.ndarray | None = None,
    considered: np.ndarray | None = None, rejected: list[int] | None = None,
) -> int | None:
    """The bank index of the next item, or ``None`` when no eligible item is left.

    ``available`` (bool, per item) limits the candidates (e.g. the questions a player
    may still be served); administered items are never chosen again. With
    Sympson-Hetter exposure parameters, the candidates are put in order to their
    lottery; an item that loses is appended to ``rejected`` (the caller keeps it out
    of the rest of this test, as in Sympson & Hetter's procedure) and ``considered``,
    an int counter per item, counts every item put to the lottery (what
    :func:`sympson_hetter` calibrates on).
    """
    administered = np.asarray(administered, dtype=np.int64)
    eligible = np.ones(bank.n_items, dtype=bool) if available is None else np.asarray(available, dtype=bool).copy()
    eligible[administered] = False
    if not eligible.any():
        return None
    if config.content_targets:
        code = _balanced_category(bank, eligible, administered, config.content_targets)
        if code is not None:
            eligible &= bank.category == code
    idx = np.flatnonzero(eligible)
    if config.criterion == "random":
        order = rng.permutation(idx)
    else:
        scores = item_scores(bank, post, config.criterion)[idx]
        order = idx[np.argsort(-scores, kind="stable")]
        if config.top_k > 1:
            head = order[: config.top_k]
            order = np.concatenate([rng.permutation(head), order[config.top_k:]])
    if config.exposure is None:
        return int(order[0])
    for j in order[:-1]:
        if considered is not None:
            considered[j] += 1
        if rng.random() < config.exposure[j]:
            return int(j)
        if rejected is not None:
            rejected.append(int(j))
    # the last candidate is given whatever its lottery says: the test must go on
    if considered is not None:
        considered[order[-1]] += 1
    return int(order[-1])


def stop_reason(post: Posterior, n_given: int, config: CatConfig) -> str | None:
    """``"sd"`` or ``"max_items"`` when the test should stop after ``n_given`` items, else ``None``."""
    if n_given >= config.max_items:
        return "max_items"
    if n_given >= config.min_items and config.sd_stop > 0 and post.sd <= config.sd_stop:
        return "sd"
    return None


@dataclass(frozen=True)
class CatRun:
    """One adaptive test: items given in order, the answers, and theta/SD after each."""

    items: np.ndarray
    correct: np.ndarray
    theta: np.ndarray
    sd: np.ndarray
    stopped: str
    theta_prior: float = 0.0
    sd_prior: float = 1.0

    def theta_after(self, k: int) -> tuple[float, float]:
        """EAP and SD after ``k`` items (``k = 0``: the prior; beyond the run: its end)."""
        if k <= 0 or self.items.size == 0:
            return self.theta_prior, self.sd_prior
        i = min(k, self.items.size) - 1
        return float(self.theta[i]), float(self.sd[i])


def run_cat(
    bank: ItemBank, answer: Callable[[int], bool | int], config: CatConfig, rng: np.random.Generator,
    *, available: np.ndarray | None = None, considered: np.ndarray | None = None,
) -> CatRun:
    """Give an adaptive test: ``answer(item)`` returns 1/0 for each chosen bank index."""
    post = posterior(bank, prior_mean=config.prior_mean, prior_sd=config.prior_sd)
    t0, s0 = post.theta, post.sd
    open_ = np.ones(bank.n_items, dtype=bool) if available is None else np.asarray(available, dtype=bool).copy()
    rejected: list[int] = []
    items: list[int] = []
    ys: list[int] = []
    thetas: list[float] = []
    sds: list[float] = []
    stopped = stop_reason(post, 0, config)
    while stopped is None:
        j = select_next(bank, post, np.asarray(items, dtype=np.int64), config, rng,
                        available=open_, considered=considered, rejected=rejected)
        open_[rejected] = False  # lost its exposure lottery: not offered again in this test
        rejected.clear()
        if j is None:
            stopped = "exhausted"
            break
        y = int(bool(answer(j)))
        post = post.update(bank, j, y)
        items.append(j)
        ys.append(y)
        thetas.append(post.theta)
        sds.append(post.sd)
        stopped = stop_reason(post, len(items), config)
    return CatRun(np.asarray(items, dtype=np.int64), np.asarray(ys, dtype=np.int8),
                  np.asarray(thetas), np.asarray(sds), stopped, t0, s0)


# --------------------------------------------------------------------------- exposure


def exposure_rates(runs: Sequence[CatRun], n_items: int) -> np.ndarray:
    """Share of the tests in which each item was given."""
    counts = np.zeros(n_items)
    for run in runs:
        counts[run.items] += 1
    return counts / max(1, len(runs))


def sympson_hetter(
    bank: ItemBank, config: CatConfig, *, r_max: float = 0.25, thetas: np.ndarray | None = None,
    n_simulees: int = 500, n_rounds: int = 15, seed: int = 0,
) -> np.ndarray:
    """Calibrate Sympson-Hetter exposure parameters ``K_j`` by simulation.

    Simulees drawn from the config's prior (or ``thetas``) take the CAT with the current
    ``K``; an item given in a share ``P(A_j)`` of their tests gets
    ``K_j <- min(1, K_j sqrt(r_max / P(A_j)))`` (Sympson & Hetter 1985: ``P(A_j) = K_j
    P(S_j)``, with ``P(S_j)`` the share in which it was put to the lottery; the square
    root damps the see-saw between items that take each other's place), repeated on
    the same simulees and answers (common random numbers) for ``n_rounds`` or until no
    item is given to more than ``r_max`` of them. The rates are measured on
    ``n_simulees`` tests, so they carry binomial noise of ``sqrt(r (1 - r) / n)``.
    ``r_max`` must leave enough items: at least ``max_items / n_items``.
    """
    if not 0 < r_max <= 1:
        raise ValueError("r_max: must be in (0, 1]")
    if r_max * bank.n_items < config.max_items:
        raise ValueError(f"r_max: {r_max} x {bank.n_items} items cannot fill tests of {config.max_items}")
    rng = np.random.default_rng(seed)
    th = np.asarray(thetas, dtype=float) if thetas is not None else rng.normal(
        config.prior_mean, config.prior_sd, n_simulees)
    uniforms = rng.random((th.size, bank.n_items))
    p_all = bank.p(th)
    k = np.ones(bank.n_items)
    for _ in range(n_rounds):
        given = np.zeros(bank.n_items)
        cfg = replace(config, exposure=k)
        lottery = np.random.default_rng(seed + 1)
        for p, u in zip(p_all, uniforms, strict=True):
            run = run_cat(bank, lambda j, p=p, u=u: u[j] < p[j], cfg, lottery)
            given[run.items] += 1
        p_given = given / th.size
        if p_given.max() <= r_max:
            break
        k = np.minimum(1.0, k * np.sqrt(r_max / np.maximum(p_given, _EPS)))
    return k


# --------------------------------------------------------------------------- evaluation


@dataclass(frozen=True)
class EvalRow:
    """One budget ``k``: theta from k adaptive items against theta from every answered item."""

    k: int
    n_used: int
    theta_k: float
    sd_k: float
    theta_full: float
    sd_full: float
    abs_diff: float
    random_abs_diff: float
    n_full: int
    criterion: str = "fisher"
    items: tuple[int, ...] = field(default_factory=tuple)


def efficient_evaluation(
    bank: ItemBank, outputs: np.ndarray, ks: Sequence[int] = (10, 20, 40), *,
    criterion: str = "fisher", prior_mean: float = 0.0, prior_sd: float = 1.0,
    n_random: int = 20, seed: int = 0,
) -> list[EvalRow]:
    """Score a system from k adaptively chosen items and compare with its full evaluation.

    ``outputs`` holds the system's verdict per bank item (1 right, 0 wrong, NaN: not
    answered). The CAT may only choose answered items; its answers are read from
    ``outputs``, so the result is what the system would have scored had it been asked
    only those k items. ``random_abs_diff`` is the mean |difference| of k items drawn
    at random (``n_random`` draws), the baseline adaptive selection must beat.
    """
    y = np.asarray(outputs, dtype=float).ravel()
    if y.shape[0] != bank.n_items:
        raise ValueError(f"outputs: has {y.shape[0]} entries, the bank {bank.n_items}")
    answered = np.isfinite(y)
    if np.any((y[answered] != 0) & (y[answered] != 1)):
        raise ValueError("outputs: must be 0, 1 or NaN")
    if not ks or min(ks) < 1:
        raise ValueError("ks: must be whole numbers >= 1")
    idx = np.flatnonzero(answered)
    full = posterior(bank, idx, y[idx], prior_mean=prior_mean, prior_sd=prior_sd)
    config = CatConfig(criterion=criterion, max_items=max(ks), prior_mean=prior_mean, prior_sd=prior_sd)
    rng = np.random.default_rng(seed)
    run = run_cat(bank, lambda j: y[j] == 1, config, rng, available=answered)
    rows = []
    for k in sorted(set(int(x) for x in ks)):
        n_used = min(k, run.items.size)
        asked = run.items[:n_used]
        t_k, s_k = eap(bank, asked, y[asked], prior_mean=prior_mean, prior_sd=prior_sd)
        diffs = []
        for _ in range(n_random if n_used else 0):
            pick = rng.choice(idx, size=n_used, replace=False)
            diffs.append(abs(posterior(bank, pick, y[pick], prior_mean=prior_mean, prior_sd=prior_sd).theta
                             - full.theta))
        rows.append(EvalRow(
            k=k, n_used=n_used, theta_k=t_k, sd_k=s_k, theta_full=full.theta, sd_full=full.sd,
            abs_diff=abs(t_k - full.theta), random_abs_diff=float(np.mean(diffs)) if diffs else abs(t_k - full.theta),
            n_full=int(idx.size), criterion=criterion, items=tuple(int(j) for j in run.items[:n_used]),
        ))
    return rows
