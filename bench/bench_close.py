"""Gaming-day close benchmark: the whole close of a demo day of N tables.

    python bench/bench_close.py [--tables 100] [--rounds-per-table 4]

Plays a demo gaming day through the real services (``demo.day.play_day``: sessions closed on
their counts, boxes counted and received, the main cage closed on a blind count), closes the
vault's shift the same way, then times ``reporting.closes.gaming_day_close`` of each casino (the
chips record at the boundary, the reconciliation, the fixed figures, the ledger period) once the
day is over, and the day's close report and seal, and prints seconds per table and in all.

Target (issue 14): under 0.1 s a table, growing linearly (500 tables in under 60 s).
"""

from __future__ import annotations

import argparse
import datetime as dt
import time

TARGET_PER_TABLE = 0.1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rounds-per-table", type=int, default=4)
    args = parser.parse_args()
    from _setup import bench_database

    with bench_database():
        run(args.tables, args.rounds_per_table)


def _close_vault(casino: str) -> None:
    from cage import services as cage
    from cage.models import Shift
    from cage.selectors import expected_count
    from casino.context import system_metadata
    from eventstore.records import Metadata

    for shift in Shift.objects.filter(casino_id=casino).exclude(status="closed"):
        cash, chips = expected_count(shift)
        base = system_metadata(casino, job="bench")
        who = Metadata(actor=f"{base.actor}:supervisor", role="cage_supervisor", casino=casino,
                       request_id=base.request_id)
        cage.shift_count(shift_id=str(shift.id), cash=cash, chips=chips, metadata=who)
        cage.shift_close(shift_id=str(shift.id), metadata=who)


def _seal_keys() -> None:
    """A throwaway Ed25519 seal key per demo casino, in the environment as in production."""
    import os

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    for code in ("LISBOA", "MACAU"):
        os.environ.setdefault(f"CASINO_SEAL_KEY_{code}", Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption()).decode())


def run(tables: int, rounds: int) -> None:
    from unittest import mock

    from django.core.management import call_command
    from django.test import override_settings

    from casino.context import system_metadata
    from casino.models import Casino
    from demo.day import play_day
    from eventstore.models import StoredEvent
    from reporting.closes import gaming_day_close

    _seal_keys()
    started = time.perf_counter()
    with override_settings(DEBUG=True):  # the demo's casinos and chip sets (DEBUG only)
        call_command("seed_demo", verbosity=0)
    played = play_day(tables=tables, rounds=rounds, seed=2007, tick=lambda: None)
    print(f"demo day: {StoredEvent.objects.count():,} events ({tables} tables, {rounds} rounds "
          f"each) played in {time.perf_counter() - started:.0f} s")
    total = 0.0
    for code in sorted({s.casino_id for s in played}):
        _close_vault(code)
        casino = Casino.objects.get(code=code)
        day = next(s.gaming_day for s in played if s.casino_id == code)
        count = len({s.table for s in played if s.casino_id == code})
        after = casino.gaming_day_end(day) + dt.timedelta(minutes=5)
        with mock.patch("django.utils.timezone.now", return_value=after):
            began = time.perf_counter()
            done = gaming_day_close(casino=code, gaming_day=day,
                                    metadata=system_metadata(code, job="bench"))
            spent = time.perf_counter() - began
        total += spent
        print(f"  {code}: {count} tables closed in {spent:.2f} s, {spent / count:.3f} s a table "
              f"(target < {TARGET_PER_TABLE}): {'met' if spent / count < TARGET_PER_TABLE else 'NOT met'};"
              f" closed={done.closed}, win {done.totals['win']}")
    print(f"  all: {tables} tables in {total:.2f} s, {total / tables:.3f} s a table")


if __name__ == "__main__":
    main()
