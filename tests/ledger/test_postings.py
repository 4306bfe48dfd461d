"""The pure postings: every event type accounted for, every entry balanced, gaming days right."""

from __future__ import annotations

import dataclasses
import datetime as dt
import typing
import zoneinfo
from decimal import Decimal as D
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino import gaming_day as gaming_days
from eventstore.events import Event, event_class, registered_event_types
from ledger import chart, postings
from ledger.postings import PostingError, SessionFacts

UTC = dt.UTC


class FakeContext:
    def __init__(self, balances: dict[str, D] | None = None,
                 sessions: dict[str, SessionFacts] | None = None) -> None:
        self.balances = balances or {}
        self.sessions = sessions or {}

    def balance(self, account: chart.AccountRef) -> D:
        return self.balances.get(account.code, D("0.00"))

    def session(self, session_id: str) -> SessionFacts | None:
        return self.sessions.get(session_id)


def typed(event_type: str, data: dict[str, Any]) -> Event:
    """The event of ``event_type`` that ``data`` (as stored) holds, read as the store reads it;
    a required field ``data`` leaves out (one the posting does not read) is given a blank
    value of its type."""
    cls = event_class(event_type)
    hints = typing.get_type_hints(cls)
    full = dict(data)
    for f in dataclasses.fields(cls):
        if f.name in full or f.default is not dataclasses.MISSING or (
                f.default_factory is not dataclasses.MISSING):
            continue
        full[f.name] = _blank(hints[f.name])
    return cls.from_data(full)


def _blank(hint: Any) -> Any:
    origin = typing.get_origin(hint)
    if type(None) in typing.get_args(hint):
        return None
    if hint is D:
        return "0.00"
    if hint is dt.date:
        return "2026-01-01"
    if origin in (dict,):
        return {}
    if origin in (list, tuple):
        return []
    return {str: "", int: 0, bool: False}[hint]


def post(event_type: str, data: dict[str, Any], ctx: FakeContext) -> postings.Posting | None:
    return postings.post(typed(event_type, data), ctx)


def lines(event_type: str, data: dict[str, Any], ctx: FakeContext | None = None
          ) -> list[tuple[str, D, D]]:
    posting = post(event_type, data, ctx or FakeContext())
    assert posting is not None
    return [(line.account.code, line.debit, line.credit) for line in posting.lines]


def test_every_event_type_of_the_platform_posts_or_says_why_not() -> None:
    known = {name for name, cls in registered_event_types().items()
             if not cls.__module__.startswith("tests")}  # not the test suites' own event types
    assert {"ChipsSold", "RoundSettled", "JackpotHit", "PeriodClosed"} <= known
    posted = set(postings.posts.by_name)
    accounted = (posted | {c.event_type for c in postings.SESSION_EVENTS}
                 | set(postings.NOT_POSTED))
    assert known - accounted == set(), "event types the ledger does not know"
    assert not posted & set(postings.NOT_POSTED)


def test_every_account_maps_to_the_snc_and_to_macau() -> None:
    codes = [t.code for t in chart.TEMPLATES]
    assert len(codes) == len(set(codes))
    for t in chart.TEMPLATES:
        assert t.snc
        assert t.macau
        assert t.name
        assert t.name_pt
        assert t.meaning
        assert t.snc.startswith("0") == t.memorandum


def test_a_scoped_account_needs_its_scope() -> None:
    with pytest.raises(ValueError, match="scoped by window"):
        chart.account("cage_cash")
    with pytest.raises(ValueError, match="scoped by casino"):
        chart.account("chips_in_circulation", "w1")
    assert chart.account("gaming_revenue", "r1", "french_roulette").name == (
        "Gaming revenue — french roulette — table r1")


def test_a_sale_whose_cash_and_chips_differ_is_refused() -> None:
    with pytest.raises(PostingError, match="should be equal"):
        post("ChipsSold", {"window": "w1", "chips": {"100.00": 1},
                           "cash": {"50.00": 1}, "change": {}, "amount": "100.00"},
             FakeContext())


def test_amounts_are_decimal_strings_in_cents() -> None:
    with pytest.raises(PostingError):
        postings.amount(1.5)
    with pytest.raises(PostingError):
        postings.amount("1.005")
    assert postings.amount("7") == D("7.00")


def test_jackpot_bets_split_between_the_meter_the_reserve_and_the_casino() -> None:
    assert lines("JackpotContributed", {
        "pool_id": "p1", "round_id": "r", "table": "bj1", "amount": "5.00", "to_pool": "3.50",
        "to_reserve": "0.50", "retained": "1.00", "diverted": "0.00"}) == [
        ("2781", D("5.00"), D("0.00")), ("0140.bj1", D("5.00"), D("0.00")),
        ("2782.p1", D("0.00"), D("3.50")), ("2784.p1", D("0.00"), D("0.50")),
        ("7213.p1", D("0.00"), D("1.00")), ("0190", D("0.00"), D("5.00"))]
    assert lines("JackpotHit", {"pool_id": "p1", "amount": "51799.17"}) == [
        ("2782.p1", D("51799.17"), D("0.00")), ("2783.p1", D("0.00"), D("51799.17"))]
    assert lines("JackpotReset", {"pool_id": "p1", "from_reserve": "4000.00",
                                  "from_casino": "6000.00"}) == [
        ("7214.p1", D("6000.00"), D("0.00")), ("2784.p1", D("4000.00"), D("0.00")),
        ("2782.p1", D("0.00"), D("10000.00"))]
    assert lines("JackpotSeeded", {"pool_id": "p1", "amount": "10000.00",
                                   "from_casino": "10000.00", "from_reserve": "0.00"}) == [
        ("7214.p1", D("10000.00"), D("0.00")), ("2782.p1", D("0.00"), D("10000.00"))]
    assert lines("JackpotMeterCorrected", {"pool_id": "p1", "meter": "pool",
                                           "direction": "down", "amount": "2.00"}) == [
        ("2782.p1", D("2.00"), D("0.00")), ("7884.p1", D("0.00"), D("2.00"))]
    assert lines("JackpotPaid", {"pool_id": "p1", "window": "w1", "amount": "150.00",
                                 "cash": {"100.00": 1}, "chips": {"25.00": 2},
                                 "chip_set": "main"}) == [
        ("2783.p1", D("150.00"), D("0.00")), ("0190", D("50.00"), D("0.00")),
        ("1110.w1", D("0.00"), D("100.00")), ("2781", D("0.00"), D("50.00")),
        ("0110.w1", D("0.00"), D("50.00"))]


def test_a_round_of_an_unknown_session_is_refused() -> None:
    with pytest.raises(PostingError, match="unknown to the ledger"):
        post("RoundSettled", {"session_id": "s", "round_id": "r", "result": "5.00",
                              "handle": "5.00"}, FakeContext())


def test_a_voided_fill_posts_nothing_a_voided_credit_puts_the_chips_back() -> None:
    assert post("SlipVoided", {"kind": "fill", "slip": "F1", "table": "r1",
                               "amount": "100.00"}, FakeContext()) is None
    assert lines("SlipVoided", {"kind": "credit", "slip": "C1", "table": "r1",
                                "amount": "100.00"}) == [
        ("0120.r1", D("100.00"), D("0.00")), ("0130", D("0.00"), D("100.00"))]


def test_a_recorded_drop_definition_sends_the_count_difference_elsewhere() -> None:
    ctx = FakeContext({"0120.r1": D("1000.00")},
                      {"s": SessionFacts("s", "r1", "craps", D("300.00"), D("310.00"))})
    counted = lines("TableSessionClosed", {"session_id": "s", "closing_amount": "990.00",
                                           "drop_basis": "counted", "drop_count_room": False},
                    ctx)
    assert counted == [("1120.r1", D("10.00"), D("0.00")), ("0190", D("10.00"), D("0.00")),
                       ("0120.r1", D("0.00"), D("10.00")), ("2781", D("0.00"), D("10.00"))]
    recorded = lines("TableSessionClosed", {"session_id": "s", "closing_amount": "990.00",
                                            "drop_basis": "recorded", "drop_count_room": False},
                     ctx)
    assert recorded == [("1120.r1", D("10.00"), D("0.00")), ("0190", D("10.00"), D("0.00")),
                        ("7212.r1", D("10.00"), D("0.00")), ("7883.r1", D("0.00"), D("10.00")),
                        ("0120.r1", D("0.00"), D("10.00")), ("2781", D("0.00"), D("10.00"))]


# --- properties ---------------------------------------------------------------------------------

denominations = st.sampled_from(["500.00", "100.00", "25.00", "5.00", "1.00", "0.50"])
counts = st.dictionaries(denominations, st.integers(0, 500), max_size=4)
money = st.decimals(min_value=D("0.01"), max_value=D("99999.99"), places=2)
signed = st.decimals(min_value=D("-99999.99"), max_value=D("99999.99"), places=2)


def _value(c: dict[str, int]) -> D:
    return sum((D(d) * n for d, n in c.items()), D("0.00"))


@st.composite
def events(draw: st.DrawFn) -> tuple[str, dict[str, Any], FakeContext]:
    """Any posted event type with any figures a service could have let through."""
    ctx = FakeContext({code: draw(signed) for code in ("1110.w1", "0110.w1", "0120.r1")},
                      {"s": SessionFacts("s", "r1", "french_roulette", draw(money),
                                         draw(st.none() | money))})
    cash, chips = draw(counts), draw(counts)
    kind = draw(st.sampled_from(sorted(postings.posts.by_name)))
    base: dict[str, Any] = {
        "window": "w1", "to_window": "w2", "from_window": "w2", "table": "r1", "slip": "S1",
        "session_id": "s", "round_id": "r", "pool_id": "p1", "shift_id": "x", "cash": cash,
        "chips": chips, "change": {}, "amount": str(_value(chips)), "kind": "credit",
        "direction": draw(st.sampled_from(["in", "out"])),
        "previous_shift_id": draw(st.none() | st.just("prev")),
        "previous_session_id": draw(st.none() | st.just("prev")),
        "opening_amount": str(draw(money)), "closing_amount": str(draw(money)),
        "drop_basis": draw(st.sampled_from(["counted", "recorded"])),
        "drop_count_room": draw(st.booleans()),
        "result": str(draw(signed)), "result_delta": str(draw(signed)), "handle": str(draw(money)),
        "correction": draw(st.booleans()), "meter": "pool", "from_reserve": str(draw(money)),
        "from_casino": str(draw(money)), "to_pool": "1.00", "to_reserve": "0.50",
        "retained": "0.50", "count_number": 1, "variance_value": "0.00",
    }
    if kind in ("TransferSent", "TransferReceived", "ShiftOpened", "ShiftClosed",
                "AdjustmentApproved"):
        base["chips"] = {"main": chips}
    if kind == "ChipsSold":
        base["cash"] = chips
    if kind in ("ChipsRedeemed",):
        base["cash"] = chips
    if kind == "JackpotPaid":
        base["cash"] = cash
        base["amount"] = str(_value(cash) + _value(chips))
    if kind == "JackpotMeterCorrected":
        base["direction"] = draw(st.sampled_from(["up", "down"]))
        base["meter"] = draw(st.sampled_from(["pool", "reserve"]))
    if kind == "JackpotContributed":
        base["amount"] = "2.00"
    if kind == "JackpotSeeded":
        base["amount"] = str(D(base["from_casino"]) + D(base["from_reserve"]))
    if kind == "GamingTaxAccrued":
        base.update(month="2026-03", lines=[{"code": "pt-iej-capital", "amount": str(draw(money))},
                                            {"code": "pt-contrapartida",
                                             "amount": str(draw(signed))}])
    if kind == "GamingTaxPaid":
        base.update(month="2026-03", code="pt-iej-capital", reference="guia 1")
    if kind in ("CasinoChequePresented", "CardChequeBatchSettled"):
        base.update(number="000123", bank_reference="EXT 1", amount=str(draw(money)))
    if kind.startswith(("Poker", "Tournament", "Chemmy", "RakeBox")):  # the poker room
        base.update(tournament="t1", fee=str(draw(money)), buy_in=str(draw(money)),
                    rake=str(draw(money)), cashed_out=str(draw(money)),
                    overlay=str(draw(money)), variance=str(draw(signed)),
                    commission=str(draw(money)))
    if kind in ("FillIssued", "CreditReceived", "CreditRequested", "DropRecorded",
                "JackpotHit", "JackpotMeterCorrected", "SlipVoided", "DropBoxReceived"):
        base["amount"] = str(draw(money))
    if kind == "TipBoxCountConfirmed":  # the tips (docs/tips.md)
        base["amount"] = str(_value(cash))
    if kind == "TipMisplacementCorrected":
        base["direction"] = draw(st.sampled_from(["drop_to_tips", "tips_to_drop"]))
    if kind == "TipsDistributed":
        fund, staff = draw(money), draw(money)
        base.update(period="2026-03", fund=str(fund), staff=str(staff), total=str(fund + staff),
                    fund_percent="15", shares=[{"amount": str(staff)}])
    if kind == "ExchangeDeskOpened":  # the exchange (docs/currencies.md)
        base["amount"] = str(_value(cash))
    if kind in ("ForeignCashBought", "ForeignCashSold"):
        paid, result = draw(money), draw(signed)
        base.update(currency="HKD", paid=str(paid), received=str(paid), result=str(result),
                    book_value=str(paid + result if kind == "ForeignCashBought"
                                   else paid - result))
    if kind == "ForeignCashRevalued":
        base.update(currency="HKD", difference=str(draw(signed)))
    if kind == "ForeignChipsRevalued":  # the foreign chips in players' hands
        before, difference = draw(money), draw(signed)
        base.update(casino="macau", currency="HKD", gaming_day="2026-03-01", in_hands="100.00",
                    rate="1.03", book_before=str(before), book_after=str(before + difference),
                    difference=str(difference))
    if kind == "DropBoxReceived":  # a foreign table's box goes to the cage's holding
        base["currency"] = draw(st.sampled_from(["", "HKD"]))
    if kind in MACHINE_KINDS:  # the slot floor's (docs/machines.md § The books)
        base.update(machine="m1", pool=draw(st.sampled_from(["", "p1"])), validation="t1",
                    handpay_id="h1", reading_id="r", place=draw(st.sampled_from(["machine",
                                                                                 "cage"])),
                    difference={"coin_in": str(draw(money)), "coin_out": str(draw(money)),
                                "bills_in": str(draw(money))},
                    contribution=str(draw(money)), counted=str(draw(money)),
                    metered=str(draw(money)), start=str(draw(money)),
                    reset_to=str(draw(money)), amount=str(draw(money)),
                    read_at="2026-03-01T10:00:00+00:00", issued_at="2026-03-01T10:00:00+00:00",
                    gaming_day="2026-03-01", expires_on="2026-05-30", expired_on="2026-05-31")
        if kind == "HandPayRecorded":
            base["kind"] = draw(st.sampled_from(["jackpot", "cancelled_credits", "progressive"]))
            base["pool"] = "p1"
        if kind in ("SlotProgressiveCreated", "SlotProgressiveHit"):
            base["pool"] = "p1"
        if kind in ("SlotShiftOpened", "SlotShiftClosed"):  # a shift's differences, signed
            base.update(shift_id="s1", window="SLOT", notes={}, opening=str(draw(money)),
                        book=str(draw(money)), opening_variance=str(draw(signed)),
                        first=draw(st.booleans()), count_number=1, expected=str(draw(money)),
                        variance=str(draw(signed)))
    return kind, base, ctx


MACHINE_KINDS = {"MetersRead", "MetersReset", "TicketIssued", "TicketRedeemed", "TicketExpired",
                 "HandPayRecorded", "HandPayPaid", "MachineBoxCountConfirmed",
                 "SlotProgressiveCreated", "SlotProgressiveHit", "SlotShiftOpened",
                 "SlotShiftClosed"}


@settings(max_examples=400)
@given(events())
def test_every_posting_balances_and_so_do_its_memorandum_and_its_real_lines(
        event: tuple[str, dict[str, Any], FakeContext]) -> None:
    kind, data, ctx = event
    posting = post(kind, data, ctx)
    if posting is None:
        return
    debit = sum((line.debit for line in posting.lines), D(0))
    credit = sum((line.credit for line in posting.lines), D(0))
    assert debit == credit
    for memo in (True, False):
        part = [line for line in posting.lines if line.account.template.memorandum is memo]
        assert sum((line.debit for line in part), D(0)) == sum((line.credit for line in part),
                                                              D(0))
    assert len({line.account for line in posting.lines}) == len(posting.lines)
    assert all((line.debit > 0) != (line.credit > 0) for line in posting.lines)


@given(st.datetimes(min_value=dt.datetime(2020, 1, 1), max_value=dt.datetime(2030, 1, 1),  # noqa: DTZ001
                    timezones=st.just(UTC)),
       st.sampled_from(["Europe/Lisbon", "Asia/Macau"]), st.integers(0, 23))
def test_a_moment_falls_in_the_gaming_day_that_ends_after_it(moment: dt.datetime, zone: str,
                                                             hour: int) -> None:
    day = gaming_days.day_of(moment, zone, hour)
    end = gaming_days.end_of(day, zone, hour)
    start = gaming_days.end_of(day - dt.timedelta(days=1), zone, hour)
    assert start <= moment < end


def test_gaming_days_across_the_clock_change() -> None:
    lisbon = zoneinfo.ZoneInfo("Europe/Lisbon")
    # 2025-03-30: clocks go from 01:00 to 02:00 in Lisbon
    assert gaming_days.day_of(dt.datetime(2025, 3, 30, 5, 59, tzinfo=lisbon),
                               "Europe/Lisbon", 6) == dt.date(2025, 3, 29)
    assert gaming_days.day_of(dt.datetime(2025, 3, 30, 5, 0, tzinfo=UTC),
                               "Europe/Lisbon", 6) == dt.date(2025, 3, 30)  # 06:00 summer time
    assert gaming_days.day_of(dt.datetime(2025, 3, 30, 21, 0, tzinfo=UTC),
                               "Asia/Macau", 6) == dt.date(2025, 3, 30)  # 05:00 on the 31st
    with pytest.raises(ValueError, match="without a time zone"):
        gaming_days.day_of(dt.datetime(2025, 1, 1), "Europe/Lisbon", 6)  # noqa: DTZ001


def test_an_entry_of_a_closed_day_goes_to_the_first_open_day() -> None:
    d = dt.date(2025, 1, 1)
    assert postings.open_day(d, set()) == d
    assert postings.open_day(d, {d, d + dt.timedelta(days=1)}) == d + dt.timedelta(days=2)


def test_sessions_closed_before_the_count_room_are_read_as_they_were() -> None:
    """Stored events are never rewritten: a version 1 close (drop count typed at the close,
    ``DropCounted`` just before) posts the count's difference at the close, as it did; a version
    1 drop box receipt (no count) posts what came in against the drop account."""
    from eventstore.events import upcast

    facts = SessionFacts("s1", "r1", "french_roulette", drop_recorded=D("200.00"),
                         drop_counted=D("205.00"))
    ctx = FakeContext({"0120.r1": D("2400.00")}, {"s1": facts})
    closed = upcast("TableSessionClosed", 1, {
        "session_id": "s1", "table": "r1", "closing": {"100.00": 24}, "closing_amount": "2400.00",
        "drop_basis": "counted", "drop_definition_version": 0})
    assert closed["drop_count_room"] is False
    assert lines("TableSessionClosed", closed, ctx) == [("1120.r1", D("5.00"), D("0.00")),
                                                        ("7212.r1", D("0.00"), D("5.00"))]
    received = upcast("DropBoxReceived", 1, {
        "receipt_id": "d1", "shift_id": "x", "window": "w1", "session_id": "s1", "table": "r1",
        "drop_box": "", "cash": {"100.00": 2}, "amount": "200.00"})
    assert lines("DropBoxReceived", received) == [("1110.w1", D("200.00"), D("0.00")),
                                                  ("1120.r1", D("0.00"), D("200.00"))]


def test_the_count_room_posts_the_count_and_the_cage_the_variance() -> None:
    facts = SessionFacts("s1", "r1", "french_roulette", drop_recorded=D("3500.00"))
    ctx = FakeContext(sessions={"s1": facts})
    count = {"count_id": "c1", "session_id": "s1", "table": "r1", "game": "french_roulette",
             "cash": {"500.00": 7}, "amount": "3500.00", "counted_by": "rita"}
    assert lines("DropBoxCountConfirmed", {**count, "drop_basis": "counted"}, ctx) == []
    posting = post("DropBoxCountConfirmed", {**count, "drop_basis": "counted"}, ctx)
    assert posting is not None
    assert posting.stats is not None
    assert posting.stats.drop == D("3500.00")  # the count is the day's drop
    short = {**count, "amount": "3400.00", "cash": {"500.00": 6, "200.00": 2}}
    assert lines("DropBoxCountConfirmed", {**short, "drop_basis": "counted"}, ctx) == [
        ("7212.r1", D("100.00"), D("0.00")), ("1120.r1", D("0.00"), D("100.00"))]
    assert lines("DropBoxCountConfirmed", {**short, "drop_basis": "recorded"}, ctx) == [
        ("7883.r1", D("100.00"), D("0.00")), ("1120.r1", D("0.00"), D("100.00"))]
    received = {"receipt_id": "d1", "shift_id": "x", "window": "w1", "session_id": "s1",
                "table": "r1", "drop_box": "", "cash": {"500.00": 6, "200.00": 2},
                "amount": "3400.00", "count_id": "c1", "counted": {"500.00": 7},
                "counted_amount": "3500.00", "variance_cash": {"500.00": -1, "200.00": 2},
                "variance_value": "-100.00"}
    assert lines("DropBoxReceived", received) == [
        ("1110.w1", D("3400.00"), D("0.00")), ("7883.r1", D("100.00"), D("0.00")),
        ("1120.r1", D("0.00"), D("3500.00"))]
    with pytest.raises(PostingError, match="received less counted"):
        post("DropBoxReceived", {**received, "variance_value": "0.00"}, ctx)


def test_every_account_of_the_chart_has_a_number_of_its_own() -> None:
    """Three areas added accounts side by side; two sharing a number would add up in one
    balance (the reconciliation reads balances by number)."""
    from collections import Counter

    from ledger.chart import TEMPLATES

    shared = {code: n for code, n in Counter(t.code for t in TEMPLATES).items() if n > 1}
    assert shared == {}
