"""Writes for IRT: create a fit job, run it, store what it found.

``irt_fit_create`` records a queued :class:`~irt.models.Fit` and, after the
transaction commits, hands it to the background (a Celery worker when a broker is
configured; otherwise a thread of this process, so a web request never fits).
``irt_fit_run`` is what the worker executes: it loads the response matrix, calls the
pure :func:`irt.fit.fit` with a throttled progress callback, and stores the result.
A fit that raises is marked failed with the error; it never takes the worker down.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

import numpy as np
from celery import current_app
from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import Project
from irt.models import Fit, FitAbility, FitItem, FitStatus
from irt.selectors import ResponseMatrix, response_matrix, snapshot_dump
from quiz.models import Mode, Question

logger = logging.getLogger(__name__)

MODELS = ("1pl", "2pl", "3pl")
METHODS = ("auto", "map", "mml", "vi", "nuts")
DEVICES = ("cpu", "cuda")
#: the progress bar's share for loading / fitting / storing
LOAD_DONE, FIT_DONE = 0.05, 0.90
#: at most one progress write per this many seconds
PROGRESS_INTERVAL_S = 0.5


class FitOptionsError(ValueError):
    """Bad fit options; ``field`` names the option."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class FitOptions:
    """What a researcher chooses for a fit (stored verbatim on the Fit)."""

    mode: str = Mode.FREE
    model: str = "2pl"
    method: str = "auto"
    source: str = ""
    category: str = ""
    seed: int = 0
    device: str = "cpu"

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> FitOptions:
        """Validate raw options (form, JSON or command line); raises :class:`FitOptionsError`."""
        unknown = set(data) - {f for f in cls.__dataclass_fields__}
        if unknown:
            raise FitOptionsError(sorted(unknown)[0], "is not a fit option")
        mode = str(data.get("mode") or Mode.FREE)
        if mode not in Mode.values:
            raise FitOptionsError("mode", f"must be one of {', '.join(Mode.values)}")
        model = str(data.get("model") or "2pl").lower()
        if model not in MODELS:
            raise FitOptionsError("model", f"must be one of {', '.join(MODELS)}")
        if model == "3pl" and mode != Mode.MCQ:
            raise FitOptionsError("model", "3pl needs multiple-choice responses (mode mcq): c = 1/K")
        method = str(data.get("method") or "auto").lower()
        if method not in METHODS:
            raise FitOptionsError("method", f"must be one of {', '.join(METHODS)}")
        try:
            seed = int(data.get("seed") if data.get("seed") not in (None, "") else 0)
        except (TypeError, ValueError):
            raise FitOptionsError("seed", "must be an integer") from None
        if not 0 <= seed < 2**31:
            raise FitOptionsError("seed", "must be between 0 and 2147483647")
        device = str(data.get("device") or "cpu")
        if device not in DEVICES:
            raise FitOptionsError("device", f"must be one of {', '.join(DEVICES)}")
        return cls(
            mode=mode, model=model, method=method,
            source=str(data.get("source") or "").strip(),
            category=str(data.get("category") or "").strip(),
            seed=seed, device=device,
        )


# --------------------------------------------------------------------------- create


def irt_fit(*args, **kwargs):
    """:func:`irt.fit.fit`, imported on first use: torch and Pyro load only in the
    process that fits (a worker), not in every web process that imports the URLs."""
    from irt.fit import fit

    return fit(*args, **kwargs)


def irt_fit_create(
    *, project: Project, options: Mapping[str, Any], by=None, dispatch: bool = True
) -> Fit:
    """Record a queued fit and start it in the background after commit.

    ``dispatch=False`` only records it (the ``irt_fit`` command then runs it inline).
    """
    opts = FitOptions.parse(options)
    with transaction.atomic():
        fit = Fit.objects.create(
            project=project, mode=opts.mode, model=opts.model, options=asdict(opts),
            created_by=by if getattr(by, "is_authenticated", False) else None,
            progress_message="queued",
        )
        if dispatch:
            fit_id = fit.pk
            transaction.on_commit(lambda: irt_fit_dispatch(fit_id))
    return fit


def broker_configured() -> bool:
    """True when tasks go to a Celery broker (not run eagerly in this process)."""
    return not current_app.conf.task_always_eager


def irt_fit_dispatch(fit_id: int) -> None:
    """Hand a queued fit to a worker: Celery when there is a broker; otherwise a
    daemon thread of this process (so a web request returns at once), or inline when
    ``EARSHOT_IRT_INLINE_THREAD`` is false (tests)."""
    from irt.tasks import irt_fit_task

    if broker_configured() or not getattr(settings, "EARSHOT_IRT_INLINE_THREAD", True):
        irt_fit_task.delay(fit_id)
        return
    threading.Thread(target=_run_in_thread, args=(fit_id,), name=f"irt-fit-{fit_id}", daemon=True).start()


def _run_in_thread(fit_id: int) -> None:
    close_old_connections()
    try:
        irt_fit_run(fit_id)
    finally:
        connection.close()


# --------------------------------------------------------------------------- run


class _Progress:
    """Throttled progress writer: ``update_fields`` only, at most every 0.5 s."""

    def __init__(self, fit_id: int, echo: Callable[[float, str], None] | None = None) -> None:
        self.fit_id = fit_id
        self.echo = echo
        self.last = 0.0

    def set(self, value: float, message: str, *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last < PROGRESS_INTERVAL_S:
            return
        self.last = now
        value = min(1.0, max(0.0, float(value)))
        Fit.objects.filter(pk=self.fit_id).update(
            progress=value, progress_message=message[:200], heartbeat_at=timezone.now()
        )
        if self.echo is not None:
            self.echo(value, message)

    def fit_callback(self, step: int, total: int, loss: float) -> None:
        frac = min(1.0, step / total) if total else 0.0
        msg = f"fitting: step {step}/{total}" + (f", loss {loss:.4g}" if math.isfinite(loss) else "")
        self.set(LOAD_DONE + (FIT_DONE - LOAD_DONE) * frac, msg)


def _finite(x: float) -> float | None:
    x = float(x)
    return x if math.isfinite(x) else None


def _json_safe(value: Any) -> Any:
    """NaN/inf become null (PostgreSQL's jsonb rejects them); numpy scalars become floats."""
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if isinstance(value, (np.floating, float)):
        return _finite(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.ndarray):
        return _json_safe(value.tolist())
    return value


def _n_options(matrix: ResponseMatrix) -> np.ndarray:
    choices = dict(Question.objects.filter(pk__in=matrix.item_map.ids).values_list("id", "choices"))
    k = np.asarray([len(choices.get(q) or []) for q in matrix.item_map.ids], dtype=float)
    if (k < 2).any():
        bad = [q for q, n in zip(matrix.item_map.ids, k, strict=True) if n < 2][:5]
        raise ValueError(f"3pl needs >= 2 options per question; questions {bad} have fewer")
    return k


def _stale_q() -> Q:
    """Running fits whose worker has not written progress for the stale limit."""
    cutoff = timezone.now() - timedelta(seconds=float(getattr(settings, "EARSHOT_IRT_STALE_AFTER_S", 600)))
    return Q(status=FitStatus.RUNNING) & (
        Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, started_at__lt=cutoff)
    )


def irt_fits_reap_stale(project: Project | None = None) -> int:
    """Mark running fits whose worker went silent as failed; returns how many.

    Why: a worker killed mid-fit (deploy, OOM, ``kill -9``) never reaches the
    ``except`` that records failure, so its fit would say "running" forever. Pages and
    the API call this before listing fits, so researchers see what happened and can
    start the fit again.
    """
    qs = Fit.objects.filter(_stale_q())
    if project is not None:
        qs = qs.filter(project=project)
    limit = float(getattr(settings, "EARSHOT_IRT_STALE_AFTER_S", 600))
    n = qs.update(
        status=FitStatus.FAILED, finished_at=timezone.now(), progress_message="failed: worker lost",
        error=f"worker lost: no progress for more than {limit:.0f} s (the worker was stopped or "
        "killed mid-fit); start the fit again",
    )
    if n:
        logger.warning("marked %d IRT fit(s) failed: worker lost", n)
    return n


def irt_fit_run(fit_id: int, *, echo: Callable[[float, str], None] | None = None) -> Fit:
    """Run a queued fit to the end and store it; returns the fit as stored.

    Claims the fit atomically (queued -> running), so a redelivered task never runs
    it twice. Any exception marks the fit failed with the error text. ``echo`` also
    receives every progress update (the command prints them).
    """
    now = timezone.now()
    # a queued fit, or one whose worker died mid-run (a redelivered task takes it over)
    claimed = Fit.objects.filter(Q(status=FitStatus.QUEUED) | _stale_q(), pk=fit_id).update(
        status=FitStatus.RUNNING, started_at=now, heartbeat_at=now, progress=0.0,
        progress_message="loading responses", error="",
    )
    fit = Fit.objects.select_related("project").get(pk=fit_id)
    if not claimed:
        logger.info("IRT fit #%s is %s; not running it again", fit_id, fit.status)
        return fit
    t0 = time.perf_counter()
    progress = _Progress(fit_id, echo)
    try:
        opts = FitOptions.parse(fit.options)
        progress.set(0.0, "loading responses", force=True)
        matrix = response_matrix(fit.project, opts.mode, source=opts.source or None, category=opts.category or None)
        if matrix.n_obs == 0:
            raise ValueError(
                f"no {opts.mode} responses match (source={opts.source or 'any'}, "
                f"category={opts.category or 'any'})"
            )
        Fit.objects.filter(pk=fit_id).update(
            data_hash=matrix.data_hash, rule_versions=list(matrix.rule_versions),
            n_responders=len(matrix.subject_map), n_items=len(matrix.item_map), n_responses=matrix.n_obs,
        )
        progress.set(LOAD_DONE, f"fitting {matrix.n_obs} responses", force=True)
        result = irt_fit(
            matrix.subjects, matrix.items, matrix.correct,
            model=opts.model, method=opts.method, seed=opts.seed, groups=matrix.groups(),
            device=opts.device, progress=progress.fit_callback,
            n_subjects=len(matrix.subject_map), n_items=len(matrix.item_map),
            n_options=_n_options(matrix) if opts.model == "3pl" else None,
        )
        progress.set(FIT_DONE, "storing results", force=True)
        _store(fit_id, matrix, result, started=t0)
        if echo is not None:
            echo(1.0, "done")
    except Exception as exc:
        logger.exception("IRT fit #%s failed", fit_id)
        Fit.objects.filter(pk=fit_id).update(
            status=FitStatus.FAILED, error=f"{type(exc).__name__}: {exc}"[:5000],
            finished_at=timezone.now(), duration_s=time.perf_counter() - t0,
            progress_message="failed",
        )
        if echo is not None:
            echo(1.0, f"failed: {exc}")
    return Fit.objects.get(pk=fit_id)


def _store(fit_id: int, matrix: ResponseMatrix, result, *, started: float) -> None:
    """Results, normalized rows and the data snapshot in one transaction."""
    n_s, n_i = len(matrix.subject_map), len(matrix.item_map)
    s_n = np.bincount(matrix.subjects, minlength=n_s)
    s_k = np.bincount(matrix.subjects, weights=matrix.correct, minlength=n_s)
    i_n = np.bincount(matrix.items, minlength=n_i)
    i_k = np.bincount(matrix.items, weights=matrix.correct, minlength=n_i)
    abilities = [
        FitAbility(
            fit_id=fit_id, responder_id=rid, theta=float(result.theta[k]),
            sd=_finite(result.theta_sd[k]), ci_low=_finite(result.theta_ci[k, 0]),
            ci_high=_finite(result.theta_ci[k, 1]), n_answered=int(s_n[k]),
            accuracy=float(s_k[k] / s_n[k]) if s_n[k] else 0.0,
        )
        for k, rid in enumerate(matrix.subject_map.ids)
    ]
    items = [
        FitItem(
            fit_id=fit_id, question_id=qid, a=float(result.a[k]), a_sd=_finite(result.a_sd[k]),
            b=float(result.b[k]), b_sd=_finite(result.b_sd[k]),
            c=None if result.c is None else float(result.c[k]),
            n_answered=int(i_n[k]), p_correct=float(i_k[k] / i_n[k]) if i_n[k] else 0.0,
        )
        for k, qid in enumerate(matrix.item_map.ids)
    ]
    stored = {
        "irt": _json_safe(result.to_dict()),
        "responder_ids": list(matrix.subject_map.ids),
        "question_ids": list(matrix.item_map.ids),
        "kinds": list(matrix.kinds),
        "verdict_sources": matrix.verdict_sources,
    }
    with transaction.atomic():
        FitAbility.objects.filter(fit_id=fit_id).delete()
        FitItem.objects.filter(fit_id=fit_id).delete()
        FitAbility.objects.bulk_create(abilities, batch_size=2000)
        FitItem.objects.bulk_create(items, batch_size=2000)
        Fit.objects.filter(pk=fit_id).update(
            status=FitStatus.SUCCEEDED, method=result.method, result=stored,
            snapshot=snapshot_dump(matrix), warnings=list(result.warnings),
            finished_at=timezone.now(), duration_s=time.perf_counter() - started,
            progress=1.0, progress_message="done", error="",
        )
