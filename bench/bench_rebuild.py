"""Rebuild benchmark: replaying a demo day into empty projections, and checking it.

    python bench/bench_rebuild.py [--tables 40] [--rounds-per-table 150]

Plays a demo gaming day through the real services (``demo.day.play_day``: every game, cage
and jackpots included) on a fresh database until it holds at least 75,000 events, then times, in
the same run:

* ``rebuild``: every rebuildable projection emptied and replayed (what ``manage.py
  rebuild_projections`` does), three times;
* ``rebuild`` of one casino (its rows deleted and its events replayed);
* ``check``: the rebuild inside a transaction that is rolled back, the ledger replayed in memory,
  and every table compared with live (``manage.py rebuild_projections --check``).

Target (issue 12): at least 30,000 events a second for ``rebuild`` and ``check``. The reference
is the replay as it was before projections returned changes (one handler writing through the ORM
per event, flushed after each): 3,600 events a second on this machine for the same mix.
"""

from __future__ import annotations

import argparse
import time

TARGET = 30_000
BEFORE = 3_600  # events/s, the old replay (issue 12's measurement on this machine)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--rounds-per-table", type=int, default=150)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from _setup import bench_database

    with bench_database():
        run(args.tables, args.rounds_per_table, args.runs)


def run(tables: int, rounds: int, runs: int) -> None:
    from django.core.management import call_command
    from django.db import transaction
    from django.test import override_settings

    import eventstore
    from demo.day import play_day
    from eventstore.models import StoredEvent

    started = time.perf_counter()
    with override_settings(DEBUG=True):  # the demo's casinos and chip sets (DEBUG only)
        call_command("seed_demo", verbosity=0)
    play_day(tables=tables, rounds=rounds, seed=2007, tick=lambda: None)
    events = StoredEvent.objects.count()
    print(f"demo day: {events:,} events ({tables} tables, {rounds} rounds each) played in "
          f"{time.perf_counter() - started:.0f} s")
    mix = (StoredEvent.objects.values_list("event_type", flat=True).distinct().count())
    print(f"  {mix} event types; target {TARGET:,} events/s, before {BEFORE:,} events/s")

    def timed(label: str, work: object) -> None:
        rates = []
        for _ in range(runs):
            began = time.perf_counter()
            count = work()  # type: ignore[operator]
            rates.append(count / (time.perf_counter() - began))
        best, worst = max(rates), min(rates)
        verdict = "met" if worst >= TARGET else "not met"
        print(f"{label:<28} {worst:>9,.0f} – {best:>9,.0f} events/s  "
              f"({worst / BEFORE:.1f}–{best / BEFORE:.1f}× before; {TARGET:,}: {verdict})")

    def rebuild_all() -> int:
        with transaction.atomic():
            return eventstore.rebuild()

    def rebuild_one() -> int:
        with transaction.atomic():
            return eventstore.rebuild(casino="lisboa")

    def check() -> int:
        differences = eventstore.check()
        assert differences == [], differences
        return events

    timed("rebuild (every projection)", rebuild_all)
    timed("rebuild (casino lisboa)", rebuild_one)
    timed("check (rebuilt = live)", check)


if __name__ == "__main__":
    main()
