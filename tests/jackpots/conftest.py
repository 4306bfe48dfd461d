"""Fixtures of the jackpot tests: a casino, blackjack and stud poker tables (through the pit's own
services), pools (through the jackpot services), and the worked examples of ``docs/jackpots.md``
as data (request and expected result, the figures of its § Worked examples)."""

from __future__ import annotations

import copy
import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from casino.context import person_metadata, system_metadata
from casino.models import Role
from casino.money import parse_amount
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from eventstore.records import Metadata

CASINO = "lisboa"
DENOMINATIONS = ["1000", "500", "100", "25", "5", "1", "0.50", "0.25", "0.05", "0.01"]

# --- the configurations of docs/jackpots.md (§ Configuration, § Worked examples) ----------------

STUD_PAYTABLE = [
    {"combination": "royal_flush", "pays": "jackpot"},
    {"combination": "straight_flush", "pays": "10%"},
    {"combination": "four_of_a_kind", "pays": "500x"},
    {"combination": "full_house", "pays": "100x"},
    {"combination": "flush", "pays": "50x"},
]
STUD = {"bet": "1.00", "increment_percent": "70", "start": "10000.00", "paytable": STUD_PAYTABLE}

BLACKJACK_PAYTABLE = [
    {"combination": "four_aces_suited", "pays": "jackpot"},
    {"combination": "four_aces", "pays": "10%"},
    {"combination": "three_aces", "pays": "250x"},
    {"combination": "two_aces_suited", "pays": "100x"},
    {"combination": "two_aces", "pays": "25x"},
]
BLACKJACK = {"bet": "1.00", "increment_percent": "80", "start": "10000.00",
             "paytable": BLACKJACK_PAYTABLE}


def _bet(seat: int, cards: list[str], **extra: Any) -> dict[str, Any]:
    return {"id": f"seat{seat}", "amount": "1.00", "cards": cards, **extra}


def _won(seat: int, combination: str | None, prize: str) -> dict[str, Any]:
    return {"id": f"seat{seat}", "combination": combination, "prize": prize}


# Each example: the seats' bets (seat -> cards, folded), the pool before, the documented result.
EXAMPLES: dict[str, dict[str, Any]] = {
    # A. Royal flush with smaller prizes.
    "A": {
        "game": "stud_poker",
        "pool": "52345.67",
        "seats": {1: (["AS", "KS", "QS", "JS", "TS"], False),  # royal flush
                  2: (["2H", "5H", "9H", "JH", "KH"], False),  # flush
                  3: (["2D", "5D", "9D", "JD", "KD"], False),  # flush
                  4: (["7C", "7D", "7H", "7S", "3C"], False),  # four of a kind
                  5: (["8C", "9C", "TC", "JC", "QC"], True)},  # straight flush, folded
        "result": {"game": "stud_poker", "pool_before": "52345.67", "contributions": "3.50",
                   "pool_at_payment": "52349.17",
                   "bets": [_won(1, "royal_flush", "51799.17"), _won(2, "flush", "25.00"),
                            _won(3, "flush", "25.00"), _won(4, "four_of_a_kind", "500.00"),
                            _won(5, None, "0.00")],
                   "paid": "52349.17", "jackpot_won": True, "pool_after": "10000.00"},
    },
    # B. Two straight flushes share 10%.
    "B": {
        "game": "stud_poker",
        "pool": "30000.00",
        "seats": {2: (["5H", "6H", "7H", "8H", "9H"], False),  # straight flush
                  6: (["5D", "6D", "7D", "8D", "9D"], False),  # straight flush
                  7: (["KC", "KS", "KH", "2C", "2S"], False)},  # full house
        "result": {"game": "stud_poker", "pool_before": "30000.00", "contributions": "2.10",
                   "pool_at_payment": "30002.10",
                   "bets": [_won(2, "straight_flush", "1495.10"),
                            _won(6, "straight_flush", "1495.10"),
                            _won(7, "full_house", "100.00")],
                   "paid": "3090.20", "jackpot_won": False, "pool_after": "26911.90"},
    },
    # C. Several winners, no split of equal prizes (blackjack, JP-5).
    "C": {
        "game": "blackjack",
        "pool": "20000.00",
        "seats": {1: (["AS", "AS", "AH", "9D"], False),  # split aces: three aces
                  2: (["AD", "AC", "7S"], False),  # two aces
                  3: (["AC", "AH"], False),  # two aces
                  5: (["AH", "AH", "AH", "AH"], False),  # four suited aces
                  6: (["KD", "AD"], False)},  # nothing
        "result": {"game": "blackjack", "pool_before": "20000.00", "contributions": "4.00",
                   "pool_at_payment": "20004.00",
                   "bets": [_won(1, "three_aces", "250.00"), _won(2, "two_aces", "25.00"),
                            _won(3, "two_aces", "25.00"), _won(5, "four_aces_suited", "19704.00"),
                            _won(6, None, "0.00")],
                   "paid": "20004.00", "jackpot_won": True, "pool_after": "10000.00"},
    },
    # D. Two top winners.
    "D": {
        "game": "blackjack",
        "pool": "20000.01",
        "seats": {1: (["AS", "AS", "AS", "AS"], False),  # four suited aces
                  4: (["AH", "AH", "AH", "AH"], False),  # four suited aces
                  5: (["AD", "AC", "AD", "AC"], False)},  # four aces, mixed suits
        "result": {"game": "blackjack", "pool_before": "20000.01", "contributions": "2.40",
                   "pool_at_payment": "20002.41",
                   "bets": [_won(1, "four_aces_suited", "9001.08"),
                            _won(4, "four_aces_suited", "9001.08"),
                            _won(5, "four_aces", "2000.24")],
                   "paid": "20002.40", "jackpot_won": True, "pool_after": "10000.01"},
    },
}


def config_of(game: str) -> dict[str, Any]:
    return copy.deepcopy(STUD if game == "stud_poker" else BLACKJACK)


def example_request(name: str) -> dict[str, Any]:
    """The example as a ``pay_coup`` request."""
    example = EXAMPLES[name]
    bets = []
    for seat, (cards, folded) in example["seats"].items():
        extra = {"folded": True} if folded else {}
        bets.append(_bet(seat, list(cards), **extra))
    return {"game": example["game"], "jackpot": config_of(example["game"]),
            "pool": example["pool"], "bets": bets}


def example_table_bets(name: str) -> list[dict[str, Any]]:
    """The example as the table hands its jackpot bets to ``jackpot_coup_settle``."""
    example = EXAMPLES[name]
    return [{"seat": seat, "player": f"seat-{seat}", "amount": "1.00", "cards": list(cards),
             **({"folded": True} if folded else {})}
            for seat, (cards, folded) in example["seats"].items()]


# --- people -------------------------------------------------------------------------------------


def admin(actor: str = "gestor", *, key: str = "") -> Metadata:
    return person_metadata(username=actor, role=Role.ADMINISTRATOR, casino=CASINO,
                           idempotency_key=key)


def pit(actor: str = "paulo", *, key: str | None = None) -> Metadata:
    """A pit boss's metadata, with an idempotency key of its own as from the API (``key=""``:
    none)."""
    return person_metadata(username=actor, role=Role.PIT_BOSS, casino=CASINO,
                           idempotency_key=uuid.uuid4().hex if key is None else key)


def cashier(actor: str = "ana", *, key: str = "") -> Metadata:
    return person_metadata(username=actor, role=Role.CASHIER, casino=CASINO, idempotency_key=key)


# --- fixtures -----------------------------------------------------------------------------------


@pytest.fixture
def casino(db: None) -> str:
    meta = system_metadata(CASINO, job="test")
    casino_register(code=CASINO, name="Casino Lisboa", currency="EUR", time_zone="Europe/Lisbon",
                    gaming_day_closes_at=6, metadata=meta)
    chip_set_register(casino=CASINO, code="main", name="Value chips",
                      denominations=DENOMINATIONS, metadata=meta)
    return CASINO


TableMaker = Callable[..., str]


@pytest.fixture
def make_table(casino: str) -> TableMaker:
    """A table of the pit, configured through the pit's own service."""
    from games.limits import default_limits
    from games.services import table_configure

    def make(game: str, code: str, *, minimum: str = "5") -> str:
        table_configure(casino=CASINO, code=code, name=code.upper(), game=game, options={},
                        seats=7, chip_set="main",
                        limits=default_limits(game, Decimal(minimum), {}), metadata=admin())
        return code

    return make


PoolMaker = Callable[..., str]


@pytest.fixture
def make_pool(make_table: TableMaker) -> PoolMaker:
    """A pool fed by new tables; ``amount`` brings the meter to a given figure by an approved
    correction (asked by an accountant, approved by an administrator: ``meters.meter_correct``;
    the worked examples start from a pool that has been growing for a while)."""
    from jackpots.services import jackpot_pool_create

    from .meters import meter_correct

    def make(game: str, pool_id: str | None = None, *, tables: list[str] | None = None,
             amount: str | None = None, reserve_percent: str | None = None,
             cap: str | None = None, config: dict[str, Any] | None = None) -> str:
        pool_id = pool_id or f"{game.replace('_', '-')}-{uuid.uuid4().hex[:6]}"
        if tables is None:
            tables = [make_table(game, f"t-{pool_id}"[:60])]
        conf = config or config_of(game)
        jackpot_pool_create(
            casino=CASINO, pool_id=pool_id, name=f"Pool {pool_id}", game=game, tables=tables,
            bet=parse_amount(conf["bet"], field="bet"),
            increment_percent=conf["increment_percent"],
            start=parse_amount(conf["start"], field="start"),
            paytable=conf["paytable"], approved_on="2024-03-01",
            approval_reference="IGJ 123/2024", reserve_percent=reserve_percent,
            cap=None if cap is None else parse_amount(cap, field="cap"),
            metadata=admin())
        if amount is not None:
            from jackpots.models import JackpotPool

            current = JackpotPool.objects.get(casino_id=CASINO, pool_id=pool_id).amount
            target = Decimal(amount)
            if target != current:
                meter_correct(pool_id, meter="pool",
                              direction="up" if target > current else "down",
                              amount=str(abs(target - current)))
        return pool_id

    return make
