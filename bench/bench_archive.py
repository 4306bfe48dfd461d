"""Day archive benchmark: a closed demo day of 40 tables written as each casino's archive.

    python bench/bench_archive.py [--tables 40] [--rounds-per-table 150] [--runs 3]

Plays a demo gaming day through the real services (``demo.day.play_day``, as
``bench_rebuild.py``: about 75,000 events for 40 tables of 150 rounds), closes and seals each
casino's day (``reporting.closes.gaming_day_close``, as ``bench_close.py``), then times
``reporting.archives.day_archive`` (what ``manage.py export_day`` and the archive download run):
the casino's events the seal covers as JSON Lines, the seal, the public key, the results, the
close report and the regulator file, zipped. Prints seconds and events per second for each
casino, and the standalone verifier's time on the same archive (``tools/verify_events.py``, for
information). Target (issue 16): a day's archive of a 40-table casino in under 10 s.
"""

from __future__ import annotations

import argparse
import datetime as dt
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_SECONDS = 10.0


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
    from unittest import mock

    from bench_close import _close_vault, _seal_keys
    from django.core.management import call_command
    from django.test import override_settings

    from casino.context import system_metadata
    from casino.models import Casino
    from demo.day import play_day
    from eventstore.models import StoredEvent
    from reporting.archives import day_archive
    from reporting.closes import gaming_day_close

    _seal_keys()
    started = time.perf_counter()
    with override_settings(DEBUG=True):  # the demo's casinos and chip sets (DEBUG only)
        call_command("seed_demo", verbosity=0)
    played = play_day(tables=tables, rounds=rounds, seed=2007, tick=lambda: None)
    days = {}
    for code in sorted({s.casino_id for s in played}):
        _close_vault(code)
        day = next(s.gaming_day for s in played if s.casino_id == code)
        after = Casino.objects.get(code=code).gaming_day_end(day) + dt.timedelta(minutes=5)
        with mock.patch("django.utils.timezone.now", return_value=after):
            gaming_day_close(casino=code, gaming_day=day,
                             metadata=system_metadata(code, job="bench"))
        days[code] = day
    print(f"demo day: {StoredEvent.objects.count():,} events ({tables} tables, {rounds} rounds "
          f"each) played and closed in {time.perf_counter() - started:.0f} s")
    verifier = Path(__file__).resolve().parent.parent / "tools" / "verify_events.py"
    folder = Path(tempfile.mkdtemp(prefix="casino-bench-archive-"))
    for code, day in days.items():
        seconds = []
        for number in range(runs):
            path = folder / f"{code}-{number}.zip"
            began = time.perf_counter()
            with path.open("wb") as out:
                summary = day_archive(casino=code, gaming_day=day, out=out)
            seconds.append(time.perf_counter() - began)
        best, worst = min(seconds), max(seconds)
        verdict = "met" if worst < TARGET_SECONDS else "NOT met"
        print(f"  {code}: {summary.events:,} events, archive {path.stat().st_size / 1e6:.1f} MB "
              f"in {best:.2f}–{worst:.2f} s ({summary.events / worst:,.0f}–"
              f"{summary.events / best:,.0f} events/s; target < {TARGET_SECONDS:.0f} s: {verdict})")
        began = time.perf_counter()
        checked = subprocess.run([sys.executable, "-S", str(verifier), str(path)],
                                 capture_output=True, text=True, check=False)
        print(f"    verified offline in {time.perf_counter() - began:.2f} s: "
              f"{'OK' if checked.returncode == 0 else checked.stdout.strip()}")


if __name__ == "__main__":
    main()
