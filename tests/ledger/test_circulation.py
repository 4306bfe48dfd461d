"""Chips in circulation (``cage.circulation``), worked out from the events where every chip
is, equals the ledger's account of chips in players' hands (2781) at every instant, and is
recorded for a gaming day as it stood at the day's boundary (issue 13, finding 1).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from decimal import Decimal
from decimal import Decimal as D
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eventstore
from cage import selectors
from cage import services as cage
from casino.errors import Conflict, DomainError
from ledger import reports

from .conftest import (
    CASINO,
    NEW_CHIPS,
    TABLE_FLOAT,
    Clock,
    Floor,
    cashier,
    make_floor,
    supervisor,
)
from .test_properties import in_pieces, operations, run, value

pytestmark = pytest.mark.django_db
LISBON = zoneinfo.ZoneInfo("Europe/Lisbon")


def in_players_hands() -> D:
    """The ledger's account 2781: a credit balance is what the casino owes its players."""
    return -reports.account_balance(casino=CASINO, code="2781")


def circulation() -> D:
    return selectors.chips_in_circulation(casino=CASINO).value


def test_a_worked_day(floor: Floor) -> None:
    # the floor fixture: 5,000 x 100 ... put into service at the vault, some sent to window w1
    in_service = value(NEW_CHIPS)  # 89,000.00
    figure = selectors.chips_in_circulation(casino=CASINO)
    assert figure.pieces("in_service") == {D(d): n for d, n in NEW_CHIPS.items()}
    assert figure.value == D("0.00") == in_players_hands()

    floor.sell({"100.00": 2, "25.00": 4}, {"100.00": 3})  # 300.00 of chips to a player
    floor.open_table("r1")  # its first float (2,600.00) is taken over into service
    floor.buy_in("r1", "200.00")  # 200.00 of chips from the tray for cash
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)  # the house wins 50.00
    floor.credit("r1", {"100.00": 5}, receive=False)  # 500.00 on their way to the cage
    figure = selectors.chips_in_circulation(casino=CASINO)
    # 300 sold + 200 sold at the table - 50 lost by the player = 450.00 in players' hands
    assert figure.value == D("450.00") == in_players_hands()
    assert figure.pieces("in_transit") == {D("100.00"): 5}
    assert figure.open_tables == D("-150.00")  # the tray: -200 sold, +50 won since its count
    assert figure.taken_over == value(TABLE_FLOAT)
    assert sum((r.denomination * r.in_service for r in figure.rows), D(0)) == (
        in_service + value(TABLE_FLOAT))


def test_the_day_is_recorded_as_it_stood_at_its_boundary(db: None, clock: Clock) -> None:
    day = dt.date(2026, 11, 30)
    clock.set(dt.datetime(2026, 11, 30, 20, 0, tzinfo=LISBON))
    floor = make_floor()
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    floor.sell({"100.00": 3}, {"100.00": 3})  # 300.00 before the boundary
    with pytest.raises(Conflict) as refused:
        cage.gaming_day_chips_record(gaming_day=day, metadata=supervisor())
    assert refused.value.code == "gaming_day_open"
    assert "2026-12-01 06:00" in refused.value.message

    clock.set(dt.datetime(2026, 12, 1, 6, 30, tzinfo=LISBON))
    floor.sell({"25.00": 4}, {"100.00": 1})  # 100.00 after it: the next day's
    recorded = cage.gaming_day_chips_record(gaming_day=day, metadata=supervisor())
    assert (recorded.recorded, recorded.value) == (True, "300.00")
    assert recorded.as_at == "2026-12-01T06:00:00+00:00"
    assert in_players_hands() == D("400.00") == circulation()  # now, both sales
    again = cage.gaming_day_chips_record(gaming_day=day, metadata=supervisor())
    assert (again.recorded, again.value) == (False, "300.00")
    assert selectors.circulation_day_list(casino=CASINO).get().value == D("300.00")


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(operations)
def test_chips_in_circulation_equals_the_ledger_after_every_step(
        ops: list[tuple[Any, ...]]) -> None:
    with transaction.atomic():
        floor = make_floor()
        floor.stock_window({"100.00": 20, "50.00": 20}, {"100.00": 40, "25.00": 100,
                                                         "5.00": 200, "1.00": 200})
        floor.open_table("r1")
        assert circulation() == in_players_hands()
        for op in ops:
            try:
                with transaction.atomic():
                    run(floor, op)
            except DomainError:
                pass  # refused by a service: nothing was recorded
            assert circulation() == in_players_hands(), op
        if "r1" in floor.tables:
            floor.close_table("r1", in_pieces(reports.account_balance(
                casino=CASINO, code="0120.r1")), "0.00")
            assert circulation() == in_players_hands()
        transaction.set_rollback(True)


# --- with jackpots: chips collected into a table's jackpot slot, prizes paid by the cage ------

JACKPOT_HANDS = {"two_aces": ["AH", "AD"], "three_aces": ["AH", "AD", "AC"],
                 "nothing": ["KH", "7C"]}


def _jackpot_floor() -> Floor:
    from games.limits import default_limits
    from games.services import tables
    from jackpots.services import jackpot_pool_create

    from .conftest import act, pit_boss

    floor = make_floor()
    floor.stock_window({"100.00": 20, "50.00": 20}, {"100.00": 40, "25.00": 100,
                                                     "5.00": 200, "1.00": 200})
    floor.open_table("r1")
    tables.table_configure(casino=CASINO, code="bj1", name="BJ1", game="blackjack", seats=7,
                           chip_set="main", limits=default_limits("blackjack", D("5")),
                           metadata=pit_boss())
    jackpot_pool_create(
        casino=CASINO, pool_id="bj", name="Blackjack progressive", game="blackjack",
        tables=["bj1"], bet=Decimal("1.00"), increment_percent="80", start=Decimal("10000.00"),
        paytable=[{"combination": "four_aces_suited", "pays": "jackpot"},
                  {"combination": "four_aces", "pays": "10%"},
                  {"combination": "three_aces", "pays": "250x"},
                  {"combination": "two_aces_suited", "pays": "100x"},
                  {"combination": "two_aces", "pays": "25x"}],
        approved_on="2024-03-01", approval_reference="IGJ 1/2024",
        metadata=act("gestor", "administrator"))
    return floor


def _jackpot(floor: Floor, number: int, hands: list[str], pay: str) -> None:
    """A coup of the pool with one jackpot chip per hand; the cage pays what it won, in notes
    (where 50.00 notes make it, else in chips), in chips, or leaves it owed."""
    from jackpots.models import JackpotPrize
    from jackpots.services import jackpot_coup_settle, jackpot_prize_pay

    from .conftest import pit_boss

    round_id = f"coup-{number}"
    jackpot_coup_settle(pool_id="bj", round_id=round_id, table="bj1", bets=[
        {"seat": seat, "player": f"seat-{seat}", "amount": "1.00",
         "cards": JACKPOT_HANDS[hand]} for seat, hand in enumerate(hands, start=1)],
        metadata=pit_boss())
    for prize in JackpotPrize.objects.filter(round_id=round_id, amount__gt=0):
        if pay == "cash":
            jackpot_prize_pay(prize_id=prize.prize_id, shift_id=floor.window,
                              cash={"50.00": int(prize.amount // 50)} if prize.amount % 50 == 0
                              else None, chips=None if prize.amount % 50 == 0
                              else {"25.00": int(prize.amount // 25)}, chip_set="main",
                              metadata=cashier())
        elif pay == "chips":
            jackpot_prize_pay(prize_id=prize.prize_id, shift_id=floor.window,
                              chips={"25.00": int(prize.amount // 25)}, chip_set="main",
                              metadata=cashier())


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.one_of(
    st.tuples(st.just("floor"), operations),
    st.tuples(st.just("jackpot"), st.lists(st.sampled_from(sorted(JACKPOT_HANDS)), min_size=1,
                                           max_size=3),
              st.sampled_from(["cash", "chips", "later"])),
), min_size=1, max_size=6))
def test_with_jackpot_slots_and_payouts_it_still_equals_the_ledger(
        steps: list[tuple[Any, ...]]) -> None:
    with transaction.atomic():
        floor = _jackpot_floor()
        assert circulation() == in_players_hands()
        for number, step in enumerate(steps):
            ops = step[1] if step[0] == "floor" else [step]
            for op in ops:
                try:
                    with transaction.atomic():
                        if op[0] == "jackpot":
                            _jackpot(floor, number, op[1], op[2])
                        else:
                            run(floor, op)
                except DomainError:
                    pass  # refused by a service: nothing was recorded
                assert circulation() == in_players_hands(), op
        figure = selectors.chips_in_circulation(casino=CASINO)
        contributed = reports.account_balance(casino=CASINO, code="0140.bj1")
        assert figure.jackpot_slots == contributed
        transaction.set_rollback(True)


def test_a_jackpot_chip_goes_to_the_slot_and_a_prize_paid_in_chips_to_the_player(db: None
                                                                                 ) -> None:
    floor = _jackpot_floor()
    before = circulation()
    _jackpot(floor, 1, ["two_aces", "nothing"], "chips")  # two chips staked, 25.00 won
    figure = selectors.chips_in_circulation(casino=CASINO)
    assert figure.jackpot_slots == D("2.00")
    assert figure.value - before == D("25.00") - D("2.00") == in_players_hands() - before
    _jackpot(floor, 2, ["three_aces"], "cash")  # 250.00 in notes: no chips leave the cage
    assert circulation() - before == D("23.00") - D("1.00") == in_players_hands() - before


def test_a_recorded_day_is_where_the_next_figures_start(db: None, clock: Clock) -> None:
    """The day's record keeps where every chip was: the next figure folds only the events after
    it, and equals a fold of every event from the start (and the ledger)."""
    from cage import circulation as pure

    day = dt.date(2026, 11, 30)
    clock.set(dt.datetime(2026, 11, 30, 20, 0, tzinfo=LISBON))
    floor = make_floor()
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    floor.sell({"100.00": 3}, {"100.00": 3})
    floor.open_table("r1")
    floor.credit("r1", {"100.00": 2}, receive=False)  # in transit across the boundary
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)
    clock.set(dt.datetime(2026, 12, 1, 6, 30, tzinfo=LISBON))
    cage.gaming_day_chips_record(gaming_day=day, metadata=supervisor())
    recorded = selectors.circulation_day_list(casino=CASINO).get()
    assert recorded.state["slips"]
    assert recorded.position > 0

    floor.sell({"25.00": 4}, {"100.00": 1})
    floor.spin("r1", [{"seat": 1, "type": "black", "amount": "20"}], 2)  # the player wins 20
    from_the_record = selectors.chips_in_circulation(casino=CASINO)
    everything = pure.fold((e.event, e.position) for e in eventstore.read_casino(
        CASINO, pure.EVENT_TYPES)).figure()
    assert from_the_record == everything
    assert from_the_record.value == in_players_hands() == D("370.00")  # 300 + 100 - 50 + 20
    assert pure.State.from_data(recorded.state).to_data() == recorded.state
