"""Web admin benchmark: a cashier's and a pit boss's actions, submit to next page drawn.

    python bench/bench_pages.py [--tables 20] [--rounds-per-table 30] [--rounds 40] [--sales 40]

Loads a demo gaming day (``demo.day.play_day``), then drives the pages in process through
Django's test client (the whole stack: middleware, sessions, CSRF off as a browser's token would
pass, the views, the services, the templates): each action is a POST and the GET of the page it
redirects to, timed together, as a person waits between pressing the button and seeing the next
page.

* pit boss (``fiscal``), on a roulette table of the demo: open a round, place a bet, no more
  bets, record the outcome, settle; and the floor's rows, as its polling fetches them;
* cashier (``caixa``), on a window's shift holding ``--shift-movements`` sales already (a busy
  window's day so far): sell chips, redeem chips.

Prints p50, p95, the worst and the SQL queries (median) per action and for all of them, after
two passes not timed (templates compiled, caches filled), against the target (issue 17): 300 ms
at p95. On a machine shared with other work the times measure the machine as much as the code;
the query counts do not move.
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any

TARGET_P95_MS = 300.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds-per-table", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=40, help="pit rounds driven")
    parser.add_argument("--sales", type=int, default=40, help="cashier sales and redemptions")
    parser.add_argument("--shift-movements", type=int, default=300,
                        help="sales recorded on the cashier's shift before the timed ones (a "
                             "busy window's day so far)")
    args = parser.parse_args()
    import os

    from _setup import bench_database

    os.environ.setdefault("ALLOWED_HOSTS", "testserver")  # the test client's host
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")  # plain HTTP, as the test client speaks
    if not (os.environ.get("CASINO_PATRON_MASTER_KEY")
            or os.environ.get("CASINO_PATRON_MASTER_KEY_FILE")):  # the demo day's patrons
        import base64
        os.environ["CASINO_PATRON_MASTER_KEY"] = base64.b64encode(os.urandom(32)).decode()
    with bench_database():
        run(args.tables, args.rounds_per_table, args.rounds, args.sales, args.shift_movements)


QUERIES: dict[str, list[int]] = {}
WARM_UP = 2  # the first passes compile templates and fill caches: not timed


def _timed(times: dict[str, list[float]], name: str, call: Callable[..., Any], *args: Any,
           **kwargs: Any) -> Any:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        response = call(*args, **kwargs)
        elapsed = (time.perf_counter() - started) * 1000
    times.setdefault(name, []).append(elapsed)
    QUERIES.setdefault(name, []).append(len(queries))
    status = getattr(response, "status_code", 200)
    if status != 200 or any(code != 302 for _url, code in getattr(response, "redirect_chain", [])):
        raise SystemExit(f"{name}: HTTP {status} {getattr(response, 'redirect_chain', '')}")
    if b'role="alert"' in response.content:  # a refusal drawn on the page: nothing was timed
        raise SystemExit(f"{name}: refused: {response.content.decode()[:2000]}")
    return response


def _client(username: str) -> Any:
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def _pit(times: dict[str, list[float]], rounds: int) -> None:
    from casino.context import person_metadata
    from games.models import Round, TableSession
    from games.services import table_session_open

    meta = person_metadata(username="fiscal", role="pit_boss", casino="lisboa")
    session = TableSession.objects.filter(casino_id="lisboa", table="ra1").order_by(
        "-opened_at").first()
    opening = session.closing if session and session.closing else {"100.00": 10, "25.00": 20}
    sid = str(table_session_open(casino="lisboa", table="ra1", opening=opening,
                                 metadata=meta).session_id)
    fiscal = _client("fiscal")
    session_url = f"/pit/sessions/{sid}/"
    def post(url: str, **data: str) -> Any:
        return fiscal.post(url, {"idempotency_key": uuid.uuid4().hex, **data}, follow=True)

    for n in range(rounds):
        _timed(times, "pit: open a round", post, session_url, action="open_round")
        rid = str(Round.objects.filter(session_id=sid).order_by("-number").values_list(
            "round_id", flat=True)[0])
        url = f"/pit/rounds/{rid}/"
        _timed(times, "pit: place a bet", post, url, action="bet", form="straight",
               type="straight", numbers=str(n % 37), seat="1", amount="10")
        _timed(times, "pit: no more bets", post, url, action="close_betting")
        _timed(times, "pit: record the outcome", post, url, action="outcome",
               number=str((n * 7) % 37))
        _timed(times, "pit: settle", post, url, action="settle")
        _timed(times, "pit: the floor's rows", fiscal.get, "/pit/lisboa/floor/rows/")


def _cashier(times: dict[str, list[float]], sales: int, before: int) -> None:
    from cage.services import cage_configure, chips_sell, shift_open
    from casino.context import person_metadata

    cage_configure(code="wbench", name="Bench window", kind="window", metadata=person_metadata(
        username="admin", role="administrator", casino="lisboa"))
    shift = shift_open(cage="wbench", cash={"50.00": 400, "20.00": 500, "10.00": 500},
                       chips={"main": {"100.00": 200, "25.00": 400, "5.00": 1000}},
                       metadata=person_metadata(username="caixa", role="cashier",
                                                casino="lisboa")).shift_id
    for _ in range(before):  # the shift's day so far: its page lists its newest movements
        chips_sell(shift_id=shift, amount=Decimal("25.00"), chip_set="main", chips={"25.00": 1},
                   cash={"20.00": 1, "5.00": 1},
                   metadata=person_metadata(username="caixa", role="cashier", casino="lisboa"))
    caixa = _client("caixa")
    url = f"/cage/lisboa/shifts/{shift}/"

    def post(**data: str) -> Any:
        return caixa.post(url, {"idempotency_key": uuid.uuid4().hex, "chip_set": "main", **data},
                          follow=True)

    for _ in range(sales):
        _timed(times, "cashier: sell chips", post, action="sell", amount="150.00",
               **{"chips-main-100.00": "1", "chips-main-25.00": "2", "cash-50.00": "3"})
        _timed(times, "cashier: redeem chips", post, action="redeem", amount="50.00",
               **{"chips-main-25.00": "2", "cash-50.00": "1"})


def _line(name: str, values: list[float], queries: list[int] | None = None) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    sql = f"{statistics.median(queries):>8.0f}" if queries else f"{'':>8}"
    return (f"{name:<28} {len(values):>5} {statistics.median(ordered):>9.1f} {p95:>9.1f} "
            f"{ordered[-1]:>9.1f} {sql}")


def run(tables: int, rounds_per_table: int, rounds: int, sales: int, before: int) -> None:
    from django.core.management import call_command
    from django.test import override_settings

    from demo.day import play_day
    from eventstore.models import StoredEvent

    started = time.perf_counter()
    with override_settings(DEBUG=True):  # the demo's casinos and logins (DEBUG only)
        call_command("seed_demo", verbosity=0)
    play_day(tables=tables, rounds=rounds_per_table, seed=2007, tick=lambda: None)
    print(f"demo day: {StoredEvent.objects.count():,} events ({tables} tables, "
          f"{rounds_per_table} rounds each) in {time.perf_counter() - started:.1f} s")
    times: dict[str, list[float]] = {}
    _pit(times, rounds + WARM_UP)
    _cashier(times, sales + WARM_UP, before)
    for name in times:
        times[name], QUERIES[name] = times[name][WARM_UP:], QUERIES[name][WARM_UP:]
    print(f"{'action (submit to next page)':<28} {'n':>5} {'p50 ms':>9} {'p95 ms':>9} "
          f"{'worst ms':>9} {'queries':>8}")
    for name, values in times.items():
        print(_line(name, values, QUERIES[name]))
    every = [v for values in times.values() for v in values]
    print(_line("all actions", every))
    p95 = sorted(every)[round(0.95 * (len(every) - 1))]
    verdict = "met" if p95 < TARGET_P95_MS else "NOT met"
    print(f"target: p95 under {TARGET_P95_MS:.0f} ms: {verdict} ({Decimal(p95):.1f} ms)")


if __name__ == "__main__":
    main()
