"""A day of Hong Kong dollars at a Macau cage's exchange desk, figures worked by hand:
foreign notes bought and sold at the posted rate with its spread, the exchange result in the
ledger, the holding revalued at the day's closing rate; the holding reconciled in HKD, the
desk's cash in MOP, the books in MOP. Rates beyond the band wait for a second person."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db.models import Sum

from casino.context import person_metadata
from casino.errors import Conflict, InvalidCommand, NotAllowed
from casino.models import Role
from eventstore.models import StoredEvent
from exchange import selectors
from exchange.rates import Rate, buy, revalue, sell
from exchange.services import (
    currency_accept,
    exchange_desk_open,
    exchange_rate_approve,
    exchange_rate_post,
    foreign_cash_buy,
    foreign_cash_revalue,
    foreign_cash_sell,
)
from ledger.chart import account
from ledger.models import JournalLine

ADMIN = person_metadata(username="gestor", role=Role.ADMINISTRATOR, casino="macau")
SUPERVISOR = person_metadata(username="lei", role=Role.CAGE_SUPERVISOR, casino="macau")
ACCOUNTANT = person_metadata(username="ho", role=Role.ACCOUNTANT, casino="macau")
CASHIER = person_metadata(username="chan", role=Role.CASHIER, casino="macau")


def debit_balance(key: str, scope: str = "") -> D:
    sums = JournalLine.objects.filter(casino_code="macau", account_code=account(key, scope).code
                                      ).aggregate(d=Sum("debit"), c=Sum("credit"))
    return (sums["d"] or D(0)) - (sums["c"] or D(0))


def test_the_rates_arithmetic() -> None:
    rate = Rate(D("1.03"), D("1"))
    # buy 1.03 x 0.99 = 1.0197; sell 1.03 x 1.01 = 1.0403
    assert (rate.buy, rate.sell) == (D("1.019700"), D("1.040300"))
    # 1,000 HKD bought: paid 1,019.70 MOP, carried at 1,030.00, the spread 10.30
    assert buy(D("1000.00"), rate).result == D("10.30")
    # 200 HKD sold: received 208.06, carried at 206.00, the spread 2.06
    assert sell(D("200.00"), rate).result == D("2.06")
    # 1,300 HKD at 1.031 = 1,340.30 against 1,339.00 carried: +1.30
    assert revalue(D("1300.00"), D("1339.00"), D("1.031")) == (D("1340.30"), D("1.30"))


def test_a_day_of_hong_kong_dollars_reconciled_in_both_currencies(macau: str) -> None:
    currency_accept(currency="HKD", band_percent="2", metadata=ADMIN)
    posted = exchange_rate_post(currency="HKD", mid="1.03", spread_percent="1",
                                metadata=SUPERVISOR)
    assert (posted.status, posted.buy, posted.sell) == ("posted", "1.019700", "1.040300")
    exchange_desk_open(cash={"1000.00": 10}, metadata=CASHIER)  # 10,000.00 MOP

    # 1,000 HKD (500 x 2) bought at 1.0197: paid 1,019.70 MOP; book value 1,030.00; result 10.30
    one = foreign_cash_buy(currency="HKD", cash={"500.00": 2}, metadata=CASHIER)
    assert (one.book_amount, one.book_value, one.result, one.desk_cash) == (
        "1019.70", "1030.00", "10.30", "8980.30")
    # 500 HKD (100 x 5): paid 509.85, book value 515.00, result 5.15; desk 8,470.45
    foreign_cash_buy(currency="HKD", cash={"100.00": 5}, metadata=CASHIER)
    # 200 HKD (100 x 2) sold at 1.0403: received 208.06, book value 206.00, result 2.06;
    # desk 8,470.45 + 208.06 = 8,678.51
    sold = foreign_cash_sell(currency="HKD", cash={"100.00": 2}, metadata=CASHIER)
    assert (sold.book_amount, sold.result, sold.desk_cash) == ("208.06", "2.06", "8678.51")

    # a move within the band (1.03 -> 1.031: 0.1 %) is posted by one person
    assert exchange_rate_post(currency="HKD", mid="1.031", spread_percent="1",
                              metadata=SUPERVISOR).status == "posted"
    # beyond it (1.031 -> 1.10: 6.69 %) it waits for a second person, not its author
    waiting = exchange_rate_post(currency="HKD", mid="1.10", spread_percent="1",
                                 metadata=SUPERVISOR)
    assert (waiting.status, waiting.moved_percent) == ("awaiting_second_person", "6.69")
    with pytest.raises(NotAllowed, match="second person"):
        exchange_rate_approve(proposal_id=waiting.proposal_id, metadata=SUPERVISOR)

    # revalued at the day's closing rate 1.031 (the proposal is not in force):
    # 1,300 HKD x 1.031 = 1,340.30 against 1,030.00 + 515.00 - 206.00 = 1,339.00: +1.30
    revalued = foreign_cash_revalue(metadata=ACCOUNTANT)
    assert [(r.currency, r.holding, r.book_before, r.book_after, r.difference)
            for r in revalued.revaluations] == [
        ("HKD", "1300.00", "1339.00", "1340.30", "1.30")]

    # in HKD: 500 x 2 + 100 x 3 = 1,300.00 held; in MOP: the desk 8,678.51
    [held] = selectors.holdings(macau)
    assert (held.pieces, held.amount, held.book_value) == (
        {"500.00": 2, "100.00": 3}, "1300.00", "1340.30")
    assert selectors.desk_get(macau).cash == D("8678.51")
    # the books in MOP: the holding at 1,340.30, the desk at 8,678.51, the spread 10.30 + 5.15
    # + 2.06 = 17.51, the revaluation 1.30, against the float taken over 10,000.00
    assert debit_balance("foreign_cash", "HKD") == D("1340.30")
    assert debit_balance("exchange_desk_cash") == D("8678.51")
    assert debit_balance("exchange_result") == D("-17.51")
    assert debit_balance("revaluation_result") == D("-1.30")
    assert debit_balance("opening_counts") == D("-10000.00")

    # the second person approves the proposal: the new rate is in force
    approved = exchange_rate_approve(proposal_id=waiting.proposal_id, metadata=ACCOUNTANT)
    assert (approved.status, approved.mid) == ("posted", "1.1")
    with pytest.raises(Conflict, match="revalued for"):
        foreign_cash_revalue(metadata=ACCOUNTANT)


def test_bad_rates_and_currencies_are_refused_and_record_nothing(macau: str) -> None:
    currency_accept(currency="HKD", metadata=ADMIN)
    before = StoredEvent.objects.count()
    for mid, code in (("0", "rate_not_positive"), ("-1.03", "rate_not_positive")):
        with pytest.raises(InvalidCommand) as refused:
            exchange_rate_post(currency="HKD", mid=mid, metadata=SUPERVISOR)
        assert refused.value.code == code
    with pytest.raises(InvalidCommand, match="six decimals"):
        exchange_rate_post(currency="HKD", mid="1.03", spread_percent="x", metadata=SUPERVISOR)
    with pytest.raises(InvalidCommand, match="does not accept 'EUR'") as refused:
        exchange_rate_post(currency="EUR", mid="9.0", metadata=SUPERVISOR)
    assert refused.value.code == "currency_not_accepted"
    exchange_desk_open(cash={"1000.00": 1}, metadata=CASHIER)
    before = StoredEvent.objects.count()
    with pytest.raises(Conflict, match="no rate"):
        foreign_cash_buy(currency="HKD", cash={"100.00": 1}, metadata=CASHIER)
    with pytest.raises(InvalidCommand, match="does not accept 'USD'"):
        foreign_cash_buy(currency="USD", cash={"100.00": 1}, metadata=CASHIER)
    assert StoredEvent.objects.count() == before


def test_a_deal_at_the_laws_threshold_is_compared_in_patacas(macau: str) -> None:
    currency_accept(currency="HKD", metadata=ADMIN)
    exchange_rate_post(currency="HKD", mid="1.03", spread_percent="1", metadata=SUPERVISOR)
    exchange_desk_open(cash={"1000.00": 600}, metadata=CASHIER)  # 600,000.00 MOP
    # 485,000 HKD x 1.03 = 499,550.00 MOP carried (paid 485,000 x 1.0197 = 494,554.50): below
    # Macau's MOP 500,000.00
    foreign_cash_buy(currency="HKD", cash={"1000.00": 485}, metadata=CASHIER)
    # 486,000 HKD x 1.03 = 500,580.00 MOP: at or above it, refused, nothing recorded
    before = StoredEvent.objects.count()
    with pytest.raises(Conflict, match=r"500000\.00 MOP") as refused:
        foreign_cash_buy(currency="HKD", cash={"1000.00": 486}, metadata=CASHIER)
    assert refused.value.code == "identification_required"
    assert StoredEvent.objects.count() == before


def test_the_exchange_rebuilds_to_what_is_live(macau: str) -> None:
    from django.db import connection

    import eventstore

    currency_accept(currency="HKD", metadata=ADMIN)
    exchange_rate_post(currency="HKD", mid="1.03", spread_percent="1", metadata=SUPERVISOR)
    exchange_desk_open(cash={"1000.00": 5}, metadata=CASHIER)
    foreign_cash_buy(currency="HKD", cash={"500.00": 2, "100.00": 3}, metadata=CASHIER)
    foreign_cash_sell(currency="HKD", cash={"100.00": 1}, metadata=CASHIER)
    foreign_cash_revalue(metadata=ACCOUNTANT)
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    assert list(eventstore.check(["exchange"])) == []


def test_a_portuguese_cage_buys_dollars_in_euros(lisboa: str) -> None:
    def meta(role: str, who: str) -> object:
        return person_metadata(username=who, role=role, casino="lisboa")

    currency_accept(currency="USD", metadata=meta(Role.ADMINISTRATOR, "gestor"))
    # 1 USD = 0.92 EUR, spread 2 %: buy 0.92 x 0.98 = 0.9016, sell 0.92 x 1.02 = 0.9384
    rate = exchange_rate_post(currency="USD", mid="0.92", spread_percent="2",
                              metadata=meta(Role.CAGE_SUPERVISOR, "carla"))
    assert (rate.buy, rate.sell) == ("0.901600", "0.938400")
    exchange_desk_open(cash={"50.00": 20}, metadata=meta(Role.CASHIER, "ana"))  # 1,000.00 EUR
    # 100 USD (50 x 2): paid 90.16 EUR, carried 92.00, the spread 1.84
    bought = foreign_cash_buy(currency="USD", cash={"50.00": 2},
                              metadata=meta(Role.CASHIER, "ana"))
    assert (bought.book_currency, bought.book_amount, bought.book_value, bought.result) == (
        "EUR", "90.16", "92.00", "1.84")
    # 2,200 USD at 0.92 = 2,024.00 EUR: at or above Portugal's 2,000 EUR, refused
    with pytest.raises(Conflict) as refused:
        foreign_cash_buy(currency="USD", cash={"100.00": 22}, metadata=meta(Role.CASHIER, "ana"))
    assert refused.value.code == "identification_required"
