"""A Macau table playing in Hong Kong dollars, figures worked by hand: the table's chips, fills,
drop and win in HKD; the ledger's entries in patacas (MOP) at the exchange's posted middle rate
the session opened with, and the same figures at face value in HKD in memorandum (0900.HKD.*);
chips in players' hands reconciled in HKD and in MOP. Bad input refused, nothing recorded."""

from __future__ import annotations

import json
from decimal import Decimal as D
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import Sum
from django.test import Client

import eventstore
from cage import selectors as cage_selectors
from cage import services as cage
from cage.models import Shift
from casino.context import person_metadata, system_metadata
from casino.errors import Conflict, InvalidCommand, NotAllowed
from casino.models import Approval, Casino, Membership, Role
from casino.services.approvals import approval_grant, approval_request
from casino.services.chips import chip_set_register
from eventstore.models import StoredEvent
from exchange.models import ForeignHolding
from exchange.services import currency_accept, exchange_rate_post
from games.limits import default_limits
from games.models import Table, TableSession
from games.services import count_room, rounds, sessions, tables
from games.services.table_currency import table_change_currency
from ledger import postings as p
from ledger.chart import account
from ledger.chip_revaluation import foreign_chips_revalue
from ledger.currency_postings import convert
from ledger.models import JournalEntry, JournalLine, TableDay
from reporting.close_currencies import in_book_currency
from reporting.close_report import close_report, report_from_data
from reporting.close_report_files import sections
from reporting.reconciliation import reconcile
from tests.casino.test_pt_pt_catalogue import untranslated
from tests.casino.test_translations import english_left, main_text

ADMIN = person_metadata(username="gestor", role=Role.ADMINISTRATOR, casino="macau")
SUPERVISOR = person_metadata(username="lei", role=Role.CAGE_SUPERVISOR, casino="macau")
CASHIER = person_metadata(username="chan", role=Role.CASHIER, casino="macau")
PIT = person_metadata(username="wong", role=Role.PIT_BOSS, casino="macau")
FLOAT = {"1000.00": 1, "100.00": 10, "10.00": 100}  # 1,000 + 1,000 + 1,000 = 3,000 HKD


def lines_of(event_type: str) -> list[tuple[str, D, D]]:
    entry = JournalEntry.objects.filter(casino_id="macau", event_type=event_type
                                        ).latest("number")
    return [(line.account_code, line.debit, line.credit)
            for line in JournalLine.objects.filter(entry=entry).order_by("line_no")]


def balance(code: str) -> D:
    sums = JournalLine.objects.filter(casino_code="macau", account_code=code).aggregate(
        d=Sum("debit"), c=Sum("credit"))
    return (sums["d"] or D(0)) - (sums["c"] or D(0))


@pytest.fixture
def floor(macau: str) -> str:
    """Macau's floor: a pataca chip set and a Hong Kong dollar one, the vault and window w1,
    HKD accepted at 1.03 (spread 1 %), table B1 configured with the pataca chips."""
    meta = system_metadata("macau", job="test")
    chip_set_register(casino="macau", code="patacas", name="Patacas",
                      denominations=["100.00", "25.00", "5.00"], metadata=meta)
    chip_set_register(casino="macau", code="hkd", name="Hong Kong dollars",
                      denominations=["1000.00", "100.00", "10.00"], metadata=meta)
    for code, kind in (("w1", "window"), ("vault", "vault")):
        cage.cage_configure(code=code, name=code.title(), kind=kind, metadata=SUPERVISOR)
    vault = str(cage.shift_open(cage="vault", cash={"1000.00": 50}, metadata=SUPERVISOR)
                .shift_id)
    cage.chips_put_into_service(shift_id=vault, chip_set="hkd", reference="delivery 7",
                                chips={"1000.00": 10, "100.00": 100, "10.00": 500},
                                metadata=SUPERVISOR)
    cage.shift_open(cage="w1", cash={}, metadata=CASHIER)
    cage.transfer_send(shift_id=vault, to_cage="w1", chips={"hkd": {"100.00": 50}},
                       metadata=SUPERVISOR)
    tables.table_configure(casino="macau", code="b1", name="B1", game="french_roulette",
                           seats=8, chip_set="patacas",
                           limits=default_limits("french_roulette", D("10.00")), metadata=PIT)
    currency_accept(currency="HKD", band_percent="2", metadata=ADMIN)
    exchange_rate_post(currency="HKD", mid="1.03", spread_percent="1", metadata=SUPERVISOR)
    return "macau"


def _window() -> str:
    return str(Shift.objects.get(casino_id="macau", cage="w1").id)


def test_a_day_at_a_hong_kong_dollar_table_in_patacas_and_in_dollars(floor: str) -> None:
    table_change_currency(casino="macau", code="b1", currency="HKD", chip_set="hkd",
                          reason="the HKD pit", metadata=PIT)
    assert (Table.objects.get(code="b1").currency, Table.objects.get(code="b1").chip_set) == (
        "HKD", "hkd")
    session = str(sessions.table_session_open(casino="macau", table="b1", opening=FLOAT,
                                              metadata=PIT).session_id)
    opened = TableSession.objects.get(session_id=session)
    assert (opened.currency, opened.rate, opened.opening_amount) == ("HKD", D("1.03"),
                                                                      D("3000.00"))
    # The float is chips at face value (class 0 counts chips, whatever their currency)
    assert lines_of("TableSessionOpened") == [("0120.b1", D("3000.00"), D("0.00")),
                                              ("0190", D("0.00"), D("3000.00"))]
    sessions.fill_request(session_id=session, slip="F-1", chips={"100.00": 5}, metadata=PIT)
    cage.fill_issue(shift_id=_window(), slip="F-1", metadata=CASHIER)
    assert lines_of("FillIssued") == [("0120.b1", D("500.00"), D("0.00")),
                                      ("0110.w1", D("0.00"), D("500.00"))]
    # 200 HKD of chips sold at the table: in the books 200 x 1.03 = 206.00 MOP, the chips
    # leave the tray at face value, and the money again at face value in HKD (memorandum)
    sessions.drop_record(session_id=session, amount="200.00", metadata=PIT)
    assert lines_of("DropRecorded") == [
        ("1120.b1", D("206.00"), D("0.00")), ("2797.HKD", D("0.00"), D("206.00")),
        ("0190", D("200.00"), D("0.00")), ("0120.b1", D("0.00"), D("200.00")),
        ("0900.HKD.1120.b1", D("200.00"), D("0.00")), ("0900.HKD.2781", D("0.00"), D("200.00"))]
    # 50 HKD lost on red (2 is black): 51.50 MOP won; 10 HKD on 17 pays 350: 360.50 MOP lost
    rounds.round_record(session_id=session, bets=[{"seat": 1, "type": "red", "amount": "50"}],
                        outcome={"number": 2}, metadata=PIT)
    assert lines_of("RoundSettled")[:2] == [("2797.HKD", D("51.50"), D("0.00")),
                                            ("7211.b1", D("0.00"), D("51.50"))]
    rounds.round_record(session_id=session, bets=[{"seat": 2, "type": "straight",
                                                   "numbers": [17], "amount": "10"}],
                        outcome={"number": 17}, metadata=PIT)
    assert lines_of("RoundSettled")[:2] == [("7211.b1", D("360.50"), D("0.00")),
                                            ("2797.HKD", D("0.00"), D("360.50"))]
    # The tray: 3,000 + 500 - 200 + 50 - 350 = 3,000 HKD, counted as opened; the box 200 HKD.
    sessions.table_session_close(session_id=session, closing=FLOAT, metadata=PIT)
    count_room.drop_box_count(session_id=session, cash={"100.00": 2},
                              metadata=person_metadata(username="ip", role=Role.CASHIER,
                                                       casino="macau"))
    count_room.drop_box_count_confirm(session_id=session, cash={"100.00": 2}, metadata=SUPERVISOR)
    closed = TableSession.objects.get(session_id=session)
    # win = drop 200 + closing 3,000 - opening 3,000 - fills 500 = -300 HKD (rounds: +50 - 350)
    assert (closed.table_win, closed.drop) == (D("-300.00"), D("200.00"))

    # In patacas: the table's win -300 x 1.03 = -309.00; the HKD chips in players' hands
    # (200 + 350 - 50 = 500 HKD) a liability of 515.00 MOP apart from the pataca chips (2781)
    assert balance("7211.b1") + balance("7212.b1") == D("309.00")
    assert (balance("2797.HKD"), balance("2781"), balance("1120.b1")) == (
        D("-515.00"), D("0.00"), D("206.00"))
    # In HKD, at face value: the win -300, the chips in hand 500, the drop 200; the tray 3,000
    assert balance("0900.HKD.7211.b1") + balance("0900.HKD.7212.b1") == D("300.00")
    assert (balance("0900.HKD.2781"), balance("0900.HKD.1120.b1"), balance("0120.b1")) == (
        D("-500.00"), D("200.00"), D("3000.00"))
    # and the cage's count of HKD chips in players' hands agrees: 500.00
    assert cage_selectors.chips_in_circulation(casino="macau").value == D("500.00")
    # the day's handle 50 + 10 = 60 HKD and drop 200 HKD, in patacas for the tax: 61.80, 206.00
    day = TableDay.objects.get(casino_id="macau", table="b1")
    assert (day.handle, day.drop) == (D("61.80"), D("206.00"))
    # every projection touched rebuilds to what is live (currency and rate included)
    assert list(eventstore.check(["ledger", "tables", "table_sessions", "drop_boxes",
                                  "gaming_days", "cage"])) == []

    # the cage receives the box in HKD (its notes to the cage's HKD, at 1.03: 206.00 MOP)
    cage.drop_box_receive(shift_id=_window(), session_id=session, cash={"100.00": 2},
                          metadata=CASHIER)
    # reconciled in HKD and in MOP, line by line
    report = reconcile(casino="macau", gaming_day=closed.gaming_day)
    assert report.failures == []
    seen = {(str(line.subject), str(line.what)): (line.platform, line.ledger)
            for line in report.lines}
    assert seen[("in players' hands, HKD", "now")] == (D("500.00"), D("500.00"))
    assert seen[("in players' hands, MOP", "now")] == (D("0.00"), D("0.00"))
    assert seen[("in players' hands, HKD", "now: book value in MOP")] == (None, D("515.00"))
    assert seen[("b1", "table win, HKD")] == (D("-300.00"), D("-300.00"))
    assert seen[("b1", "table win, book value in MOP")] == (None, D("-309.00"))
    assert seen[(f"b1 {session[:8]}", "counted, received at the cage, HKD")] == (
        D("200.00"), D("200.00"))
    assert seen[("b1", "in the count room, HKD")] == (D("0.00"), D("0.00"))
    assert seen[("HKD", "book value in MOP")] == (D("206.00"), D("206.00"))
    # the cage's chips at face value, as for any casino: 5,000 HKD sent to w1, 500 filled
    assert seen[("w1", "chips now")] == (D("4500.00"), D("4500.00"))
    # the close report's currencies: MOP (no table of its own; the vault's 50 x 1,000 in
    # cash; no pataca chips out) and HKD (B1's -300 at 1.03 = -309.00; the box's 200 HKD the
    # cage holds, 206.00; 500 HKD of chips in players' hands, 515.00)
    report = close_report(casino="macau", gaming_day=closed.gaming_day)
    assert [(c.currency, c.rate, c.tables_win, c.tables_win_book, c.cage_holdings,
             c.cage_holdings_book, c.chips_in_hands, c.chips_in_hands_book)
            for c in report.currencies] == [
        ("MOP", None, D("0.00"), D("0.00"), D("50000.00"), D("50000.00"), D("0.00"),
         D("0.00")),
        ("HKD", D("1.03"), D("-300.00"), D("-309.00"), D("200.00"), D("206.00"),
         D("500.00"), D("515.00"))]
    assert report_from_data(report.as_data()) == report  # as the close records it
    assert [name for name, *_ in sections(report)][-2:] == ["currency", "total"]
    # the page, in pt-PT: the section and its columns in Portuguese
    user = User.objects.create_user(username="ho", password="x")
    Membership.objects.create(user=user, casino_id="macau", role=Role.ACCOUNTANT)
    web = Client(headers={"accept-language": "pt-pt"})
    web.force_login(user)
    page = main_text(web.get(f"/ledger/macau/close-report/?day={closed.gaming_day}"
                             ).content.decode())
    assert "Moedas (cada uma na sua e na moeda de contabilização)" in page
    assert "Fichas nas mãos dos jogadores, moeda de contabilização" in page
    assert untranslated(page) == []
    assert english_left(page) == []
    # the close fixes B1's results in patacas (what the tax's register reads), HKD beside
    fixed = in_book_currency(Casino.objects.get(code="macau"), closed.gaming_day, [
        {"table": "b1", "game": "french_roulette", "sessions": 1, "rounds": 2,
         "handle": "60.00", "drop": "200.00", "win": "-300.00"}])
    assert fixed == [{"table": "b1", "game": "french_roulette", "sessions": 1, "rounds": 2,
                      "handle": "61.80", "drop": "206.00", "win": "-309.00", "currency": "HKD",
                      "handle_in_currency": "60.00", "drop_in_currency": "200.00",
                      "win_in_currency": "-300.00"}]


def _hkd_box(floor: str, *, box: dict[str, int]) -> str:
    """B1 plays in HKD at 1.03: a session whose drop is 200 HKD, counted as ``box``."""
    table_change_currency(casino="macau", code="b1", currency="HKD", chip_set="hkd",
                          reason="the HKD pit", metadata=PIT)
    session = str(sessions.table_session_open(casino="macau", table="b1", opening=FLOAT,
                                              metadata=PIT).session_id)
    sessions.drop_record(session_id=session, amount="200.00", metadata=PIT)
    sessions.table_session_close(session_id=session, closing={"1000.00": 1, "100.00": 10,
                                                               "10.00": 80}, metadata=PIT)
    counter = person_metadata(username="ip", role=Role.CASHIER, casino="macau")
    count_room.drop_box_count(session_id=session, cash=box, metadata=counter)
    count_room.drop_box_count_confirm(session_id=session, cash=box, metadata=SUPERVISOR)
    return session


def test_a_hong_kong_dollar_box_is_received_at_the_cage_in_its_currency(floor: str) -> None:
    session = _hkd_box(floor, box={"100.00": 1, "50.00": 2})  # 100 + 100 = 200 HKD
    w1_cash = cage_selectors.expected_count(Shift.objects.get(cage="w1"))
    answer = cage.drop_box_receive(shift_id=_window(), session_id=session,
                                   cash={"100.00": 1, "50.00": 2}, metadata=CASHIER)
    assert (answer.currency, answer.amount, answer.variance_value) == ("HKD", "200.00", "0.00")
    # In the books: 200 HKD x 1.03 = 206.00 MOP leave B1's drop for the cage's HKD (1171.HKD);
    # at face value in HKD, the same 200 in memorandum. The window's pataca cash is untouched.
    assert lines_of("DropBoxReceived") == [
        ("1171.HKD", D("206.00"), D("0.00")), ("1120.b1", D("0.00"), D("206.00")),
        ("0900.HKD.1171.HKD", D("200.00"), D("0.00")),
        ("0900.HKD.1120.b1", D("0.00"), D("200.00"))]
    assert (balance("1120.b1"), balance("0900.HKD.1120.b1"), balance("1110.w1")) == (
        D("0.00"), D("0.00"), D("0.00"))
    assert cage_selectors.expected_count(Shift.objects.get(cage="w1")) == w1_cash
    # The cage's HKD, by denomination: 1 x 100 and 2 x 50 = 200 HKD, carried at 206.00 MOP
    held = ForeignHolding.objects.get(casino_id="macau", currency="HKD")
    assert (held.pieces, held.amount, held.book_value) == (
        {"100.00": 1, "50.00": 2}, D("200.00"), D("206.00"))
    closed = TableSession.objects.get(session_id=session)
    report = reconcile(casino="macau", gaming_day=closed.gaming_day)
    assert report.failures == []
    seen = {(str(line.subject), str(line.what)): (line.platform, line.ledger)
            for line in report.lines}
    assert seen[(f"b1 {session[:8]}", "counted, received at the cage, HKD")] == (
        D("200.00"), D("200.00"))
    assert seen[("HKD", "book value in MOP")] == (D("206.00"), D("206.00"))
    assert list(eventstore.check(["ledger", "cage", "drop_boxes", "exchange"])) == []
    # received once
    with pytest.raises(Conflict):
        cage.drop_box_receive(shift_id=_window(), session_id=session,
                              cash={"100.00": 1, "50.00": 2}, metadata=CASHIER)


def test_a_short_hong_kong_dollar_box_is_a_variance_at_the_session_rate(floor: str) -> None:
    session = _hkd_box(floor, box={"100.00": 2})
    # 150 HKD received against 200 counted: -50 HKD, -51.50 MOP to B1's drop difference (7883)
    answer = cage.drop_box_receive(shift_id=_window(), session_id=session,
                                   cash={"100.00": 1, "50.00": 1}, metadata=CASHIER)
    assert (answer.amount, answer.variance_value, answer.variance_needs_approval) == (
        "150.00", "-50.00", True)
    lines = lines_of("DropBoxReceived")
    assert ("1171.HKD", D("154.50"), D("0.00")) in lines
    assert ("7883.b1", D("51.50"), D("0.00")) in lines
    assert balance("1120.b1") == D("0.00")
    held = ForeignHolding.objects.get(casino_id="macau", currency="HKD")
    assert (held.amount, held.book_value) == (D("150.00"), D("154.50"))


def test_a_hong_kong_dollar_box_in_a_coin_hkd_does_not_have_is_refused(floor: str) -> None:
    session = _hkd_box(floor, box={"100.00": 2})
    before = StoredEvent.objects.count()
    with pytest.raises(InvalidCommand):
        cage.drop_box_receive(shift_id=_window(), session_id=session, cash={"3.00": 1},
                              metadata=CASHIER)
    assert StoredEvent.objects.count() == before


def test_the_rounding_of_a_conversion_goes_to_the_exchange_result() -> None:
    lines = (p.Line(account("drop", "b1"), D("0.03"), D("0.00")),
             p.Line(account("gaming_revenue", "b1"), D("0.00"), D("0.01")),
             p.Line(account("table_variance", "b1"), D("0.00"), D("0.01")),
             p.Line(account("chips_in_circulation"), D("0.00"), D("0.01")))
    # at 1.5: 0.045 -> 0.05 debit; 0.015 -> 0.02 three times, 0.06 credit; 0.01 short on the
    # debit side: the exchange result (7891) is debited 0.01
    booked = convert(lines, D("1.5"), "HKD")
    real = [(line.account.code, line.debit, line.credit) for line in booked
            if not line.account.template.memorandum]
    assert real == [("1120.b1", D("0.05"), D("0.00")), ("7211.b1", D("0.00"), D("0.02")),
                    ("7212.b1", D("0.00"), D("0.02")), ("2797.HKD", D("0.00"), D("0.02")),
                    ("7891", D("0.01"), D("0.00"))]
    p.check_balanced(booked)


def test_a_table_in_a_currency_the_casino_does_not_accept_is_refused(floor: str) -> None:
    before = StoredEvent.objects.count()
    with pytest.raises(InvalidCommand, match="does not accept USD"):
        table_change_currency(casino="macau", code="b1", currency="USD", chip_set="hkd",
                              metadata=PIT)
    assert StoredEvent.objects.count() == before
    assert Table.objects.get(code="b1").currency == ""


def test_a_fill_in_another_currencys_chips_is_refused(floor: str) -> None:
    table_change_currency(casino="macau", code="b1", currency="HKD", chip_set="hkd",
                          metadata=PIT)
    session = str(sessions.table_session_open(casino="macau", table="b1", opening=FLOAT,
                                              metadata=PIT).session_id)
    before = StoredEvent.objects.count()
    # 25.00 is a pataca chip: not one of B1's Hong Kong dollar chips
    with pytest.raises(InvalidCommand, match=r"25\.00 is not a denomination of table b1's HKD "
                                             "chips"):
        sessions.fill_request(session_id=session, slip="F-2", chips={"25.00": 4}, metadata=PIT)
    assert StoredEvent.objects.count() == before


def test_a_chip_set_of_another_currency_and_an_open_session_are_refused(floor: str) -> None:
    tables.table_configure(casino="macau", code="b2", name="B2", game="french_roulette",
                           seats=8, chip_set="patacas",
                           limits=default_limits("french_roulette", D("10.00")), metadata=PIT)
    with pytest.raises(InvalidCommand, match="chip set patacas is table b2's MOP chips"):
        table_change_currency(casino="macau", code="b1", currency="HKD", chip_set="patacas",
                              metadata=PIT)
    sessions.table_session_open(casino="macau", table="b2", opening={"100.00": 1},
                                metadata=PIT)
    with pytest.raises(Conflict, match="open session"):
        table_change_currency(casino="macau", code="b2", currency="HKD", chip_set="hkd",
                              metadata=PIT)


ACCOUNTANT = person_metadata(username="ho", role=Role.ACCOUNTANT, casino="macau")


def _chips_out(floor: str) -> None:
    """B1 in HKD at 1.03 puts 200 HKD of chips in players' hands: 206.00 MOP in 2797.HKD."""
    table_change_currency(casino="macau", code="b1", currency="HKD", chip_set="hkd",
                          reason="the HKD pit", metadata=PIT)
    session = str(sessions.table_session_open(casino="macau", table="b1", opening=FLOAT,
                                              metadata=PIT).session_id)
    sessions.drop_record(session_id=session, amount="200.00", metadata=PIT)
    assert (balance("2797.HKD"), balance("0900.HKD.2781")) == (D("-206.00"), D("-200.00"))


@pytest.mark.parametrize(("mid", "after", "entry"), [
    # 200 x 1.04 = 208.00: the liability grows by 2.00, a loss (Dr 7892 / Cr 2797.HKD)
    ("1.04", D("208.00"), [("7892", D("2.00"), D("0.00")), ("2797.HKD", D("0.00"), D("2.00"))]),
    # 200 x 1.0251 = 205.02: it shrinks by 0.98, a gain (Dr 2797.HKD / Cr 7892)
    ("1.0251", D("205.02"), [("2797.HKD", D("0.98"), D("0.00")),
                             ("7892", D("0.00"), D("0.98"))]),
])
def test_foreign_chips_in_players_hands_are_revalued_at_the_closing_rate(
        floor: str, mid: str, after: D, entry: list[tuple[str, D, D]]) -> None:
    _chips_out(floor)
    exchange_rate_post(currency="HKD", mid=mid, spread_percent="1", metadata=SUPERVISOR)
    answer = foreign_chips_revalue(metadata=ACCOUNTANT)
    row = answer.revaluations[0]
    assert (row.currency, row.in_hands, row.book_before, row.book_after) == (
        "HKD", "200.00", "206.00", f"{after}")
    assert lines_of("ForeignChipsRevalued") == entry
    assert balance("2797.HKD") == -after
    assert list(eventstore.check(["ledger"])) == []
    # once a gaming day per currency; and not by a cashier; nothing recorded
    before = StoredEvent.objects.count()
    with pytest.raises(Conflict, match="revalued for"):
        foreign_chips_revalue(metadata=ACCOUNTANT)
    with pytest.raises(NotAllowed):
        foreign_chips_revalue(metadata=CASHIER)
    assert StoredEvent.objects.count() == before


def test_a_session_rate_beyond_the_band_needs_a_second_person(floor: str) -> None:
    """HKD's band is 2 % from the last posted 1.03: 1.05 is 1.94 % (taken by the pit boss),
    1.06 is 2.91 % (refused, naming the rate and the band; opened once a cage supervisor
    approves it)."""
    table_change_currency(casino="macau", code="b1", currency="HKD", chip_set="hkd",
                          reason="the HKD pit", metadata=PIT)
    before = StoredEvent.objects.count()
    with pytest.raises(Conflict) as refused:
        sessions.table_session_open(casino="macau", table="b1", opening=FLOAT, rate="1.06",
                                    metadata=PIT)
    assert refused.value.code == "rate_beyond_band"
    assert refused.value.message == (
        "the rate 1.06 is 2.91 % from HKD's last posted rate 1.03, beyond the band of 2 %: a "
        "session opens at it only when a second person approves (ask for a session rate "
        "approval)")
    for bad in ("0", "-1.03", "abc", "1.0300001"):
        with pytest.raises(InvalidCommand):
            sessions.table_session_open(casino="macau", table="b1", opening=FLOAT, rate=bad,
                                        metadata=PIT)
    assert StoredEvent.objects.count() == before

    # the pit boss asks; not the asker, a cage supervisor approves: the session opens at 1.06
    asked = approval_request(kind="session_rate", subject="b1", reason="agreed_rate",
                             explanation="the junket's rate for tonight",
                             details={"rate": "1.06", "opening": FLOAT}, metadata=PIT)
    granted = approval_grant(approval_id=asked.approval_id, metadata=SUPERVISOR)
    opened = TableSession.objects.get(table="b1")
    assert (granted.status, opened.currency, opened.rate) == ("granted", "HKD", D("1.06"))
    # 200 HKD of chips sold at the table: 212.00 MOP at 1.06
    sessions.drop_record(session_id=str(opened.session_id), amount="200.00", metadata=PIT)
    assert balance("2797.HKD") == D("-212.00")
    event = StoredEvent.objects.filter(event_type="TableSessionOpened").latest("position")
    assert event.data["rate_approval_id"] == asked.approval_id


def test_a_session_rate_within_the_band_is_taken_without_approval(floor: str) -> None:
    table_change_currency(casino="macau", code="b1", currency="HKD", chip_set="hkd",
                          reason="the HKD pit", metadata=PIT)
    with pytest.raises(Conflict, match="without an approval"):
        approval_request(kind="session_rate", subject="b1", reason="agreed_rate",
                         explanation="a rate", details={"rate": "1.05"}, metadata=PIT)
    sessions.table_session_open(casino="macau", table="b1", opening=FLOAT, rate="1.05",
                                metadata=PIT)
    assert TableSession.objects.get(table="b1").rate == D("1.05")


def test_the_command_revalues_the_chips_and_refuses_a_second_run(floor: str) -> None:
    _chips_out(floor)
    exchange_rate_post(currency="HKD", mid="1.04", spread_percent="1", metadata=SUPERVISOR)
    out = StringIO()
    call_command("revalue_foreign_chips", "--casino", "macau", stdout=out)
    assert json.loads(out.getvalue())["revaluations"][0]["difference"] == "2.00"
    with pytest.raises(CommandError, match="revalued for"):
        call_command("revalue_foreign_chips", "--casino", "macau", stdout=StringIO())


def test_the_window_s_page_receives_a_hong_kong_dollar_box_in_hkd(floor: str) -> None:
    session = _hkd_box(floor, box={"100.00": 2})
    user = User.objects.create_user(username="chan", password="x")
    Membership.objects.create(user=user, casino_id="macau", role=Role.CASHIER)
    web = Client()
    web.force_login(user)
    page = web.get(f"/cage/macau/shifts/{_window()}/?m=drop").content.decode()
    option = page[page.index(f'<option value="{session}"'):]
    assert "counted HK$200.00" in option[:option.index("</option>")]
    web.post(f"/cage/macau/shifts/{_window()}/", {
        "action": "drop", "session_id": session, "cash-100.00": "2", "idempotency_key": "d1"})
    held = ForeignHolding.objects.get(casino_id="macau", currency="HKD")
    assert (held.amount, held.book_value) == (D("200.00"), D("206.00"))


def test_the_table_s_page_opens_at_a_rate_and_refuses_one_beyond_the_band(floor: str) -> None:
    table_change_currency(casino="macau", code="b1", currency="HKD", chip_set="hkd",
                          reason="the HKD pit", metadata=PIT)
    user = User.objects.create_user(username="wong", password="x")
    Membership.objects.create(user=user, casino_id="macau", role=Role.PIT_BOSS)
    web = Client(headers={"accept-language": "pt-pt"})
    web.force_login(user)
    form = {"action": "open", "mode": "count", "idempotency_key": "o1", "opening-1000.00": "1",
            "opening-100.00": "10", "opening-10.00": "100"}
    assert 'name="rate"' in web.get("/pit/macau/tables/b1/").content.decode()
    refused = web.post("/pit/macau/tables/b1/", {**form, "rate": "1,06"}).content.decode()
    assert "para lá da margem de 2 %" in refused
    assert "Pedir a aprovação desta taxa" in refused
    assert not TableSession.objects.filter(table="b1").exists()
    # asked on the page; a cage supervisor approves: the session opens at 1.06
    web.post("/pit/macau/tables/b1/", {**form, "action": "ask_rate", "rate": "1,06",
                                       "reason": "rate_moved", "explanation": "o HKD subiu",
                                       "idempotency_key": "a1"})
    asked = Approval.objects.get(kind="session_rate")
    assert (asked.subject, asked.details["rate"]) == ("b1", "1.06")
    assert "A aguardar aprovação" in web.get("/pit/macau/tables/b1/").content.decode()
    approval_grant(approval_id=str(asked.id), metadata=SUPERVISOR)
    assert TableSession.objects.get(table="b1").rate == D("1.06")
    sessions.table_session_close(session_id=str(TableSession.objects.get(table="b1").session_id),
                                 closing=FLOAT, metadata=PIT)
    form = {**form, "opening-1000.00": "1", "opening-100.00": "10", "opening-10.00": "100"}
    web.post("/pit/macau/tables/b1/", {**form, "rate": "1.05", "idempotency_key": "o2"})
    assert TableSession.objects.get(table="b1", status="open").rate == D("1.05")


def test_the_accountant_s_desk_revalues_the_chips(floor: str) -> None:
    _chips_out(floor)
    exchange_rate_post(currency="HKD", mid="1.04", spread_percent="1", metadata=SUPERVISOR)
    user = User.objects.create_user(username="ho", password="x")
    Membership.objects.create(user=user, casino_id="macau", role=Role.ACCOUNTANT)
    web = Client(headers={"accept-language": "pt-pt"})
    web.force_login(user)
    assert "Fichas em moeda estrangeira" in web.get("/ledger/macau/desk/").content.decode()
    done = web.post("/ledger/macau/desk/", {"action": "revalue_chips", "idempotency_key": "r1"},
                    follow=True).content.decode()
    assert "Fichas em HKD nas mãos dos jogadores: 206.00 → 208.00 (2.00)" in done
    assert balance("2797.HKD") == D("-208.00")
    again = web.post("/ledger/macau/desk/", {"action": "revalue_chips", "idempotency_key": "r2"},
                     follow=True).content.decode()
    assert "já foram reavaliadas" in again


def _thousand_hkd_box(floor: str) -> str:
    """B1 plays in HKD at 1.03: a session whose box holds 1,000 HKD (10 x 100), counted."""
    table_change_currency(casino="macau", code="b1", currency="HKD", chip_set="hkd",
                          reason="the HKD pit", metadata=PIT)
    session = str(sessions.table_session_open(casino="macau", table="b1", opening=FLOAT,
                                              metadata=PIT).session_id)
    sessions.drop_record(session_id=session, amount="1000.00", metadata=PIT)
    sessions.table_session_close(session_id=session, closing={"1000.00": 1, "100.00": 10,
                                                               "10.00": 0}, metadata=PIT)
    counter = person_metadata(username="ip", role=Role.CASHIER, casino="macau")
    count_room.drop_box_count(session_id=session, cash={"100.00": 10}, metadata=counter)
    count_room.drop_box_count_confirm(session_id=session, cash={"100.00": 10},
                                      metadata=SUPERVISOR)
    return session


def test_a_window_counts_its_hong_kong_dollars_at_its_close(floor: str) -> None:
    """Worked by hand: w1 receives B1's box of 1,000 HKD at 1.03 (1,030.00 MOP into 1171.HKD).
    At the close it counts 950 HKD (9 x 100, 1 x 50): 50 HKD short, valued at HKD's last posted
    rate 1.03 = 51.50 MOP; explained, approved by a cage supervisor, posted Dr 7881.w1 51.50 /
    Cr 1171.HKD 51.50, and 50 HKD in memorandum (0900.HKD.7881.w1 / 0900.HKD.1171.HKD). The
    holding is 950 HKD carried at 978.50 MOP; reconcile is whole."""
    session = _thousand_hkd_box(floor)
    shift = _window()
    cage.drop_box_receive(shift_id=shift, session_id=session, cash={"100.00": 10},
                          metadata=CASHIER)
    assert balance("1171.HKD") == D("1030.00")
    cash, chips = cage_selectors.expected_count(Shift.objects.get(id=shift))
    # the window received HKD: a count without them is refused, nothing recorded
    before = StoredEvent.objects.count()
    with pytest.raises(InvalidCommand) as refused:
        cage.shift_count(shift_id=shift, cash=cash, chips=chips, metadata=CASHIER)
    assert refused.value.extra["field"] == "foreign"
    with pytest.raises(InvalidCommand):  # a denomination HKD does not have
        cage.shift_count(shift_id=shift, cash=cash, chips=chips,
                         foreign={"HKD": {"3.00": 1}}, metadata=CASHIER)
    with pytest.raises(InvalidCommand):  # a currency Macau does not accept
        cage.shift_count(shift_id=shift, cash=cash, chips=chips,
                         foreign={"USD": {"100.00": 1}}, metadata=CASHIER)
    assert StoredEvent.objects.count() == before
    counted = cage.shift_count(shift_id=shift, cash=cash, chips=chips,
                               foreign={"HKD": {"100.00": 9, "50.00": 1}}, metadata=CASHIER)
    assert (counted.balanced, counted.variance_value) == (False, "0.00")
    assert counted.foreign_variance == {"HKD": {
        "cash": {"100.00": -10 + 9, "50.00": 1}, "amount": "-50.00", "rate": "1.030000",
        "value": "-51.50"}}
    with pytest.raises(Conflict) as unapproved:
        cage.shift_close(shift_id=shift, metadata=CASHIER)
    assert unapproved.value.code == "variance_not_approved"
    cage.variance_explain(shift_id=shift, explanation="a 100 note changed for a 50 by mistake",
                          metadata=CASHIER)
    with pytest.raises(NotAllowed):  # the counting cashier never approves
        cage.variance_approve(shift_id=shift, metadata=CASHIER)
    cage.variance_approve(shift_id=shift, metadata=SUPERVISOR)
    closed = cage.shift_close(shift_id=shift, metadata=CASHIER)
    assert closed.closed
    assert lines_of("ShiftClosed") == [
        ("7881.w1", D("51.50"), D("0.00")), ("0900.HKD.7881.w1", D("50.00"), D("0.00")),
        ("1171.HKD", D("0.00"), D("51.50")), ("0900.HKD.1171.HKD", D("0.00"), D("50.00"))]
    assert (balance("1171.HKD"), balance("0900.HKD.1171.HKD")) == (D("978.50"), D("950.00"))
    held = ForeignHolding.objects.get(casino_id="macau", currency="HKD")
    assert (held.pieces, held.amount, held.book_value) == (
        {"100.00": 9, "50.00": 1}, D("950.00"), D("978.50"))
    day = Shift.objects.get(id=shift).gaming_day
    report = reconcile(casino="macau", gaming_day=day)
    assert report.failures == []
    seen = {(str(line.subject), str(line.what)): (line.platform, line.ledger)
            for line in report.lines}
    assert seen[("HKD", "book value in MOP")] == (D("978.50"), D("978.50"))
    assert seen[("HKD", "counted at the windows' closes, HKD")] == (D("950.00"), D("950.00"))
    assert list(eventstore.check(["ledger", "cage", "drop_boxes", "exchange"])) == []


def test_the_window_count_screen_counts_hong_kong_dollars_in_pt_pt(floor: str) -> None:
    """Macau accepts HKD: the count screen has an HKD grid beside the patacas' (in pt-PT),
    a count typed there is recorded, and the variance page shows it in HKD and in MOP."""
    session = _thousand_hkd_box(floor)
    shift = _window()
    cage.drop_box_receive(shift_id=shift, session_id=session, cash={"100.00": 10},
                          metadata=CASHIER)
    user = User.objects.create_user(username="chan", password="x")
    Membership.objects.create(user=user, casino_id="macau", role=Role.CASHIER)
    web = Client(headers={"accept-language": "pt-pt"})
    web.force_login(user)
    page = web.get(f"/cage/macau/shifts/{shift}/count/").content.decode()
    assert 'name="foreign-HKD-100.00"' in page
    assert 'name="foreign-USD-100.00"' not in page
    assert "Notas em HKD recebidas no guiché" in main_text(page)
    assert untranslated(main_text(page)) == []
    cash, chips = cage_selectors.expected_count(Shift.objects.get(id=shift))
    form = {f"cash-{d}": str(n) for d, n in cash.items()}
    form |= {f"chip-{code}-{d}": str(n) for code, lines in chips.items()
             for d, n in lines.items()}
    form |= {"foreign-HKD-100.00": "9", "foreign-HKD-50.00": "1", "idempotency_key": "k1"}
    web.post(f"/cage/macau/shifts/{shift}/count/", form)
    assert Shift.objects.get(id=shift).count_number == 1
    variance = main_text(web.get(f"/cage/macau/shifts/{shift}/variance/").content.decode())
    assert "Notas estrangeiras recebidas no guiché" in variance
    assert "-50.00" in variance.replace(",", ".")
    assert "-51.50" in variance.replace(",", ".")


def test_the_api_counts_a_window_s_hong_kong_dollars(floor: str) -> None:
    """POST …/count/ with ``foreign``: a count that is not a count per currency, or of a
    currency Macau does not accept, is a 400 naming ``foreign``, nothing recorded; the count
    answered with its HKD variance (1,000 received, 1,000 counted: none)."""
    from rest_framework.test import APIClient

    session = _thousand_hkd_box(floor)
    shift = _window()
    cage.drop_box_receive(shift_id=shift, session_id=session, cash={"100.00": 10},
                          metadata=CASHIER)
    client = APIClient()
    made = User.objects.create_user(username="chan", password="x")
    Membership.objects.create(user=made, casino_id="macau", role=Role.CASHIER)
    client.force_authenticate(made)
    cash, chips = cage_selectors.expected_count(Shift.objects.get(id=shift))
    url = f"/api/v1/cage/macau/shifts/{shift}/count/"
    before = StoredEvent.objects.count()
    for foreign in ("HKD", {"EUR": {"100.00": 1}}, {"HKD": {"100.00": -1}}):
        refused = client.post(url, {"cash": cash, "chips": chips, "foreign": foreign},
                              format="json")
        assert refused.status_code == 400, refused.content
        assert "foreign" in refused.content.decode()
    assert StoredEvent.objects.count() == before
    answer = client.post(url, {"cash": cash, "chips": chips,
                               "foreign": {"HKD": {"100.00": 10}}}, format="json")
    assert answer.status_code == 201, answer.content
    assert (answer.json()["balanced"], answer.json()["foreign_variance"]) == (True, {})
