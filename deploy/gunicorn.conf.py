"""gunicorn settings for Earshot: `gunicorn -c deploy/gunicorn.conf.py config.wsgi`.

Worker model: gthread, ``CPUs + 1`` processes x 2 threads by default (3 x 2 on a
2-core host). Earshot's requests are short and CPU-bound on the Python side with brief
waits on PostgreSQL (row locks, commits); threads cover those waits, and a few
processes use every core without the extra database connections, memory and context
switches of the old ``2 x CPUs + 1`` x 2; more threads per process only queue on
the GIL (next-item p95 on a quiet 2-core host: 3 x 4 108-140 ms, 3 x 2 66 ms, 4 x 2
55-77 ms, 2 x 4 75 ms; docs/benchmarks.md, "Annotation campaign service").
Keep-alive connections (annotators' browsers and API clients)
wait in each worker's poller, not in a thread. ``GUNICORN_WORKERS`` /
``GUNICORN_THREADS`` override both.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() + 1))
threads = int(os.environ.get("GUNICORN_THREADS", 2))
worker_class = "gthread"
timeout = 60
graceful_timeout = 30
keepalive = 5
# recycle workers now and then (a guard against slow leaks), not every minute: at ~100
# requests/s a restart drops the worker's keep-alive connections and its database
# connections with their prepared statements
max_requests = 20000
max_requests_jitter = 2000
accesslog = "-"
errorlog = "-"

# No "Server: gunicorn" header (M-13): name no server software or version. nginx in
# front also drops the upstream's Server header and, with "server_tokens off", its own version.
import gunicorn.http.wsgi  # noqa: E402

gunicorn.http.wsgi.SERVER = "earshot"
