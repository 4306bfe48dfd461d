"""The demo's poker room: one gaming day of it in each demo casino, through the poker room's
public services (``docs/poker-room.md``). Four cash tables (two hold'em, an omaha, a póquer
sintético) and one tournament per casino, and a chemin de fer table in Lisbon.

Each day seats players (seat numbers, some with a patron reference; never a name), takes their
buy-ins within the table's limits, records hands from the dealer's terminal and in a batch with
the approved rake, counts each rake box by two, and cashes everybody out; a tournament runs from
registration (and a late one) to its last prize paid at the cage; the chemin de fer coups are
dealt from a shoe by the drawing rules. Played again, a day opens nothing twice and names its
tournament anew. ``play_day`` plays it in each day of the demo (``demo.days.DAY_PLAYERS``):
today's players stay seated and today's tournament runs on."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal
from typing import TYPE_CHECKING

from casino.context import system_metadata
from casino.models import Role
from casino.money import Money
from eventstore.records import Metadata
from games.engine import baccarat
from games.engine.cards import point_total
from pokerroom.models import PokerTable, Tournament
from pokerroom.rules.rake import RakeRule, rake_due
from pokerroom.selectors import table_detail
from pokerroom.services.chemin_de_fer import chemmy_coup_record
from pokerroom.services.tables import (
    poker_chips_buy,
    poker_hands_record,
    poker_player_leave,
    poker_player_seat,
    poker_table_open,
    poker_waitlist_join,
    rake_box_count,
)
from pokerroom.services.tournaments import (
    tournament_announce,
    tournament_chips_buy,
    tournament_eliminate,
    tournament_prize_pay,
    tournament_register,
    tournament_start,
)

if TYPE_CHECKING:
    from demo.day import DemoDay

JOB = "demo_day"
APPROVAL = "SRIJ-DEMO-PR1"  # the inspection's approval reference (a demo figure: PR-1)
# code, game; the buy-in limits and the rake's cap are in units of the casino (1 EUR, 10 MOP)
CASH_TABLES = (("ph1", "holdem"), ("ph2", "holdem"), ("po1", "omaha"), ("ps1", "synthetic_poker"))
UNIT = {"lisboa": Decimal(1), "macau": Decimal(10)}
CHEMMY = ("lisboa", "cf1")


def _units(count: int, casino: str) -> Money:
    """``count`` of the casino's units (1 EUR, 10 MOP) as an amount a service takes."""
    return Money(Decimal(count) * UNIT[casino])


def _as(casino: str, role: str, who: str) -> Metadata:
    meta = system_metadata(casino, job=JOB)
    return Metadata(actor=f"{meta.actor}:{who}", role=role, casino=casino,
                    request_id=meta.request_id, correlation_id=meta.correlation_id)


def _ensure_tables(casino: str) -> None:
    floor = _as(casino, Role.PIT_BOSS, "floor")
    for code, game in CASH_TABLES:
        if not PokerTable.objects.filter(casino_id=casino, code=code).exists():
            poker_table_open(casino=casino, table=code, game=game, seats=9,
                             min_buy_in=_units(40, casino), max_buy_in=_units(400, casino),
                             rake_percent="5", rake_cap=_units(4, casino),
                             minimum_pot=_units(2, casino), no_flop_no_drop=True,
                             approval_reference=APPROVAL, metadata=floor)
    if casino == CHEMMY[0] and not PokerTable.objects.filter(casino_id=casino,
                                                             code=CHEMMY[1]).exists():
        poker_table_open(casino=casino, table=CHEMMY[1], game="chemin_de_fer", seats=9,
                         min_buy_in=_units(100, casino), max_buy_in=_units(2000, casino),
                         commission_percent="5", approval_reference=APPROVAL, metadata=floor)


def _seat_players(casino: str, table: str, rng: random.Random, count: int,
                  amount: tuple[int, int]) -> list[int]:
    floor = _as(casino, Role.PIT_BOSS, "floor")
    seats = sorted(rng.sample(range(1, 10), count))
    for n, seat in enumerate(seats):
        if n == 0:  # the first player waited for the seat on the waiting list
            poker_waitlist_join(casino=casino, table=table, metadata=floor)
            ticket = table_detail(casino, table).waiting[-1].ticket
            poker_player_seat(casino=casino, table=table, seat=seat, ticket=ticket,
                              metadata=floor)
        else:
            poker_player_seat(casino=casino, table=table, seat=seat, metadata=floor)
        poker_chips_buy(casino=casino, table=table, seat=seat,
                        amount=_units(rng.randint(*amount) * 10, casino),
                        where="table" if n % 2 else "cage", metadata=floor)
    return seats


def _cash_everybody_out(casino: str, table: str, seats: list[int], rng: random.Random) -> None:
    floor = _as(casino, Role.PIT_BOSS, "floor")
    for n, seat in enumerate(seats):
        left = PokerTable.objects.get(casino_id=casino, code=table).players_money
        share = left if n == len(seats) - 1 else (left * Decimal(rng.randint(10, 60)) / 100
                                                  ).quantize(Decimal("0.01"))
        poker_player_leave(casino=casino, table=table, seat=seat, cashed_out=share,
                           metadata=floor)


def _hands(casino: str, table: str, seats: list[int], rng: random.Random, count: int
           ) -> list[dict[str, object]]:
    """``count`` hands that add up, each taking the table's approved rake (PR-1)."""
    found = PokerTable.objects.get(casino_id=casino, code=table)
    rule = RakeRule(found.rake_percent, found.rake_cap, found.minimum_pot, found.no_flop_no_drop)
    unit = UNIT[casino]
    hands = []
    for _ in range(count):
        players = rng.sample(seats, rng.randint(2, len(seats)))
        contributions = {seat: Decimal(rng.randint(1, 12)) * unit for seat in players}
        pot = sum(contributions.values(), Decimal(0))
        flop = rng.random() > 0.2
        rake = rake_due(rule, pot, flop_dealt=flop)
        winners = rng.sample(players, 2 if rng.random() < 0.1 else 1)
        each = ((pot - rake) / len(winners)).quantize(Decimal("0.01"))
        awards = {seat: each for seat in winners}
        awards[winners[0]] += pot - rake - each * len(winners)
        hands.append({"contributions": {str(s): str(a) for s, a in contributions.items()},
                      "awards": {str(s): str(a) for s, a in awards.items()},
                      "rake": str(rake), "flop_dealt": flop})
    return hands


def _cash_table_day(casino: str, table: str, rng: random.Random, *, close: bool = True) -> None:
    """Players seated, hands dealt; unless ``close`` is False (today, still playing), the rake
    box counted by two and everybody cashed out."""
    floor = _as(casino, Role.PIT_BOSS, "floor")
    seats = _seat_players(casino, table, rng, rng.randint(4, 6), (10, 30))
    for hand in _hands(casino, table, seats, rng, 6):  # from the dealer's terminal
        poker_hands_record(casino=casino, table=table, hands=[hand], metadata=floor)
    poker_hands_record(casino=casino, table=table, hands=_hands(casino, table, seats, rng, 14),
                       source="batch", metadata=floor)
    if not close:
        return
    uncounted = PokerTable.objects.get(casino_id=casino, code=table).rake_uncounted
    rake_box_count(casino=casino, table=table, counted=uncounted, second_counter="demo:counter",
                   metadata=_as(casino, Role.PIT_BOSS, "count"))
    _cash_everybody_out(casino, table, seats, rng)


def _tournament_day(casino: str, rng: random.Random, *, finish: bool = True) -> None:
    """A tournament announced, entered and started (a late entry, a rebuy); players knocked out
    to the last three, paid, unless ``finish`` is False (today's, still running)."""
    floor = _as(casino, Role.PIT_BOSS, "floor")
    code = f"t{Tournament.objects.filter(casino_id=casino).count() + 1}"
    tournament_announce(casino=casino, tournament=code, game="holdem", buy_in=_units(50, casino),
                        entry_fee=_units(5, casino), rebuy=_units(50, casino), rebuy_fee=_units(5, casino),
                        guarantee=_units(600, casino), payout_percents=["50", "30", "20"],
                        late_registration_levels=3, level_minutes=20,
                        approval_reference=APPROVAL, metadata=floor)
    entries = rng.randint(8, 14)
    for n in range(entries):
        tournament_register(casino=casino, tournament=code,
                            patron=f"DEMO-{rng.randint(1, 40):04d}" if n % 3 == 0 else "",
                            metadata=floor)
    tournament_start(casino=casino, tournament=code, metadata=floor)
    tournament_register(casino=casino, tournament=code, metadata=floor)  # a late one
    tournament_chips_buy(casino=casino, tournament=code, entry=1, kind="rebuy", metadata=floor)
    order = list(range(1, entries + 2))
    rng.shuffle(order)
    for entry in order[:-1] if finish else order[:entries // 2]:
        tournament_eliminate(casino=casino, tournament=code, entry=entry, metadata=floor)
    if not finish:
        return
    cashier = _as(casino, Role.CASHIER, "cage")
    for entry in sorted(order[-3:]):
        tournament_prize_pay(casino=casino, tournament=code, entry=entry,
                             patron=f"DEMO-{entry:04d}", metadata=cashier)


class _Shoe:
    def __init__(self, rng: random.Random) -> None:
        self.cards = [r + s for r in "A23456789TJQK" for s in "SHDC"] * 6
        rng.shuffle(self.cards)

    def draw(self) -> str:
        return self.cards.pop()


def _coup_cards(shoe: _Shoe, rng: random.Random) -> tuple[list[str], list[str], str | None]:
    """A coup dealt by the drawing rules (CF-1..CF-3): the punter's option at five at random."""
    punter, banker = [shoe.draw(), shoe.draw()], [shoe.draw(), shoe.draw()]
    p2, b2 = point_total(punter), point_total(banker)
    if p2 >= 8 or b2 >= 8:
        return punter, banker, None
    option = rng.choice(["draw", "stand"]) if p2 == 5 else None
    if p2 <= 4 or option == "draw":
        punter.append(shoe.draw())
    third = punter[2] if len(punter) == 3 else None
    if baccarat.banker_draws(banker, third):
        banker.append(shoe.draw())
    return punter, banker, option


def _chemmy_day(rng: random.Random, *, close: bool = True) -> None:
    casino, table = CHEMMY
    floor = _as(casino, Role.PIT_BOSS, "floor")
    seats = _seat_players(casino, table, rng, 4, (20, 40))
    shoe = _Shoe(rng)
    banker = seats[0]
    bank = Decimal(100)
    for _ in range(12):
        punters = [s for s in seats if s != banker]
        stakes = {str(s): str(Decimal(rng.randint(1, 3)) * 10) for s in punters}
        total = sum((Decimal(a) for a in stakes.values()), Decimal(0))
        bank = max(bank, total)
        punter_cards, banker_cards, option = _coup_cards(shoe, rng)
        answer = chemmy_coup_record(casino=casino, table=table, banker_seat=banker,
                                    bank=Money(bank),
                                    stakes=stakes, punter_cards=punter_cards,
                                    banker_cards=banker_cards, punter_option=option,
                                    metadata=floor)
        if answer.winner == "punter":  # the bank passes to the next seat («o banco passa»)
            banker = seats[(seats.index(banker) + 1) % len(seats)]
            bank = Decimal(100)
        else:
            bank = Decimal(answer.bank_after)
    if close:
        _cash_everybody_out(casino, table, seats, rng)


# how long each part takes on a past day's clock (``DemoDay.advance``)
A_TABLE, A_TOURNAMENT, A_SHOE = (dt.timedelta(minutes=m) for m in (10, 40, 20))


def play_day(d: DemoDay) -> None:
    """The poker room's part of one casino's demo day (``demo.days.DAY_PLAYERS``): its four
    cash tables, the day's tournament and, in Lisbon, the chemin de fer table. On a past day
    (``d.over``) everybody is cashed out, each rake box counted and the tournament's prizes paid;
    today the players stay seated and the tournament runs on."""
    _ensure_tables(d.casino)
    for code, _ in CASH_TABLES:
        _cash_table_day(d.casino, code, d.rng, close=d.over)
        d.advance(A_TABLE)
    _tournament_day(d.casino, d.rng, finish=d.over)
    d.advance(A_TOURNAMENT)
    if d.casino == CHEMMY[0]:
        _chemmy_day(d.rng, close=d.over)
        d.advance(A_SHOE)
