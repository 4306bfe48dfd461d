"""A tip period from its boxes to each person's share (Portugal: by the month, the fund's share
by law), a misplaced tip corrected with a second person, and the refusals of the issue."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db.models import Sum

from casino.errors import Conflict, InvalidCommand, NotAllowed
from casino.models import Role
from ledger.chart import account
from ledger.models import JournalLine
from tips import selectors
from tips.models import TipBox
from tips.services import (
    tip_box_count,
    tip_box_count_confirm,
    tip_box_drop,
    tip_misplacement_confirm,
    tip_misplacement_report,
    tip_period_distribute,
    tip_rule_set,
    tip_staff_change,
    tip_staff_register,
)

from .conftest import acting, admin

PIT = acting(Role.PIT_BOSS, "paulo")
ANA = acting(Role.CASHIER, "ana")
RUI = acting(Role.CASHIER, "rui")
ACCOUNTANT = acting(Role.ACCOUNTANT, "contas")


def balance(casino: str, key: str, scope: str = "") -> D:
    """Credit less debit of an account, from the journal."""
    sums = JournalLine.objects.filter(casino_code=casino, account_code=account(key, scope).code
                                      ).aggregate(d=Sum("debit"), c=Sum("credit"))
    return (sums["c"] or D(0)) - (sums["d"] or D(0))


def _rule_and_staff(since: str = "2025-01-01") -> None:
    tip_rule_set(period="month", categories={"chefe": "14", "croupier": "10", "pagador": "8"},
                 source="Portaria 1159/90; Despacho Normativo 24/89 (coefficients unverified)",
                 effective_from=since, metadata=admin())
    for number, category in (("s1", "chefe"), ("s2", "croupier"), ("s3", "croupier"),
                             ("s4", "pagador"), ("s5", "croupier")):
        tip_staff_register(staff_number=number, category=category, since=since,
                           metadata=admin())
    # s5 left before the period: no share of it
    tip_staff_change(staff_number="s5", leaves_on="2025-10-31", metadata=admin())


def _count(day: str, box: str, cash: dict[str, int]) -> None:
    tip_box_count(gaming_day=day, box=box, cash=cash, metadata=ANA)
    tip_box_count_confirm(gaming_day=day, box=box, cash=cash, metadata=RUI)


def test_a_month_from_its_boxes_to_each_persons_share(lisboa: str) -> None:
    _rule_and_staff()
    tip_box_drop(place="table", code="bj1", gaming_day="2025-11-03", metadata=PIT)
    tip_box_drop(place="room", code="main", gaming_day="2025-11-03", metadata=PIT)
    tip_box_drop(place="table", code="bj1", gaming_day="2025-11-20", metadata=PIT)
    _count("2025-11-03", "table-bj1", {"20.00": 5})  # 100.00
    _count("2025-11-03", "room-main", {"50.00": 1})  # 50.00
    # 50 + 20 + 10 + 5 + 2 + 0.20 + 0.10 + 0.05 = 87.35
    _count("2025-11-20", "table-bj1", {"50.00": 1, "20.00": 1, "10.00": 1, "5.00": 1,
                                       "2.00": 1, "0.20": 1, "0.10": 1, "0.05": 1})
    # the count credits tips held, never revenue: 100 + 50 + 87.35 = 237.35
    assert balance(lisboa, "tips_held") == D("237.35")
    assert balance(lisboa, "tips_cash") == D("-237.35")  # a debit balance

    # a 10.00 tip found in table bj1's drop box on the 20th: reported by one, confirmed by another
    found = tip_misplacement_report(direction="drop_to_tips", table="bj1",
                                    gaming_day="2025-11-20", amount=D("10.00"),
                                    reason="a tip chip's cash in the drop box", metadata=ANA)
    with pytest.raises(NotAllowed, match="second person"):
        tip_misplacement_confirm(correction_id=found.correction_id, metadata=ANA)
    tip_misplacement_confirm(correction_id=found.correction_id, metadata=PIT)
    assert balance(lisboa, "tips_held") == D("247.35")
    assert balance(lisboa, "tips_misplaced", "bj1") == D("-10.00")  # out of the table's win

    days = {"s1": 20, "s2": 20, "s3": 15, "s4": 20}
    shared = tip_period_distribute(period="2025-11", days=days, metadata=ACCOUNTANT)
    # worked in test_distribution: 247.35, fund 15 % 37.10, staff 210.25; chefe 74.52,
    # croupier 93.15 (s2 53.23, s3 39.92), pagador 42.58
    assert (shared.boxes, shared.corrections, shared.total) == ("237.35", "10.00", "247.35")
    assert (shared.fund_percent, shared.fund, shared.staff) == ("15", "37.10", "210.25")
    assert {c.category: c.amount for c in shared.categories} == {
        "chefe": "74.52", "croupier": "93.15", "pagador": "42.58"}
    assert {s.staff_number: s.amount for s in shared.shares} == {
        "s1": "74.52", "s2": "53.23", "s3": "39.92", "s4": "42.58"}
    # the books: tips held emptied into the fund's payable and the staff's
    assert balance(lisboa, "tips_held") == D("0.00")
    assert balance(lisboa, "tips_fund_payable") == D("37.10")
    assert balance(lisboa, "tips_staff_payable") == D("210.25")
    assert selectors.tips_held(lisboa) == D("0.00")
    assert [(r.period, r.amount) for r in selectors.person_shares(lisboa, "s3")] == [
        ("2025-11", "39.92")]

    # a second time, and a box of the period counted after it: refused, nothing recorded
    with pytest.raises(Conflict, match="distributed already"):
        tip_period_distribute(period="2025-11", metadata=ACCOUNTANT)
    with pytest.raises(Conflict, match="distributed already"):
        tip_box_drop(place="room", code="bar", gaming_day="2025-11-30", metadata=PIT)


def test_a_period_before_2017_gives_the_fund_12_percent(lisboa: str) -> None:
    _rule_and_staff(since="2016-01-01")
    tip_box_drop(place="room", code="main", gaming_day="2016-11-05", metadata=PIT)
    _count("2016-11-05", "room-main", {"100.00": 1})
    # 12 % of 100.00 = 12.00; 88.00 by points 14 : 10 : 10 : 8 (one day each, 42 in all):
    # chefe 88x14/42 = 29.333.. -> 29.33, croupier 88x20/42 = 41.904.. -> 41.90 (+.0047),
    # pagador 88x8/42 = 16.761.. -> 16.76 (+.0019): 87.99, the cent to croupier: 41.91;
    # s2 and s3 20.955 each -> 20.95, the cent to s2 (first): 20.96, 20.95 (s5, not named in
    # the days, worked none of them: no share)
    shared = tip_period_distribute(period="2016-11", days={"s1": 1, "s2": 1, "s3": 1, "s4": 1},
                                   metadata=ACCOUNTANT)
    assert (shared.fund, shared.staff) == ("12.00", "88.00")
    assert {s.staff_number: s.amount for s in shared.shares} == {
        "s1": "29.33", "s2": "20.96", "s3": "20.95", "s4": "16.76"}


def test_a_drop_found_in_a_tip_box_goes_back_to_the_tables_win(lisboa: str) -> None:
    _rule_and_staff()
    tip_box_drop(place="table", code="bj1", gaming_day="2025-10-02", metadata=PIT)
    _count("2025-10-02", "table-bj1", {"50.00": 2})
    found = tip_misplacement_report(direction="tips_to_drop", table="bj1",
                                    gaming_day="2025-10-02", amount=D("50.00"),
                                    reason="a buy-in note in the tip box", metadata=PIT)
    tip_misplacement_confirm(correction_id=found.correction_id, metadata=RUI)
    assert balance(lisboa, "tips_held") == D("50.00")
    assert balance(lisboa, "tips_misplaced", "bj1") == D("50.00")


def test_a_distribution_before_its_boxes_are_counted_is_refused(lisboa: str) -> None:
    _rule_and_staff()
    tip_box_drop(place="table", code="bj1", gaming_day="2025-09-10", metadata=PIT)
    tip_box_count(gaming_day="2025-09-10", box="table-bj1", cash={"20.00": 1}, metadata=ANA)
    with pytest.raises(Conflict, match="not counted and confirmed") as refused:
        tip_period_distribute(period="2025-09", metadata=ACCOUNTANT)
    assert refused.value.code == "boxes_not_counted"
    with pytest.raises(Conflict, match="nothing to share"):
        tip_period_distribute(period="2025-08", metadata=ACCOUNTANT)
    with pytest.raises(Conflict, match="is not over"):
        tip_period_distribute(period="2099-01", metadata=ACCOUNTANT)


def test_the_count_is_by_two_counters_in_the_casinos_currency(lisboa: str) -> None:
    _rule_and_staff()
    tip_box_drop(place="table", code="bj1", gaming_day="2025-09-10", metadata=PIT)
    with pytest.raises(InvalidCommand, match="not a denomination here"):
        # 1000.00 is a pataca note, not a euro one
        tip_box_count(gaming_day="2025-09-10", box="table-bj1", cash={"1000.00": 1},
                      metadata=ANA)
    with pytest.raises(InvalidCommand, match="not 'HKD'"):
        tip_box_count(gaming_day="2025-09-10", box="table-bj1", cash={"20.00": 1},
                      currency="HKD", metadata=ANA)
    tip_box_count(gaming_day="2025-09-10", box="table-bj1", cash={"20.00": 1}, metadata=ANA)
    with pytest.raises(NotAllowed, match="a second counter"):
        tip_box_count_confirm(gaming_day="2025-09-10", box="table-bj1", cash={"20.00": 1},
                              metadata=ANA)
    with pytest.raises(Conflict, match="not the first counter's"):
        tip_box_count_confirm(gaming_day="2025-09-10", box="table-bj1", cash={"10.00": 2},
                              metadata=RUI)
    assert TipBox.objects.get(box="table-bj1").status == "counted"
    assert balance(lisboa, "tips_held") == D("0")


def test_portugals_fund_share_and_period_are_the_laws(lisboa: str) -> None:
    with pytest.raises(InvalidCommand, match="fund's share is the law's"):
        tip_rule_set(period="month", categories={"croupier": "10"}, source="x",
                     effective_from="2025-01-01", fund_percent="5", metadata=admin())
    with pytest.raises(InvalidCommand, match="by the month"):
        tip_rule_set(period="day", categories={"croupier": "10"}, source="x",
                     effective_from="2025-01-01", metadata=admin())


def test_macaus_tips_by_the_casinos_policy(macau: str) -> None:
    boss = acting(Role.PIT_BOSS, "lei", "macau")
    counters = acting(Role.CASHIER, "ho", "macau"), acting(Role.CASHIER, "chan", "macau")
    tip_rule_set(period="day", categories={"dealer": "1", "supervisor": "2"}, fund_percent="10",
                 source="the casino's tip policy", effective_from="2025-01-01",
                 metadata=admin("macau"))
    for number, category in (("d1", "dealer"), ("d2", "dealer"), ("u1", "supervisor")):
        tip_staff_register(staff_number=number, category=category, since="2025-01-01",
                           metadata=admin("macau"))
    tip_box_drop(place="table", code="bj1", gaming_day="2025-06-01", metadata=boss)
    tip_box_count(gaming_day="2025-06-01", box="table-bj1", cash={"1000.00": 1, "100.00": 3},
                  metadata=counters[0])
    tip_box_count_confirm(gaming_day="2025-06-01", box="table-bj1",
                          cash={"1000.00": 1, "100.00": 3}, metadata=counters[1])
    # 1,300.00; the pool's 10 % 130.00; 1,170.00 by points 1 : 1 : 2 (4): 292.50, 292.50, 585.00
    shared = tip_period_distribute(period="2025-06-01",
                                   metadata=acting(Role.ACCOUNTANT, "acc", "macau"))
    assert (shared.currency, shared.fund, shared.staff) == ("MOP", "130.00", "1170.00")
    assert {s.staff_number: s.amount for s in shared.shares} == {
        "d1": "292.50", "d2": "292.50", "u1": "585.00"}


def test_the_tips_rebuild_to_what_is_live(lisboa: str) -> None:
    from django.db import connection

    import eventstore

    _rule_and_staff()
    tip_box_drop(place="table", code="bj1", gaming_day="2025-07-01", metadata=PIT)
    _count("2025-07-01", "table-bj1", {"20.00": 3})
    tip_period_distribute(period="2025-07", metadata=ACCOUNTANT)
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    assert list(eventstore.check(["tips"])) == []
