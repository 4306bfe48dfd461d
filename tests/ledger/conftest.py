"""Fixtures of the ledger's tests: a casino floor driven through the cage's and the pit's own
services (never by inserting event rows), and a clock to travel through gaming days.

``Floor`` is one casino (Lisbon, gaming day closing at 06:00) with the vault, window w1, the
main cage and a roulette table; its methods are the everyday operations, each one service call.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from unittest import mock

import pytest

from cage import services as cage
from casino.context import person_metadata, system_metadata
from casino.models import Role
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from eventstore.answers import as_data
from eventstore.records import Metadata
from games.limits import default_limits
from games.services import count_room, rounds, sessions, tables

CASINO = "lisboa"
CHIP_SET = "main"
DENOMINATIONS = ("100.00", "25.00", "5.00", "1.00")
VAULT_CASH = {"500.00": 40, "100.00": 300, "50.00": 200, "20.00": 500, "10.00": 500}
NEW_CHIPS = {"100.00": 500, "25.00": 800, "5.00": 2000, "1.00": 2000}
TABLE_FLOAT = {"100.00": 10, "25.00": 40, "5.00": 100, "1.00": 100}  # 3,600.00


def act(name: str, role: str, casino: str = CASINO) -> Metadata:
    return person_metadata(username=name, role=role, casino=casino)


def cashier() -> Metadata:
    return act("ana", Role.CASHIER)


def supervisor() -> Metadata:
    return act("carla", Role.CAGE_SUPERVISOR)


def supervisor2() -> Metadata:
    return act("duarte", Role.CAGE_SUPERVISOR)


def pit_boss(name: str = "paulo") -> Metadata:
    return act(name, Role.PIT_BOSS)


def system(casino: str = CASINO) -> Metadata:
    return system_metadata(casino, job="test")


@dataclass
class Floor:
    """One casino's floor, operated through the services."""

    vault: str = ""
    window: str = ""
    tables: dict[str, str] = field(default_factory=dict)  # table -> open session id
    games: dict[str, str] = field(default_factory=dict)  # table -> game
    _slips: Iterator[int] = field(default_factory=lambda: itertools.count(1001))

    # cage ------------------------------------------------------------------------------------
    def sell(self, chips: dict[str, int], cash: dict[str, int]) -> None:
        amount = sum(Decimal(d) * n for d, n in chips.items())
        cage.chips_sell(shift_id=self.window, amount=amount, chips=chips, cash=cash,
                        chip_set=CHIP_SET, metadata=cashier())

    def redeem(self, chips: dict[str, int], cash: dict[str, int]) -> None:
        amount = sum(Decimal(d) * n for d, n in chips.items())
        cage.chips_redeem(shift_id=self.window, amount=amount, chips=chips, cash=cash,
                          chip_set=CHIP_SET, metadata=cashier())

    def stock_window(self, cash: dict[str, int], chips: dict[str, int]) -> None:
        cage.transfer_send(shift_id=self.vault, to_cage="w1", cash=cash,
                           chips={CHIP_SET: chips}, metadata=supervisor())

    # tables ----------------------------------------------------------------------------------
    def open_table(self, table: str = "r1", game: str = "french_roulette",
                   opening: dict[str, int] | None = None) -> str:
        if table not in self.games:
            tables.table_configure(
                casino=CASINO, code=table, name=table.upper(), game=game, seats=8,
                chip_set=CHIP_SET, limits=default_limits(game, Decimal("1.00")),
                metadata=pit_boss())
            self.games[table] = game
            opening = opening or TABLE_FLOAT
        done = sessions.table_session_open(casino=CASINO, table=table, opening=opening,
                                           metadata=pit_boss())
        self.tables[table] = str(done.session_id)
        return self.tables[table]

    def fill(self, table: str, chips: dict[str, int]) -> str:
        slip = f"F-{next(self._slips)}"
        sessions.fill_request(session_id=self.tables[table], slip=slip, chips=chips,
                              metadata=pit_boss())
        cage.fill_issue(shift_id=self.window, slip=slip, metadata=cashier())
        return slip

    def credit(self, table: str, chips: dict[str, int], *, receive: bool = True) -> str:
        slip = f"C-{next(self._slips)}"
        sessions.credit_request(session_id=self.tables[table], slip=slip, chips=chips,
                                metadata=pit_boss())
        if receive:
            cage.credit_receive(shift_id=self.window, slip=slip, metadata=cashier())
        return slip

    def void_credit(self, slip: str) -> None:
        sessions.slip_void(casino=CASINO, kind="credit", slip=slip, reason="wrong table",
                           metadata=pit_boss())

    def buy_in(self, table: str, amount: str) -> None:
        sessions.drop_record(session_id=self.tables[table], amount=amount, metadata=pit_boss())

    def spin(self, table: str, bets: list[dict[str, object]], number: int) -> dict[str, object]:
        return rounds.round_record(session_id=self.tables[table], bets=bets,
                                   outcome={"number": number}, metadata=pit_boss())

    def close_table(self, table: str, closing: dict[str, int], drop: str) -> dict[str, object]:
        """Close the session, and have its drop box counted at ``drop`` in the count room by
        two counters who did not work the table (Teresa, cashier; Ulisses, cage supervisor)."""
        session_id = self.tables.pop(table)
        closed = sessions.table_session_close(session_id=session_id, closing=closing,
                                              metadata=pit_boss())
        count_room.drop_box_count(session_id=session_id, cash=notes(drop),
                                  metadata=act("teresa", Role.CASHIER))
        counted = count_room.drop_box_count_confirm(
            session_id=session_id, cash=notes(drop), metadata=act("ulisses", Role.CAGE_SUPERVISOR))
        return {**as_data(closed), "drop": counted.drop, "table_win": counted.table_win}


def notes(amount: str) -> dict[str, int]:
    """``amount`` in euro notes and coins, largest first (a drop box's contents)."""
    from casino.money import CASH_DENOMINATIONS

    rest, out = Decimal(amount), {}
    for d in CASH_DENOMINATIONS["EUR"]:
        if rest >= d:
            out[f"{d:.2f}"], rest = int(rest // d), rest % d
    return out


def make_floor(casino: str = CASINO, *, currency: str = "EUR",
               time_zone: str = "Europe/Lisbon") -> Floor:
    meta = system(casino)
    casino_register(code=casino, name=f"Casino {casino}", currency=currency,
                    time_zone=time_zone, gaming_day_closes_at=6, metadata=meta)
    chip_set_register(casino=casino, code=CHIP_SET, name="Value chips",
                      denominations=list(DENOMINATIONS), metadata=meta)
    for code, kind in (("main", "main"), ("w1", "window"), ("vault", "vault")):
        cage.cage_configure(code=code, name=code.title(), kind=kind, minimum_cash=Decimal("0.00"),
                            metadata=act("carla", Role.CAGE_SUPERVISOR, casino))
    floor = Floor()
    floor.vault = str(cage.shift_open(cage="vault", cash=VAULT_CASH,
                                      metadata=act("carla", Role.CAGE_SUPERVISOR, casino)).shift_id)
    cage.chips_put_into_service(shift_id=floor.vault, chip_set=CHIP_SET, chips=NEW_CHIPS,
                                reference="delivery note 117",
                                metadata=act("carla", Role.CAGE_SUPERVISOR, casino))
    floor.window = str(cage.shift_open(cage="w1", cash={},
                                       metadata=act("ana", Role.CASHIER, casino)).shift_id)
    return floor


@pytest.fixture
def floor(db: None) -> Floor:
    """A casino with its vault open, chips in service and window w1 stocked from the vault."""
    f = make_floor()
    f.stock_window({"100.00": 20, "50.00": 20, "20.00": 50, "10.00": 50},
                   {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    return f


class Clock:
    """``timezone.now()`` held at a chosen moment (the event store stamps events with it)."""

    def __init__(self) -> None:
        self.now: dt.datetime | None = None

    def set(self, moment: dt.datetime) -> None:
        if moment.tzinfo is None:
            raise ValueError("give the clock an aware moment")
        self.now = moment

    @contextmanager
    def at(self, moment: dt.datetime) -> Iterator[None]:
        before = self.now
        self.set(moment)
        try:
            yield
        finally:
            self.now = before


@pytest.fixture
def clock() -> Iterator[Clock]:
    """Travel in time: patches the one clock the store and the services read."""
    from django.utils import timezone

    real_now = timezone.now
    the_clock = Clock()
    with mock.patch("django.utils.timezone.now",
                    side_effect=lambda: the_clock.now or real_now()):
        yield the_clock


@pytest.fixture(autouse=True)
def seal_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test casino's Ed25519 seal key, from the environment as in production (a gaming
    day's close seals it: ``reporting.seals``)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    for code in ("LISBOA", "MACAU", "PORTO"):
        pem = Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption()).decode()
        monkeypatch.setenv(f"CASINO_SEAL_KEY_{code}", pem)
