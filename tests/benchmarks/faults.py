"""Fault benchmark: the stack heals after PostgreSQL restarts and Celery worker kills.

Run on demand (not collected by pytest); everything runs on private servers started
here and stopped by PID (the shared PostgreSQL and Redis are never touched)::

    .venv/bin/python tests/benchmarks/faults.py [--annotators 50] [--per-annotator 100] [--skip-worker]

Part 1 (M-10, issue 14's "database restart"): a private PostgreSQL cluster (``initdb``
in a temporary folder, run as the ``postgres`` user when root) on a free port, migrated
and seeded with annotation_bench's MOS campaign, behind gunicorn
(``deploy/gunicorn.conf.py``). First an idle restart: every gunicorn thread holds a
persistent connection, the cluster is restarted, then as many concurrent requests as
threads are sent: the 500s are counted (the audit saw one per thread). Then a burst:
simulated annotators rate as fast as they can while the cluster is restarted twice;
a client whose call fails (connection error or 5xx) sends it again with the same
client token (at most 30 tries, 0.2 s apart). Afterwards the database is checked:
ratings lost (answered 201/200 to the client but not stored), duplicated, unexpected.

Part 2 (M-9, "worker killed"), with the production intervals (heartbeat 15 s, stale
after 60 s, maintenance every 60 s): a private redis-server, ``celery -A config
worker`` in a subprocess; a slow fit (``vi``) is started, the worker's main and pool
processes are SIGKILLed mid-fit and a new worker is started; the time until the fit is
re-queued (marked) and until it succeeds is printed (target: marked within 2 minutes).

Prints a Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks import annotation_bench as ab  # noqa: E402
from tests.faults import PrivatePostgres, PrivateRedis, WorkerProcess, free_port  # noqa: E402

MAX_TRIES = 30
RETRY_S = 0.2



async def _burst(port: int, base: str, tokens: list[str], per_annotator: int, restart_at: list[float],
                 pg: PrivatePostgres) -> dict:
    """Annotators rate while the cluster restarts at the given seconds; retries by token."""
    stats = {"calls": 0, "http_5xx": 0, "conn_errors": 0, "retried_calls": 0, "max_tries": 1,
             "created_false": 0, "errors": []}
    accepted: list[str] = []
    restarts: list[float] = []
    start = asyncio.Event()

    async def annotator(i: int) -> None:
        token = tokens[i]
        conn: list = [None, None]

        async def connect() -> None:
            if conn[1] is not None:
                conn[1].close()
            conn[0], conn[1] = await asyncio.open_connection("127.0.0.1", port)

        head = (f"Host: 127.0.0.1:{port}\r\nAuthorization: Token {token}\r\n"
                "Content-Type: application/json\r\nContent-Length: ").encode()

        async def call(path: str, payload: dict) -> tuple[int, bytes]:
            body = json.dumps(payload).encode()
            for attempt in range(1, MAX_TRIES + 1):
                stats["calls"] += 1
                try:
                    if conn[1] is None:
                        await connect()
                    conn[1].write(b"POST " + path.encode() + b" HTTP/1.1\r\n" + head + str(len(body)).encode()
                                  + b"\r\n\r\n" + body)
                    status, data = await asyncio.wait_for(ab._read_response(conn[0]), 30)
                except (TimeoutError, OSError, asyncio.IncompleteReadError):
                    stats["conn_errors"] += 1
                    conn[1] = None
                    await asyncio.sleep(RETRY_S)
                    continue
                if status >= 500:
                    stats["http_5xx"] += 1
                    await asyncio.sleep(RETRY_S)
                    continue
                if attempt > 1:
                    stats["retried_calls"] += 1
                    stats["max_tries"] = max(stats["max_tries"], attempt)
                return status, data
            return 599, b"gave up"

        await start.wait()
        try:
            for n in range(per_annotator):
                status, data = await call(base + "next/", {})
                if status == 204:
                    break
                if status != 200:
                    stats["errors"].append(f"next {status} {data[:200]!r}")
                    break
                item = json.loads(data)
                await asyncio.sleep(item["duration_s"] or 0.0)
                client_token = f"fault-{i}-{n}"
                payload = {"assignment": item["assignment"], "values": {"mos": 1 + (i + n) % 5},
                           "client_token": client_token}
                status, data = await call(base + "ratings/submit/", payload)
                if status in (200, 201):
                    accepted.append(client_token)
                    if status == 200 and not json.loads(data).get("created", True):
                        stats["created_false"] += 1
                else:
                    stats["errors"].append(f"submit {status} {data[:200]!r}")
        finally:
            if conn[1] is not None:
                conn[1].close()

    async def restarter() -> None:
        t0 = time.perf_counter()
        for at in restart_at:
            await asyncio.sleep(max(0.0, at - (time.perf_counter() - t0)))
            restarts.append(await asyncio.to_thread(pg.restart))

    tasks = [asyncio.create_task(annotator(i)) for i in range(len(tokens))]
    await asyncio.sleep(0.2)
    t0 = time.perf_counter()
    start.set()
    side = asyncio.create_task(restarter())
    await asyncio.gather(*tasks)
    await side
    return {**stats, "accepted": accepted, "restarts_s": restarts, "wall_s": time.perf_counter() - t0}


def _idle_restart(port: int, pg: PrivatePostgres, n_threads: int, token: str) -> dict:
    """Warm every gunicorn thread's connection, restart, then one request per thread (x3)."""
    import concurrent.futures
    import http.client

    def get() -> int:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/api/v1/projects/bench/",  # token, membership, project
                     headers={"Authorization": f"Token {token}"})
        status = conn.getresponse().status
        conn.close()
        return status

    with concurrent.futures.ThreadPoolExecutor(n_threads * 2) as pool:
        warm = list(pool.map(lambda _: get(), range(n_threads * 6)))
        took = pg.restart()
        after = list(pool.map(lambda _: get(), range(n_threads * 3)))
    return {"warm_5xx": sum(s >= 500 for s in warm), "restart_s": took,
            "after_5xx": sum(s >= 500 for s in after), "after_requests": len(after),
            "warm_statuses": sorted(set(warm)), "after_statuses": sorted(set(after))}


def part_database(annotators: int, per_annotator: int) -> dict:
    pg = PrivatePostgres().init().start()
    gunicorn = None
    try:
        url = pg.createdb("faults")
        env = {**os.environ, "DATABASE_URL": url}
        subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
        ab._setup_django(url)
        base, tokens = ab.seed_service(n_items=max(2000, annotators * per_annotator // 3 + 10), n_annotators=annotators)
        port = free_port()
        log = Path(tempfile.mkdtemp(prefix="earshot-faults-")) / "gunicorn.log"
        gunicorn = ab.start_gunicorn(url, port, log)
        conf: dict = {}
        exec((ROOT / "deploy" / "gunicorn.conf.py").read_text(), conf)
        n_threads = conf["workers"] * conf["threads"]
        idle = _idle_restart(port, pg, n_threads, tokens[0])
        load0 = os.getloadavg()[0]
        burst = asyncio.run(_burst(port, base, tokens, per_annotator, [3.0, 9.0], pg))
        load1 = os.getloadavg()[0]
        from django.db import connection

        connection.close()  # the restarts cut this process's connection too
        check = ab.verify(burst["accepted"])
        return {"idle": idle, "burst": {k: v for k, v in burst.items() if k != "accepted"},
                "n_accepted": len(burst["accepted"]), "check": check, "threads": n_threads,
                "load": (load0, load1)}
    finally:
        if gunicorn is not None:
            gunicorn.terminate()
            gunicorn.wait(timeout=30)
        pg.close()


def part_worker() -> dict:
    """Kill a worker (main + pool) mid-fit with the production intervals."""
    from django.db import connection

    from irt.models import Fit
    from irt.services import irt_fit_create
    from tests.celery_worker import celery_app_on

    redis = PrivateRedis().start()
    pg = PrivatePostgres().init().start()
    first = second = None
    try:
        url = pg.createdb("faults_worker")
        env = {**os.environ, "DATABASE_URL": url}
        subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
        connection.close()
        connection.settings_dict.update({"NAME": "faults_worker", "PORT": pg.port, "HOST": "127.0.0.1", "USER": "root"})
        project = _seed_irt()
        prod = {"EARSHOT_IRT_HEARTBEAT_S": "15", "EARSHOT_IRT_STALE_AFTER_S": "60",
                "EARSHOT_IRT_MAINTENANCE_INTERVAL_S": "60"}
        first = WorkerProcess(redis.url, env=prod).start()
        with celery_app_on(redis.url):
            fit = irt_fit_create(project=project, options={"mode": "free", "method": "vi"})
        deadline = time.monotonic() + 300
        while not Fit.objects.filter(pk=fit.pk, progress_message__startswith="fitting: step").exists():
            if time.monotonic() > deadline:
                raise RuntimeError("the fit never started: " + first.output())
            time.sleep(0.2)
        time.sleep(5)  # well into the fit
        first.kill_all()
        t_kill = time.perf_counter()
        second = WorkerProcess(redis.url, env=prod).start()
        marked = done = None
        while time.perf_counter() - t_kill < 900:
            f = Fit.objects.get(pk=fit.pk)
            if marked is None and f.attempts == 1 and f.status == "queued":
                marked = time.perf_counter() - t_kill
            if f.attempts == 2 and marked is None:
                marked = time.perf_counter() - t_kill
            if f.is_done:
                done = time.perf_counter() - t_kill
                break
            time.sleep(0.5)
        f = Fit.objects.get(pk=fit.pk)
        return {"marked_s": marked, "done_s": done, "status": f.status, "attempts": f.attempts,
                "abilities": f.abilities.count()}
    finally:
        for w in (first, second):
            if w is not None:
                w.close()
        connection.close()
        pg.close()
        redis.close()


def _seed_irt():
    """Four responders x three questions (the IRT tests' fixture, by hand)."""
    from django.utils import timezone

    from accounts.services import project_create, user_create
    from quiz.models import Category, Question, Response
    from quiz.services import responder_for_model, responder_for_user

    project = project_create(slug="faults", name="faults", is_public=False)
    category = Category.objects.filter(project=project).first()
    qs = [Question.objects.create(project=project, external_id=f"q{k}", prompt="p", answerline="a",
                                  category=category) for k in range(3)]
    who = [responder_for_user(project=project, user=user_create(username=f"h{k}", handle=f"h{k}")) for k in range(2)]
    who += [responder_for_model(project=project, system_name=f"m{k}", condition="audio") for k in range(2)]
    for r, responder in enumerate(who):
        for q, question in enumerate(qs):
            Response.objects.create(project=project, question=question, responder=responder, mode="free",
                                    answer_text="x", client_token=f"t{r}-{q}", correct=(r + q) % 2 == 0,
                                    score=1.0, rule="x", rule_version="v", judged_at=timezone.now())
    return project


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--annotators", type=int, default=50)
    parser.add_argument("--per-annotator", type=int, default=100)
    parser.add_argument("--skip-worker", action="store_true")
    args = parser.parse_args()
    db = part_database(args.annotators, args.per_annotator)
    print(json.dumps(db, indent=1, default=str))
    b, c, idle = db["burst"], db["check"], db["idle"]
    print("\n| test | figure |\n|---|---|")
    print(f"| idle restart ({idle['restart_s']:.2f} s), then {idle['after_requests']} requests over "
          f"{db['threads']} gunicorn threads | {idle['after_5xx']} x 500 |")
    print(f"| burst: {db['n_accepted']} ratings by {args.annotators} annotators, 2 restarts "
          f"({', '.join(f'{s:.2f}' for s in b['restarts_s'])} s), load {db['load'][0]:.1f}->{db['load'][1]:.1f} | "
          f"lost {c['lost']}, duplicated {c['duplicates']}, unexpected {c['unexpected']}; "
          f"{b['http_5xx']} x 5xx and {b['conn_errors']} connection errors seen by clients, "
          f"{b['retried_calls']} calls retried (at most {b['max_tries']} tries), "
          f"{b['created_false']} answered created:false; bad counters {c['bad_counters']}; "
          f"errors {len(b['errors'])}; {b['wall_s']:.1f} s |")
    if not args.skip_worker:
        w = part_worker()
        print(json.dumps(w))
        print(f"| worker (main + pool) SIGKILLed mid-fit, production intervals | re-queued after "
              f"{w['marked_s']:.0f} s, {w['status']} after {w['done_s']:.0f} s, {w['attempts']} attempts |")


if __name__ == "__main__":
    main()
