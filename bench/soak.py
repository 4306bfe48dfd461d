"""Soak: N terminals recording at once through the APIs on gunicorn, then every invariant.

    python bench/soak.py [--terminals 50] [--minutes 10] [--workers 2]

Each terminal is a thread with its own HTTP connection and its own roulette table: it opens a
table session, then, until the time is up, plays live rounds (open with 6 bets, no more bets,
outcome, settle), and every few rounds asks the cage for a fill or returns a credit (the pit's
slip, then the cashier's issue or receipt at a window) and sells or redeems chips at a window.
Every command carries an Idempotency-Key; a 409 ``concurrent_change`` or a 503 is sent again
with the same key, as a terminal would, and so is one command in fifty whose answer the terminal
gives up waiting for (a client timeout after a millisecond). Afterwards it checks, and fails on any difference:

* the event hash chain verifies;
* every projection rebuilt from the events equals the live one (``rebuild_projections --check``);
* the ledger balances (debits equal credits, every entry);
* ``reconcile`` of the gaming day passes (exit 0);
* one command record per accepted command (nothing recorded twice, nothing lost).

It prints throughput, p50/p99 latency and the answers by status. Runs on a fresh throwaway
database (``_setup.bench_database``) with gunicorn started here.
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _setup import ROOT, bench_database
from bench_tables import CASINO, _database_url, _free_port, _wait_for, bets, pct
from bench_tables import setup as setup_tables

WINDOWS = ("w1", "w2")
# The share of commands whose first answer the terminal does not wait for (a client timeout):
# it sends the command again with the same key, and the first run's answer comes back.
TIMEOUT_SHARE = 0.02


def setup_cage(terminals: int) -> dict[str, str]:
    """The vault with cash and chips in service, two windows stocked from it."""
    from casino.cage import services as cage
    from casino.context import person_metadata

    def carla() -> Any:
        return person_metadata(username="carla", role="cage_supervisor", casino=CASINO)

    cage.cage_configure(code="main", name="Main", kind="main", minimum_cash="0.00",
                        metadata=carla())
    cage.cage_configure(code="vault", name="Vault", kind="vault", minimum_cash="0.00",
                        metadata=carla())
    scale = max(1, terminals)
    vault = cage.shift_open(cage="vault", cash={"100.00": 400 * scale, "20.00": 400 * scale,
                                                "5.00": 400 * scale}, metadata=carla())
    cage.chips_put_into_service(
        shift_id=vault["shift_id"], chip_set="main",
        chips={"100": 400 * scale, "25": 800 * scale, "5": 2000 * scale, "1": 2000 * scale},
        reference="soak delivery", metadata=carla())
    shifts = {}
    for window in WINDOWS:
        cage.cage_configure(code=window, name=window, kind="window", minimum_cash="0.00",
                            metadata=carla())
        cashier = person_metadata(username=f"cashier-{window}", role="cashier", casino=CASINO)
        shift = cage.shift_open(cage=window, cash={}, metadata=cashier)["shift_id"]
        cage.transfer_send(shift_id=vault["shift_id"], to_cage=window,
                           cash={"100.00": 150 * scale, "20.00": 150 * scale, "5.00": 150 * scale},
                           chips={"main": {"100": 150 * scale, "25": 300 * scale,
                                           "5": 800 * scale, "1": 800 * scale}},
                           metadata=carla())
        shifts[window] = str(shift)
    return shifts


def tokens() -> dict[str, str]:
    from django.contrib.auth import get_user_model

    from casino.access.models import ApiToken
    from casino.models import Membership, Role

    found = {}
    for name, role in (("soak-pit", Role.PIT_BOSS), ("soak-cage", Role.CASHIER)):
        user = get_user_model().objects.create_user(name, password=uuid.uuid4().hex)
        Membership.objects.create(user=user, casino_id=CASINO, role=role)
        found[role] = ApiToken.objects.create(user=user, expiry=dt.timedelta(days=1))[1]
    return found


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.statuses: collections.Counter[int] = collections.Counter()
        self.accepted = 0
        self.resent = 0
        self.timeouts = 0
        self.failures: list[str] = []


def terminal(index: int, port: int, keys: dict[str, str], shifts: dict[str, str],
             start: threading.Barrier, minutes: float, tally: Tally) -> None:
    rng = random.Random(index)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    table = f"r{index + 2}"
    window = WINDOWS[index % len(WINDOWS)]

    def call(path: str, body: dict[str, Any] | None = None, *, who: str = "pit_boss"
             ) -> dict[str, Any]:
        nonlocal conn
        key = f"{table}:{uuid.uuid4().hex}"
        headers = {"Authorization": f"Token {keys[who]}", "Content-Type": "application/json",
                   "Idempotency-Key": key}
        for attempt in range(20):
            t0 = time.perf_counter()
            impatient = attempt == 0 and rng.random() < TIMEOUT_SHARE
            try:
                conn.request("POST", f"/api/v1{path}", json.dumps(body or {}), headers)
                if impatient and conn.sock is not None:  # gives up before the answer comes
                    conn.sock.settimeout(0.001)
                response = conn.getresponse()
                raw = response.read()
            except (OSError, http.client.HTTPException):  # a timeout: the same key again
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                with tally.lock:
                    tally.resent += 1
                    tally.timeouts += impatient
                continue
            if impatient and conn.sock is not None:
                conn.sock.settimeout(60)
            elapsed = time.perf_counter() - t0
            with tally.lock:
                tally.latencies.append(elapsed)
                tally.statuses[response.status] += 1
            if response.status in (409, 503) and b"retryable" in raw:
                with tally.lock:
                    tally.resent += 1
                time.sleep(0.05 * (attempt + 1))
                continue
            data = json.loads(raw or b"{}")
            if response.status >= 300:
                raise RuntimeError(f"{response.status} {path}: {data}")
            with tally.lock:
                tally.accepted += 1
            return dict(data)
        raise RuntimeError(f"{path}: gave up after 20 attempts")

    slips = 0
    try:
        session = call(f"/pit/tables/{CASINO}/{table}/sessions/",
                       {"opening": {"100.00": 100, "25.00": 200, "5.00": 200}})["session_id"]
        start.wait()  # every terminal's table open (and gunicorn warm): the clock starts
        stop = time.monotonic() + minutes * 60
        played = 0
        while time.monotonic() < stop:
            rid = call(f"/pit/sessions/{session}/rounds/open/", {"bets": bets(rng)})["round_id"]
            call(f"/pit/rounds/{rid}/close-betting/")
            call(f"/pit/rounds/{rid}/outcome/", {"outcome": {"number": rng.randrange(37)}})
            call(f"/pit/rounds/{rid}/settle/")
            played += 1
            if played % 5 == 0:  # a fill, or a credit, between the pit and a window
                slips += 1
                kind = "fill" if slips % 2 else "credit"
                number = f"{table}-{kind[0]}{slips}"
                call(f"/pit/sessions/{session}/{kind}s/", {"slip": number,
                                                           "chips": {"25.00": 4}})
                call(f"/cage/{CASINO}/shifts/{shifts[window]}/{kind}s/", {"slip": number},
                     who="cashier")
            if played % 3 == 0:  # a player buys chips, or cashes them in
                path = "chip-sales" if played % 2 else "chip-redemptions"
                call(f"/cage/{CASINO}/shifts/{shifts[window]}/{path}/",
                     {"amount": "125.00", "chip_set": "main",
                      "chips": {"100.00": 1, "25.00": 1},
                      "cash": {"100.00": 1, "20.00": 1, "5.00": 1}}, who="cashier")
    except Exception as exc:  # counted and shown below; the soak fails
        start.abort()
        with tally.lock:
            tally.failures.append(f"terminal {index}: {exc}")
    finally:
        conn.close()


def invariants(accepted: int) -> list[str]:
    """Every invariant after the load; the differences found (none when all hold)."""
    from django.db import connection
    from django.utils import timezone

    from casino.eventstore import projections
    from casino.eventstore.models import CommandRecord
    from casino.eventstore.verify import verify_chain
    from casino.models import Casino
    from ledger.reconciliation import reconcile

    connection.close()  # this process's connection may have died with a restarted server
    found = []
    chain = verify_chain()
    print(f"  events verify: {chain.ok} ({chain.checked:,} events)")
    if not chain.ok:
        found.append(f"hash chain broken at {chain.bad_position}: {chain.reason}")
    differences = projections.check()
    print(f"  projections rebuilt equal live: {not differences}")
    found += [f"projection {d.projection} table {d.table} differs" for d in differences]
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM (SELECT entry_id FROM journal_line GROUP BY entry_id"
                       " HAVING sum(debit) <> sum(credit)) unbalanced")
        unbalanced = cursor.fetchone()[0]
        cursor.execute("SELECT coalesce(sum(debit), 0), coalesce(sum(credit), 0) "
                       "FROM journal_line")
        debit, credit = cursor.fetchone()
    print(f"  ledger balances: debits {debit:,} credits {credit:,}, unbalanced entries "
          f"{unbalanced}")
    if unbalanced or debit != credit:
        found.append("the ledger does not balance")
    day = Casino.objects.get(code=CASINO).gaming_day(timezone.now())
    report = reconcile(casino=CASINO, gaming_day=day)
    # The terminals' sessions are still open when the load stops (their win is not known until
    # they close and their boxes are counted: the close is bench_close's); every other line,
    # every figure against the ledger, must agree.
    still_open = [line for line in report.lines if line.what == "session still open"]
    wrong = [line for line in report.lines if not line.ok and line not in still_open]
    print(f"  reconcile {day}: {len(report.lines) - len(still_open) - len(wrong)} lines agree, "
          f"{len(wrong)} differ, {len(still_open)} sessions still open (not closed by the soak)")
    if wrong:
        found += [f"reconcile: {line.as_dict()}" for line in wrong]
    records = CommandRecord.objects.filter(casino_id=CASINO).count()
    print(f"  command records {records:,} = accepted commands {accepted:,}: "
          f"{records == accepted}")
    if records != accepted:
        found.append(f"{records} command records for {accepted} accepted commands")
    return found


def run(terminals: int, minutes: float, workers: int,
        fault: Callable[[float], None] | None = None) -> int:
    """The load and the invariants; ``fault(seconds)``, when given, runs in a thread of its own
    as the clock starts (``bench/faults.py``). Exit status: 1 on any problem."""
    os.environ.setdefault("TEST_DATABASE_NAME", "casino_soak_throwaway")
    with bench_database():
        setup_tables(tables=2 + terminals)
        shifts = setup_cage(terminals)
        keys = tokens()
        gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent)) or "gunicorn"
        port = _free_port()
        env = dict(os.environ, DATABASE_URL=_database_url(), DEBUG="0", SECRET_KEY="soak-only",
                   ALLOWED_HOSTS="127.0.0.1", DJANGO_SETTINGS_MODULE="casino.settings",
                   SECURE_SSL_REDIRECT="0", API_THROTTLE_USER="1000000/min",
                   CELERY_BROKER_URL="")
        server = subprocess.Popen(
            [gunicorn, "casino.wsgi", "--workers", str(workers), "--threads", "4",
             "--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--timeout", "120"],
            cwd=ROOT, env=env)
        tally = Tally()
        try:
            _wait_for(port)
            start = threading.Barrier(terminals + 1)
            threads = [threading.Thread(target=terminal,
                                        args=(i, port, keys, shifts, start, minutes, tally))
                       for i in range(terminals)]
            for t in threads:
                t.start()
            start.wait()
            with tally.lock:  # the sessions' opening is not counted
                tally.latencies.clear()
                tally.statuses.clear()
                opened, tally.accepted = tally.accepted, 0
            started = time.perf_counter()
            if fault is not None:
                threading.Thread(target=fault, args=(minutes * 60,), daemon=True).start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - started
        finally:
            server.terminate()
            server.wait(timeout=60)
        every = tally.latencies
        print(f"soak: {terminals} terminals, {elapsed:.0f} s, gunicorn {workers} "
              f"workers x 4 threads")
        print(f"  {len(every):,} requests, {len(every) / elapsed:,.1f} requests/s, "
              f"{tally.accepted:,} commands accepted ({tally.accepted / elapsed:,.1f}/s), "
              f"p50 {pct(every, 0.5):.1f} ms, p99 {pct(every, 0.99):.1f} ms")
        print("  by status: " + ", ".join(f"{s}: {n:,}" for s, n in sorted(tally.statuses.items()))
              + f"; sent again with the same key: {tally.resent:,} "
              f"({tally.timeouts:,} after a client timeout)")
        for failure in tally.failures[:10]:
            print("  FAILED", failure[:300])
        problems = invariants(opened + tally.accepted) + tally.failures
        print("soak: every invariant holds" if not problems else
              f"soak: {len(problems)} problems")
        for problem in problems[:10]:
            print("  ", problem[:4000])
        return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--terminals", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()
    return run(args.terminals, args.minutes, args.workers)


if __name__ == "__main__":
    sys.exit(main())
