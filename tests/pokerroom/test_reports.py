"""The poker room in the day's reports: reconcile's lines, the close report's non-banked
section, the daily register's commission and Portugal's IEJ on it (figures by hand)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest

from casino.models import Casino
from pokerroom.services.tables import (
    poker_chips_buy,
    poker_hands_record,
    poker_player_seat,
    poker_table_open,
    rake_box_count,
)
from pokerroom.services.tournaments import (
    tournament_announce,
    tournament_eliminate,
    tournament_prize_pay,
    tournament_register,
    tournament_start,
)
from reporting.close_report import close_report
from reporting.day_register import day_register
from reporting.reconciliation import reconcile

from .conftest import CASINO, cashier, floor


@pytest.fixture
def day(casino: str) -> dt.date:
    poker_table_open(casino=CASINO, table="om1", game="omaha", seats=6, min_buy_in=D("50.00"),
                     max_buy_in=D("200.00"), rake_percent="10", rake_cap=D("3.00"),
                     minimum_pot=D("0.00"), approval_reference="SRIJ 1/2026", metadata=floor())
    for seat in (1, 2):
        poker_player_seat(casino=CASINO, table="om1", seat=seat, metadata=floor())
        poker_chips_buy(casino=CASINO, table="om1", seat=seat, amount=D("100.00"),
                        metadata=floor())
    # 10 % of 25.00 = 2.50; 10 % of 60.00 = 6.00, capped at 3.00: rake 5.50
    poker_hands_record(casino=CASINO, table="om1", hands=[
        {"contributions": {"1": "12.50", "2": "12.50"}, "awards": {"2": "22.50"}, "rake": "2.50"},
        {"contributions": {"1": "30.00", "2": "30.00"}, "awards": {"1": "57.00"}, "rake": "3.00"},
    ], metadata=floor())
    rake_box_count(casino=CASINO, table="om1", counted=D("5.50"), second_counter="rita",
                   metadata=floor())
    # 3 entries of 50 + 5: pool 150.00 (no guarantee), fees 15.00; 100 % to the winner
    tournament_announce(casino=CASINO, tournament="t1", game="holdem", buy_in=D("50.00"),
                        entry_fee=D("5.00"), payout_percents=["100"],
                        approval_reference="SRIJ 2/2026", metadata=floor())
    for _ in range(3):
        tournament_register(casino=CASINO, tournament="t1", metadata=floor())
    tournament_start(casino=CASINO, tournament="t1", metadata=floor())
    tournament_eliminate(casino=CASINO, tournament="t1", entry=1, metadata=floor())
    tournament_eliminate(casino=CASINO, tournament="t1", entry=2, metadata=floor())
    tournament_prize_pay(casino=CASINO, tournament="t1", entry=3, metadata=cashier())
    return Casino.objects.get(code=CASINO).gaming_day(dt.datetime.now(tz=dt.UTC))


def test_the_poker_room_reconciles(day: dt.date) -> None:
    lines = [line for line in reconcile(casino=CASINO, gaming_day=day).lines
             if line.area == "poker room"]
    # players' money 200 - 5.50 = 194.50; rake 5.50 both sides; box 5.50 against 5.50;
    # the prize pool 150.00 - 150.00 paid = 0.00
    assert [(line.subject, line.platform, line.ledger) for line in lines] == [
        ("om1", D("194.50"), D("194.50")), ("om1", D("5.50"), D("5.50")),
        ("om1", D("5.50"), D("5.50")), ("t1", D("0.00"), D("0.00"))]
    assert all(line.ok for line in lines)


def test_the_close_report_and_the_register_show_the_commission(day: dt.date) -> None:
    report = close_report(casino=CASINO, gaming_day=day)
    assert [(n.subject, n.rake, n.fees, n.revenue) for n in report.non_banked] == [
        ("om1", D("5.50"), D("0.00"), D("5.50")), ("t1", D("0.00"), D("15.00"), D("15.00"))]
    assert report.as_data()["non_banked"][0]["subject"] == "om1"
    rows = day_register(Casino.objects.get(code=CASINO), day, [])
    assert [(r["table"], r["commission"]) for r in rows] == [("om1", "5.50"), ("t1", "15.00")]
    # the gross revenue takes the commission: 5.50 + 15.00 = 20.50
    assert report.revenue.gross_gaming_revenue == D("20.50")
    # Portugal's IEJ on the non-banked games: 10 % (the demo's pt.non_banked_rate) of 20.50
    iej = next(t for t in report.taxes if t.code == "pt-iej-non-banked")
    assert (iej.base, iej.amount) == (D("20.50"), D("2.05"))


def test_the_close_report_files_have_a_poker_room_section(day: dt.date) -> None:
    from reporting.close_report_files import close_report_csv, sections

    report = close_report(casino=CASINO, gaming_day=day)
    found = {name: rows for name, _, _, rows in sections(report)}
    # subject, game, rake, fees, commission, overlay, revenue
    assert found["non_banked"] == [["om1", "omaha", "5.50", "0.00", "0.00", "0.00", "5.50"],
                                   ["t1", "holdem", "0.00", "15.00", "0.00", "0.00", "15.00"]]
    assert "non_banked" in "".join(close_report_csv(report))
