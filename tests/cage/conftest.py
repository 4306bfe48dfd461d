"""Fixtures of the cage's tests: a casino with one chip set, its cages, people, and the pit.

Domain state is built by calling services (never by inserting event rows). People act through
``Metadata`` in the services' tests and through logged-in users in the API tests.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from unittest import mock

import pytest

from cage import services as cage
from casino.context import person_metadata, system_metadata
from casino.models import Casino, Role
from casino.money import CASH_DENOMINATIONS, fmt
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from eventstore.records import Metadata
from games.limits import default_limits
from games.services import sessions, tables

CASINO = "lisboa"
CHIP_SET = "main"
CHIP_DENOMINATIONS = ("100.00", "25.00", "5.00", "1.00")

# What the vault starts with (a blind count) and the chips delivered into service.
VAULT_CASH = {"500.00": 40, "100.00": 300, "50.00": 200, "20.00": 500, "10.00": 500}
NEW_CHIPS = {"100.00": 500, "25.00": 800, "5.00": 2000, "1.00": 2000}


def act(name: str, role: str = Role.CASHIER, *, key: str = "") -> Metadata:
    return person_metadata(username=name, role=role, casino=CASINO, idempotency_key=key)


def ana(key: str = "") -> Metadata:
    """Ana, cashier at window 1."""
    return act("ana", Role.CASHIER, key=key)


def bruno(key: str = "") -> Metadata:
    """Bruno, another cashier."""
    return act("bruno", Role.CASHIER, key=key)


def carla(key: str = "") -> Metadata:
    """Carla, cage supervisor (she also runs the vault)."""
    return act("carla", Role.CAGE_SUPERVISOR, key=key)


def duarte(key: str = "") -> Metadata:
    """Duarte, a second cage supervisor."""
    return act("duarte", Role.CAGE_SUPERVISOR, key=key)


@pytest.fixture
def casino(db: None) -> Casino:
    meta = system_metadata(CASINO, job="test")
    casino_register(code=CASINO, name="Casino Lisboa", currency="EUR",
                    time_zone="Europe/Lisbon", gaming_day_closes_at=6, metadata=meta)
    chip_set_register(casino=CASINO, code=CHIP_SET, name="Main value chips",
                      denominations=list(CHIP_DENOMINATIONS), metadata=meta)
    return Casino.objects.get(code=CASINO)


@pytest.fixture
def cages(casino: Casino) -> None:
    """The main cage (minimum cash 20,000.00), two cashier windows and the vault."""
    cage.cage_configure(code="main", name="Main cage", kind="main", minimum_cash=Decimal("20000.00"),
                        metadata=carla())
    cage.cage_configure(code="w1", name="Window 1", kind="window", minimum_cash=Decimal("0.00"),
                        metadata=carla())
    cage.cage_configure(code="w2", name="Window 2", kind="window", minimum_cash=Decimal("0.00"),
                        metadata=carla())
    cage.cage_configure(code="vault", name="Vault", kind="vault", minimum_cash=Decimal("0.00"),
                        metadata=carla())


@pytest.fixture
def vault(cages: None) -> str:
    """The vault open (blind, first count ever) with cash, and new chips put into service."""
    shift = cage.shift_open(cage="vault", cash=VAULT_CASH, metadata=carla()).shift_id
    cage.chips_put_into_service(shift_id=shift, chip_set=CHIP_SET, chips=NEW_CHIPS,
                                reference="delivery note 2024-117", metadata=carla())
    return str(shift)


@pytest.fixture
def window(vault: str) -> str:
    """Window 1 open on a blind count of nothing, stocked from the vault."""
    shift = cage.shift_open(cage="w1", cash={}, metadata=ana()).shift_id
    cage.transfer_send(shift_id=vault, to_cage="w1",
                       cash={"100.00": 20, "50.00": 20, "20.00": 50, "10.00": 50},
                       chips={CHIP_SET: {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200}},
                       metadata=carla())
    return str(shift)


# --- the pit (table operations) -----------------------------------------------------------------

TABLE = "r1"
# The table's first session opens empty and is stocked by fills from the cage, so every chip on
# the table was put into service first (docs/cage.md, "Go-live").
TABLE_FLOAT: dict[str, int] = {}


def paulo(key: str = "") -> Metadata:
    """Paulo, pit boss."""
    return act("paulo", Role.PIT_BOSS, key=key)


@dataclass
class Pit:
    """The pit's side of fills and credits, through table operations' own services: a roulette
    table, a session opened (empty), slips requested by a pit boss."""

    session_id: str
    _numbers: Iterator[int] = field(default_factory=lambda: iter(range(1001, 100000)))

    def request(self, kind: str, chips: dict[str, int]) -> str:
        number = f"{kind[0].upper()}-{next(self._numbers)}"
        service = sessions.fill_request if kind == "fill" else sessions.credit_request
        service(session_id=self.session_id, slip=number, chips=chips, metadata=paulo())
        return number

    def fill(self, chips: dict[str, int]) -> str:
        return self.request("fill", chips)

    def credit(self, chips: dict[str, int]) -> str:
        return self.request("credit", chips)

    def void(self, kind: str, number: str) -> None:
        sessions.slip_void(casino=CASINO, kind=kind, slip=number, reason="wrong table",
                           metadata=paulo())

    def close_and_count(self, cash: dict[str, int], closing: dict[str, int] | None = None
                        ) -> None:
        """Close the session (Paulo) and have its drop box counted in the count room by two
        counters who did not work the table (Rita, cashier; Sofia, cage supervisor)."""
        from games.services import drop_box_count, drop_box_count_confirm

        sessions.table_session_close(session_id=self.session_id, closing=closing or {},
                                     metadata=paulo())
        drop_box_count(session_id=self.session_id, cash=cash, metadata=act("rita"))
        drop_box_count_confirm(session_id=self.session_id, cash=cash,
                               metadata=act("sofia", Role.CAGE_SUPERVISOR))


@pytest.fixture
def pit(casino: Casino) -> Pit:
    tables.table_configure(
        casino=CASINO, code=TABLE, name="Roulette 1", game="french_roulette", seats=8,
        chip_set=CHIP_SET, limits=default_limits("french_roulette", Decimal("1.00")),
        metadata=paulo())
    session = sessions.table_session_open(casino=CASINO, table=TABLE, opening=TABLE_FLOAT,
                                          metadata=paulo())
    return Pit(session_id=str(session.session_id))


@contextmanager
def after_the_day(day: dt.date, minutes: int = 5) -> Iterator[dt.datetime]:
    """``timezone.now()`` a few minutes after gaming day ``day`` ended (its chips in
    circulation are recorded once it has)."""
    moment = Casino.objects.get(code=CASINO).gaming_day_end(day) + dt.timedelta(minutes=minutes)
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield moment


# --- a jackpot hit (what the cage pays a jackpot against) ---------------------------------------

JACKPOT_TABLE = "bj1"
JACKPOT_POOL = "bj-progressive"
# The blackjack pool of docs/jackpots.md (§ Configuration): bet 1.00, 80% to the meter, start
# 10,000.00; four suited aces take the whole pool.
BLACKJACK_PAYTABLE = [
    {"combination": "four_aces_suited", "pays": "jackpot"},
    {"combination": "four_aces", "pays": "10%"},
    {"combination": "three_aces", "pays": "250x"},
    {"combination": "two_aces_suited", "pays": "100x"},
    {"combination": "two_aces", "pays": "25x"},
]


@dataclass(frozen=True)
class Hit:
    prize_id: str
    pool_id: str
    round_id: str
    player: str
    amount: Decimal


def gestor() -> Metadata:
    """Gestor, the casino's administrator (sets up the jackpot pool)."""
    return act("gestor", Role.ADMINISTRATOR)


def record_hit(*, seat: int = 3, cards: tuple[str, ...] = ("AH", "AH", "AH", "AH"),
               round_id: str = "round-77") -> Hit:
    """A coup of the blackjack pool (made by ``hit`` first) that the pit recorded, one jackpot
    bet winning: the hit the cage pays against."""
    from jackpots.models import JackpotPrize
    from jackpots.services import jackpot_coup_settle

    jackpot_coup_settle(pool_id=JACKPOT_POOL, round_id=round_id, table=JACKPOT_TABLE,
                        bets=[{"seat": seat, "player": f"seat-{seat}", "amount": "1.00",
                               "cards": list(cards)}], metadata=paulo())
    prize = JackpotPrize.objects.get(casino_id=CASINO, pool_id=JACKPOT_POOL, round_id=round_id)
    return Hit(prize.prize_id, prize.pool_id, prize.round_id, prize.player, prize.amount)


@pytest.fixture
def hit(casino: Casino) -> Hit:
    """Seat 3 of blackjack table bj1 hits four suited aces: the whole pool, 10,000.00 plus its
    own chip's 0.80 (docs/jackpots.md § Paying a coup), owed until the cage pays it."""
    from jackpots.services import jackpot_pool_create

    tables.table_configure(
        casino=CASINO, code=JACKPOT_TABLE, name="Blackjack 1", game="blackjack", seats=7,
        chip_set=CHIP_SET, limits=default_limits("blackjack", Decimal("5")), metadata=gestor())
    jackpot_pool_create(
        casino=CASINO, pool_id=JACKPOT_POOL, name="Blackjack progressive", game="blackjack",
        tables=[JACKPOT_TABLE], bet=Decimal("1.00"), increment_percent="80", start=Decimal("10000.00"),
        paytable=BLACKJACK_PAYTABLE, approved_on="2024-03-01",
        approval_reference="IGJ 123/2024", metadata=gestor())
    found = record_hit()
    assert found.amount == Decimal("10000.80")
    return found


def whole(cash: Mapping[str, int] | None = None,
          chips: Mapping[str, Mapping[str, int]] | None = None, *,
          casino: str = CASINO) -> dict[str, Any]:
    """A count with every denomination typed, as a closing count must be (a box left empty is
    refused): the pieces given, 0 for every other note, coin and chip of the casino."""
    from casino.models import ChipSet

    typed_cash = {fmt(Decimal(d)): n for d, n in (cash or {}).items()}
    typed_chips = {s: {fmt(Decimal(d)): n for d, n in c.items()} for s, c in (chips or {}).items()}
    return {
        "cash": {fmt(d): typed_cash.get(fmt(d), 0) for d in CASH_DENOMINATIONS["EUR"]},
        "chips": {s.code: {fmt(Decimal(d)): typed_chips.get(s.code, {}).get(fmt(Decimal(d)), 0)
                           for d in s.denominations}
                  for s in ChipSet.objects.filter(casino_id=casino)},
    }
