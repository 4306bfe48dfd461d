"""A tournament from registration to the last prize paid (PR-3, PR-4), worked by hand."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.errors import Conflict, InvalidCommand
from pokerroom.models import Tournament, TournamentEntry
from pokerroom.services.tournaments import (
    tournament_announce,
    tournament_chips_buy,
    tournament_eliminate,
    tournament_prize_pay,
    tournament_register,
    tournament_start,
)

from ..conftest import CASINO, cashier, credit_balance, floor


@pytest.fixture
def tournament(casino: str) -> str:
    # buy-in 100 + 10 fee, re-buy 100 + 10, guarantee 1,000; 50/30/20 to three places
    tournament_announce(casino=CASINO, tournament="sunday", game="holdem",
                        buy_in=D("100.00"), entry_fee=D("10.00"), rebuy=D("100.00"),
                        rebuy_fee=D("10.00"), guarantee=D("1000.00"),
                        payout_percents=["50", "30", "20"], late_registration_levels=2,
                        approval_reference="SRIJ 77/2026", metadata=floor())
    return "sunday"


def test_from_registration_to_the_last_prize_paid(tournament: str) -> None:
    for patron in ("P-1", "P-2", "P-3", "P-4", "P-5", "P-6"):
        tournament_register(casino=CASINO, tournament=tournament, patron=patron,
                            metadata=floor())
    tournament_start(casino=CASINO, tournament=tournament, metadata=floor())
    late = tournament_register(casino=CASINO, tournament=tournament, patron="P-7",
                               metadata=floor())
    assert (late.entry, late.late) == (7, True)
    tournament_chips_buy(casino=CASINO, tournament=tournament, entry=3, kind="rebuy",
                         metadata=floor())
    # out in order: entries 1, 2, 4, 5 (places 7, 6, 5, 4), then 6 (3rd), then 7 (2nd): 3 wins
    for entry in (1, 2, 4, 5, 6):
        tournament_eliminate(casino=CASINO, tournament=tournament, entry=entry,
                             metadata=floor())
    results = tournament_eliminate(casino=CASINO, tournament=tournament, entry=7,
                                   metadata=floor())
    # collected 7 × 100 + 1 × 100 = 800.00 < guarantee 1,000.00: pool 1,000.00, overlay 200.00
    # fees 7 × 10 + 10 = 80.00: the house's revenue 80 - 200 = -120.00
    # prizes 50/30/20 of 1,000.00 = 500.00, 300.00, 200.00 to entries 3, 7, 6
    assert (results.pool, results.overlay) == ("1000.00", "200.00")
    assert results.prizes == [
        {"place": "1", "entry": "3", "prize": "500.00"},
        {"place": "2", "entry": "7", "prize": "300.00"},
        {"place": "3", "entry": "6", "prize": "200.00"},
    ]
    # before any prize is paid the pool is a liability: 800.00 + 200.00 overlay = 1,000.00
    assert credit_balance("prize_pool", tournament) == D("1000.00")
    row = Tournament.objects.get(casino_id=CASINO, code=tournament)
    assert (row.collected, row.fees, row.pool, row.overlay) == (
        D("800.00"), D("80.00"), D("1000.00"), D("200.00"))
    for entry in (3, 7, 6):
        tournament_prize_pay(casino=CASINO, tournament=tournament, entry=entry,
                             metadata=cashier())
    row.refresh_from_db()
    assert row.prizes_paid == D("1000.00")  # the pool's liability settled: 1,000 - 1,000 = 0
    # the ledger: fees 80.00 revenue; overlay 200.00 an expense (a debit: -200.00 as a credit);
    # the pool 800 + 200 - 1,000 paid = 0.00; the desk's cash took 800 + 80 = 880.00 and paid
    # 1,000.00: 120.00 more out than in (a credit balance), the overlay 200 less the fees 80
    assert credit_balance("tournament_fees", tournament) == D("80.00")
    assert credit_balance("tournament_overlay", tournament) == D("-200.00")
    assert credit_balance("prize_pool", tournament) == D("0.00")
    assert credit_balance("tournament_cash", tournament) == D("120.00")
    with pytest.raises(Conflict) as twice:
        tournament_prize_pay(casino=CASINO, tournament=tournament, entry=3, metadata=cashier())
    assert twice.value.code == "prize_paid"
    with pytest.raises(Conflict) as out:  # entry 5 finished 4th, out of the money
        tournament_prize_pay(casino=CASINO, tournament=tournament, entry=5, metadata=cashier())
    assert out.value.code == "no_prize"
    assert TournamentEntry.objects.get(casino_id=CASINO, tournament=tournament, entry=5).place == 4


def test_a_prize_above_the_threshold_needs_the_patron(casino: str) -> None:
    # 21 entries of 100: pool 2,100.00, one place paid 100 %: 2,100.00 >= 2,000.00 (PT-1)
    tournament_announce(casino=CASINO, tournament="big", game="omaha", buy_in=D("100.00"),
                        entry_fee=D("5.00"), payout_percents=["100"],
                        approval_reference="SRIJ 78/2026", metadata=floor())
    for _ in range(21):
        tournament_register(casino=CASINO, tournament="big", metadata=floor())
    tournament_start(casino=CASINO, tournament="big", metadata=floor())
    for entry in range(1, 21):
        tournament_eliminate(casino=CASINO, tournament="big", entry=entry, metadata=floor())
    with pytest.raises(InvalidCommand) as anonymous:
        tournament_prize_pay(casino=CASINO, tournament="big", entry=21, metadata=cashier())
    assert anonymous.value.code == "identification_required"
    assert "Lei n.º 83/2017" in anonymous.value.message
    paid = tournament_prize_pay(casino=CASINO, tournament="big", entry=21, patron="P-9",
                                metadata=cashier())
    assert paid.amount == "2100.00"  # 21 × 100.00


def test_a_payout_table_not_summing_to_100_is_refused(casino: str) -> None:
    with pytest.raises(InvalidCommand) as refused:
        tournament_announce(casino=CASINO, tournament="bad", game="holdem", buy_in=D("50.00"),
                            entry_fee=D("5.00"), payout_percents=["60", "30"],
                            approval_reference="x", metadata=floor())
    assert refused.value.code == "payout_table_not_100"
    assert not Tournament.objects.exists()


def test_the_poker_room_rebuilds_to_what_is_live(tournament: str) -> None:
    from eventstore.compare import check

    for _ in range(3):
        tournament_register(casino=CASINO, tournament=tournament, metadata=floor())
    tournament_start(casino=CASINO, tournament=tournament, metadata=floor())
    tournament_eliminate(casino=CASINO, tournament=tournament, entry=1, metadata=floor())
    tournament_eliminate(casino=CASINO, tournament=tournament, entry=2, metadata=floor())
    tournament_prize_pay(casino=CASINO, tournament=tournament, entry=3, metadata=cashier())
    assert check(["pokerroom", "ledger"]) == []


def test_late_registration_closes_with_its_levels_and_add_ons_need_the_structure(
        tournament: str) -> None:
    import datetime as dt

    for _ in range(3):
        tournament_register(casino=CASINO, tournament=tournament, metadata=floor())
    tournament_start(casino=CASINO, tournament=tournament, metadata=floor())
    started = Tournament.objects.get(casino_id=CASINO, code=tournament).started_at
    assert started is not None
    # 2 late levels of 20 minutes: open until 40 minutes after the start
    late = tournament_register(casino=CASINO, tournament=tournament,
                               now=started + dt.timedelta(minutes=39), metadata=floor())
    assert late.late
    with pytest.raises(Conflict) as closed:
        tournament_register(casino=CASINO, tournament=tournament,
                            now=started + dt.timedelta(minutes=41), metadata=floor())
    assert closed.value.code == "late_closed"
    with pytest.raises(InvalidCommand) as no_addon:  # the structure has no add-on
        tournament_chips_buy(casino=CASINO, tournament=tournament, entry=1, kind="addon",
                             metadata=floor())
    assert no_addon.value.code == "not_in_structure"
    assert no_addon.value.message == "this tournament's structure has no add-on"  # not "addon"
