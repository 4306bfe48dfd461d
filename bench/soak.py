"""Soak: N terminals recording at once through the APIs on gunicorn, then the day closed and every
invariant.

    python bench/soak.py [--terminals 50] [--minutes 10] [--workers 2]

Each terminal is a thread with its own HTTP connection and its own roulette table: it opens a
table session, then, until the time is up, plays live rounds (open with 6 bets, no more bets,
outcome, settle), and every few rounds takes a player's cash into the drop box, asks the cage
for a fill or returns a credit (the pit's slip, then the cashier's issue or receipt at a window)
and sells or redeems chips at a window. Every command carries an Idempotency-Key; a 409
``concurrent_change`` or a 503 is sent again with the same key, as a terminal would, and so is
one command in fifty whose answer the terminal gives up waiting for (a client timeout after a
millisecond).

When the time is up the soak ends the day as a casino does, through the same APIs: each table
closes its session on its closing count, two counters count its drop box in the count room and
the window receives it, then each window's cashier counts and closes the shift, and a cage
supervisor the vault's. The counts are the soak's own: its ``Tally`` follows every chip and note
the terminals moved, from the bets and the numbers they drew (``house_win``, worked out here
apart from the game engine) and the commands the server accepted, never read from the
projections. A count that does not match what the server expects is a finding, not something to
approve.

Afterwards it checks, and fails (exit 1, ``soak: FAILED`` and each problem) on any difference:

* the event hash chain verifies;
* every projection rebuilt from the events equals the live one (``rebuild_projections --check``);
* the ledger balances (debits equal credits, every entry);
* ``reconcile`` of the gaming day passes whole, every line (every session closed and its box
  counted and received, every shift counted and closed, the cage and the tables against the
  ledger);
* each table's win in ``reconcile`` is the soak's own figure, and each cage holds what the soak
  says it should;
* one command record per accepted command (nothing recorded twice, nothing lost).

It prints throughput, p50/p99 latency and the answers by status of the load, then the end of the
day's. Runs on a fresh throwaway database (``_setup.bench_database``) with gunicorn started here.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
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
from collections.abc import Callable, Iterable
from decimal import Decimal
from pathlib import Path
from typing import Any

from _setup import ROOT, bench_database
from bench_tables import CASINO, _database_url, _free_port, _wait_for, bets, pct
from bench_tables import setup as setup_tables

WINDOWS = ("w1", "w2")
# The share of commands whose first answer the terminal does not wait for (a client timeout):
# it sends the command again with the same key, and the first run's answer comes back.
TIMEOUT_SHARE = 0.02

# What the soak moves, by denomination: the tally starts from these and follows every command.
EUR_NOTES = ("500.00", "200.00", "100.00", "50.00", "20.00", "10.00", "5.00", "2.00", "1.00",
             "0.50", "0.20", "0.10", "0.05", "0.02", "0.01")  # every one is counted, zeros too
CHIPS = ("1000.00", "100.00", "25.00", "5.00", "1.00")  # the chip set "main" (bench_tables)
OPENING = {"100.00": 100, "25.00": 200, "5.00": 200}  # each table's float: 16,000.00
VAULT_CASH = {"100.00": 400, "20.00": 400, "5.00": 400}  # a terminal's share
VAULT_CHIPS = {"100.00": 400, "25.00": 800, "5.00": 2000, "1.00": 2000}
WINDOW_CASH = {"100.00": 150, "20.00": 150, "5.00": 150}  # sent to each window, a terminal's share
WINDOW_CHIPS = {"100.00": 150, "25.00": 300, "5.00": 800, "1.00": 800}
SLIP_CHIPS = {"25.00": 4}  # a fill or a credit
SALE_CHIPS = {"100.00": 1, "25.00": 1}  # a chip sale or redemption of 125.00
SALE_CASH = {"100.00": 1, "20.00": 1, "5.00": 1}
BUY_IN_NOTES = {"50.00": 2}  # a player's cash into the drop box, 100.00


def _scaled(counts: dict[str, int], scale: int) -> dict[str, int]:
    return {d: n * scale for d, n in counts.items()}


def _value(counts: dict[str, int]) -> Decimal:
    return sum((Decimal(d) * n for d, n in counts.items()), Decimal("0.00"))


# --- the soak's own figures ----------------------------------------------------------------------

RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
PRIZE = {"straight": 35, "split": 17, "dozen": 2, "column": 2, "red": 1, "even": 1}


def _covers(bet: dict[str, Any], number: int) -> bool:
    kind = bet["type"]
    if kind in ("straight", "split"):
        return number in list(bet["numbers"])
    if number == 0:  # 0 is no dozen, column, colour or parity
        return False
    if kind == "dozen":
        return (number - 1) // 12 + 1 == int(bet["dozen"])
    if kind == "column":
        return (number - 1) % 3 + 1 == int(bet["column"])
    if kind == "red":
        return number in RED
    if kind == "even":
        return number % 2 == 0
    raise ValueError(f"the soak does not settle {kind} bets")


def house_win(placed: Iterable[dict[str, Any]], number: int) -> Decimal:
    """What the table keeps of one round of ``bench_tables.bets``: the stakes lost less the prizes
    paid (35 to 1 a straight, 17 a split, 2 a dozen or a column, 1 red or even; 0 loses every bet
    but a straight or split on 0), worked out here, apart from the game engine."""
    kept = Decimal("0.00")
    for bet in placed:
        stake = Decimal(bet["amount"])
        kept += -stake * PRIZE[bet["type"]] if _covers(bet, number) else stake
    return kept


def tray_count(value: Decimal) -> dict[str, int]:
    """A tray worth ``value`` (whole euros) counted in chips, largest first."""
    left, counts = int(value), {}
    for denomination in ("100.00", "25.00", "5.00", "1.00"):
        counts[denomination], left = divmod(left, int(Decimal(denomination)))
    if value != int(value) or left:
        raise ValueError(f"a tray of {value} is not whole chips")
    return counts


class Holdings:
    """What one cage shift should hold by the soak's account: notes and chips by denomination."""

    def __init__(self, cash: dict[str, int], chips: dict[str, int]) -> None:
        self.cash: collections.Counter[str] = collections.Counter(cash)
        self.chips: collections.Counter[str] = collections.Counter(chips)

    def move(self, *, cash: dict[str, int] | None = None, chips: dict[str, int] | None = None,
             sign: int) -> None:
        for counter, counts in ((self.cash, cash or {}), (self.chips, chips or {})):
            for denomination, n in counts.items():
                counter[denomination] += sign * n

    def count(self) -> dict[str, Any]:
        """The closing count as the count API takes it: every denomination, zeros typed."""
        return {"cash": {d: self.cash[d] for d in EUR_NOTES},
                "chips": {"main": {d: self.chips[d] for d in CHIPS}}}

    @property
    def cash_value(self) -> Decimal:
        return _value(dict(self.cash))

    @property
    def chips_value(self) -> Decimal:
        return _value(dict(self.chips))


class Table:
    """One terminal's session by the soak's account."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.session = ""
        self.win = Decimal("0.00")  # the rounds' result: what the table kept
        self.fills = Decimal("0.00")
        self.credits = Decimal("0.00")
        self.drop: collections.Counter[str] = collections.Counter()  # the box's notes

    @property
    def tray(self) -> Decimal:
        return (_value(OPENING) + self.fills - self.credits - _value(dict(self.drop))
                + self.win)


# --- set-up -------------------------------------------------------------------------------------


def setup_cage(terminals: int) -> tuple[dict[str, str], dict[str, Holdings]]:
    """The vault with cash and chips in service, two windows stocked from it: the shifts' ids
    (the vault's as ``vault``) and what each holds."""
    from cage import services as cage
    from casino.context import person_metadata

    def carla() -> Any:
        return person_metadata(username="carla", role="cage_supervisor", casino=CASINO)

    cage.cage_configure(code="main", name="Main", kind="main", minimum_cash=Decimal("0.00"),
                        metadata=carla())
    cage.cage_configure(code="vault", name="Vault", kind="vault", minimum_cash=Decimal("0.00"),
                        metadata=carla())
    scale = max(1, terminals)
    vault = cage.shift_open(cage="vault", cash=_scaled(VAULT_CASH, scale), metadata=carla())
    cage.chips_put_into_service(
        shift_id=vault.shift_id, chip_set="main", chips=_scaled(VAULT_CHIPS, scale),
        reference="soak delivery", metadata=carla())
    shifts = {"vault": str(vault.shift_id)}
    held = {"vault": Holdings(_scaled(VAULT_CASH, scale), _scaled(VAULT_CHIPS, scale))}
    for window in WINDOWS:
        cage.cage_configure(code=window, name=window, kind="window", minimum_cash=Decimal("0.00"),
                            metadata=carla())
        cashier = person_metadata(username=f"cashier-{window}", role="cashier", casino=CASINO)
        shift = cage.shift_open(cage=window, cash={}, metadata=cashier).shift_id
        cash, chips = _scaled(WINDOW_CASH, scale), _scaled(WINDOW_CHIPS, scale)
        cage.transfer_send(shift_id=vault.shift_id, to_cage=window, cash=cash,
                           chips={"main": chips}, metadata=carla())
        held["vault"].move(cash=cash, chips=chips, sign=-1)
        held[window] = Holdings(cash, chips)
        shifts[window] = str(shift)
    return shifts, held


def tokens() -> dict[str, str]:
    """A token for each person: the pit boss at the tables, the cashier at the windows and in the
    count room, the cage supervisor (the count room's second counter and the vault)."""
    from django.contrib.auth import get_user_model

    from access.models import ApiToken
    from casino.models import Membership, Role

    found: dict[str, str] = {}
    for name, role in (("soak-pit", Role.PIT_BOSS), ("soak-cage", Role.CASHIER),
                       ("soak-supervisor", Role.CAGE_SUPERVISOR)):
        user = get_user_model().objects.create_user(name, password=uuid.uuid4().hex)
        Membership.objects.create(user=user, casino_id=CASINO, role=role)
        found[role] = ApiToken.objects.create(user=user, expiry=dt.timedelta(days=1))[1]
    return found


# --- the terminals -------------------------------------------------------------------------------


class Tally:
    def __init__(self, held: dict[str, Holdings]) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.statuses: collections.Counter[int] = collections.Counter()
        self.accepted = 0
        self.resent = 0
        self.timeouts = 0
        self.failures: list[str] = []
        self.held = held
        self.tables: dict[str, Table] = {}

    def move(self, where: str, **counts: Any) -> None:
        with self.lock:
            self.held[where].move(**counts)

    def figures(self) -> tuple[list[float], collections.Counter[int], int, int, int]:
        """The figures so far, and a fresh start for the next phase's."""
        with self.lock:
            found = (self.latencies, self.statuses, self.accepted, self.resent, self.timeouts)
            self.latencies, self.statuses = [], collections.Counter()
            self.accepted = self.resent = self.timeouts = 0
        return found


class Client:
    """One terminal's HTTP connection: every command keyed, sent again on a retryable answer or a
    lost connection with the same key."""

    def __init__(self, port: int, keys: dict[str, str], tally: Tally, rng: random.Random,
                 label: str) -> None:
        self.port, self.keys, self.tally, self.rng, self.label = port, keys, tally, rng, label
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def close(self) -> None:
        self.conn.close()

    def call(self, path: str, body: dict[str, Any] | None = None, *, who: str = "pit_boss"
             ) -> dict[str, Any]:
        tally = self.tally
        key = f"{self.label}:{uuid.uuid4().hex}"
        headers = {"Authorization": f"Token {self.keys[who]}",
                   "Content-Type": "application/json", "Idempotency-Key": key}
        for attempt in range(20):
            t0 = time.perf_counter()
            impatient = attempt == 0 and self.rng.random() < TIMEOUT_SHARE
            try:
                self.conn.request("POST", f"/api/v1{path}", json.dumps(body or {}), headers)
                if impatient and self.conn.sock is not None:  # gives up before the answer
                    self.conn.sock.settimeout(0.001)
                response = self.conn.getresponse()
                raw = response.read()
            except (OSError, http.client.HTTPException):  # a timeout: the same key again
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                with tally.lock:
                    tally.resent += 1
                    tally.timeouts += impatient
                continue
            if impatient and self.conn.sock is not None:
                self.conn.sock.settimeout(60)
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


def terminal(index: int, port: int, keys: dict[str, str], shifts: dict[str, str],
             start: threading.Barrier, minutes: float, tally: Tally) -> None:
    rng = random.Random(index)
    table = Table(f"r{index + 2}")
    with tally.lock:
        tally.tables[table.code] = table
    client = Client(port, keys, tally, rng, table.code)
    call = client.call
    window = WINDOWS[index % len(WINDOWS)]
    cage = f"/cage/{CASINO}/shifts/{shifts[window]}"

    slips = 0
    try:
        table.session = call(f"/pit/tables/{CASINO}/{table.code}/sessions/",
                             {"opening": OPENING})["session_id"]
        start.wait()  # every terminal's table open (and gunicorn warm): the clock starts
        stop = time.monotonic() + minutes * 60
        played = 0
        session = f"/pit/sessions/{table.session}"
        while time.monotonic() < stop:
            placed = bets(rng)
            number = rng.randrange(37)
            rid = call(f"{session}/rounds/open/", {"bets": placed})["round_id"]
            call(f"/pit/rounds/{rid}/close-betting/")
            call(f"/pit/rounds/{rid}/outcome/", {"outcome": {"number": number}})
            call(f"/pit/rounds/{rid}/settle/")
            table.win += house_win(placed, number)
            played += 1
            if played % 10 == 0:  # a player buys chips at the table: cash into the drop box
                call(f"{session}/drops/", {"amount": str(_value(BUY_IN_NOTES)), "seat": 1})
                table.drop.update(BUY_IN_NOTES)
            if played % 5 == 0:  # a fill, or a credit, between the pit and a window
                slips += 1
                kind = "fill" if slips % 2 else "credit"
                number_on_slip = f"{table.code}-{kind[0]}{slips}"
                call(f"{session}/{kind}s/", {"slip": number_on_slip, "chips": SLIP_CHIPS})
                call(f"{cage}/{kind}s/", {"slip": number_on_slip}, who="cashier")
                if kind == "fill":
                    table.fills += _value(SLIP_CHIPS)
                else:
                    table.credits += _value(SLIP_CHIPS)
                tally.move(window, chips=SLIP_CHIPS, sign=-1 if kind == "fill" else 1)
            if played % 3 == 0:  # a player buys chips, or cashes them in
                sale = bool(played % 2)
                call(f"{cage}/{'chip-sales' if sale else 'chip-redemptions'}/",
                     {"amount": str(_value(SALE_CASH)), "chip_set": "main",
                      "chips": SALE_CHIPS, "cash": SALE_CASH}, who="cashier")
                tally.move(window, cash=SALE_CASH, sign=1 if sale else -1)
                tally.move(window, chips=SALE_CHIPS, sign=-1 if sale else 1)
    except Exception as exc:  # counted and shown below; the soak fails
        start.abort()
        with tally.lock:
            tally.failures.append(f"terminal {index}: {exc}")
    finally:
        client.close()


# --- the end of the day ---------------------------------------------------------------------------


def close_table(table: Table, port: int, keys: dict[str, str], shifts: dict[str, str],
                window: str, tally: Tally) -> None:
    """The table closes on its count, the count room counts its box (two counters, neither the
    pit boss), the window receives it."""
    client = Client(port, keys, tally, random.Random(table.code), table.code)
    session = f"/pit/sessions/{table.session}"
    notes = dict(table.drop)
    try:
        client.call(f"{session}/close/", {"closing": tray_count(table.tray)})
        client.call(f"{session}/drop-box/count/", {"cash": notes}, who="cashier")
        client.call(f"{session}/drop-box/confirm/", {"cash": notes}, who="cage_supervisor")
        client.call(f"/cage/{CASINO}/shifts/{shifts[window]}/drop-boxes/",
                    {"session_id": table.session, "cash": notes}, who="cashier")
        tally.move(window, cash=notes, sign=1)
    except Exception as exc:
        with tally.lock:
            tally.failures.append(f"closing table {table.code}: {exc}")
    finally:
        client.close()


def close_shift(where: str, shift: str, client: Client, tally: Tally, who: str) -> None:
    """The shift counted on the soak's count and closed; a count that does not balance is a
    finding (its lines shown), never explained away."""
    path = f"/cage/{CASINO}/shifts/{shift}"
    try:
        counted = client.call(f"{path}/count/", tally.held[where].count(), who=who)
        if not counted.get("balanced"):
            off = [line for line in counted.get("lines", []) if line.get("variance")]
            with tally.lock:
                tally.failures.append(f"{where}: the soak's count differs from what the shift "
                                      f"should hold by {counted.get('variance_value')}: {off}")
            return
        client.call(f"{path}/close/", who=who)
    except Exception as exc:
        with tally.lock:
            tally.failures.append(f"closing {where}'s shift: {exc}")


def end_of_day(port: int, keys: dict[str, str], shifts: dict[str, str], tally: Tally) -> None:
    tables = sorted(tally.tables.values(), key=lambda t: int(t.code[1:]))
    threads = [threading.Thread(target=close_table,
                                args=(t, port, keys, shifts, WINDOWS[i % len(WINDOWS)], tally))
               for i, t in enumerate(tables) if t.session]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    client = Client(port, keys, tally, random.Random(0), "cage")
    try:
        for window in WINDOWS:
            close_shift(window, shifts[window], client, tally, "cashier")
        close_shift("vault", shifts["vault"], client, tally, "cage_supervisor")
    finally:
        client.close()


# --- the invariants -----------------------------------------------------------------------------


def invariants(accepted: int, tally: Tally) -> list[str]:
    """Every invariant after the day; the differences found (none when all hold)."""
    from django.db import connection

    import eventstore
    from eventstore.models import CommandRecord
    from eventstore.verify import verify_chain
    from games.models import TableSession
    from reporting.reconciliation import reconcile

    connection.close()  # this process's connection may have died with a restarted server
    found = []
    chain = verify_chain()
    print(f"  events verify: {chain.ok} ({chain.checked:,} events)")
    if not chain.ok:
        found.append(f"hash chain broken at {chain.bad_position}: {chain.reason}")
    differences = eventstore.check()
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
    days = sorted(set(TableSession.objects.filter(casino_id=CASINO)
                      .values_list("gaming_day", flat=True)))
    soak_win = {t.code: t.win for t in tally.tables.values() if t.session}
    for day in days:
        report = reconcile(casino=CASINO, gaming_day=day)
        wrong = report.failures
        print(f"  reconcile {day}: {len(report.lines) - len(wrong)} lines agree, "
              f"{len(wrong)} differ")
        for line in wrong:
            if line.what.startswith("table variance of session"):
                found.append(f"table {line.subject}: closed on the soak's own count (rounds won "
                             f"{tally.tables[line.subject].win}), the server's rounds differ "
                             f"by {line.note}")
            found.append(f"reconcile {day}: {line.as_dict()}")
        for line in report.lines:
            if line.area == "table" and line.what == "table win" and line.subject in soak_win:
                own_win = soak_win.pop(line.subject)
                if line.platform != own_win:
                    found.append(f"table {line.subject}: win {line.platform} in reconcile, "
                                 f"the soak's own {own_win}")
            if line.area == "cage" and line.subject in tally.held:
                held = tally.held[line.subject]
                own = held.cash_value if line.what == "cash now" else held.chips_value
                if line.platform != own:
                    found.append(f"cage {line.subject}: {line.what} {line.platform} in "
                                 f"reconcile, the soak's own {own}")
    print(f"  table wins as the soak worked them out: {sum(t.win for t in tally.tables.values())}"
          f" over {len(tally.tables)} tables; tables without a win in reconcile: "
          f"{len(soak_win)}")
    found += [f"table {code}: no table win in reconcile (the soak's own {win})"
              for code, win in sorted(soak_win.items())]
    records = CommandRecord.objects.filter(casino_id=CASINO).count()
    print(f"  command records {records:,} = accepted commands {accepted:,}: "
          f"{records == accepted}")
    if records != accepted:
        found.append(f"{records} command records for {accepted} accepted commands")
    return found


def _figures(label: str, latencies: list[float], statuses: collections.Counter[int],
             accepted: int, resent: int, timeouts: int, elapsed: float) -> None:
    print(f"  {label}: {len(latencies):,} requests, {len(latencies) / elapsed:,.1f} requests/s, "
          f"{accepted:,} commands accepted ({accepted / elapsed:,.1f}/s), "
          f"p50 {pct(latencies, 0.5):.1f} ms, p99 {pct(latencies, 0.99):.1f} ms")
    print("    by status: " + ", ".join(f"{s}: {n:,}" for s, n in sorted(statuses.items()))
          + f"; sent again with the same key: {resent:,} ({timeouts:,} after a client timeout)")


def run(terminals: int, minutes: float, workers: int,
        fault: Callable[[float], None] | None = None) -> int:
    """The load, the end of the day and the invariants; ``fault(seconds)``, when given, runs in
    a thread of its own as the clock starts (``bench/faults.py``). Exit status: 1 on any
    problem."""
    os.environ.setdefault("TEST_DATABASE_NAME", "casino_soak_throwaway")
    with bench_database():
        setup_tables(tables=2 + terminals)
        shifts, held = setup_cage(terminals)
        keys = tokens()
        gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent)) or "gunicorn"
        port = _free_port()
        env = dict(os.environ, DATABASE_URL=_database_url(), DEBUG="0", SECRET_KEY="soak-only",
                   ALLOWED_HOSTS="127.0.0.1", DJANGO_SETTINGS_MODULE="config.settings",
                   SECURE_SSL_REDIRECT="0", API_THROTTLE_USER="1000000/min",
                   CELERY_BROKER_URL="")
        server = subprocess.Popen(
            [gunicorn, "config.wsgi", "--workers", str(workers), "--threads", "4",
             "--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--timeout", "120"],
            cwd=ROOT, env=env)
        tally = Tally(held)
        try:
            _wait_for(port)
            start = threading.Barrier(terminals + 1)
            threads = [threading.Thread(target=terminal,
                                        args=(i, port, keys, shifts, start, minutes, tally))
                       for i in range(terminals)]
            for t in threads:
                t.start()
            with contextlib.suppress(threading.BrokenBarrierError):
                start.wait()  # broken when a table did not open: shown below
            opened = tally.figures()[2]  # the sessions' opening is not counted in the load
            started = time.perf_counter()
            if fault is not None:
                threading.Thread(target=fault, args=(minutes * 60,), daemon=True).start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - started
            load = tally.figures()
            began = time.perf_counter()
            if not tally.failures:
                end_of_day(port, keys, shifts, tally)
            closing = tally.figures()
            closing_time = time.perf_counter() - began
        finally:
            server.terminate()
            server.wait(timeout=60)
        print(f"soak: {terminals} terminals, {elapsed:.0f} s, gunicorn {workers} "
              f"workers x 4 threads")
        _figures("load", *load, elapsed=elapsed)
        _figures("end of the day (sessions closed, boxes counted and received, shifts counted "
                 "and closed)", *closing, elapsed=max(closing_time, 1e-9))
        failures = list(tally.failures)
        problems = failures + invariants(opened + load[2] + closing[2], tally)
        if problems:
            print(f"soak: FAILED, {len(problems)} problems:")
            for problem in problems[:20]:
                print("  ", problem[:4000])
            return 1
        print("soak: the day closed and every invariant holds")
        return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--terminals", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()
    return run(args.terminals, args.minutes, args.workers)


if __name__ == "__main__":
    sys.exit(main())
