"""Regulator benchmark: an inspector reading a whole gaming day of one casino's events through
the regulator's API, page by page.

    python bench/bench_regulator.py [--tables 50] [--rounds-per-table 150] [--page-size 5000]

Plays a demo gaming day through the real services (``demo.day.play_day``) on a fresh
database; the demo's tables cycle over both casinos, so 50 tables give Lisbon 40. Then
Portugal's inspector, with a token, reads every Lisbon event through
``/api/regulator/v1/casinos/lisboa/events/`` (Django's test client: the whole WSGI stack,
authentication, throttling, the access log, no network), following the cursor, three times.
Prints events per second and the p50/p95 time per page.

Target (issue 16): the day of a 40-table casino (about 75,000 events) read in under 10 s.
The day's archive (``export_day``) is timed by ``bench_archive.py``.
"""

from __future__ import annotations

import argparse
import statistics
import time

TARGET_SECONDS = 10.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds-per-table", type=int, default=150)
    parser.add_argument("--page-size", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    import os

    from _setup import bench_database

    # Plain HTTP, as the test client speaks: with DEBUG off the production default redirects
    # every request to https (a 301, which the reading loop would take for a refusal).
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

    with bench_database():
        run(args.tables, args.rounds_per_table, args.page_size, args.runs)


def run(tables: int, rounds: int, page_size: int, runs: int) -> None:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client, override_settings

    from access.models import ApiToken, RegulatorAccount
    from demo.day import play_day
    from eventstore.models import StoredEvent

    started = time.perf_counter()
    with override_settings(DEBUG=True):  # the demo's casinos and chip sets (DEBUG only)
        call_command("seed_demo", verbosity=0)
    play_day(tables=tables, rounds=rounds, seed=2007, tick=lambda: None)
    lisbon = StoredEvent.objects.filter(casino_id="lisboa").count()
    print(f"demo day: {StoredEvent.objects.count():,} events, Lisbon's {lisbon:,} "
          f"({tables} tables over both casinos, {rounds} rounds each), played in "
          f"{time.perf_counter() - started:.0f} s")

    user = get_user_model().objects.create_user("srij-bench")
    RegulatorAccount.objects.create(user=user, jurisdiction="PT")
    token = ApiToken.objects.create(user=user, name="bench", issued_by="bench")[1]
    client = Client(HTTP_AUTHORIZATION=f"Token {token}", HTTP_HOST="localhost")
    first = f"/api/regulator/v1/casinos/lisboa/events/?page_size={page_size}"

    unthrottled = {**settings.REST_FRAMEWORK,
                   "DEFAULT_THROTTLE_RATES": {"regulator": "100000/minute"}}
    with override_settings(REST_FRAMEWORK=unthrottled):
        for run_number in range(1, runs + 1):
            pages: list[float] = []
            read = 0
            url: str | None = first
            began = time.perf_counter()
            while url:
                page_began = time.perf_counter()
                answer = client.get(url)
                assert answer.status_code == 200, answer.content[:300]
                body = answer.json()
                pages.append(time.perf_counter() - page_began)
                read += len(body["results"])
                url = body["next"]
            seconds = time.perf_counter() - began
            assert read == lisbon, (read, lisbon)
            p95 = statistics.quantiles(pages, n=20)[-1] if len(pages) > 1 else pages[0]
            verdict = "met" if seconds < TARGET_SECONDS else "not met"
            print(f"run {run_number}: {read:,} events in {seconds:.2f} s "
                  f"({read / seconds:,.0f} events/s), {len(pages)} pages of {page_size}, "
                  f"p50 {statistics.median(pages) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms "
                  f"per page (target < {TARGET_SECONDS:.0f} s: {verdict})")


if __name__ == "__main__":
    main()
