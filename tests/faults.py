"""Helpers for fault tests: a private redis-server, a Celery worker in a subprocess.

Everything started here is a child process of the test, stopped by its PID; the
shared Redis and PostgreSQL are never touched. Tests skip with a reason when
``redis-server`` is not installed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(predicate, *, timeout: float, interval: float = 0.05, what: str = "condition"):
    """Poll ``predicate`` until it returns a true value (returned) or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


class PrivateRedis:
    """``redis-server`` on a free loopback port, without persistence; start/stop at will."""

    def __init__(self, port: int | None = None) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
        self.binary = binary
        self.port = port or free_port()
        self.dir = tempfile.mkdtemp(prefix="earshot-redis-")
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> PrivateRedis:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.dir],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        import redis

        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)

        def up() -> bool:
            try:
                return bool(client.ping())
            except redis.exceptions.ConnectionError:
                return False

        wait_for(up, timeout=10, what=f"redis-server on :{self.port}")
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


def database_url() -> str:
    """The URL of the database the test runs on (the test database), for subprocesses."""
    from django.db import connection

    s = connection.settings_dict
    if connection.vendor != "postgresql":
        raise RuntimeError("subprocess workers need PostgreSQL (the test database is SQLite)")
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


class WorkerProcess:
    """``celery -A config worker`` (prefork) in a subprocess on ``broker_url``."""

    def __init__(self, broker_url: str, *, concurrency: int = 1, env: dict[str, str] | None = None) -> None:
        self.broker_url = broker_url
        self.concurrency = concurrency
        self.extra_env = env or {}
        self.proc: subprocess.Popen | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="earshot-worker-", suffix=".log", delete=False)  # noqa: SIM115

    def start(self) -> WorkerProcess:
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": self.broker_url,
            "CELERY_RESULT_BACKEND": self.broker_url,
            "DJANGO_DEBUG": "1",
            "DJANGO_SECRET_KEY": "fault-tests-" + "k" * 50,
            "PYTHONUNBUFFERED": "1",
            **self.extra_env,
        }
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "prefork",
             "--concurrency", str(self.concurrency), "--loglevel", "INFO", "--without-gossip",
             "--without-mingle", "--hostname", f"faults-{os.getpid()}-{time.monotonic_ns()}@%h"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        return self

    def children(self) -> list[int]:
        """PIDs of the worker's pool processes."""
        if self.proc is None:
            return []
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.proc.pid)], capture_output=True, text=True)
        return [int(p) for p in out.stdout.split()]

    def kill_all(self) -> None:
        """SIGKILL the main process and its pool processes (a machine-level crash)."""
        if self.proc is None:
            return
        for pid in [*self.children(), self.proc.pid]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.proc = None

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")[-4000:]

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill_all()
        self.proc = None
        self.log.close()
        Path(self.log.name).unlink(missing_ok=True)


class PrivatePostgres:
    """A throw-away PostgreSQL cluster (``initdb`` in a temporary folder) on a free port.

    Run as the ``postgres`` system user when this process is root (PostgreSQL refuses
    to run as root); trust authentication for the superuser ``root`` on 127.0.0.1.
    """

    def __init__(self, port: int | None = None) -> None:
        import glob

        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name))
        if not bins:
            pytest.skip("PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin")
        self.bin = Path(bins[-1])
        self.port = port or free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="earshot-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        # no pipes: the server that pg_ctl starts would inherit them and hold them open
        with tempfile.TemporaryFile("w+") as out:
            res = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                 text=True, timeout=120)
            out.seek(0)
            res.stdout = out.read()
        if check and res.returncode:
            raise RuntimeError(f"{' '.join(args)} failed ({res.returncode}): {res.stdout[-2000:]}")
        return res

    def url(self, db: str = "postgres") -> str:
        return f"postgres://root@127.0.0.1:{self.port}/{db}"

    def init(self) -> PrivatePostgres:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "root", "-E", "UTF8", "--no-sync")
        return self

    def start(self) -> PrivatePostgres:
        opts = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off -c max_connections=200"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", opts, "-w", "start")
        return self

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    def restart(self) -> float:
        """Fast restart (every connection is cut); returns the seconds it took."""
        t0 = time.perf_counter()
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "restart")
        return time.perf_counter() - t0

    def createdb(self, name: str) -> str:
        subprocess.run(["psql", self.url(), "-qc", f'CREATE DATABASE "{name}"'], check=True, capture_output=True)
        return self.url(name)

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
