"""A cashier's day at window 1, end to end, and a day that ends short."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest

import eventstore
from cage import reports, selectors
from cage import services as cage
from cage.models import Shift, ShiftStatus
from casino.errors import Conflict, NotAllowed
from eventstore.models import StoredEvent
from jackpots.services import jackpot_prize_pay

from .conftest import CASINO, CHIP_SET, Hit, Pit, after_the_day, ana, bruno, carla, whole

pytestmark = pytest.mark.django_db(transaction=True)

D = Decimal

# What window 1 holds once stocked from the vault (see the ``window`` fixture).
STOCK_CASH = {"100.00": 20, "50.00": 20, "20.00": 50, "10.00": 50}
STOCK_CHIPS = {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200}


class Drawer:
    """The test's own running count of the window, kept apart from the projections."""

    def __init__(self) -> None:
        self.cash: Counter[str] = Counter(STOCK_CASH)
        self.chips: Counter[str] = Counter(STOCK_CHIPS)

    def move(self, *, cash_in: dict[str, int] | None = None,
             cash_out: dict[str, int] | None = None, chips_in: dict[str, int] | None = None,
             chips_out: dict[str, int] | None = None) -> None:
        self.cash.update(cash_in or {})
        self.cash.subtract(cash_out or {})
        self.chips.update(chips_in or {})
        self.chips.subtract(chips_out or {})

    def count(self) -> dict[str, object]:
        return whole({d: n for d, n in self.cash.items() if n},
                     {CHIP_SET: {d: n for d, n in self.chips.items() if n}})


def run_the_day(shift: str, pit: Pit, drawer: Drawer, hit: Hit) -> None:
    """Sell and redeem chips, two fills and a credit for table r1, a jackpot (a part of a
    recorded hit), a transfer."""
    cage.chips_sell(shift_id=shift, amount=Decimal("500.00"), chips={"100.00": 4, "25.00": 4},
                    cash={"500.00": 1}, metadata=ana())
    drawer.move(cash_in={"500.00": 1}, chips_out={"100.00": 4, "25.00": 4})

    cage.chips_sell(shift_id=shift, amount=Decimal("120.00"), chips={"100.00": 1, "5.00": 4},
                    cash={"100.00": 1, "50.00": 1}, change={"10.00": 3}, metadata=ana())
    drawer.move(cash_in={"100.00": 1, "50.00": 1}, cash_out={"10.00": 3},
                chips_out={"100.00": 1, "5.00": 4})

    cage.chips_redeem(shift_id=shift, amount=Decimal("270.00"),
                      chips={"100.00": 2, "25.00": 2, "5.00": 4},
                      cash={"100.00": 2, "50.00": 1, "20.00": 1}, metadata=ana())
    drawer.move(chips_in={"100.00": 2, "25.00": 2, "5.00": 4},
                cash_out={"100.00": 2, "50.00": 1, "20.00": 1})

    first = pit.fill({"25.00": 20, "5.00": 40})
    second = pit.fill({"100.00": 10})
    credit = pit.credit({"5.00": 20, "1.00": 50})
    assert cage.fill_issue(shift_id=shift, slip=first, chips={"25.00": 20, "5.00": 40},
                           metadata=ana()).amount == "700.00"
    assert cage.fill_issue(shift_id=shift, slip=second, metadata=ana()).amount == "1000.00"
    assert cage.credit_receive(shift_id=shift, slip=credit, metadata=ana()).amount == "150.00"
    drawer.move(chips_out={"25.00": 20, "5.00": 40})
    drawer.move(chips_out={"100.00": 10})
    drawer.move(chips_in={"5.00": 20, "1.00": 50})

    jackpot_prize_pay(prize_id=hit.prize_id, shift_id=shift, amount=Decimal("1500.00"),
                      cash={"100.00": 10, "50.00": 10}, metadata=ana())
    drawer.move(cash_out={"100.00": 10, "50.00": 10})

    cage.transfer_send(shift_id=shift, to_cage="vault", cash={"500.00": 1},
                       chips={CHIP_SET: {"1.00": 50}}, metadata=ana())
    drawer.move(cash_out={"500.00": 1}, chips_out={"1.00": 50})


def test_a_cashiers_day_closes_on_a_count_that_matches(window: str, pit: Pit,
                                                       hit: Hit) -> None:
    drawer = Drawer()
    run_the_day(window, pit, drawer, hit)

    counted = cage.shift_count(shift_id=window, metadata=ana(), **drawer.count())
    assert counted.balanced is True
    assert counted.variance_value == "0.00"
    closed = cage.shift_close(shift_id=window, metadata=ana())
    assert closed.closed is True

    shift = Shift.objects.get(id=window)
    assert shift.status == ShiftStatus.CLOSED
    assert shift.closed_by == "ana"
    report = reports.shift_reconciliation(shift)
    (section,) = report.sections
    assert section.balanced is True
    assert section.totals["variance"] == D("0.00")
    # opening + receipts − payments = expected, line by line, and expected is what we counted
    for line in section.lines:
        assert line.opening + line.receipts - line.payments == line.expected == line.counted
    assert section.movements["JackpotPaid"] == (D("0.00"), D("1500.00"))
    assert section.movements["FillIssued"] == (D("0.00"), D("1700.00"))
    assert section.movements["CreditReceived"] == (D("150.00"), D("0.00"))

    # each movement is an event with its actor
    events = StoredEvent.objects.filter(stream=f"shift/{window}").order_by("version")
    types = [e.event_type for e in events]
    assert types == ["ShiftOpened", "TransferReceived", "ChipsSold", "ChipsSold",
                     "ChipsRedeemed", "FillIssued", "FillIssued", "CreditReceived",
                     "JackpotPaid", "TransferSent", "ShiftCounted", "ShiftClosed"]
    assert {e.metadata["actor"] for e in events if e.event_type != "TransferReceived"} == {"ana"}
    # the pit's slip projection reads these keys of FillIssued / CreditReceived
    for event in events.filter(event_type__in=["FillIssued", "CreditReceived"]):
        assert {"slip", "shift_id", "window", "session_id", "table", "chips",
                "amount"} <= set(event.data)
        assert event.data["window"] == "w1"
        assert event.data["table"] == "r1"

    # the closing count is the next shift's opening
    nxt = cage.shift_open(cage="w1", accept_previous=window, metadata=bruno())
    assert nxt.basis == "previous_count"
    assert nxt.previous_shift_id == window
    opening = {(f.kind, f.denomination): f.opening
               for f in selectors.shift_figures(Shift.objects.get(id=nxt.shift_id))}
    expected_opening = {("cash", D(d)): n for d, n in drawer.cash.items() if n}
    expected_opening |= {("chips", D(d)): n for d, n in drawer.chips.items() if n}
    assert {k: v for k, v in opening.items() if v} == expected_opening

    assert eventstore.check() == []


def test_a_short_day_is_refused_until_explained_and_approved(window: str, pit: Pit,
                                                            hit: Hit) -> None:
    drawer = Drawer()
    run_the_day(window, pit, drawer, hit)
    cage.shift_count(shift_id=window, metadata=ana(), **drawer.count())
    cage.shift_close(shift_id=window, metadata=ana())

    # the next day: Bruno takes over window 1 on Ana's count, sells, and ends 20.00 short
    day2 = cage.shift_open(cage="w1", accept_previous=window, metadata=bruno()).shift_id
    cage.chips_sell(shift_id=day2, amount=Decimal("200.00"), chips={"100.00": 2},
                    cash={"20.00": 10}, metadata=bruno())
    drawer.move(cash_in={"20.00": 10}, chips_out={"100.00": 2})
    count = drawer.count()
    count["cash"] = dict(count["cash"], **{"20.00": drawer.cash["20.00"] - 1})  # type: ignore[arg-type]
    answer = cage.shift_count(shift_id=day2, metadata=bruno(), **count)
    assert answer.balanced is False
    assert answer.variance_value == "-20.00"

    before = StoredEvent.objects.count()
    with pytest.raises(Conflict) as refused:
        cage.shift_close(shift_id=day2, metadata=bruno())
    assert refused.value.code == "variance_not_approved"
    with pytest.raises(Conflict) as unexplained:
        cage.variance_approve(shift_id=day2, metadata=carla())
    assert unexplained.value.code == "variance_unexplained"
    assert StoredEvent.objects.count() == before

    cage.variance_explain(shift_id=day2, explanation="a 20.00 note paid twice on a redemption",
                          metadata=bruno())
    with pytest.raises(NotAllowed):  # a cashier does not approve
        cage.variance_approve(shift_id=day2, metadata=bruno())
    with pytest.raises(Conflict):  # explained is not approved
        cage.shift_close(shift_id=day2, metadata=bruno())
    cage.variance_approve(shift_id=day2, note="seen on camera", metadata=carla())
    cage.shift_close(shift_id=day2, metadata=bruno())

    shift = Shift.objects.get(id=day2)
    assert shift.status == ShiftStatus.CLOSED
    assert shift.variance_value == D("-20.00")
    assert shift.approved_by == "carla"
    (section,) = reports.shift_reconciliation(shift).sections
    assert section.totals["variance"] == D("-20.00")
    short = [line for line in section.lines if line.variance]
    assert [(line.kind, line.denomination, line.variance) for line in short] == [
        ("cash", D("20.00"), -1)]

    # the gaming-day report adds the shifts of a day; here each shift is its own day or both
    # are the same day: either way the day's variance is the sum of its shifts' variances
    days = {s.gaming_day for s in Shift.objects.filter(cage="w1")}
    sections = [section for d in days
                for section in reports.gaming_day_reconciliation(casino=CASINO,
                                                                 gaming_day=d).sections
                if section.cage == "w1"]
    assert sum((s.totals["variance"] or D(0) for s in sections), D("0.00")) == D("-20.00")

    # the short count is what the next shift opens on
    day3 = cage.shift_open(cage="w1", accept_previous=day2, metadata=ana()).shift_id
    opening = {f.denomination: f.opening
               for f in selectors.shift_figures(Shift.objects.get(id=day3)) if f.kind == "cash"}
    assert opening[D("20.00")] == drawer.cash["20.00"] - 1
    assert eventstore.check() == []


def test_chips_in_circulation_agree_with_a_sum_over_the_days_events(window: str, hit: Hit,
                                                                     pit: Pit) -> None:
    drawer = Drawer()
    run_the_day(window, pit, drawer, hit)
    cage.chips_sell(shift_id=window, amount=Decimal("50.00"), chips={"25.00": 2},
                    cash={"50.00": 1}, metadata=ana())
    jackpot_prize_pay(prize_id=hit.prize_id, shift_id=window, amount=Decimal("100.00"),
                      chip_set=CHIP_SET, chips={"25.00": 4}, metadata=ana())

    # an independent fold over the events: chips to players, to tables and back
    players: Counter[D] = Counter()
    tables: Counter[D] = Counter()
    for event in StoredEvent.objects.filter(casino_id=CASINO).order_by("position"):
        chips = {D(d): n for d, n in event.data.get("chips", {}).items()
                 if not isinstance(n, dict)}
        if event.event_type in ("ChipsSold", "JackpotPaid"):
            players.update(chips)
        elif event.event_type == "ChipsRedeemed":
            players.subtract(chips)
        elif event.event_type == "FillIssued":
            tables.update(chips)
        elif event.event_type == "CreditReceived":
            tables.subtract(chips)

    figure = selectors.chips_in_circulation(casino=CASINO)
    by_denomination = {row.denomination: row for row in figure.rows}
    assert set(by_denomination) == {D("100.00"), D("25.00"), D("5.00"), D("1.00")}
    for denomination, row in by_denomination.items():
        # in service − cages − vault = what went to players and tables; the trays are the pit's
        assert row.in_service - row.in_cages - row.in_vaults == (
            players[denomination] + tables[denomination])
        assert row.in_circulation == (
            players[denomination] + tables[denomination] - row.in_table_trays)
        # the table opened empty: its tray holds the fills less the credits, so what is in
        # circulation is exactly what went to players
        assert row.in_table_trays == tables[denomination]
        assert row.in_circulation == players[denomination]
    assert players[D("25.00")] == 4 - 2 + 2 + 4

    # recorded at the gaming-day close: once, and the same figure
    day = Shift.objects.get(id=window).gaming_day
    with after_the_day(day):
        recorded = cage.gaming_day_chips_record(gaming_day=day, metadata=carla())
        again = cage.gaming_day_chips_record(gaming_day=day, metadata=carla())
    assert recorded.recorded is True
    assert recorded.value == str(figure.value)
    assert again.recorded is False
    assert again.in_circulation == recorded.in_circulation
    assert StoredEvent.objects.filter(event_type="ChipsInCirculationRecorded").count() == 1
    assert eventstore.check() == []
