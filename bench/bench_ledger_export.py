"""Ledger export benchmark: a journal of one million lines exported to CSV and to XLSX.

    python bench/bench_ledger_export.py [--lines 1000000]

Fills a fresh database with a year of journal (entries of four lines each, spread over 365
gaming days and a few dozen accounts) by ``generate_series`` SQL, through the journal's own
triggers (balanced entries, checked at commit). Then each format is exported, for the whole
year, by a child process of its own, which reports lines per second and its peak memory
(``ru_maxrss``: the whole process, Python and Django included). Targets: CSV at least 100,000
lines per second; both formats under 150 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

CASINO = "bench"
DAY_FROM, DAY_TO = "2025-01-01", "2025-12-31"
CSV_TARGET = 100_000
MEMORY_TARGET_MB = 150


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--child", choices=["csv", "xlsx"], help=argparse.SUPPRESS)
    parser.add_argument("--output", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.output)
        return
    from _setup import bench_database

    with bench_database():
        run(args.lines)


def run(lines: int) -> None:
    from django.db import connection, transaction

    entries = lines // 4
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        fill(cursor, entries)
    fill_seconds = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM journal_line")
        count = cursor.fetchone()[0]
    print(f"journal: {count:,} lines in {entries:,} entries, written in {fill_seconds:.1f} s "
          f"({count / fill_seconds:,.0f} lines/s through the triggers)")
    params = connection.get_connection_params()
    url = (f"postgres://{quote(params.get('user') or 'postgres', safe='')}@"
           f"{quote(str(params.get('host') or ''), safe='')}:{params.get('port') or 5432}/"
           f"{params['dbname']}")
    print(f"{'format':<8} {'lines':>10} {'seconds':>8} {'lines/s':>12} {'peak MB':>8} {'file MB':>8}"
          "  target")
    ok = True
    for fmt in ("csv", "xlsx"):
        with tempfile.TemporaryDirectory() as tmp:
            output = str(Path(tmp) / f"journal.{fmt}")
            env = {**os.environ, "DATABASE_URL": url}
            done = subprocess.run([sys.executable, __file__, "--child", fmt, "--output", output],
                                  env=env, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                print(done.stdout, done.stderr)
                raise SystemExit(f"the {fmt} export failed")
            result = json.loads(done.stdout.strip().splitlines()[-1])
        speed = result["lines"] / result["seconds"]
        meets = result["peak_mb"] < MEMORY_TARGET_MB and (fmt != "csv" or speed >= CSV_TARGET)
        ok = ok and meets and result["lines"] == count
        target = (f">= {CSV_TARGET:,} lines/s, " if fmt == "csv" else "") + \
            f"< {MEMORY_TARGET_MB} MB: {'met' if meets else 'MISSED'}"
        print(f"{fmt:<8} {result['lines']:>10,} {result['seconds']:>8.1f} {speed:>12,.0f} "
              f"{result['peak_mb']:>8.1f} {result['file_mb']:>8.1f}  {target}")
    if not ok:
        raise SystemExit(1)


def fill(cursor: object, entries: int) -> None:
    """A casino, its accounts and ``entries`` balanced entries of four lines, by SQL."""
    execute = cursor.execute  # type: ignore[attr-defined]
    execute("INSERT INTO casino_casino (code, name, currency, time_zone, gaming_day_closes_at, "
            "version) VALUES (%s, 'Bench casino', 'EUR', 'Europe/Lisbon', 6, 1)", [CASINO])
    execute("""
        INSERT INTO ledger_account (casino_id, code, name, name_pt, kind, normal, template,
                                    scope, game, snc, macau)
        SELECT %s, a.code, a.name, a.name, a.kind, a.normal, split_part(a.code, '.', 1),
               split_part(a.code, '.', 2), '', a.snc, a.snc
          FROM (SELECT '1110.w' || n AS code, 'Cage cash — w' || n AS name, 'asset' AS kind,
                       'debit' AS normal, '11 Caixa' AS snc FROM generate_series(1, 8) n
                UNION ALL SELECT '0110.w' || n, 'Chips in the cage — w' || n, 'memorandum',
                       'debit', '0' FROM generate_series(1, 8) n
                UNION ALL SELECT '0120.t' || n, 'Table float — table t' || n, 'memorandum',
                       'debit', '0' FROM generate_series(1, 24) n
                UNION ALL SELECT '7211.t' || n, 'Gaming revenue — roulette — table t' || n,
                       'revenue', 'credit', '72' FROM generate_series(1, 24) n
                UNION ALL SELECT '2781', 'Chips in circulation (players'' hands)', 'liability',
                       'credit', '278'
                UNION ALL SELECT '0190', 'Chips held by the casino (contra)', 'memorandum',
                       'credit', '0') a""", [CASINO])
    execute("""
        INSERT INTO journal_entry (casino_id, number, day, event_day, event_position, event_type,
                                   stream, recorded_at, description, txid)
        SELECT %s, g, d, d, g, CASE WHEN g %% 3 = 0 THEN 'ChipsSold' ELSE 'RoundSettled' END,
               'bench/' || (g / 40), d + time '12:00' + (g %% 3600) * interval '1 second',
               CASE WHEN g %% 3 = 0 THEN 'Chips sold at w' || (g %% 8 + 1) || ' (bench)'
                    ELSE 'Round settled at table t' || (g %% 24 + 1) || ': result ' ||
                         ((g %% 500 + 1) * 5) || '.00' END, 0
          FROM generate_series(1, %s) g,
               LATERAL (SELECT DATE '2025-01-01' + ((g - 1) * 365 / %s)::int AS d) day""",
            [CASINO, entries, entries])
    execute("""
        INSERT INTO journal_line (entry_id, line_no, casino_id, account_code, debit, credit)
        SELECT e.id, k, %s,
               CASE WHEN e.number %% 3 = 0 THEN
                    (ARRAY['1110.w', '0190', '2781', '0110.w'])[k] ||
                    CASE WHEN k IN (1, 4) THEN (e.number %% 8 + 1)::text ELSE '' END
                    ELSE (ARRAY['2781', '0120.t', '7211.t', '0190'])[k] ||
                    CASE WHEN k IN (2, 3) THEN (e.number %% 24 + 1)::text ELSE '' END END,
               CASE WHEN k <= 2 THEN (e.number %% 500 + 1) * 5 ELSE 0 END,
               CASE WHEN k > 2 THEN (e.number %% 500 + 1) * 5 ELSE 0 END
          FROM journal_entry e, generate_series(1, 4) k
         WHERE e.casino_id = %s""", [CASINO, CASINO])


def child(fmt: str, output: str) -> None:
    """One export, measured in a process of its own."""
    import datetime as dt

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only")
    import django

    django.setup()
    from ledger import exports

    day_from, day_to = dt.date.fromisoformat(DAY_FROM), dt.date.fromisoformat(DAY_TO)
    started = time.perf_counter()
    if fmt == "csv":
        with open(output, "wb") as handle:
            for block in exports.journal_csv(casino=CASINO, day_from=day_from, day_to=day_to):
                handle.write(block)
        seconds = time.perf_counter() - started
        with open(output, "rb") as handle:
            lines = sum(1 for _ in handle) - 1
    else:
        lines = exports.journal_xlsx(casino=CASINO, day_from=day_from, day_to=day_to,
                                     path=output)
        seconds = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"lines": lines, "seconds": seconds, "peak_mb": peak_kb / 1024,
                      "file_mb": os.path.getsize(output) / 1024 / 1024}))


if __name__ == "__main__":
    main()
