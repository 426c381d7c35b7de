"""Benchmark: the annotation service under gunicorn + PostgreSQL, and a 1M-rating report.

Run on demand (not collected by pytest; needs a local PostgreSQL)::

    .venv/bin/python tests/benchmarks/annotation_bench.py \
        [--db h_annot_bench] [--annotators 50] [--per-annotator 20] [--ratings 1000000]
    .venv/bin/python tests/benchmarks/annotation_bench.py --skip-report --think-ms 1000   # service only
    .venv/bin/python tests/benchmarks/annotation_bench.py --skip-report --annotators 200 --think-ms 1000
    .venv/bin/python tests/benchmarks/annotation_bench.py --skip-report --template mushra --stimuli 6 \
        --annotators 50 --think-ms 5000                                          # MUSHRA screens

Part 1 creates a fresh database, migrates it, seeds an overlap-3 MOS campaign of 2,000
items (text plus a 0.5 s clip each, full listening required) and 50 annotators with API
tokens, starts gunicorn (``deploy/gunicorn.conf.py``, ``--preload``) on a free loopback
port, and runs 50 concurrent simulated annotators: one asyncio process, one keep-alive
HTTP/1.1 connection per annotator, a bounded number of items each: ``POST .../next/``,
think (``--think-ms`` mean, uniform ±50 %, never shorter than the clip), then
``POST .../ratings/submit/``. It prints p50/p95/p99 latency of both calls, calls/s, the
error count, CPU per call of gunicorn, PostgreSQL (the backends serving the database)
and the client, and the load average; then it checks the database: every accepted
submission stored exactly once, no item over its overlap, item counters equal to a
recount. One submission per annotator is sent twice with the same client token to
exercise idempotency (the repeat must store nothing).

``--template mushra --stimuli N`` seeds a MUSHRA campaign instead: every item is one
screen with an open reference and N rated stimuli (hidden reference, 3.5 kHz and 7 kHz
anchors, N − 3 systems; all 0.5 s clips), full listening of every stimulus required.
Each simulated listener reads the screen from ``next/``, waits at least as long as all
its stimuli play (the server refuses a screen answered sooner), and submits one score
per rated stimulus with the played intervals of every stimulus; the database check then
expects N ratings per accepted submission.

Part 2 writes 1,000,000 ratings (50,000 items x 20 raters, COPY) into another campaign
and times :func:`annotation.selectors.report_for` (load through ``ratings_frame`` +
``annotation.report.campaign_report``) over them.

This module doubles as the WSGI entry for gunicorn (``application``), which imports the
whole URLconf in the master before forking, so no worker pays for it on a request.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import io
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.benchmarks._env import configure  # noqa: E402

configure()


def __getattr__(name: str):
    """``application`` for gunicorn: Django's WSGI app with the URLconf already imported."""
    if name != "application":
        raise AttributeError(name)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.wsgi import get_wsgi_application
    from django.urls import get_resolver

    app = get_wsgi_application()
    get_resolver().url_patterns  # noqa: B018 - import every app's urls (and torch) now
    globals()["application"] = app
    return app


def _setup_django(db_url: str) -> None:
    os.environ["DATABASE_URL"] = db_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def _recreate_db(name: str) -> str:
    base = "postgres://root@127.0.0.1:5432"
    subprocess.run(["psql", f"{base}/postgres", "-qc", f'DROP DATABASE IF EXISTS "{name}"'], check=True)
    subprocess.run(["psql", f"{base}/postgres", "-qc", f'CREATE DATABASE "{name}"'], check=True)
    url = f"{base}/{name}"
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    return url


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cpu_s(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds used so far by each of these processes (Linux /proc)."""
    out = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone
            continue
        out[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def _cpu_delta(before: dict[int, float], pids: list[int]) -> float:
    """CPU seconds the processes alive both times used in between."""
    after = _cpu_s(pids)
    return sum(after[p] - before[p] for p in after if p in before)


def _server_pids(proc: subprocess.Popen, db: str) -> tuple[list[int], list[int]]:
    """gunicorn's master and workers, and the PostgreSQL backends serving ``db``."""
    from django.db import connection

    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [db])
        backends = [r[0] for r in cursor.fetchall()]
    return [proc.pid, *map(int, children)], backends


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


# ------------------------------------------------------------------------- part 1


CLIP_S = 0.5  # every item's clip lasts this long; the shortest think time is as long
#: the client opens a new connection after this long idle: gunicorn closes idle
#: keep-alive connections after ``keepalive`` = 5 s (deploy/gunicorn.conf.py)
KEEPALIVE_S = 4.5


def seed_service(n_items: int, n_annotators: int, template: str = "mos",
                 n_stimuli: int = 6) -> tuple[str, list[str]]:
    """An open overlap-3 campaign (MOS, or MUSHRA screens); annotators with tokens and consent.

    MOS: every item has a text and one of eight 0.5 s clips, and the campaign requires
    full listening, so each submission carries the player's report of the whole clip and
    passes the check against the clip's duration and the server's clock. MUSHRA: every
    item has an open reference and ``n_stimuli`` rated stimuli (0.5 s each), every one
    of which must be heard. The clips are rows only: the load never fetches audio.
    """
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from accounts.models import Membership, Role, User
    from accounts.services import project_create
    from annotation import services
    from annotation.models import Annotator, Item, Stimulus
    from quiz.models import Clip

    project = project_create(slug="bench", name="Bench", is_public=False)
    campaign = services.campaign_create(project=project, name=f"Bench {template}", slug=template,
                                        template=template, policy="overlap", policy_k=3, policy_n=None,
                                        require_full_listen=True, control_every=0)
    n_clips = 8 if template == "mos" else n_stimuli + 1
    clips = Clip.objects.bulk_create([
        Clip(project=project, file=f"bench/{k}.wav", sha256=f"{k:064x}", content_type="audio/wav",
             format="WAV", subtype="PCM_16", duration_s=CLIP_S, sample_rate=16000, channels=1,
             frames=int(16000 * CLIP_S), size_bytes=int(32000 * CLIP_S) + 44) for k in range(n_clips)])
    multi = template != "mos"
    items = Item.objects.bulk_create([
        Item(campaign=campaign, external_id=f"u{i:05d}", response=f"synthetic response {i}",
             clip=None if multi else clips[i % 8],
             system="" if multi else f"sys{i % 8}", condition=("clean", "noisy", "reverb", "codec")[i % 4],
             task=f"task{i % 5}", position=i) for i in range(n_items)])
    if multi:
        roles = [("reference", "", ""), ("hidden_reference", "", ""), ("anchor", "", "lp3500"),
                 ("anchor", "", "lp7000"), *[("system", f"sys{k}", "") for k in range(n_stimuli - 3)]]
        Stimulus.objects.bulk_create([
            Stimulus(item=item, position=k, role=role, system=system, condition=condition,
                     clip=clips[0 if role == "hidden_reference" else k])
            for item in items for k, (role, system, condition) in enumerate(roles)], batch_size=5000)
    services.campaign_set_status(campaign=campaign, status="open")
    users = User.objects.bulk_create([User(username=f"bench{i}", handle=f"bench-{i}", is_guest=True)
                                      for i in range(n_annotators)])
    Membership.objects.bulk_create([Membership(project=project, user=u, role=Role.PARTICIPANT) for u in users])
    now = timezone.now()
    Annotator.objects.bulk_create([Annotator(campaign=campaign, user=u, consent_at=now) for u in users])
    tokens = [Token.objects.create(user=u).key for u in users]
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # fresh planner statistics, as autovacuum keeps them live
    return f"/api/v1/projects/bench/campaigns/{template}/", tokens


def _gunicorn_settings() -> str:
    """The worker model deploy/gunicorn.conf.py gives on this host (for the printout)."""
    conf: dict = {}
    exec((ROOT / "deploy" / "gunicorn.conf.py").read_text(), conf)
    return f"{conf.get('worker_class', 'sync')} {conf['workers']} workers x {conf.get('threads', 1)} threads"


def start_gunicorn(db_url: str, port: int, log: Path) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": db_url, "GUNICORN_BIND": f"127.0.0.1:{port}",
           "DJANGO_LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT)}
    handle = log.open("w")
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("gunicorn")), "-c", "deploy/gunicorn.conf.py", "--preload",
         "--access-logfile", "/dev/null", "tests.benchmarks.annotation_bench:application"],
        cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT)
    deadline = time.time() + 240
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/v1/")
            conn.getresponse().read()
            return proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited; see {log}") from None
            time.sleep(0.5)
    proc.terminate()
    raise RuntimeError("gunicorn did not start in time")


def run_load(port: int, base: str, tokens: list[str], per_annotator: int, think_ms: float = 0.0) -> dict:
    """One asyncio task per annotator, each with its own keep-alive connection: next
    item, think (listen), submit.

    ``think_ms``: mean pause between receiving an item and submitting it (uniform on
    0.5x..1.5x, seeded per annotator, and never shorter than the clip: the server
    rejects ratings sent sooner than the clip's duration after serving), standing in for
    listening and deciding; 0 makes a closed loop where every annotator submits once the
    clip has played and asks for its next item at once. The client is one process speaking HTTP/1.1 on raw
    sockets: it shares the CPUs with the server, so it should cost as little as possible
    (50 http.client threads cost several times more per call). Returns latencies,
    errors and the accepted client tokens.
    """
    return asyncio.run(_load(port, base, tokens, per_annotator, think_ms))


async def _load(port: int, base: str, tokens: list[str], per_annotator: int, think_ms: float) -> dict:
    import random

    lat: dict[str, list[float]] = {"next": [], "submit": []}
    errors: list[str] = []
    accepted: list[str] = []
    reconnects: list[int] = []
    retries: list[int] = []
    start = asyncio.Event()

    async def annotator(i: int) -> None:
        token = tokens[i]
        conn = {"io": await asyncio.open_connection("127.0.0.1", port), "last": time.perf_counter()}
        head = (f"Host: 127.0.0.1:{port}\r\nAuthorization: Token {token}\r\n"
                "Content-Type: application/json\r\nContent-Length: ").encode()

        async def reconnect() -> None:
            conn["io"][1].close()
            conn["io"] = await asyncio.open_connection("127.0.0.1", port)
            reconnects.append(1)

        async def call(path: str, payload: dict) -> tuple[int, bytes, float]:
            """One request, timed from the first byte sent (including a reconnect when
            the idle connection has outlived the server's keep-alive, as a browser would
            open a new one); a request whose reused connection was closed under it is
            sent again once on a new connection — safe: next/ returns the current item
            and a repeated submission carries the same client token."""
            body = json.dumps(payload).encode()
            t0 = time.perf_counter()
            if t0 - conn["last"] > KEEPALIVE_S or conn["io"][0].at_eof():
                await reconnect()
            for attempt in (0, 1):
                reader, writer = conn["io"]
                writer.write(b"POST " + path.encode() + b" HTTP/1.1\r\n" + head + str(len(body)).encode()
                             + b"\r\n\r\n" + body)
                try:
                    status, data = await _read_response(reader)
                    break
                except (asyncio.IncompleteReadError, ConnectionError):
                    if attempt:
                        raise
                    retries.append(1)
                    await reconnect()
            conn["last"] = time.perf_counter()
            return status, data, (conn["last"] - t0) * 1000

        pause = random.Random(i)
        await start.wait()
        try:
            for n in range(per_annotator):
                status, data, ms = await call(base + "next/", {})
                lat["next"].append(ms)
                if status == 204:
                    break
                if status != 200:
                    errors.append(f"next {status} {data[:200]!r}")
                    break
                item = json.loads(data)
                wait_s = think_ms * pause.uniform(0.5, 1.5) / 1000
                client_token = f"bench-{i}-{n}"
                test = item.get("test")
                if test:  # a MUSHRA screen: a score per rated stimulus, every stimulus heard
                    shown = [*test["stimuli"], *(x for x in (test["reference"], test["x"]) if x)]
                    heard_s = sum(x["duration_s"] for x in shown)
                    await asyncio.sleep(max(wait_s, heard_s + 0.05))
                    payload = {"assignment": item["assignment"], "client_token": client_token,
                               "values": {"mushra": {x["id"]: str((17 * i + 29 * n + 7 * k) % 101)
                                                     for k, x in enumerate(test["stimuli"])}},
                               "played": {x["id"]: [[0.0, x["duration_s"]]] for x in shown}}
                else:
                    await asyncio.sleep(max(wait_s, item["duration_s"] or 0.0))
                    payload = {"assignment": item["assignment"], "values": {"mos": 1 + (i + n) % 5},
                               "client_token": client_token,
                               # the player's report of having heard the whole clip (listening evidence)
                               "played": [[0.0, item["duration_s"]]] if item["duration_s"] else None}
                status, data, ms = await call(base + "ratings/submit/", payload)
                lat["submit"].append(ms)
                # 200 = already stored under this token: only after a re-sent request
                if status not in (200, 201):
                    errors.append(f"submit {status} {data[:200]!r}")
                    continue
                accepted.append(client_token)
                if n == 0:  # a double click: same token again must store nothing new
                    status, data, ms = await call(base + "ratings/submit/", payload)
                    if status != 200 or json.loads(data)["created"]:
                        errors.append(f"duplicate submit answered {status}")
        except Exception as exc:  # counted as an error, never raised
            errors.append(repr(exc))
        finally:
            conn["io"][1].close()

    tasks = [asyncio.create_task(annotator(i)) for i in range(len(tokens))]
    await asyncio.sleep(0.2)  # every connection open before the first call
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    start.set()
    await asyncio.gather(*tasks)
    return {"lat": lat, "errors": errors, "accepted": accepted, "wall_s": time.perf_counter() - t0,
            "client_cpu_s": time.process_time() - cpu0, "reconnects": len(reconnects), "retries": len(retries)}


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """Status and body of one HTTP/1.1 response (Content-Length or chunked)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(b":") for line in lines[1:] if line)}
    if b"content-length" in headers:
        return status, await reader.readexactly(int(headers[b"content-length"]))
    if headers.get(b"transfer-encoding", b"").lower() == b"chunked":
        chunks = []
        while size := int((await reader.readuntil(b"\r\n")).strip().split(b";")[0], 16):
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
        await reader.readuntil(b"\r\n")
        return status, b"".join(chunks)
    return status, b""


def verify(accepted: list[str], slug: str = "mos", per_submit: int = 1) -> dict:
    """Every accepted submission stored exactly once (``per_submit`` rating rows each:
    one per rated stimulus for MUSHRA), no item over its overlap, counters = recount."""
    from collections import Counter

    from annotation.models import Assignment, Item, Rating

    rows = list(Rating.objects.filter(campaign__slug=slug).values_list("client_token", "stimulus_id"))
    stored = Counter(token for token, _ in rows)
    live = Counter(Assignment.objects.filter(campaign__slug=slug, status__in=["active", "submitted"])
                   .values_list("item_id", flat=True))
    bad_counters = 0
    for item in Item.objects.filter(campaign__slug=slug, n_done__gt=0):
        if item.n_done != item.assignments.filter(status="submitted").count():
            bad_counters += 1
    return {
        "ratings_stored": len(rows),
        "lost": len(set(accepted) - set(stored)) + sum(per_submit - stored[t] for t in set(accepted)
                                                      if 0 < stored[t] < per_submit),
        "unexpected": len(set(stored) - set(accepted)),
        "duplicates": len(rows) - len(set(rows)) + sum(max(0, c - per_submit) for c in stored.values()),
        "max_per_item": max(live.values()) if live else 0,
        "bad_counters": bad_counters,
    }


# ------------------------------------------------------------------------- part 2


def seed_ratings(n_ratings: int, raters_per_item: int = 20, n_raters: int = 2500, seed: int = 0) -> int:
    """A closed campaign with ``n_ratings`` MOS ratings written by COPY; returns its pk."""
    import numpy as np
    from django.db import connection
    from django.utils import timezone

    from accounts.models import Project, User
    from annotation import services
    from annotation.models import Annotator, Assignment, Item, Rating

    rng = np.random.default_rng(seed)
    project = Project.objects.filter(slug="bench").first() or Project.objects.create(slug="bench", name="Bench")
    campaign = services.campaign_create(project=project, name="1M", slug="million", template="mos",
                                        policy="overlap", policy_k=raters_per_item, policy_n=None)
    n_items = n_ratings // raters_per_item
    Item.objects.bulk_create([
        Item(campaign=campaign, external_id=f"m{i:06d}", response="x", system=f"sys{i % 10}",
             condition=("clean", "noisy", "reverb", "codec")[i % 4], task=f"task{i % 5}", position=i,
             n_done=raters_per_item, kind="gold" if i % 100 == 0 else "regular",
             expected={"mos": "4"} if i % 100 == 0 else {})
        for i in range(n_items)], batch_size=5000)
    users = User.objects.bulk_create([User(username=f"r{i}", handle=f"rater-{i}", is_guest=True)
                                      for i in range(n_raters)], batch_size=2000)
    annotators = Annotator.objects.bulk_create([Annotator(campaign=campaign, user=u) for u in users],
                                               batch_size=2000)
    item_ids = np.array(list(Item.objects.filter(campaign=campaign).order_by("position")
                             .values_list("pk", flat=True)))
    ann_ids = np.array([a.pk for a in annotators])
    item = np.repeat(np.arange(n_items), raters_per_item)
    slot = np.tile(np.arange(raters_per_item), n_items)
    start = rng.integers(0, n_raters, size=n_items)
    rater = (start[item] + slot) % n_raters
    quality = 2 + 0.25 * (np.arange(n_items) % 10) + rng.normal(0, 0.8, n_items)
    value = np.clip(np.rint(quality[item] + rng.normal(0, 0.7, item.size)), 1, 5).astype(int)
    now = timezone.now().isoformat()
    a_table, r_table = Assignment._meta.db_table, Rating._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT nextval(pg_get_serial_sequence('{a_table}', 'id'))")
        first = cursor.fetchone()[0]
        a_ids = first + np.arange(item.size)
        cursor.execute(f"SELECT setval(pg_get_serial_sequence('{a_table}', 'id'), %s)", [int(a_ids[-1])])
        buf = io.StringIO()
        for k in range(item.size):
            buf.write(f"{a_ids[k]}\t{campaign.pk}\t{item_ids[item[k]]}\t{ann_ids[rater[k]]}\ta{a_ids[k]}\t0\t"
                      f"{now}\t{now}\t{now}\tsubmitted\n")
        with cursor.cursor.copy(f"COPY {a_table} (id, campaign_id, item_id, annotator_id, public_id, repeat, "
                                "served_at, expires_at, submitted_at, status) FROM STDIN") as copy:
            copy.write(buf.getvalue())
        buf = io.StringIO()
        for k in range(item.size):
            buf.write(f"{campaign.pk}\t{a_ids[k]}\t{item_ids[item[k]]}\t{ann_ids[rater[k]]}\tmos\t{value[k]}\t\t"
                      f"t{a_ids[k]}\t{now}\t9000\n")
        with cursor.cursor.copy(f"COPY {r_table} (campaign_id, assignment_id, item_id, annotator_id, criterion, "
                                "value, comment, client_token, submitted_at, elapsed_ms) FROM STDIN") as copy:
            copy.write(buf.getvalue())
        cursor.execute(f"ANALYZE {r_table}")
    return campaign.pk


def time_report(campaign_pk: int, repeats: int) -> dict:
    from annotation import selectors
    from annotation.models import Campaign

    campaign = Campaign.objects.get(pk=campaign_pk)
    load, total = [], []
    report = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        frame = selectors.ratings_frame(campaign)
        t1 = time.perf_counter()
        report = selectors.report_for(campaign, frame)
        t2 = time.perf_counter()
        load.append(t1 - t0)
        total.append(t2 - t0)
    assert report is not None
    return {"n": int(report.counts["ratings_in"]), "load_s": statistics.median(load),
            "total_s": statistics.median(total), "agreement": report.agreement.iloc[0].to_dict()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="h_annot_bench")
    parser.add_argument("--annotators", type=int, default=50)
    parser.add_argument("--per-annotator", type=int, default=20)
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--template", choices=("mos", "mushra"), default="mos",
                        help="MOS items (one clip) or MUSHRA screens (an open reference + --stimuli rated)")
    parser.add_argument("--stimuli", type=int, default=6, help="rated stimuli per MUSHRA screen (>= 4)")
    parser.add_argument("--ratings", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--think-ms", type=float, nargs="+", default=[1000.0, 0.0],
                        help="mean think time per item; one load run per value (0 = closed loop)")
    parser.add_argument("--port", type=int, default=0, help="gunicorn's port (default: a free one)")
    parser.add_argument("--skip-service", action="store_true")
    parser.add_argument("--skip-report", action="store_true")
    parser.add_argument("--report-only", action="store_true",
                        help="reuse the database of an earlier run; time the 1M report only")
    args = parser.parse_args()

    if args.report_only:
        _setup_django(f"postgres://root@127.0.0.1:5432/{args.db}")
        from annotation.models import Campaign

        rep = time_report(Campaign.objects.get(slug="million").pk, args.repeats)
        print(f"report over {rep['n']} ratings: load {rep['load_s']:.2f} s, load+report "
              f"{rep['total_s']:.2f} s (median of {args.repeats})")
        return
    db_url = _recreate_db(args.db)
    _setup_django(db_url)
    print(f"database {args.db}; {os.cpu_count()} CPUs; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; gunicorn {_gunicorn_settings()}")
    if not args.skip_service:
        if args.template == "mushra" and args.stimuli < 4:
            parser.error("--stimuli: a MUSHRA screen here has a hidden reference, two anchors and a system")
        base, tokens = seed_service(args.items, args.annotators, args.template, args.stimuli)
        slug, per_submit = args.template, (args.stimuli if args.template == "mushra" else 1)
        port = args.port or _free_port()
        log = Path("/tmp") / f"annotation_bench_gunicorn_{port}.log"
        proc = start_gunicorn(db_url, port, log)
        try:
            # warm every worker's DB connection with a few untimed calls
            run_load(port, base, tokens, 1)
            from annotation.models import Assignment, Item, Rating

            results = []
            for think in args.think_ms:
                Rating.objects.filter(campaign__slug=slug).delete()
                Assignment.objects.filter(campaign__slug=slug).delete()
                Item.objects.filter(campaign__slug=slug).update(n_active=0, n_done=0)
                web, db = _server_pids(proc, args.db)
                web_cpu, db_cpu = _cpu_s(web), _cpu_s(db)
                result = run_load(port, base, tokens, args.per_annotator, think)
                result["web_cpu_s"], result["db_cpu_s"] = _cpu_delta(web_cpu, web), _cpu_delta(db_cpu, db)
                # persistent connections: the same backends before and after the run
                result["backends"] = (len(db), len(set(db) & set(_server_pids(proc, args.db)[1])))
                result["load"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
                results.append((think, result, verify(result["accepted"], slug, per_submit)))
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=45)
            except subprocess.TimeoutExpired:
                proc.kill()
        for think, result, check in results:
            n_calls = sum(len(v) for v in result["lat"].values()) + args.annotators  # + the repeats
            what = "MOS" if args.template == "mos" else f"MUSHRA ({args.stimuli} rated stimuli + reference)"
            print(f"--- {what}: {args.annotators} concurrent annotators x {args.per_annotator} items, "
                  f"think time {think:.0f} ms: {n_calls} calls in {result['wall_s']:.1f} s "
                  f"({n_calls / result['wall_s']:.0f} calls/s); load average at the end {result['load']}")
            print("CPU per call: " + ", ".join(
                f"{name} {1000 * result[key] / n_calls:.2f} ms" for name, key in
                (("gunicorn", "web_cpu_s"), ("PostgreSQL", "db_cpu_s"), ("client", "client_cpu_s")))
                + "; database connections: {} before, {} of them still open after".format(*result["backends"]))
            for name in ("next", "submit"):
                values = result["lat"][name]
                print(f"{name:>6}: n={len(values)} p50={_pct(values, 50):.1f} ms p95={_pct(values, 95):.1f} ms "
                      f"p99={_pct(values, 99):.1f} ms max={max(values):.1f} ms")
            print(f"errors: {len(result['errors'])} {result['errors'][:3]}; new connections after "
                  f"keep-alive expiry {result['reconnects']}, requests re-sent on a closed connection "
                  f"{result['retries']}")
            print("db check:", check)
    if args.skip_report:
        return
    t0 = time.perf_counter()
    pk = seed_ratings(args.ratings)
    print(f"seeded {args.ratings} ratings in {time.perf_counter() - t0:.1f} s")
    rep = time_report(pk, args.repeats)
    print(f"report over {rep['n']} ratings: load {rep['load_s']:.2f} s, load+report {rep['total_s']:.2f} s "
          f"(median of {args.repeats})")
    print("agreement row:", {k: rep["agreement"][k] for k in ("criterion", "statistic", "value", "label")})


if __name__ == "__main__":
    main()
