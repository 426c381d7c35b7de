"""Writes for IRT: create a fit job, run it, store what it found.

``irt_fit_create`` records a queued :class:`~irt.models.Fit` and, after the
transaction commits, hands it to the background (a Celery worker when a broker is
configured; otherwise a thread of this process, so a web request never fits).
``irt_fit_run`` is what the worker executes: it loads the response matrix, calls the
pure :func:`irt.fit.fit` with a throttled progress callback, and stores the result.
A fit that raises is marked failed with the error; it never takes the worker down.

Faults heal by themselves (docs/deployment.md, "Workers and faults"):

- **Broker down.** :func:`irt_fit_dispatch` publishes once, without retrying in the
  request thread; a refusal is recorded on the fit (``dispatch_error``) and the
  caller tells the researcher that background workers are unavailable. Workers
  re-dispatch such fits every minute (:func:`irt_fits_maintain`) once the broker is
  back; a fit no worker took within ``EARSHOT_IRT_QUEUE_GIVE_UP_S`` is failed.
- **Worker killed.** A running fit writes a heartbeat every
  ``EARSHOT_IRT_HEARTBEAT_S`` from a side thread. The worker-side reaper re-queues a
  fit silent for ``EARSHOT_IRT_STALE_AFTER_S`` (up to ``EARSHOT_IRT_MAX_ATTEMPTS``
  claims) and re-dispatches it; a redelivered message (acks_late,
  reject-on-worker-lost) re-claims a fit whose claimant process is dead at once.
"""

from __future__ import annotations

import logging
import math
import os
import socket
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
from django.db.models import F, Q
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
    """:func:`irt.fit.fit`, imported on first use. The 1PL/2PL MAP on the CPU runs in
    numpy/scipy; the other estimators import torch and Pyro only in the process that
    fits (a worker), so a web-only host (no `irt` extra) still runs the numpy ones and
    says what to install for the rest."""
    from irt.fit import fit

    try:
        return fit(*args, **kwargs)
    except ModuleNotFoundError as exc:
        if exc.name not in ("torch", "pyro"):
            raise
        raise RuntimeError(
            "this IRT fit needs torch and Pyro, which this host does not have: install the `irt` "
            "extra where workers run (scripts/install.sh without --web, or pip install '.[irt]')"
        ) from exc


def irt_fit_create(
    *, project: Project, options: Mapping[str, Any], by=None, dispatch: bool = True
) -> Fit:
    """Record a queued fit and start it in the background after commit.

    ``dispatch=False`` only records it (the ``irt_fit`` command then runs it inline).
    When the broker refuses the fit, the returned fit has a ``dispatch_error`` (it
    stays queued and workers dispatch it once the broker is back).
    """
    opts = FitOptions.parse(options)
    with transaction.atomic():
        fit = Fit.objects.create(
            project=project, mode=opts.mode, model=opts.model, options=asdict(opts),
            created_by=by if getattr(by, "is_authenticated", False) else None,
            progress_message="queued",
        )
        if dispatch:
            transaction.on_commit(lambda: _dispatch_noting_failure(fit))
    return fit


def _dispatch_noting_failure(fit: Fit) -> None:
    """Dispatch after commit; on a broker refusal, the caller's ``fit`` shows the
    ``dispatch_error`` (views answer "background workers unavailable")."""
    if not irt_fit_dispatch(fit.pk):
        fit.refresh_from_db(fields=["dispatch_error", "dispatched_at", "progress_message"])


def broker_configured() -> bool:
    """True when tasks go to a Celery broker (not run eagerly in this process)."""
    return not current_app.conf.task_always_eager


#: the fit's progress message while its dispatch waits for the broker
WAITING_FOR_BROKER = "waiting for background workers (task broker unavailable)"


def irt_fit_dispatch(fit_id: int) -> bool:
    """Hand a queued fit to a worker; returns False when the broker refused it.

    Celery when there is a broker: one publish attempt, no retry loop in the calling
    (request) thread, with the short connect timeout of the ``CELERY_BROKER_*``
    settings, so a dead broker costs a click about a second, not 20. A refusal is
    recorded on the fit (``dispatch_error``, ``dispatched_at`` null): workers
    re-dispatch it when the broker is back (:func:`irt_fits_redispatch`). Without a
    broker: a daemon thread of this process (so a web request returns at once), or
    inline when ``EARSHOT_IRT_INLINE_THREAD`` is false (tests).
    """
    from irt.tasks import irt_fit_task

    if broker_configured() or not getattr(settings, "EARSHOT_IRT_INLINE_THREAD", True):
        eager = not broker_configured()
        # recorded before publishing: a worker may take the fit before this returns
        Fit.objects.filter(pk=fit_id, status=FitStatus.QUEUED).update(
            dispatched_at=timezone.now(), dispatch_error="", progress_message="queued"
        )
        try:
            irt_fit_task.apply_async((fit_id,), retry=False)
        except Exception as exc:
            if eager:  # a bug, not a broker outage
                raise
            message = (
                f"background workers unavailable: the task broker did not answer "
                f"({type(exc).__name__}: {exc}); the fit starts when it is back"
            )[:500]
            Fit.objects.filter(pk=fit_id, status=FitStatus.QUEUED).update(
                dispatched_at=None, dispatch_error=message, progress_message=WAITING_FOR_BROKER
            )
            logger.warning("IRT fit #%s not dispatched: %s", fit_id, message)
            return False
        return True
    threading.Thread(target=_run_in_thread, args=(fit_id,), name=f"irt-fit-{fit_id}", daemon=True).start()
    return True


def _run_in_thread(fit_id: int) -> None:
    close_old_connections()
    try:
        irt_fit_run(fit_id)
    finally:
        connection.close()


def irt_fits_redispatch(*, grace_s: float = 30.0) -> int:
    """Dispatch queued fits that no broker has accepted yet; returns how many went out.

    Picks fits whose dispatch failed (broker down) or that the reaper re-queued, plus
    any queued fit never dispatched for ``grace_s`` (a web process that died between
    commit and publish). Stops at the first refusal: the broker is still down.
    Duplicates are harmless (:func:`irt_fit_run` claims a fit once).
    """
    cutoff = timezone.now() - timedelta(seconds=grace_s)
    pending = Fit.objects.filter(status=FitStatus.QUEUED, dispatched_at__isnull=True).filter(
        ~Q(dispatch_error="") | Q(created_at__lt=cutoff) | Q(attempts__gt=0)
    )
    sent = 0
    for fit_id in pending.order_by("created_at", "id").values_list("id", flat=True)[:500]:
        if not irt_fit_dispatch(fit_id):
            break
        sent += 1
    if sent:
        logger.info("re-dispatched %d queued IRT fit(s)", sent)
    return sent


def irt_fits_maintain() -> dict[str, int]:
    """What workers run every ``EARSHOT_IRT_MAINTENANCE_INTERVAL_S`` (and on start):
    re-queue or fail fits whose worker was lost, then re-dispatch what waits."""
    reaped = irt_fits_reap_stale(requeue=True)
    return {"reaped": reaped, "redispatched": irt_fits_redispatch()}


# --------------------------------------------------------------------------- run


class ClaimLost(RuntimeError):
    """This run no longer owns its fit (the reaper re-queued it and another worker took it)."""


class _Progress:
    """Throttled progress writer: ``update_fields`` only, at most every 0.5 s."""

    def __init__(
        self, fit_id: int, echo: Callable[[float, str], None] | None = None, claim: str = ""
    ) -> None:
        self.fit_id = fit_id
        self.echo = echo
        self.claim = claim
        self.last = 0.0

    def set(self, value: float, message: str, *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last < PROGRESS_INTERVAL_S:
            return
        self.last = now
        value = min(1.0, max(0.0, float(value)))
        written = Fit.objects.filter(pk=self.fit_id, claimed_by=self.claim, status=FitStatus.RUNNING).update(
            progress=value, progress_message=message[:200], heartbeat_at=timezone.now()
        )
        if not written:
            raise ClaimLost(f"IRT fit #{self.fit_id} was taken over by another worker")
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


def _stale_after_s() -> float:
    return float(getattr(settings, "EARSHOT_IRT_STALE_AFTER_S", 60))


def _max_attempts() -> int:
    return max(1, int(getattr(settings, "EARSHOT_IRT_MAX_ATTEMPTS", 3)))


def _stale_q() -> Q:
    """Running fits whose worker has not written a heartbeat for the stale limit."""
    cutoff = timezone.now() - timedelta(seconds=_stale_after_s())
    return Q(status=FitStatus.RUNNING) & (
        Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, started_at__lt=cutoff)
    )


def irt_fits_reap_stale(project: Project | None = None, *, requeue: bool | None = None) -> int:
    """Re-queue (or fail) running fits whose worker went silent; returns how many.

    Why: a worker killed mid-fit (deploy, OOM, ``kill -9``) never reaches the
    ``except`` that records failure, so its fit would say "running" forever. Workers
    call this every minute (:func:`irt_fits_maintain`); pages and the API call it too
    before listing fits. ``requeue`` (default: when a broker is configured, i.e.
    there are workers to re-run it) puts a fit with claims left back in the queue for
    :func:`irt_fits_redispatch`; the others are marked failed. Queued fits that no
    worker took within ``EARSHOT_IRT_QUEUE_GIVE_UP_S`` are failed as well, so nothing
    waits forever.
    """
    if requeue is None:
        requeue = broker_configured()
    now = timezone.now()
    limit, max_attempts = _stale_after_s(), _max_attempts()
    qs = Fit.objects.all() if project is None else Fit.objects.filter(project=project)
    n = 0
    if requeue:
        n += qs.filter(_stale_q(), attempts__lt=max_attempts).update(
            status=FitStatus.QUEUED, dispatched_at=None, dispatch_error="", claimed_by="",
            heartbeat_at=None, progress=0.0,
            progress_message=f"worker lost mid-fit (no heartbeat for {limit:.0f} s); re-queued",
        )
    failed = qs.filter(_stale_q()).update(
        status=FitStatus.FAILED, finished_at=now, progress_message="failed: worker lost",
        error=f"worker lost: no heartbeat for more than {limit:.0f} s (the worker was stopped "
        f"or killed mid-fit{'' if not requeue else f', {max_attempts} times'}); start the fit again",
    )
    give_up = float(getattr(settings, "EARSHOT_IRT_QUEUE_GIVE_UP_S", 24 * 3600))
    cutoff = now - timedelta(seconds=give_up)
    abandoned = qs.filter(status=FitStatus.QUEUED, created_at__lt=cutoff).filter(
        Q(dispatched_at__lt=cutoff) | Q(dispatched_at__isnull=True)
    ).update(
        status=FitStatus.FAILED, finished_at=now, progress_message="failed: never started",
        error=f"no background worker started this fit within {give_up / 3600:.3g} h "
        "(task broker or workers unavailable); start the fit again",
    )
    if n or failed or abandoned:
        logger.warning(
            "IRT fits: %d re-queued, %d failed (worker lost), %d failed (never started)",
            n, failed, abandoned,
        )
    return n + failed + abandoned


def _claimant_dead(claimed_by: str) -> bool:
    """True when ``claimed_by`` (host:pid:task) names a process of this host that is gone."""
    host, _, rest = claimed_by.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit() or int(pid_text) == os.getpid():
        return False
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, another user's process
        return False
    return False


def _claim(fit_id: int, task_id: str | None) -> str | None:
    """Atomically take a fit (queued, stale, or claimed by a dead process of this host).

    Returns this run's claim token, or ``None`` when the fit is not ours to run
    (finished, or running in a live worker, or out of attempts).
    """
    me = f"{socket.gethostname()}:{os.getpid()}:{task_id or '-'}"[:200]
    claimable = Q(status=FitStatus.QUEUED) | _stale_q()
    current = Fit.objects.filter(pk=fit_id).values_list("status", "claimed_by").first()
    if current and current[0] == FitStatus.RUNNING and current[1] and _claimant_dead(current[1]):
        # a redelivered message (reject-on-worker-lost) after its pool process was killed
        claimable |= Q(status=FitStatus.RUNNING, claimed_by=current[1])
    now = timezone.now()
    claimed = Fit.objects.filter(claimable, pk=fit_id, attempts__lt=_max_attempts()).update(
        status=FitStatus.RUNNING, started_at=now, heartbeat_at=now, progress=0.0, claimed_by=me,
        attempts=F("attempts") + 1, progress_message="loading responses", error="", finished_at=None,
    )
    return me if claimed else None


class _Heartbeat:
    """A daemon thread that stamps ``heartbeat_at`` every ``EARSHOT_IRT_HEARTBEAT_S``
    while a fit runs, so a long step without progress callbacks is not taken for a
    dead worker, and a dead worker is noticed within a minute or two."""

    def __init__(self, fit_id: int, claim: str) -> None:
        self.fit_id, self.claim = fit_id, claim
        self.interval = float(getattr(settings, "EARSHOT_IRT_HEARTBEAT_S", 15))
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._beat, name=f"irt-heartbeat-{fit_id}", daemon=True)

    def __enter__(self) -> _Heartbeat:
        if self.interval > 0:
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        if self.thread.is_alive():
            self.thread.join(timeout=5)

    def _beat(self) -> None:
        try:
            while not self.stopped.wait(self.interval):
                Fit.objects.filter(
                    pk=self.fit_id, claimed_by=self.claim, status=FitStatus.RUNNING
                ).update(heartbeat_at=timezone.now())
        except Exception:  # the fit itself reports database trouble
            logger.exception("IRT fit #%s: heartbeat failed", self.fit_id)
        finally:
            connection.close()


def irt_fit_run(
    fit_id: int, *, echo: Callable[[float, str], None] | None = None, task_id: str | None = None
) -> Fit:
    """Run a queued fit to the end and store it; returns the fit as stored.

    Claims the fit atomically (see :func:`_claim`), so a redelivered task never runs
    it twice while its first run is alive, and does re-run it once that run's worker
    is gone. Any exception marks the fit failed with the error text. ``echo`` also
    receives every progress update (the command prints them); ``task_id`` is the
    Celery task id (part of the claim token).
    """
    claim = _claim(fit_id, task_id)
    fit = Fit.objects.select_related("project").get(pk=fit_id)
    if claim is None:
        logger.info("IRT fit #%s is %s; not running it again", fit_id, fit.status)
        return fit
    t0 = time.perf_counter()
    progress = _Progress(fit_id, echo, claim)
    try:
        with _Heartbeat(fit_id, claim):
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
            comparison = _model_comparison(matrix, opts, progress)
            progress.set(FIT_DONE, "storing results", force=True)
            _store(fit_id, matrix, result, started=t0, claim=claim, comparison=comparison)
        if echo is not None:
            echo(1.0, "done")
    except ClaimLost:
        logger.warning("IRT fit #%s: taken over by another worker; this run stops", fit_id)
    except Exception as exc:
        logger.exception("IRT fit #%s failed", fit_id)
        Fit.objects.filter(pk=fit_id, claimed_by=claim).update(
            status=FitStatus.FAILED, error=f"{type(exc).__name__}: {exc}"[:5000],
            finished_at=timezone.now(), duration_s=time.perf_counter() - t0,
            progress_message="failed",
        )
        if echo is not None:
            echo(1.0, f"failed: {exc}")
    return Fit.objects.get(pk=fit_id)


#: most responses for which a fit also compares the 1PL-4PL by marginal likelihood
COMPARE_MAX_OBS = 60_000


def _model_comparison(matrix: ResponseMatrix, opts: FitOptions, progress: _Progress) -> dict[str, Any]:
    """The 1PL/2PL/3PL/4PL comparison table (irt.mml4) for this fit's responses.

    Skipped, with the reason stored, above ``EARSHOT_IRT_COMPARE_MAX_OBS`` responses
    (four marginal-likelihood fits cost minutes there).  The 3PL/4PL guessing prior
    comes from each question's option count in MCQ mode.
    """
    limit = int(getattr(settings, "EARSHOT_IRT_COMPARE_MAX_OBS", COMPARE_MAX_OBS))
    if matrix.n_obs > limit:
        return {"rows": [], "note": f"not computed: {matrix.n_obs} responses > {limit} (EARSHOT_IRT_COMPARE_MAX_OBS)"}
    from irt.mml4 import compare_models

    progress.set(FIT_DONE - 0.02, "comparing 1PL-4PL (marginal likelihood)", force=True)
    k = _n_options(matrix) if opts.mode == Mode.MCQ else None
    rows, fits = compare_models(
        matrix.subjects, matrix.items, matrix.correct, len(matrix.subject_map), len(matrix.item_map),
        groups=matrix.groups(), n_options=k,
    )
    return {
        "rows": rows,
        "items": {m: {"c": fits[m].c.tolist(), "d": fits[m].d.tolist()} for m in ("3pl", "4pl") if m in fits},
        "note": "marginal likelihood, adaptive quadrature; weak priors (log a ~ N(0, 1), b ~ N(0, 3), "
        "logit c ~ N(logit 1/K, 0.5), logit d ~ N(logit 0.98, 1)); BIC's n = responders",
    }


def _store(
    fit_id: int, matrix: ResponseMatrix, result, *, started: float, claim: str,
    comparison: dict[str, Any] | None = None,
) -> None:
    """Results, normalized rows and the data snapshot in one transaction (only while
    this run still owns the fit: raises :class:`ClaimLost` otherwise)."""
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
        "model_comparison": _json_safe(comparison or {"rows": [], "note": "not computed"}),
    }
    with transaction.atomic():
        owned = Fit.objects.select_for_update().filter(
            pk=fit_id, claimed_by=claim, status=FitStatus.RUNNING
        ).exists()
        if not owned:
            raise ClaimLost(f"IRT fit #{fit_id} was taken over by another worker")
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
