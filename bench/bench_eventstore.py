"""Event store benchmark: appends of 14-event rounds several ways, then a follower's read.

    python bench/bench_eventstore.py [--rounds 2000] [--passes 20]

Each way appends the same rounds (14 events, one transaction per round) into its own empty table
of the same PostgreSQL server and prints events per second. The ways take turns: the rounds are
split in ``--passes`` passes and every way runs its share of each pass, so a machine whose speed
drifts while the benchmark runs slows every way alike.

* store      -- the platform's public API: a command (``commands.run_command``, what
                ``@command`` runs) + ``store.append`` with the hash
                chain, the chain-checking insert trigger, an idempotency key (its record inserted
                by the events' INSERT: ``append(answer=…)``) and live projections
* raw-many   -- raw psycopg ``executemany`` into an equivalent table (no trigger, no hashing);
                every raw way on psycopg's own cursor (server-side binding, prepared as psycopg
                prepares), not Django's client-side-binding one
* raw-pipe   -- raw psycopg in pipeline mode, one transaction per round, its commit awaited before
                the next round: the per-command limit (what a request-and-answer store can reach)
* raw-group  -- raw psycopg pipelining the rounds' transactions back to back (BEGIN, inserts,
                COMMIT, the next round's BEGIN … and one wait per pass): the group-commit ceiling,
                which no request-and-answer store reaches
* bulk       -- the Django ORM's ``bulk_create`` into the equivalent table
* es-lib     -- the eventsourcing library's PostgreSQL application recorder (bench-only dep.)

Then how fast a follower reads the whole store by position (the store's ``read_all``) and raw
keyset pages of the same table, each from the same state of the garbage collector, and the
seconds each spends in full collections; and how fast the casino's chain is verified
(``verify_casino_chain``: the same read, each event's link and hash checked).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from _setup import bench_database, rate

EVENTS_PER_ROUND = 14


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--passes", type=int, default=20,
                        help="the rounds are split in this many passes, each way taking its turn "
                             "in every pass, so a machine whose speed drifts slows all alike")
    args = parser.parse_args()
    with bench_database():
        run(args.rounds, args.passes)


def _payloads(i: int) -> list[dict[str, Any]]:
    return [{"round": i, "seat": k % 7, "bet": f"b{k}", "type": "straight", "numbers": [k % 37],
             "amount": "25.00", "status": "won" if k % 3 else "lost"}
            for k in range(EVENTS_PER_ROUND)]


Way = Callable[[range], None]


def run(rounds: int, passes: int) -> None:
    from django.db import connection

    import eventstore

    ways, closers = _ways(rounds)
    total = rounds * EVENTS_PER_ROUND
    print(f"{rounds} rounds x {EVENTS_PER_ROUND} events = {total:,} events per way, "
          f"in {passes} interleaved passes")
    seconds = dict.fromkeys(ways, 0.0)
    chunk = -(-rounds // passes)
    for first in range(0, rounds, chunk):
        part = range(first, min(rounds, first + chunk))
        for name, way in ways.items():
            began = time.perf_counter()
            way(part)
            seconds[name] += time.perf_counter() - began
    print(f"{'way':<10}{'events/s':>12}")
    for name in ways:
        print(f"{name:<10}{rate(total, seconds[name])}")
    for close in closers:
        close()
    results = seconds
    raw = connection.connection

    # Follower reads by position: the store's read and a raw keyset read of the same table, in
    # turns (five pairs), each given by its median and its spread, after one read of each that is
    # not timed: the first read of a new table sets its rows' hint bits, which the store's read,
    # going first, paid alone (its first pair was the lowest of every run, docs/benchmarks.md,
    # 2026-12-07, third). Each read
    # starts from the same state of the garbage collector (``gc.collect()`` first): otherwise a
    # full collection the previous read's objects had made due lands in whichever read comes
    # next, and moved the ratio more than any change tried (docs/benchmarks.md, 2026-12-07).
    # The seconds each read spends in full collections, which walk every object of the process,
    # are measured apart: they are the follower's own too.
    def follow() -> int:
        return sum(1 for _ in eventstore.read_all(page_size=5000))

    def follow_raw() -> int:
        after, count = 0, 0
        with raw.cursor() as cur:
            while True:
                cur.execute("SELECT position, stream, version, event_type, data, hash FROM event "
                            "WHERE position > %s ORDER BY position LIMIT 5000", [after])
                page = cur.fetchall()
                if not page:
                    break
                count += len(page)
                after = page[-1][0]
        return count

    full_collections: list[float] = []
    began_collecting = [0.0]

    def timed_full_collections(phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            began_collecting[0] = time.perf_counter()
        else:
            full_collections.append(time.perf_counter() - began_collecting[0])

    reads: dict[str, list[tuple[int, float, float]]] = {"follow": [], "follow-raw": []}
    follow(), follow_raw()  # not timed: the rows' hint bits set, the table's pages read once
    gc.callbacks.append(timed_full_collections)
    for _ in range(5):
        for name, read in (("follow", follow), ("follow-raw", follow_raw)):
            gc.collect()
            full_collections.clear()
            start = time.perf_counter()
            count = read()
            reads[name].append((count, time.perf_counter() - start, sum(full_collections)))
    gc.callbacks.remove(timed_full_collections)

    def rates(name: str, *, collecting: bool = True) -> list[float]:
        return [n / (seconds - (0 if collecting else full)) for n, seconds, full in reads[name]]

    for name, what in (("follow", "eventstore.read_all, pages of 5000"),
                       ("follow-raw", "raw keyset pages of 5000")):
        spent = [full for _, _, full in reads[name]]
        print(f"{name:<10}{statistics.median(rates(name)):>12,.0f}   ({what}; "
              f"{min(rates(name)):,.0f}–{max(rates(name)):,.0f}; full collections "
              f"{min(spent):.2f}–{max(spent):.2f} s a read)")

    def ratio(collecting: bool) -> str:
        follows, raws = rates("follow", collecting=collecting), rates("follow-raw",
                                                                      collecting=collecting)
        pairs = sorted(f / r for f, r in zip(follows, raws, strict=True))
        return (f"{statistics.median(follows) / statistics.median(raws):.2f} (each pair: "
                f"{', '.join(f'{p:.2f}' for p in pairs)})")

    print(f"follow / raw = {ratio(True)}; target >= 0.50")
    print(f"  the same without the seconds in full collections = {ratio(False)}")

    # The store's continuous verification reads the same way and hashes every event: the read's
    # share of a real reader's time (no target).
    from eventstore.verify import verify_casino_chain

    checks = []
    for _ in range(3):
        gc.collect()
        start = time.perf_counter()
        report = verify_casino_chain("bench")
        checks.append(report.checked / (time.perf_counter() - start))
        if not report.ok or report.checked != total:
            raise SystemExit(f"the bench's chain does not verify: {report}")
    print(f"{'verify':<10}{statistics.median(checks):>12,.0f}   (eventstore.verify_casino_chain, "
          f"each event read, linked and hashed; {min(checks):,.0f}–{max(checks):,.0f})")

    store_rate = total / results["store"]
    if "es-lib" not in results:
        print(f"{'es-lib':<10}{'(skipped: pip install -r bench/requirements.txt)':>12}")
    pipe_rate = total / results["raw-pipe"]
    group_rate = total / results["raw-group"]
    print(f"\nstore / raw, one transaction per round (the per-command limit) = "
          f"{store_rate / pipe_rate:.2f} (target >= 0.50: "
          f"{'met' if store_rate / pipe_rate >= 0.5 else 'not met'})")
    print(f"store / raw, transactions pipelined back to back (the group-commit ceiling) = "
          f"{store_rate / group_rate:.2f} (no target: a request-and-answer store waits for each "
          "commit)")
    if "es-lib" in results:
        print(f"store / eventsourcing recorder = {store_rate / (total / results['es-lib']):.2f} "
              "(target > 1)")


def _ways(rounds: int) -> tuple[dict[str, Way], list[Callable[[], None]]]:
    """Each way, appending the rounds of a range into its own empty table; and what to close."""
    from dataclasses import dataclass

    import psycopg
    from django.db import connection, models, transaction
    from django.utils import timezone

    from eventstore import store
    from eventstore.commands import run_command
    from eventstore.events import Event
    from eventstore.records import Metadata

    @dataclass(frozen=True, kw_only=True)
    class BenchBetRecorded(Event):
        event_type = "BenchBetRecorded"
        round: int
        seat: int
        bet: str
        type: str
        numbers: tuple[int, ...]
        amount: Decimal
        status: str

    events = [[BenchBetRecorded(**{**p, "numbers": tuple(p["numbers"]),
                                   "amount": Decimal(p["amount"])}) for p in _payloads(i)]
              for i in range(rounds)]

    def by_store(part: range) -> None:
        # 1. The store's public API.
        for i in part:
            meta = Metadata(actor="bench", role="system", casino="bench",
                            idempotency_key=f"r{i}")

            def handler(i: int = i, meta: Metadata = meta) -> dict[str, int]:
                answer = {"round": i}  # recorded with the events (append's answer=)
                store.append(f"round/{i}", events[i], expected_version=0, metadata=meta,
                             answer=answer)
                return answer

            with transaction.atomic():
                run_command(command="round_record", metadata=meta, payload={"round": i},
                            handler=handler)

    # Equivalent tables for the raw ways: same columns and keys, no trigger.
    with connection.cursor() as cursor:
        for table in ("bench_event_many", "bench_event_pipe", "bench_event_group",
                      "bench_event_bulk"):
            cursor.execute(f"CREATE TABLE {table} (LIKE event INCLUDING DEFAULTS INCLUDING "
                           "CONSTRAINTS INCLUDING INDEXES)")
    raw = connection.connection  # the psycopg connection under Django's
    # Its cursors bind parameters client-side (Django's cursor factory): each statement would
    # reach the server as new text, parsed and planned again, and a pipeline of them ran slower
    # than one transaction per round. The raw ways use psycopg's own cursor, server-side binding
    # and preparing as psycopg does by default and as the store's wire layer does.
    insert = ("INSERT INTO {table} (position, stream, version, event_type, schema_version, "
              "data, metadata, casino_id, recorded_at, prev_hash, hash, sequence) VALUES "
              "(%s, %s, %s, %s, 1, %s::jsonb, %s::jsonb, 'bench', now(), %s, %s, %s)")
    meta_json = json.dumps({"actor": "bench"})

    def raw_rows(i: int) -> list[tuple[Any, ...]]:
        base = i * EVENTS_PER_ROUND
        return [(base + k + 1, f"round/{i}", k + 1, "BenchBetRecorded", json.dumps(p), meta_json,
                 "0" * 64, uuid.uuid4().hex + uuid.uuid4().hex, base + k + 1)
                for k, p in enumerate(_payloads(i))]

    def by_executemany(part: range) -> None:
        # 2. executemany
        query = insert.format(table="bench_event_many")
        for i in part:
            with raw.transaction(), psycopg.Cursor(raw) as cur:
                cur.executemany(query, raw_rows(i))

    def by_pipeline(part: range) -> None:
        # 3. pipeline mode, one transaction per round, its commit awaited
        query = insert.format(table="bench_event_pipe")
        for i in part:
            with raw.transaction(), raw.pipeline(), psycopg.Cursor(raw) as cur:
                for row in raw_rows(i):
                    cur.execute(query, row)

    def by_group_pipeline(part: range) -> None:
        # 3b. the rounds' transactions pipelined back to back: one wait for the whole part
        query = insert.format(table="bench_event_group")
        with raw.pipeline(), psycopg.Cursor(raw) as cur:
            for i in part:
                cur.execute("BEGIN")
                for row in raw_rows(i):
                    cur.execute(query, row)
                cur.execute("COMMIT")

    class BenchEvent(models.Model):
        position = models.BigIntegerField(primary_key=True)
        stream = models.CharField(max_length=200)
        version = models.PositiveIntegerField()
        event_type = models.CharField(max_length=100)
        schema_version = models.PositiveSmallIntegerField()
        data = models.JSONField()
        metadata = models.JSONField()
        casino_id = models.CharField(max_length=64)
        recorded_at = models.DateTimeField()
        prev_hash = models.CharField(max_length=64)
        hash = models.CharField(max_length=64)
        sequence = models.BigIntegerField()

        class Meta:
            app_label = "eventstore"
            db_table = "bench_event_bulk"
            managed = False

    def by_bulk_create(part: range) -> None:
        # 4. Django bulk_create into the equivalent table
        for i in part:
            base = i * EVENTS_PER_ROUND
            now = timezone.now()
            objs = [BenchEvent(position=base + k + 1, stream=f"round/{i}", version=k + 1,
                               event_type="BenchBetRecorded", schema_version=1, data=p,
                               metadata={"actor": "bench"}, casino_id="bench", recorded_at=now,
                               prev_hash="0" * 64, hash=uuid.uuid4().hex + uuid.uuid4().hex,
                               sequence=base + k + 1)
                    for k, p in enumerate(_payloads(i))]
            with transaction.atomic():
                BenchEvent._default_manager.bulk_create(objs)

    ways: dict[str, Way] = {"store": by_store, "raw-many": by_executemany,
                            "raw-pipe": by_pipeline, "raw-group": by_group_pipeline,
                            "bulk": by_bulk_create}

    # 5. the eventsourcing library's recorder
    try:
        from eventsourcing.persistence import StoredEvent as LibStoredEvent
        from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
    except ImportError:
        return ways, []
    params = connection.get_connection_params()
    datastore = PostgresDatastore(
        dbname=connection.settings_dict["NAME"], host=str(params.get("host") or "127.0.0.1"),
        port=params.get("port") or 5432, user=params.get("user") or "postgres",
        password=params.get("password") or "")
    recorder = PostgresApplicationRecorder(datastore, events_table_name="es_stored_events")
    recorder.create_table()

    def by_recorder(part: range) -> None:
        for i in part:
            originator = uuid.uuid4()
            recorder.insert_events([
                LibStoredEvent(originator_id=originator, originator_version=k + 1,
                               topic="bench:BenchBetRecorded",
                               state=json.dumps(p).encode())
                for k, p in enumerate(_payloads(i))])

    ways["es-lib"] = by_recorder
    return ways, [datastore.close]


if __name__ == "__main__":
    main()
