"""Table operations benchmark: rounds of 6 bets from 3 seats through the pit's services, then the
live round through the pit API served by gunicorn.

    python bench/bench_tables.py [--rounds 1000] [--api-seconds 20] [--clients 8]
                                 [--client auto|wrk|python]

1. live  -- a round as four commands (open with its 6 bets, no more bets, outcome, settle), each
            its own transaction with every live projection (table session, round and bets,
            slips, gaming day, and whatever other app projects the same events);
2. whole -- the same round as one command (``round_record``), as an electronic table sends it.
   Both print rounds per second and the p50/p99 latency of one command.
3. api   -- the live round through the pit API (``/api/v1/pit/...``, token auth, an
            Idempotency-Key on every command) served by gunicorn with two workers on 127.0.0.1,
            for ``--api-seconds``, driven by wrk when it is installed (``bench/live_round.lua``,
            one connection and one table per thread) or else by a threaded Python client
            (``http.client``, one table per thread; ``--client python`` forces it): requests per
            second and p50/p99. The load generator shares the machine's cores with gunicorn
            and PostgreSQL: the Python client takes about 0.5 ms of CPU per request, wrk far
            less.

Runs on a fresh throwaway database on ``DATABASE_URL``'s server when it is set, else on the
embedded server (``_setup.bench_database``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import quote

from _setup import ROOT, bench_database

CASINO = "bench"


def bets(rng: random.Random) -> list[dict[str, Any]]:
    """6 bets from 3 seats."""
    n = rng.randrange(1, 34)
    return [
        {"seat": 1, "player": "P-b001", "type": "straight", "numbers": [rng.randrange(37)],
         "amount": "5"},
        {"seat": 1, "player": "P-b001", "type": "red", "amount": "20"},
        {"seat": 2, "player": "P-b002", "type": "split", "numbers": [n, n + 3], "amount": "10"},
        {"seat": 2, "player": "P-b002", "type": "dozen", "dozen": rng.randint(1, 3), "amount": "15"},
        {"seat": 3, "player": "P-b003", "type": "column", "column": rng.randint(1, 3), "amount": "10"},
        {"seat": 3, "player": "P-b003", "type": "even", "amount": "25"},
    ]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def setup(tables: int) -> None:
    from casino.context import system_metadata
    from casino.services.casinos import casino_register
    from casino.services.chips import chip_set_register
    from games.limits import default_limits
    from games.services import table_configure

    meta = system_metadata(CASINO, job="bench")
    casino_register(code=CASINO, name="Bench", currency="EUR", time_zone="Europe/Lisbon",
                    gaming_day_closes_at=6, metadata=meta)
    chip_set_register(casino=CASINO, code="main", name="Chips",
                      denominations=["1000", "100", "25", "5", "1"], metadata=meta)
    for i in range(tables):
        table_configure(casino=CASINO, code=f"r{i}", name=f"Roulette {i}", game="french_roulette",
                        seats=8, chip_set="main", limits=default_limits("french_roulette",
                                                                        Decimal(5)),
                        metadata=meta)


def services_bench(rounds: int) -> None:
    from casino.context import person_metadata
    from games.services import (
        outcome_record,
        round_close_betting,
        round_open,
        round_record,
        round_settle,
        table_session_open,
    )

    def meta() -> Any:
        return person_metadata(username="ana", role="pit_boss", casino=CASINO,
                               idempotency_key=uuid.uuid4().hex)

    rng = random.Random(1)
    live_session = table_session_open(casino=CASINO, table="r0", opening={"100.00": 100},
                                      metadata=meta()).session_id
    whole_session = table_session_open(casino=CASINO, table="r1", opening={"100.00": 100},
                                       metadata=meta()).session_id
    warm = max(20, rounds // 20)
    for label, session in (("live", live_session), ("whole", whole_session)):
        latencies: list[float] = []
        started = 0.0
        for i in range(warm + rounds):
            if i == warm:
                latencies.clear()
                started = time.perf_counter()
            placed = bets(rng)
            outcome = {"number": rng.randrange(37)}
            if label == "live":
                t0 = time.perf_counter()
                rid = round_open(session_id=session, bets=placed, metadata=meta()).round_id
                t1 = time.perf_counter()
                round_close_betting(round_id=rid, metadata=meta())
                t2 = time.perf_counter()
                outcome_record(round_id=rid, outcome=outcome, metadata=meta())
                t3 = time.perf_counter()
                round_settle(round_id=rid, metadata=meta())
                t4 = time.perf_counter()
                latencies += [t1 - t0, t2 - t1, t3 - t2, t4 - t3]
            else:
                t0 = time.perf_counter()
                round_record(session_id=session, bets=placed, outcome=outcome, metadata=meta())
                latencies.append(time.perf_counter() - t0)
        elapsed = time.perf_counter() - started
        print(f"{label:<6} {rounds / elapsed:>8.0f} rounds/s   {len(latencies)} commands   "
              f"p50 {pct(latencies, 0.50):6.2f} ms   p99 {pct(latencies, 0.99):6.2f} ms   "
              f"mean {statistics.mean(latencies) * 1000:6.2f} ms")


# --- the API under gunicorn ---------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _database_url() -> str:
    from django.db import connection

    settings = connection.settings_dict
    name = settings["NAME"]
    if os.environ.get("DATABASE_URL"):
        host, port = settings.get("HOST") or "", settings.get("PORT") or ""
        user, password = settings.get("USER") or "", settings.get("PASSWORD") or ""
        auth = f"{quote(user, safe='')}:{quote(password, safe='')}@" if password else f"{user}@"
        return f"postgres://{auth}{quote(str(host), safe='')}:{port}/{name}"
    from config.embedded_pg.server import socket_address

    host, port = socket_address(name)
    return f"postgres://postgres@{quote(host, safe='')}:{port}/{name}"


def api_bench(clients: int, seconds: float, client: str = "auto") -> None:
    from django.contrib.auth import get_user_model

    from access.models import ApiToken
    from casino.models import Membership, Role

    user = get_user_model().objects.create_user("bench-fiscal", password=uuid.uuid4().hex)
    Membership.objects.create(user=user, casino_id=CASINO, role=Role.PIT_BOSS)
    token = ApiToken.objects.create(user=user, name="bench", issued_by="bench")[1]
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent)) or "gunicorn"
    port = _free_port()
    env = dict(os.environ, DATABASE_URL=_database_url(), DEBUG="0", SECRET_KEY="bench-only",
               ALLOWED_HOSTS="127.0.0.1", DJANGO_SETTINGS_MODULE="config.settings",
               # plain HTTP on the loopback, and no throttle: the figure is the pit's, not the
               # limiter's (both are production defaults since issue 18).
               SECURE_SSL_REDIRECT="0", API_THROTTLE_USER="1000000/min")
    server = subprocess.Popen(
        [gunicorn, "config.wsgi", "--workers", "2", "--bind", f"127.0.0.1:{port}",
         "--log-level", "warning"], cwd=ROOT, env=env)
    try:
        _wait_for(port)
        wrk = shutil.which("wrk")
        if wrk and client != "python":
            _drive_wrk(wrk, port, token, clients, seconds)
        else:
            if client == "wrk":
                raise SystemExit("wrk is not installed (Debian: apt-get install wrk)")
            _drive(port, token, clients, seconds)
    finally:
        server.terminate()
        server.wait(timeout=30)


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not start")


def _drive_wrk(wrk: str, port: int, token: str, clients: int, seconds: float) -> None:
    """wrk (C, epoll) plays the live round (bench/live_round.lua): one connection and one table
    per thread. It costs the two cores far less than the Python client, which leaves more of them
    to gunicorn and PostgreSQL, as a real pit's terminals on other machines would. A first
    two-second run on other tables warms the workers up (imports, prepared statements), as the
    Python client's first rounds do, and is not counted."""
    script = ROOT / "bench" / "live_round.lua"

    def run(first_table: int, duration: float) -> str:
        return subprocess.run(
            [wrk, "-t", str(clients), "-c", str(clients), "-d", f"{max(1, round(duration))}s",
             "--timeout", "30s", "-s", str(script), f"http://127.0.0.1:{port}", "--", token,
             CASINO, str(first_table)],
            capture_output=True, text=True, check=True, timeout=duration + 120).stdout

    run(2 + clients, 2)
    stdout = run(2, seconds)
    found = dict(pair.split("=") for line in stdout.splitlines()
                 if line.startswith("WRK requests=") for pair in line.split()[1:])
    if not found:
        raise RuntimeError(f"wrk printed no summary:\n{stdout}")
    requests, elapsed = int(found["requests"]), float(found["seconds"])
    print(f"api    {requests / elapsed:>8.0f} requests/s  about {requests // 4} rounds by {clients} "
          f"wrk connections in {elapsed:.1f} s   p50 {int(found['p50_us']) / 1000:6.2f} ms   "
          f"p99 {int(found['p99_us']) / 1000:6.2f} ms   refused {found['refused']}   "
          f"socket errors {found['socket_errors']}")
    for line in stdout.splitlines():
        if line.startswith("WRK first refusal"):
            print("  ", line)
    if int(found["refused"]) or int(found["socket_errors"]):
        # A refused round is not a round played: the rate above would count refusals.
        raise SystemExit(f"wrk: {found['refused']} requests refused, {found['socket_errors']} "
                         "socket errors (the first refusal is above)")


def _drive(port: int, token: str, clients: int, seconds: float) -> None:
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors: list[str] = []
    stop = time.monotonic() + seconds
    rounds = [0] * clients

    def client(index: int) -> None:
        rng = random.Random(index)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

        def call(path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
            sent = dict(headers, **{"Idempotency-Key": uuid.uuid4().hex})
            t0 = time.perf_counter()
            conn.request("POST", f"/api/v1/pit{path}", json.dumps(body or {}), sent)
            response = conn.getresponse()
            data = json.loads(response.read() or b"{}")
            latencies[index].append(time.perf_counter() - t0)
            if response.status >= 300:
                errors.append(f"{response.status} {path}: {data}")
                raise RuntimeError(data)
            return dict(data)

        try:
            session = call(f"/tables/{CASINO}/r{index + 2}/sessions/",
                           {"opening": {"100.00": 100}})["session_id"]
            count = 0
            while time.monotonic() < stop and count < 100_000:
                rid = call(f"/sessions/{session}/rounds/open/", {"bets": bets(rng)})["round_id"]
                call(f"/rounds/{rid}/close-betting/")
                call(f"/rounds/{rid}/outcome/", {"outcome": {"number": rng.randrange(37)}})
                call(f"/rounds/{rid}/settle/")
                count += 1
            rounds[index] = count
        except Exception as exc:  # reported below
            errors.append(repr(exc))
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 120)
    elapsed = time.perf_counter() - started
    every = [x for per in latencies for x in per]
    print(f"api    {len(every) / elapsed:>8.0f} requests/s  {sum(rounds)} rounds by {clients} "
          f"clients in {elapsed:.1f} s   p50 {pct(every, 0.5):6.2f} ms   "
          f"p99 {pct(every, 0.99):6.2f} ms   errors {len(errors)}")
    for line in errors[:5]:
        print("  ", line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--api-seconds", type=float, default=20.0)
    parser.add_argument("--no-api", action="store_true")
    parser.add_argument("--client", choices=["auto", "wrk", "python"], default="auto",
                        help="the API's load generator: wrk when installed (auto), or the "
                             "threaded Python client")
    args = parser.parse_args()
    with bench_database():
        setup(tables=2 + 2 * args.clients)  # the API's warm-up plays on tables of its own
        services_bench(args.rounds)
        if not args.no_api:
            api_bench(args.clients, args.api_seconds, args.client)


if __name__ == "__main__":
    main()
