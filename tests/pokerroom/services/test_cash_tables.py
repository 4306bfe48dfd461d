"""A hold'em table from its opening to the rake box counted, figures worked by hand (PR-1)."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.errors import Conflict, InvalidCommand
from eventstore.history import read_stream
from pokerroom.models import PokerHand, PokerTable
from pokerroom.services.tables import (
    poker_chips_buy,
    poker_hands_record,
    poker_player_leave,
    poker_player_seat,
    poker_table_open,
    poker_waitlist_join,
    poker_waitlist_leave,
    rake_box_count,
)

from ..conftest import CASINO, credit_balance, floor


@pytest.fixture
def holdem(casino: str) -> str:
    # PR-1: 5 % up to 4.00, pots of 10.00 or more, no flop no drop
    poker_table_open(casino=CASINO, table="nl1", game="holdem", seats=9,
                     min_buy_in=D("100.00"), max_buy_in=D("500.00"), rake_percent="5",
                     rake_cap=D("4.00"), minimum_pot=D("10.00"),
                     approval_reference="SRIJ 123/2026", metadata=floor())
    for seat, patron in ((1, "P-0001"), (2, ""), (3, "")):
        poker_player_seat(casino=CASINO, table="nl1", seat=seat, patron=patron, metadata=floor())
        poker_chips_buy(casino=CASINO, table="nl1", seat=seat, amount=D("200.00"),
                        metadata=floor())
    return "nl1"


def _events(table: str) -> int:
    return len(read_stream(f"poker_table/{CASINO}.{table}"))


def test_hands_with_their_rake_and_the_rake_box_counted(holdem: str) -> None:
    answer = poker_hands_record(casino=CASINO, table=holdem, source="batch", hands=[
        # 30 + 30 + 20.30 = 80.30; 5 % = 4.015 -> 4.01, above the cap 4.00 -> 4.00; 76.30 won
        {"contributions": {"1": "30.00", "2": "30.00", "3": "20.30"},
         "awards": {"1": "76.30"}, "rake": "4.00", "flop_dealt": True},
        # 3.00 + 6.00 = 9.00 won before the flop: no flop, no drop
        {"contributions": {"2": "3.00", "3": "6.00"}, "awards": {"3": "9.00"}, "rake": "0",
         "flop_dealt": False},
        # 20 + 20 = 40.00; 5 % = 2.00; 38.00 split 19.00 + 19.00
        {"contributions": {"1": "20.00", "2": "20.00"}, "awards": {"1": "19.00", "2": "19.00"},
         "rake": "2.00", "flop_dealt": True},
    ], metadata=floor())
    assert answer.hands == [1, 2, 3]
    assert answer.rake == "6.00"  # 4.00 + 0.00 + 2.00
    table = PokerTable.objects.get(casino_id=CASINO, code=holdem)
    assert (table.hands, table.pots, table.rake_recorded) == (3, D("129.30"), D("6.00"))
    assert table.buy_ins == D("600.00")  # 3 × 200.00: the players' money, not the house's
    # the box holds 5.50 against 6.00 recorded: variance -0.50
    count = rake_box_count(casino=CASINO, table=holdem, counted=D("5.50"),
                           second_counter="rita", metadata=floor())
    assert (count.recorded, count.counted, count.variance) == ("6.00", "5.50", "-0.50")
    table.refresh_from_db()
    assert (table.rake_counted, table.rake_uncounted) == (D("5.50"), D("0.00"))
    # the ledger: the players' money 600.00 - 6.00 rake = 594.00, never revenue; the rake 6.00
    # is; the box short by 0.50 is a difference (a debit: -0.50 as a credit)
    assert credit_balance("poker_players_money", holdem) == D("594.00")
    assert credit_balance("poker_rake", holdem) == D("6.00")
    assert credit_balance("rake_box_difference", holdem) == D("-0.50")
    assert table.players_money == D("594.00")
    # seat 1 leaves with 300.00 of it: 294.00 left at the table
    poker_player_leave(casino=CASINO, table=holdem, seat=1, cashed_out=D("300.00"),
                       metadata=floor())
    assert credit_balance("poker_players_money", holdem) == D("294.00")
    with pytest.raises(InvalidCommand) as too_much:  # 294.01 > 294.00
        poker_player_leave(casino=CASINO, table=holdem, seat=2, cashed_out=D("294.01"),
                           metadata=floor())
    assert too_much.value.code == "cash_out_above_table"


@pytest.mark.parametrize(
    ("hand", "code"),
    [
        # 5 % of 80.30 capped at 4.00: 4.50 is above the cap
        ({"contributions": {"1": "40.15", "2": "40.15"}, "awards": {"1": "75.80"},
          "rake": "4.50"}, "rake_above_cap"),
        # 80.30 in, 70.00 + 4.00 out
        ({"contributions": {"1": "40.15", "2": "40.15"}, "awards": {"1": "70.00"},
          "rake": "4.00"}, "pot_does_not_add_up"),
        # a rake before the flop
        ({"contributions": {"1": "30", "2": "30"}, "awards": {"1": "57.00"}, "rake": "3.00",
          "flop_dealt": False}, "rake_not_as_approved"),
    ],
)
def test_a_batch_with_one_bad_hand_records_nothing(holdem: str, hand: dict[str, object],
                                                   code: str) -> None:
    good = {"contributions": {"1": "20.00", "2": "20.00"}, "awards": {"1": "38.00"},
            "rake": "2.00"}
    before = _events(holdem)
    with pytest.raises(InvalidCommand) as refused:
        poker_hands_record(casino=CASINO, table=holdem, hands=[good, hand], metadata=floor())
    assert refused.value.code == code
    assert "PR-1" in refused.value.message or code == "pot_does_not_add_up"
    assert refused.value.extra["hand"] == 1
    assert _events(holdem) == before
    assert not PokerHand.objects.exists()


def test_buy_ins_within_the_limits(holdem: str) -> None:
    poker_player_seat(casino=CASINO, table=holdem, seat=4, metadata=floor())
    with pytest.raises(InvalidCommand) as low:  # 99.99 < 100.00
        poker_chips_buy(casino=CASINO, table=holdem, seat=4, amount=D("99.99"), metadata=floor())
    assert low.value.code == "buy_in_below_limit"
    # seat 1 bought 200.00; a top-up of 300.01 would make 500.01 > 500.00
    with pytest.raises(InvalidCommand) as high:
        poker_chips_buy(casino=CASINO, table=holdem, seat=1, amount=D("300.01"),
                        metadata=floor())
    assert high.value.code == "buy_in_above_limit"
    poker_chips_buy(casino=CASINO, table=holdem, seat=1, amount=D("300.00"), metadata=floor())


def test_a_seat_holds_a_patron_reference_never_a_name(holdem: str) -> None:
    with pytest.raises(InvalidCommand):
        poker_player_seat(casino=CASINO, table=holdem, seat=5, patron="João Silva",
                          metadata=floor())
    with pytest.raises(Conflict):
        poker_player_seat(casino=CASINO, table=holdem, seat=1, metadata=floor())


def test_the_rake_box_is_counted_by_two(holdem: str) -> None:
    with pytest.raises(InvalidCommand) as alone:
        rake_box_count(casino=CASINO, table=holdem, counted=D("0.00"),
                       second_counter="paulo", metadata=floor("paulo"))
    assert alone.value.code == "four_eyes"


def test_the_waiting_list_in_ticket_order(holdem: str) -> None:
    from pokerroom.selectors import table_detail

    poker_waitlist_join(casino=CASINO, table=holdem, patron="P-0042", metadata=floor())
    poker_waitlist_join(casino=CASINO, table=holdem, metadata=floor())
    poker_waitlist_join(casino=CASINO, table=holdem, metadata=floor())
    poker_waitlist_leave(casino=CASINO, table=holdem, ticket=3, metadata=floor())
    # ticket 1 takes seat 4 with its patron reference; ticket 2 still waits, 3 has gone
    poker_player_seat(casino=CASINO, table=holdem, seat=4, ticket=1, metadata=floor())
    detail = table_detail(CASINO, holdem)
    assert [w.ticket for w in detail.waiting] == [2]
    assert [(s.seat, s.patron) for s in detail.seats if s.seat == 4] == [(4, "P-0042")]
    with pytest.raises(Conflict) as gone:
        poker_player_seat(casino=CASINO, table=holdem, seat=5, ticket=3, metadata=floor())
    assert gone.value.code == "not_waiting"


def test_a_time_charge_per_period_begun(casino: str) -> None:
    from pokerroom.models import PokerTable
    from pokerroom.services.tables import poker_time_charge

    poker_table_open(casino=CASINO, table="tc1", game="omaha", seats=6, charge="time_charge",
                     min_buy_in=D("50.00"), max_buy_in=D("500.00"), time_rate=D("12.00"),
                     period_minutes=30, approval_reference="SRIJ 12/2026", metadata=floor())
    poker_player_seat(casino=CASINO, table="tc1", seat=2, metadata=floor())
    poker_chips_buy(casino=CASINO, table="tc1", seat=2, amount=D("100.00"), metadata=floor())
    # PR-2: 12.00 a period of 30 minutes; 75 minutes begin three periods: 36.00
    poker_time_charge(casino=CASINO, table="tc1", seat=2, minutes=75, metadata=floor())
    table = PokerTable.objects.get(casino_id=CASINO, code="tc1")
    assert (table.time_charges, table.players_money) == (D("36.00"), D("64.00"))
    poker_table_open(casino=CASINO, table="rk1", game="holdem", seats=6,
                     min_buy_in=D("50.00"), max_buy_in=D("500.00"), rake_percent="5",
                     rake_cap=D("3.00"), approval_reference="SRIJ 13/2026", metadata=floor())
    with pytest.raises(InvalidCommand):  # a rake table takes no time charge
        poker_time_charge(casino=CASINO, table="rk1", seat=1, minutes=10, metadata=floor())


def test_a_cash_buy_in_at_the_threshold_needs_an_identified_patron(casino: str) -> None:
    poker_table_open(casino=CASINO, table="hi1", game="holdem", seats=6,
                     min_buy_in=D("100.00"), max_buy_in=D("5000.00"), rake_percent="5",
                     rake_cap=D("5.00"), approval_reference="SRIJ 14/2026", metadata=floor())
    poker_player_seat(casino=CASINO, table="hi1", seat=1, metadata=floor())
    poker_player_seat(casino=CASINO, table="hi1", seat=2, patron="P-0007", metadata=floor())
    # PT-1: 2,000.00 or more identifies the patron (Lei n.º 83/2017, art. 76.º)
    with pytest.raises(InvalidCommand) as anonymous:
        poker_chips_buy(casino=CASINO, table="hi1", seat=1, amount=D("2000.00"),
                        metadata=floor())
    assert anonymous.value.code == "identification_required"
    assert "Lei n.º 83/2017" in anonymous.value.message
    poker_chips_buy(casino=CASINO, table="hi1", seat=1, amount=D("1999.99"), metadata=floor())
    poker_chips_buy(casino=CASINO, table="hi1", seat=2, amount=D("2000.00"), metadata=floor())
