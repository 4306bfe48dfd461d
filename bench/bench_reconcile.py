"""Reconciliation benchmark: chips in circulation and ``reconcile`` on a demo day.

    python bench/bench_reconcile.py [--tables 20] [--rounds-per-table 100] [--runs 5]

Plays a demo gaming day through the real services (``demo.day.play_day``) on a fresh database,
then times, in the same run, for the busiest casino:

* chips in circulation now (``cage.circulation``: the casino's events of the types that
  move chips, read and folded), the figure every cage page and ``reconcile`` shows;
* its reference, the I/O floor of that approach: the same events read from PostgreSQL without
  being decoded or folded;
* the ledger's own figure (the balance of account 2781: one indexed sum), which it must equal;
* the whole ``reconcile`` of the day;
* chips in circulation again once the day is recorded (the record keeps where every chip was,
  and the figure folds only what moved since).

No target is set by the issue; the figures say what a page costs as a day's events grow.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import time
from collections.abc import Callable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds-per-table", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from _setup import bench_database

    with bench_database():
        run(args.tables, args.rounds_per_table, args.runs)


def timed(label: str, runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    median = statistics.median(times)
    print(f"  {label:<58} {median * 1000:9.1f} ms (median of {runs})")
    return median


def run(tables: int, rounds: int, runs: int) -> None:
    from django.core.management import call_command
    from django.db import connection
    from django.test import override_settings

    from cage import circulation
    from cage.selectors import chips_in_circulation
    from demo.day import play_day
    from eventstore.models import StoredEvent
    from ledger import reports
    from reporting.reconciliation import reconcile

    started = time.perf_counter()
    with override_settings(DEBUG=True):  # the demo's casinos and chip sets (DEBUG only)
        call_command("seed_demo", verbosity=0)
    played = play_day(tables=tables, rounds=rounds, seed=2007, tick=lambda: None)
    print(f"demo day: {StoredEvent.objects.count():,} events ({tables} tables, {rounds} rounds "
          f"each) played in {time.perf_counter() - started:.0f} s")
    casino = max({s.casino_id for s in played},
                 key=lambda c: StoredEvent.objects.filter(casino_id=c).count())
    day = next(s.gaming_day for s in played if s.casino_id == casino)
    moving = StoredEvent.objects.filter(casino_id=casino,
                                        event_type__in=circulation.EVENT_TYPES).count()
    print(f"casino {casino}: {StoredEvent.objects.filter(casino_id=casino).count():,} events, "
          f"{moving:,} of them move chips")

    def read_only() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT position, event_type, data FROM event WHERE casino_id = %s "
                           "AND event_type = ANY(%s) ORDER BY position",
                           [casino, sorted(circulation.EVENT_TYPES)])
            cursor.fetchall()

    fold = timed("chips in circulation (read, decode, fold)", runs,
                 lambda: chips_in_circulation(casino=casino))
    floor = timed("reference: the same events read, not decoded", runs, read_only)
    timed("the ledger's account 2781 (one sum)", runs,
          lambda: reports.account_balance(casino=casino, code="2781"))
    timed(f"reconcile --day {day}", max(1, runs // 2),
          lambda: reconcile(casino=casino, gaming_day=day))
    figure = chips_in_circulation(casino=casino).value
    ledger = -reports.account_balance(casino=casino, code="2781")
    # the next day: the day's record keeps where every chip was, and a figure starts there
    from unittest import mock

    from cage.services import gaming_day_chips_record
    from casino.context import system_metadata
    from casino.models import Casino

    after = Casino.objects.get(code=casino).gaming_day_end(day) + dt.timedelta(minutes=5)
    with mock.patch("django.utils.timezone.now", return_value=after):
        gaming_day_chips_record(gaming_day=day, metadata=system_metadata(casino, job="bench"))
    timed("chips in circulation the next day (from the day's record)", runs,
          lambda: chips_in_circulation(casino=casino))
    assert chips_in_circulation(casino=casino).value == figure
    print(f"  per event moving chips: {fold / max(moving, 1) * 1e6:.1f} µs folded, "
          f"{floor / max(moving, 1) * 1e6:.1f} µs read; ratio {fold / floor:.1f}")
    print(f"  figure {figure} = ledger {ledger}: {'yes' if figure == ledger else 'NO'}")


if __name__ == "__main__":
    main()
