"""Dashboard and export benchmark on PostgreSQL with 1,000,000 responses (run on demand).

    DATABASE_URL=postgres://root@127.0.0.1:5432/h_work_bench \\
        .venv/bin/python tests/benchmarks/export_bench.py [--responses 1000000] [--reuse]

Creates the database if needed, migrates it, generates a project ("bench") with
humans and model systems answering the same questions (bulk insert with COPY),
then measures, each in a fresh process so peak memory is the export's own:

* the dashboard page (Django test client, logged-in researcher): first view,
  repeat views, a new filter, the first view after a re-score and after a human
  judgement (both undone afterwards), the computation alone and the data-version
  check (see :func:`measure_dashboard`);
* the CSV export of every response (streamed; bytes counted, not kept): wall time
  and peak resident memory (``resource.getrusage(...).ru_maxrss``);
* the Parquet and JSONL exports likewise.

Targets (issue 6): dashboard < 1 s; CSV export of 1M responses < 30 s with peak
memory < 500 MB. Prints a Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.benchmarks._env import configure  # noqa: E402

configure()

SLUG = "bench"
N_QUESTIONS = 400
MODEL_SYSTEMS = 10
CONDITIONS = ("audio+text", "text-only", "transcript-only")


def _setup() -> None:
    import django

    django.setup()
    from django.test.utils import override_settings

    # Pages render without a collectstatic manifest (as in the test suite).
    override_settings(STORAGES={
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }).enable()


def ensure_database() -> None:
    """Create the benchmark database named in DATABASE_URL when it does not exist."""
    import dj_database_url
    import psycopg

    cfg = dj_database_url.parse(os.environ["DATABASE_URL"])
    with psycopg.connect(host=cfg["HOST"], port=cfg["PORT"] or 5432, user=cfg["USER"], dbname="postgres",
                         autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [cfg["NAME"]]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{cfg["NAME"]}"')


def generate(n_responses: int, seed: int = 1) -> dict:
    """Fresh project with ~n_responses responses; returns counts."""
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    from accounts.models import Project, Role, User
    from accounts.services import membership_set, project_create, user_create
    from quiz.models import Category, ModelSystem, Question, Responder

    call_command("migrate", verbosity=0)
    from quiz.models import Response

    old = Project.objects.filter(slug=SLUG).first()
    if old is not None:  # fast cleanup: raw delete of responses, then the rest
        Response.objects.filter(project=old)._raw_delete(Response.objects.db)
        Question.objects.filter(project=old).delete()
        old.delete()
    User.objects.filter(username__startswith="bench-").delete()
    rng = random.Random(seed)
    t0 = time.perf_counter()
    with transaction.atomic():
        project = project_create(slug=SLUG, name="Benchmark project")
        researcher = User.objects.filter(username="bench-researcher").first() or user_create(
            username="bench-researcher", password="bench-password-1")
        membership_set(project=project, user=researcher, role=Role.OWNER)
        categories = list(Category.objects.filter(project=project))
        questions = Question.objects.bulk_create([
            Question(project=project, external_id=f"q{i:05d}", prompt=f"Question {i}?", answerline=f"answer {i}",
                     category=categories[i % len(categories)], source=f"src-{i % 4}",
                     choices=["a", "b", "c", "d"], correct_choice=i % 4, pyramidal=i % 10 == 0)
            for i in range(N_QUESTIONS)
        ])
        models = []
        for s in range(MODEL_SYSTEMS):
            system = ModelSystem.objects.create(project=project, name=f"model-{s:02d}")
            for condition in CONDITIONS:
                models.append(Responder(project=project, kind="model", system=system, condition=condition,
                                        label=f"model-{s:02d} ({condition})"))
        models = Responder.objects.bulk_create(models)
        model_rows = len(models) * N_QUESTIONS * 2
        per_human = 200
        n_humans = max(1, (n_responses - model_rows) // per_human)
        users = User.objects.bulk_create([
            User(username=f"bench-u{i}", handle=f"bench-player-{i}", is_guest=True, password="!")
            for i in range(n_humans)
        ], batch_size=2000)
        humans = Responder.objects.bulk_create([
            Responder(project=project, kind="human", user=u, label=u.handle) for u in users
        ], batch_size=2000)
    now = timezone.now().isoformat()
    columns = ("project_id", "question_id", "responder_id", "mode", "answer_text", "choice", "choice_position",
               "option_order", "clue_index", "latency_ms", "client_token", "prompted", "correct", "prompt",
               "score", "rule", "rule_version", "matched", "explanation", "created_at", "judged_at")
    items = [(q, mode) for q in questions for mode in ("free", "mcq")]
    written = 0
    with connection.cursor() as cursor, transaction.atomic():
        raw = cursor.cursor
        with raw.copy(f"COPY quiz_response ({', '.join(columns)}) FROM STDIN") as copy:
            def write(responder, skill, chosen):
                nonlocal written
                for q, mode in chosen:
                    right = rng.random() < skill
                    if mode == "mcq":
                        choice = q.correct_choice if right else (q.correct_choice + 1 + rng.randrange(3)) % 4
                        position = rng.randrange(4)
                        copy.write_row((project.pk, q.pk, responder.pk, mode, q.choices[choice], choice, position,
                                        "[0, 1, 2, 3]", None, rng.randint(800, 15000), f"b{written}", False, right,
                                        False, 1.0 if right else 0.0, "mcq", "mcq-1", "", "bench", now, now))
                    else:
                        copy.write_row((project.pk, q.pk, responder.pk, mode, "an answer", None, None, "[]",
                                        rng.randrange(3) if q.pyramidal else None, rng.randint(800, 15000),
                                        f"b{written}", False, right, False, 1.0 if right else 0.0,
                                        "alias:accept" if right else "no-match", "eq-bench", "", "bench", now, now))
                    written += 1

            for responder in models:
                write(responder, rng.uniform(0.2, 0.8), items)
            for responder in humans:
                write(responder, rng.uniform(0.1, 0.95), rng.sample(items, per_human))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE quiz_response; ANALYZE quiz_responder; ANALYZE quiz_question;")
    return {"responses": written, "humans": len(humans), "model_responders": len(models),
            "questions": N_QUESTIONS, "generate_s": round(time.perf_counter() - t0, 1)}


def _rss_mb() -> float:
    """Current resident set size of this process (Linux /proc), in MB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _warm_up(client) -> float:
    """Load every app's URLs and views (imports) before timing; return seconds spent."""
    t = time.perf_counter()
    import config.urls  # noqa: F401  (other apps' views import heavy libraries)

    client.get("/")
    return time.perf_counter() - t


def measure_dashboard(runs: int = 3) -> dict:
    """Dashboard page through the Django test client, in a fresh process (empty cache).

    In order: the first view (computes), ``runs`` repeat views (served from the
    cache; median), a new filter combination (computes), the first view after a
    re-score of one response (a data change: computes), the first view after a
    human judgement (computes, now with the override path), the JSON API, then the
    computation alone and the data-version check. The two changes are undone at
    the end (the judgement deleted, the verdict flipped back), so re-runs see the
    same data.
    """
    from django.db.models import F
    from django.test import Client
    from django.utils import timezone

    from accounts.models import Project, User
    from frontend import selectors
    from frontend.dashboard import Filters
    from judging.models import HumanJudgement
    from judging.services import override_set
    from quiz.models import Response

    researcher = User.objects.get(username="bench-researcher")
    client = Client()
    client.force_login(researcher)
    warm_up = _warm_up(client)
    url = f"/p/{SLUG}/dashboard/"

    def page(params: dict | None = None) -> float:
        t = time.perf_counter()
        response = client.get(url, params or {})
        elapsed = time.perf_counter() - t
        assert response.status_code == 200, response.status_code
        return elapsed

    first = page()
    warm = sorted(page() for _ in range(runs))
    filtered = page({"mode": "mcq", "condition": "text-only"})
    project = Project.objects.get(slug=SLUG)
    human = Response.objects.filter(project=project, responder__kind="human").order_by("id")
    rescored = human.first()
    Response.objects.filter(pk=rescored.pk).update(correct=~F("correct"), judged_at=timezone.now())
    after_rescore = page()
    judged = human.exclude(pk=rescored.pk).first()
    override_set(response=judged, correct=not judged.correct, by=researcher, note="benchmark")
    after_judgement = page()
    t = time.perf_counter()
    api = client.get(f"/api/v1/projects/{SLUG}/dashboard/")
    api_s = time.perf_counter() - t
    assert api.status_code == 200
    uncached = []
    for _ in range(2):
        project._earshot_overrides = None
        t = time.perf_counter()
        selectors.dashboard_data(project, Filters(), use_cache=False)
        uncached.append(time.perf_counter() - t)
    t = time.perf_counter()
    selectors.data_version(project)
    version_s = time.perf_counter() - t
    HumanJudgement.objects.filter(response=judged).delete()
    Response.objects.filter(pk=rescored.pk).update(correct=~F("correct"), judged_at=timezone.now())
    return {"import_s": round(warm_up, 1), "dashboard_cold_s": round(first, 3),
            "dashboard_warm_median_s": round(warm[len(warm) // 2], 3),
            "dashboard_filtered_s": round(filtered, 3), "dashboard_after_rescore_s": round(after_rescore, 3),
            "dashboard_after_judgement_s": round(after_judgement, 3), "dashboard_api_s": round(api_s, 3),
            "compute_uncached_s": round(min(uncached), 3), "data_version_s": round(version_s, 3),
            "load_1min": round(os.getloadavg()[0], 2)}


def measure_export(fmt: str) -> dict:
    """One export in this process: stream it, count bytes, report time and peak RSS."""
    from django.test import Client

    from accounts.models import User

    client = Client()
    client.force_login(User.objects.get(username="bench-researcher"))
    _warm_up(client)
    rss_before = _rss_mb()
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t = time.perf_counter()
    response = client.get(f"/p/{SLUG}/export/responses.{fmt}")
    size = lines = 0
    rss_max = rss_before
    for i, chunk in enumerate(response.streaming_content):
        size += len(chunk)
        lines += chunk.count(b"\n")
        if i % 50 == 0:
            rss_max = max(rss_max, _rss_mb())
    elapsed = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"format": fmt, "seconds": round(elapsed, 2), "bytes": size, "lines": lines,
            "rss_before_mb": round(rss_before, 1), "rss_max_during_mb": round(max(rss_max, _rss_mb()), 1),
            "export_growth_mb": round(max(rss_max, _rss_mb()) - rss_before, 1),
            "ru_maxrss_mb": round(peak, 1), "ru_maxrss_before_mb": round(peak_before, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--responses", type=int, default=1_000_000)
    parser.add_argument("--reuse", action="store_true", help="keep existing benchmark data")
    parser.add_argument("--formats", default="csv,jsonl,parquet", help="exports to measure (comma-separated)")
    parser.add_argument("--export", choices=["csv", "jsonl", "parquet"], help=argparse.SUPPRESS)
    parser.add_argument("--dashboard", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("Set DATABASE_URL=postgres://.../h_work_bench (the benchmark targets PostgreSQL).")
    if args.export:
        _setup()
        print(json.dumps(measure_export(args.export)))
        return
    if args.dashboard:
        _setup()
        print(json.dumps(measure_dashboard()))
        return
    ensure_database()
    _setup()
    from django.core.management import call_command

    from quiz.models import Response

    call_command("migrate", verbosity=0)  # an older benchmark database gets the dashboard tallies (≈ 16 s for 1M)

    if args.reuse and Response.objects.filter(project__slug=SLUG).exists():
        data = {"responses": Response.objects.filter(project__slug=SLUG).count(), "reused": True}
    else:
        data = generate(args.responses)
    print("data:", json.dumps(data), flush=True)

    def child(*flags: str) -> dict:
        out = subprocess.run([sys.executable, __file__, *flags], capture_output=True, text=True, check=True,
                             env=os.environ)
        return json.loads(out.stdout.strip().splitlines()[-1])

    dash = child("--dashboard")
    print("dashboard:", json.dumps(dash), flush=True)
    exports = [child("--export", fmt) for fmt in args.formats.split(",") if fmt]
    for e in exports:
        print("export:", json.dumps(e), flush=True)
    load = os.getloadavg()
    print("\n| measurement | result | target |\n| --- | --- | --- |")
    rows = [
        ("dashboard page, first view (fresh process, computes)", "dashboard_cold_s", "< 1 s"),
        ("dashboard page, first view after a re-score (data change; computes)", "dashboard_after_rescore_s", "< 1 s"),
        ("dashboard page, first view after a human judgement (computes, override path)",
         "dashboard_after_judgement_s", "< 1 s"),
        ("dashboard page, new filter (mcq, text-only; computes)", "dashboard_filtered_s", "< 1 s"),
        ("dashboard page, unchanged data (cached by data version; median of 3)", "dashboard_warm_median_s", "< 1 s"),
        ("dashboard computation alone, uncached (best of 2)", "compute_uncached_s", ""),
        ("data-version check (part of every request)", "data_version_s", ""),
        ("dashboard JSON API (cached)", "dashboard_api_s", ""),
    ]
    for label, key, target in rows:
        print(f"| {label} | {dash[key]} s | {target} |")
    print(f"\n(load average when the dashboard measurements ended: {dash['load_1min']})")
    for e in exports:
        target = "< 30 s, < 500 MB" if e["format"] == "csv" else ""
        print(f"| {e['format']} export of {data['responses']:,} responses | {e['seconds']} s; process peak RSS "
              f"{e['ru_maxrss_mb']} MB (before export {e['rss_before_mb']} MB, growth during export "
              f"{e['export_growth_mb']} MB); {e['bytes'] / 1e6:.0f} MB written | {target} |")
    print(f"\nload average during the run: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
