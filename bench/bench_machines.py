"""Slot floor benchmark: meter ingest for a floor read once a minute, the close's reading of
that floor, and its reconciliation.

    python bench/bench_machines.py [--machines 10000] [--seconds 300]

1. setup  -- ``--machines`` machines added through ``machine_add`` (not timed as ingest);
2. ingest -- every machine read once a minute: one bulk batch a second of machines/60 readings
             (167 for 10,000 machines) through ``meter_readings_record`` with every live
             projection and the ledger posting each reading, held for ``--seconds``; prints the
             readings a second it sustained, the batches that fell behind the one-a-second pace,
             and the p50/p99/max time of a batch;
3. close  -- the day's close report of that floor (``reporting.close_report``: its machines'
             section reads every machine's day and return) and the reconciliation
             (``reporting.reconciliation.reconcile``: the slot floor's lines over every machine),
             each timed three times (min / median / max);
4. day close -- the ``gaming_day_close`` command itself (``reporting.closes.gaming_day_close``,
             as ``manage.py close_day`` and the scheduled close call it) once the day is over:
             the chips record, the reconciliation, the fixed figures with the machines' section,
             the ledger period, the seal and the regulator file; once (a closed day is closed);
5. tables -- ``bench/bench_tables.py --rounds N --no-api`` run right after in its own throwaway
             database (``--tables-rounds``, 0 to skip), its lines printed beside the close's, so
             each run carries the machine's load at that moment.

Runs on a fresh throwaway database (``_setup.bench_database``). Compare with
``bench/bench_tables.py``, run by step 5 (docs/benchmarks.md § Issue 37).
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import time
from decimal import Decimal
from typing import Any

from _setup import bench_database

CASINO = "bench"
PAYTABLE = [{"weight": 800, "pays": 0}, {"weight": 150, "pays": 2},
            {"weight": 40, "pays": 10}, {"weight": 10, "pays": 20}]


def _setup_floor(machines: int) -> None:
    from casino.context import system_metadata
    from casino.models import Role
    from casino.money import parse_amount
    from casino.services.casinos import casino_register
    from eventstore.records import Metadata
    from machines.services.machines import machine_add

    casino_register(code=CASINO, name="Bench", currency="EUR", time_zone="Europe/Lisbon",
                    gaming_day_closes_at=6, metadata=system_metadata(CASINO, job="bench"))
    meta = system_metadata(CASINO, job="bench")
    admin = Metadata(actor="bench-admin", role=Role.ADMINISTRATOR, casino=CASINO,
                     request_id=meta.request_id, correlation_id=meta.correlation_id)
    for i in range(machines):
        machine_add(casino=CASINO, machine=f"M{i:05d}", bank=f"B{i // 10:04d}",
                    position=f"P{i:05d}", manufacturer="IGT", model="S", serial=f"S{i}",
                    game="Bench", paytable=PAYTABLE, denomination=parse_amount("0.10"),
                    hand_pay_limit=parse_amount("1200.00"), approved_on="2026-01-01",
                    approval_reference="BENCH", metadata=admin)


def _ingest(machines: int, seconds: float) -> tuple[int, list[float], int]:
    from django.utils import timezone

    from casino.context import system_metadata
    from machines.services.readings import meter_readings_record

    per_batch = max(1, round(machines / 60))
    state = {f"M{i:05d}": [Decimal("0.00"), Decimal("0.00"), Decimal("0.00"), 0]
             for i in range(machines)}
    numbers = list(state)
    latencies: list[float] = []
    behind = 0
    recorded = 0
    cursor = 0
    step = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        due = started + step  # one batch a second
        now = time.perf_counter()
        if now < due:
            time.sleep(due - now)
        elif now - due > 1:
            behind += 1
        batch: list[dict[str, Any]] = []
        at = timezone.now().isoformat()
        for _ in range(per_batch):
            number = numbers[cursor % machines]
            cursor += 1
            m = state[number]
            played = Decimal(cursor % 97 + 3)
            m[0] += played  # coin in
            m[1] += (played * Decimal("0.9")).quantize(Decimal("0.01"))  # coin out
            m[2] += Decimal(20) if cursor % 5 == 0 else Decimal(0)  # bills in
            m[3] += int(played)
            batch.append({"machine": number, "reading_id": f"r{cursor}", "read_at": at,
                          "meters": {"coin_in": str(m[0]), "coin_out": str(m[1]),
                                     "jackpots": "0.00", "cancelled_credits": "0.00",
                                     "bills_in": str(m[2]), "tickets_in": "0.00",
                                     "tickets_out": "0.00", "progressive_contributions": "0.00",
                                     "games_played": m[3],
                                     "bills": {"20.00": int(m[2] / 20)}}})
        t0 = time.perf_counter()
        answer = meter_readings_record(casino=CASINO, readings=batch, source="sds",
                                       metadata=system_metadata(CASINO, job="sds"))
        latencies.append(time.perf_counter() - t0)
        recorded += answer.recorded
        assert answer.refused == 0, answer.results[:3]
        step += 1
    return recorded, latencies, behind


def _day_close(day: dt.date) -> tuple[float, str]:
    """``gaming_day_close`` of the bench's day, five minutes after it ends (a throwaway seal
    key in the environment, as production keeps one): seconds, and the close's answer."""
    import os
    from unittest import mock

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from casino.context import system_metadata
    from casino.models import Casino
    from reporting.closes import gaming_day_close

    os.environ.setdefault(f"CASINO_SEAL_KEY_{CASINO.upper()}", Ed25519PrivateKey.generate(
    ).private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                    serialization.NoEncryption()).decode())
    after = Casino.objects.get(code=CASINO).gaming_day_end(day) + dt.timedelta(minutes=5)
    with mock.patch("django.utils.timezone.now", return_value=after):
        t0 = time.perf_counter()
        done = gaming_day_close(casino=CASINO, gaming_day=day, now=after,
                                metadata=system_metadata(CASINO, job="bench"))
        spent = time.perf_counter() - t0
    return spent, (f"closed={done.closed}, machine_win {done.totals.get('machine_win')}")


def _tables(rounds: int) -> list[str]:
    """``bench_tables.py --rounds N --no-api`` in a database of its own, its output's lines."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "TEST_DATABASE_NAME": os.environ.get(
        "TEST_DATABASE_NAME", "casino_bench_throwaway") + "_tables"}
    run = subprocess.run([sys.executable, str(Path(__file__).with_name("bench_tables.py")),
                          "--rounds", str(rounds), "--no-api"], env=env, capture_output=True,
                         text=True, check=False)
    return [line for line in run.stdout.splitlines() if line.strip()] or [
        f"(bench_tables failed: {run.stderr.strip().splitlines()[-1:]})"]


def _timed(fn: Any, times: int = 3) -> list[float]:
    out = []
    for _ in range(times):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--machines", type=int, default=10000)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--tables-rounds", type=int, default=1000)
    args = parser.parse_args()
    with bench_database():
        from django.utils import timezone

        from casino.models import Casino
        from reporting.close_report import close_report
        from reporting.reconciliation import reconcile

        t0 = time.perf_counter()
        _setup_floor(args.machines)
        print(f"setup  {args.machines} machines added in {time.perf_counter() - t0:.1f} s")
        t0 = time.perf_counter()
        recorded, latencies, behind = _ingest(args.machines, args.seconds)
        elapsed = time.perf_counter() - t0
        ms = sorted(x * 1000 for x in latencies)
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        print(f"ingest {recorded / elapsed:>8.1f} readings/s  {recorded} readings in "
              f"{len(ms)} batches of {max(1, round(args.machines / 60))} over {elapsed:.0f} s; "
              f"batch p50 {statistics.median(ms):.0f} ms  p99 {p99:.0f} ms  "
              f"max {ms[-1]:.0f} ms; {behind} batches over a second late")
        day = Casino.objects.get(code=CASINO).gaming_day(timezone.now() - dt.timedelta(0))
        for label, fn in (("close report", lambda: close_report(casino=CASINO, gaming_day=day)),
                          ("reconcile", lambda: reconcile(casino=CASINO, gaming_day=day))):
            runs = sorted(_timed(fn))
            print(f"{label:<13} min {runs[0]:.2f} s  median {runs[1]:.2f} s  max {runs[2]:.2f} s")
        report = reconcile(casino=CASINO, gaming_day=day)
        bad = [line for line in report.lines if line.area == "machines" and not line.ok]
        print(f"reconcile: {len(report.lines)} lines, machines' lines not whole: {len(bad)}")
        spent, said = _day_close(day)
        print(f"day close (gaming_day_close) {spent:.2f} s  {said}")
    if args.tables_rounds:
        for line in _tables(args.tables_rounds):
            print(f"tables (same run) {line}")


if __name__ == "__main__":
    main()
