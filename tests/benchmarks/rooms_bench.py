"""Live rooms under load: buzz-to-lockout broadcast latency, and no lost or double buzz.

Daphne serves config.asgi with the Redis channel layer and PostgreSQL (the deploy/
setup); ROOMS rooms of PLAYERS players each connect as websocket clients (the
``websockets`` library). Per question every player of a room buzzes at once; the
latency of a buzz is from the first buzz sent in that room to each player receiving
the room's "buzz" event. Checks per question: exactly one winner, every player got
one buzz event (the same winner), the others were told they were late, and the
database holds exactly one RoomBuzz.

    DATABASE_URL=postgres://root@127.0.0.1:5432/h_rooms \\
    EARSHOT_CHANNEL_REDIS_URL=redis://127.0.0.1:6379/10 \\
    python -m tests.benchmarks.rooms_bench --rooms 20 --players 8 --questions 5 --port 8190
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.benchmarks import _env


def _setup(rooms: int, players: int, questions: int) -> tuple[list[dict], str]:
    """A fresh project with ``questions`` one-clip questions; rooms with seated players and their cookies."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from accounts.services import project_create, user_create
    from quiz import synth
    from quiz.services import bank_import, responder_for_user
    from rooms import services

    call_command("migrate", verbosity=0)
    tag = secrets.token_hex(3)
    project = project_create(slug=f"rb-{tag}", name=f"Rooms bench {tag}", is_public=True)
    folder = Path(tempfile.mkdtemp(prefix="rooms-bench-"))
    rows = []
    for i in range(questions):
        (folder / f"c{i}.wav").write_bytes(synth.wav_bytes(synth.tone(300 + 40 * i, 1.0)))
        rows.append({"id": f"rb{i}", "prompt": f"Question {i}", "answerline": f"answer{i}",
                     "category": "Cultural Geography in Sound", "audio": f"c{i}.wav"})
    (folder / "bank.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    bank_import(project=project, path=folder / "bank.jsonl")
    plan = []
    for r in range(rooms):
        cookies, seats = [], []
        for p in range(players):
            user = user_create(username=f"rb-{tag}-{r}-{p}", password=secrets.token_urlsafe(12))
            responder = responder_for_user(project=project, user=user)
            if p == 0:
                room = services.room_create(project=project, host=responder, size=questions)
            else:
                services.room_join(room=room, responder=responder)
            client = Client()
            client.force_login(user)
            cookies.append(f"sessionid={client.cookies['sessionid'].value}")
        plan.append({"code": room.code, "room_id": room.pk, "cookies": cookies, "seats": seats})
    return plan, project.slug


class Player:
    def __init__(self, socket):
        self.socket = socket
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.socket:
            message = json.loads(raw)
            message["_at"] = time.perf_counter()
            await self.inbox.put(message)

    async def until(self, test, timeout: float = 60.0) -> dict:
        async def wait():
            while True:
                message = await self.inbox.get()
                if test(message):
                    return message
        return await asyncio.wait_for(wait(), timeout)

    async def send(self, message: dict) -> None:
        await self.socket.send(json.dumps(message))


async def _room(port: int, spec: dict, questions: int, latencies: list[float], problems: list[str]) -> None:
    import websockets

    url = f"ws://127.0.0.1:{port}/ws/rooms/{spec['code']}/"
    players = []
    for cookie in spec["cookies"]:
        socket = await websockets.connect(url, origin=f"http://127.0.0.1:{port}",
                                          additional_headers={"Cookie": cookie}, open_timeout=60)
        players.append(Player(socket))
    ids = [(await p.until(lambda m: m["type"] == "hello"))["you"] for p in players]
    await players[0].send({"type": "start"})
    for index in range(questions):
        opened = [await p.until(lambda m, i=index: (m["type"] == "state" and m["question"] is not None
                                                   and m["question"]["question"] == i
                                                   and m["question"]["phase"] == "open"))
                  for p in players]
        first_clue_ms = opened[0]["question"]["starts_at"][0]
        await asyncio.sleep(max(0.0, first_clue_ms / 1000 - time.time()))
        sent = time.perf_counter()
        await asyncio.gather(*(p.send({"type": "buzz", "question": index}) for p in players))
        buzzes = await asyncio.gather(*(p.until(lambda m, i=index: m["type"] == "buzz" and m["question"] == i)
                                        for p in players))
        winners = {b["player"] for b in buzzes}
        if len(winners) != 1:
            problems.append(f"room {spec['code']} q{index}: winners {winners}")
        latencies.extend(b["_at"] - sent for b in buzzes)
        winner = players[ids.index(buzzes[0]["player"])]
        # the room draws its own order: the prompt "Question k" names the bank row, answer "answerk"
        bank_row = opened[0]["question"]["prompt"].split()[-1]
        await winner.send({"type": "answer", "question": index, "text": f"answer{bank_row}"})
        await players[0].until(lambda m, i=index: m["type"] == "end" and m["question"] == i)
        if index + 1 < questions:
            await players[0].send({"type": "next", "question": index})
    # everyone else was told their buzz was late; nothing else about buzzes arrived
    await asyncio.sleep(0.5)
    for p in players:
        extra = []
        while not p.inbox.empty():
            m = p.inbox.get_nowait()
            if m["type"] == "buzz":
                extra.append(m)
        if extra:
            problems.append(f"room {spec['code']}: {len(extra)} extra buzz events")
        await p.socket.close()
        p.reader.cancel()


def _check_database(plan: list[dict], questions: int) -> list[str]:
    from django.db.models import Count

    from rooms.models import RoomQuestion

    problems = []
    for spec in plan:
        counts = list(RoomQuestion.objects.filter(room_id=spec["room_id"]).annotate(n=Count("buzzes"))
                      .order_by("index").values_list("index", "n"))
        if len(counts) != questions or any(n != 1 for _, n in counts):
            problems.append(f"room {spec['code']}: RoomBuzz per question {counts}")
    return problems


def _wait_for_port(server: subprocess.Popen, port: int, limit_s: float = 90.0) -> None:
    """Wait until the server accepts connections (start-up takes seconds on a loaded machine)."""
    import socket

    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"the server exited with {server.returncode}: see its log")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.25)
    sys.exit(f"the server did not listen on port {port} within {limit_s:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--questions", type=int, default=5)
    parser.add_argument("--port", type=int, default=8190)
    args = parser.parse_args()
    _env.configure()
    # the latency is what is measured: a loaded machine must not end a question before the buzzes land
    os.environ.setdefault("EARSHOT_ROOM_FINAL_WINDOW_S", "60")
    if not os.environ.get("EARSHOT_CHANNEL_REDIS_URL"):
        sys.exit("Set EARSHOT_CHANNEL_REDIS_URL (the Redis channel layer, as deployed).")
    plan, _slug = _setup(args.rooms, args.players, args.questions)
    log_fd, log_path = tempfile.mkstemp(prefix="rooms-bench-daphne-", suffix=".log")
    server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(args.port),
                               "config.asgi:application"], env=dict(os.environ),
                              stdout=subprocess.DEVNULL, stderr=log_fd)
    print(f"server log: {log_path}")
    try:
        _wait_for_port(server, args.port)
        latencies: list[float] = []
        problems: list[str] = []
        load_before = os.getloadavg()

        async def run_all():
            await asyncio.gather(*(_room(args.port, spec, args.questions, latencies, problems) for spec in plan))

        began = time.perf_counter()
        asyncio.run(run_all())
        took = time.perf_counter() - began
        problems += _check_database(plan, args.questions)
        ms = sorted(x * 1000 for x in latencies)
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        print(f"rooms={args.rooms} players={args.players} questions={args.questions} "
              f"buzz events={len(ms)} (expected {args.rooms * args.players * args.questions})")
        print(f"buzz-to-lockout broadcast: p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, "
              f"max {ms[-1]:.1f} ms; run {took:.1f} s")
        print(f"load average before {load_before}, after {os.getloadavg()}")
        print("problems:", problems or "none (one winner per question, every player got its buzz, "
                                       "one RoomBuzz per question)")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
