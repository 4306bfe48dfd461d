"""Reads of the cage, over its projection tables; chips in circulation alone is worked out from
the casino's events (``cage.circulation``), at any instant."""

from __future__ import annotations

import datetime as dt
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.db.models import Count, Q, QuerySet, Sum

import eventstore
from casino.errors import InvalidCommand, NotFound
from casino.models import Casino, ChipSet
from casino.money import CASH_DENOMINATIONS, fmt
from eventstore.models import StoredEvent

from . import circulation
from . import inventory as inv
from .models import (
    Adjustment,
    Cage,
    CasinoCheque,
    ChipCirculationDay,
    ChipLiability,
    DisputeStatus,
    OpeningDispute,
    Shift,
    ShiftEntry,
    ShiftLine,
    ShiftStatus,
)


def casino_get(code: str) -> Casino:
    casino = Casino.objects.filter(code=code).first()
    if casino is None:
        raise NotFound("there is no casino {code!r}", params={"code": code})
    return casino


def shift_get(*, casino: str, shift_id: object) -> Shift:
    try:
        key = uuid.UUID(str(shift_id))
    except ValueError:
        raise NotFound("there is no shift {shift_id}", params={"shift_id": shift_id}) from None
    shift = Shift.objects.filter(id=key, casino_id=casino).first()
    if shift is None:
        raise NotFound("there is no shift {shift_id} in {casino}",
                       params={"shift_id": shift_id, "casino": casino})
    return shift


def shift_list(*, casino: str, gaming_day: dt.date | None = None,
               cage: str | None = None) -> QuerySet[Shift]:
    shifts = Shift.objects.filter(casino_id=casino)
    if gaming_day is not None:
        shifts = shifts.filter(gaming_day=gaming_day)
    if cage:
        shifts = shifts.filter(cage=cage)
    return shifts.order_by("opened_at")


def shift_entries(shift: Shift) -> QuerySet[ShiftEntry]:
    return ShiftEntry.objects.filter(shift=shift).order_by("version")


def adjustment_list(shift: Shift) -> QuerySet[Adjustment]:
    return Adjustment.objects.filter(shift=shift).order_by("status", "id")


# --- accountability per denomination -------------------------------------------------------


@dataclass(frozen=True)
class LineFigures:
    """One denomination of one shift: opening + receipts − payments = expected; counted −
    expected = variance. Pieces, with the value beside."""

    kind: str
    chip_set: str
    denomination: Decimal
    opening: int
    receipts: int
    payments: int
    counted: int | None

    @property
    def expected(self) -> int:
        return self.opening + self.receipts - self.payments

    @property
    def variance(self) -> int | None:
        return None if self.counted is None else self.counted - self.expected

    @property
    def variance_value(self) -> Decimal | None:
        variance = self.variance
        return None if variance is None else self.denomination * variance

    def value(self, pieces: int | None) -> Decimal | None:
        return None if pieces is None else self.denomination * pieces

    @property
    def label(self) -> str:
        return "cash" if self.kind == inv.CASH else f"chips ({self.chip_set})"


def shift_figures(shift: Shift) -> list[LineFigures]:
    counted = shift.status in (ShiftStatus.COUNTED, ShiftStatus.CLOSED)
    return [
        LineFigures(kind=line.kind, chip_set=line.chip_set, denomination=line.denomination,
                    opening=line.opening, receipts=line.receipts, payments=line.payments,
                    counted=(line.counted or 0) if counted else None)
        for line in ShiftLine.objects.filter(shift=shift).order_by("kind", "chip_set",
                                                                   "-denomination")
    ]


def shift_expected(shift: Shift) -> inv.Inventory:
    return {inv.Line(f.kind, f.chip_set, f.denomination): f.expected
            for f in shift_figures(shift) if f.expected}


def shift_variance(shift: Shift) -> inv.Inventory:
    return {inv.Line(f.kind, f.chip_set, f.denomination): f.variance
            for f in shift_figures(shift) if f.variance}


# Who sees what a shift should hold (``docs/cage.md``, "Who sees the expected figures").
SIGHT_ALL = "all"  # opening, receipts, payments, expected, counted, variance
SIGHT_OWN_COUNT = "own_count"  # the answer to one's own count: expected, counted, variance
SIGHT_NONE = "none"  # denominations only: the count is blind


def expected_sight(shift: Shift, *, viewer: str, supervisor: bool) -> str:
    """The blind count: what ``viewer`` may see of the shift's expected figures now.

    ``supervisor``: the viewer holds a role that oversees the cage (cage supervisor,
    accountant, regulator, administrator) and sees everything. Everyone else sees no figure
    while the shift is disputed, open, or counted with its count not yet approved, except the
    cashier who made that count, who sees its answer (expected, counted, variance). A recount
    is blind again for everyone else, and its form shows nothing. Once the count is approved
    or the shift closed, the figures are the shift's history, and every reader sees them.
    """
    if supervisor:
        return SIGHT_ALL
    if shift.status == ShiftStatus.CLOSED or (
            shift.status == ShiftStatus.COUNTED and shift.approved_count == shift.count_number):
        return SIGHT_ALL
    if shift.status == ShiftStatus.COUNTED and viewer and viewer == shift.counted_by:
        return SIGHT_OWN_COUNT
    return SIGHT_NONE


def shift_entries_for(shift: Shift, sight: str) -> list[ShiftEntry]:
    """The shift's movements as ``sight`` may read them: a minimum-cash alert says what the cash
    came to, which a blind reader does not see."""
    return _as_seen(list(shift_entries(shift)), sight)


ENTRIES_PER_PAGE = 50


@dataclass(frozen=True)
class EntryPage:
    """One page of a shift's movements, the newest first, with the whole shift's totals (summed
    by the database over every movement, not over the page)."""

    entries: list[ShiftEntry]
    number: int  # 1 is the newest page
    pages: int
    count: int  # movements in the whole shift
    amount_in: Decimal
    amount_out: Decimal

    @property
    def previous(self) -> int | None:  # newer movements
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:  # older movements
        return self.number + 1 if self.number < self.pages else None


def shift_entry_page(shift: Shift, sight: str, page: object = 1, *,
                     size: int | None = None, event_types: Sequence[str] = (),
                     search: str = "") -> EntryPage:
    """Page ``page`` of the shift's movements as ``sight`` may read them (``shift_entries_for``),
    the newest first: two queries whatever the length of the shift, the totals and the page.
    A page past the last is the last; one that is not a number, the first.

    ``event_types`` and ``search`` (a reference, a person, a movement's number or an amount, as
    typed) narrow the movements; the totals are then those of the movements found."""
    size = size or ENTRIES_PER_PAGE
    chosen = ShiftEntry.objects.filter(shift=shift)
    if event_types:
        chosen = chosen.filter(event_type__in=list(event_types))
    if search.strip():
        chosen = chosen.filter(_matching(search.strip()))
    totals = chosen.aggregate(
        count=Count("id"), amount_in=Sum("amount_in"), amount_out=Sum("amount_out"))
    count = int(totals["count"] or 0)
    pages = max(1, -(-count // size))
    try:
        number = min(max(1, int(str(page))), pages)
    except ValueError:
        number = 1
    start = (number - 1) * size
    entries = list(chosen.order_by("-version")[start:start + size])
    return EntryPage(entries=_as_seen(entries, sight), number=number, pages=pages, count=count,
                     amount_in=totals["amount_in"] or inv.ZERO,
                     amount_out=totals["amount_out"] or inv.ZERO)


def _matching(search: str) -> Q:
    """A movement whose reference or person holds ``search``, or whose number or amount it is."""
    found = Q(reference__icontains=search) | Q(actor__icontains=search)
    if search.isdigit():
        found |= Q(version=int(search))
    try:
        amount = Decimal(search.replace(",", "."))
    except InvalidOperation:
        return found
    if amount.is_finite():
        found |= Q(amount_in=amount) | Q(amount_out=amount)
    return found


def _as_seen(entries: list[ShiftEntry], sight: str) -> list[ShiftEntry]:
    if sight == SIGHT_NONE:
        for entry in entries:
            if entry.event_type in ("CageCashFellBelowMinimum", "CageCashRestoredAboveMinimum"):
                entry.reference = ("cash below the minimum"
                                   if entry.event_type == "CageCashFellBelowMinimum"
                                   else "cash back above the minimum")
    return entries


# --- opening on the previous count ------------------------------------------------------------


@dataclass(frozen=True)
class PreviousCount:
    """What the next cashier is shown before opening: the last closing count of the cage."""

    cage: Cage
    shift: Shift | None  # the previous shift, closed; None: never counted (blind opening)
    lines: list[LineFigures]
    dispute: OpeningDispute | None  # an opening disputed and waiting for a supervisor

    @property
    def value(self) -> Decimal:
        return sum((f.denomination * (f.counted or 0) for f in self.lines), inv.ZERO)


def previous_count(*, casino: str, cage: str) -> PreviousCount:
    found = Cage.objects.filter(casino_id=casino, code=cage).first()
    if found is None:
        raise NotFound("there is no cage, window or vault {cage!r} in {casino}",
                       params={"cage": cage, "casino": casino})
    dispute = OpeningDispute.objects.filter(casino_id=casino, cage=cage,
                                            status=DisputeStatus.OPEN).first()
    last = Shift.objects.filter(id=found.last_shift_id).first() if found.last_shift_id else None
    if last is None or last.status != ShiftStatus.CLOSED:
        return PreviousCount(cage=found, shift=None, lines=[], dispute=dispute)
    lines = [f for f in shift_figures(last) if f.counted]
    return PreviousCount(cage=found, shift=last, lines=lines, dispute=dispute)


def disputed_figures(dispute: OpeningDispute) -> list[tuple[LineFigures, int]]:
    """Each line of a disputed opening: the previous closing count (``counted``) beside the
    disputing cashier's count."""
    previous = Shift.objects.get(id=dispute.previous_shift_id)
    theirs = inv.of({Decimal(d): n for d, n in dispute.cash.items()},
                    {s: {Decimal(d): n for d, n in c.items()} for s, c in dispute.chips.items()})
    before = {inv.Line(f.kind, f.chip_set, f.denomination): f for f in shift_figures(previous)}
    out = []
    for line in inv.sorted_lines(set(theirs) | {k for k, f in before.items() if f.counted}):
        f = before.get(line) or LineFigures(kind=line.kind, chip_set=line.chip_set,
                                            denomination=line.denomination, opening=0,
                                            receipts=0, payments=0, counted=0)
        out.append((f, theirs.get(line, 0)))
    return out


def dispute_list(*, casino: str) -> QuerySet[OpeningDispute]:
    return OpeningDispute.objects.filter(casino_id=casino, status=DisputeStatus.OPEN)


# --- what each cage holds now ---------------------------------------------------------------


@dataclass
class CageView:
    cage: Cage
    shift: Shift | None
    holdings: inv.Inventory = field(default_factory=dict)

    @property
    def cash_value(self) -> Decimal:
        return inv.value(self.holdings, inv.CASH)

    @property
    def chips_value(self) -> Decimal:
        return inv.value(self.holdings, inv.CHIPS)

    @property
    def below_minimum(self) -> bool:
        return inv.below_minimum(self.cash_value, self.cage.minimum_cash)

    @property
    def is_open(self) -> bool:
        return self.shift is not None and self.shift.status == ShiftStatus.OPEN


def cages_of(*, casino: str) -> QuerySet[Cage]:
    """The casino's cages, without what they hold (a transfer's choices): one query."""
    return Cage.objects.filter(casino_id=casino).order_by("kind", "code")


def cage_list(*, casino: str) -> list[CageView]:
    """Every cage with what it holds now: the live shift's expected contents, or the last
    closing count when no shift is open. Two queries, whatever the number of cages."""
    cages = list(Cage.objects.filter(casino_id=casino).order_by("kind", "code"))
    shift_ids = [c.last_shift_id for c in cages if c.last_shift_id]
    shifts = {s.id: s for s in Shift.objects.filter(id__in=shift_ids)}
    holdings: dict[uuid.UUID, inv.Inventory] = defaultdict(dict)
    for line in ShiftLine.objects.filter(shift_id__in=shift_ids).select_related("shift"):
        pieces = (line.counted or 0) if line.shift.status == ShiftStatus.CLOSED else line.expected
        if pieces:
            holdings[line.shift_id][inv.Line(line.kind, line.chip_set, line.denomination)] = pieces
    views = []
    for cage in cages:
        shift = shifts.get(cage.last_shift_id) if cage.last_shift_id else None
        views.append(CageView(cage=cage, shift=shift,
                              holdings=dict(holdings.get(cage.last_shift_id, {}))
                              if cage.last_shift_id else {}))
    return views


def minimum_cash_alerts(*, casino: str) -> list[CageView]:
    return [view for view in cage_list(casino=casino) if view.below_minimum]


# --- chips in circulation -------------------------------------------------------------------


def circulation_state(*, casino: str, before: dt.datetime | None = None) -> circulation.State:
    """Where the casino's chips are (``cage.circulation``), now or just before
    ``before``: the state kept with the last gaming day recorded by then, and the events since."""
    days = ChipCirculationDay.objects.filter(casino_id=casino).exclude(state={})
    if before is not None:
        days = days.filter(as_at__lte=before)
    last = days.order_by("-position").first()
    state = circulation.State.from_data(last.state) if last is not None else circulation.State()
    events = eventstore.read_casino(casino, circulation.EVENT_TYPES, before=before,
                               after=state.position)
    return circulation.fold(((e.event, e.position) for e in events), state)


def chips_in_circulation(*, casino: str, before: dt.datetime | None = None
                         ) -> circulation.Figure:
    """Chips in players' hands, per chip set and denomination, now or just before ``before``."""
    return circulation_state(casino=casino, before=before).figure()


def circulation_day_list(*, casino: str) -> QuerySet[ChipCirculationDay]:
    return ChipCirculationDay.objects.filter(casino_id=casino).order_by("-gaming_day")


def chip_liability_list(*, casino: str, gaming_day: dt.date | None = None
                        ) -> QuerySet[ChipLiability]:
    rows = ChipLiability.objects.filter(casino_id=casino)
    if gaming_day is not None:
        rows = rows.filter(gaming_day=gaming_day)
    return rows.order_by("-gaming_day", "-denomination")


def parse_day(value: object) -> dt.date:
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise InvalidCommand("{value!r} is not a date such as 2025-01-31", params={"value": value},
                             field="gaming_day") from None


def shift_count_value(shift: Shift) -> dict[str, Decimal]:
    """The value of a shift's last count, cash and chips apart."""
    out = {"cash": inv.ZERO, "chips": inv.ZERO}
    for line in ShiftLine.objects.filter(shift=shift):
        out[line.kind] = out.get(line.kind, inv.ZERO) + line.denomination * (line.counted or 0)
    return out


def expected_count(shift: Shift) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """What ``shift`` should hold, as a count with every denomination typed (0 where there is
    none): cash by note and coin, chips by set. For the demo and the tests, which count what
    the books say."""

    cash = {fmt(d): 0 for d in CASH_DENOMINATIONS[shift.casino.currency]}
    chips = {s.code: {fmt(Decimal(d)): 0 for d in s.denominations}
             for s in ChipSet.objects.filter(casino_id=shift.casino_id)}
    for line in ShiftLine.objects.filter(shift=shift):
        if line.kind == "cash":
            cash[fmt(line.denomination)] = line.expected
        else:
            chips.setdefault(line.chip_set, {})[fmt(line.denomination)] = line.expected
    return cash, chips


@dataclass(frozen=True)
class PaidOtherwise:
    """What the cage took and paid other than in cash, over every shift of a casino: casino
    cheques issued (redemptions and jackpots) and chips sold by card or by cheque. Neither
    passed through a drawer; the ledger holds each in an account of its own (2785, 1220)."""

    cheques_issued: Decimal
    cheques: int
    card_or_cheque_sales: Decimal


def paid_otherwise(*, casino: str) -> PaidOtherwise:
    cheques = CasinoCheque.objects.filter(casino_id=casino)
    sales = ShiftEntry.objects.filter(shift__casino_id=casino, event_type="ChipsSold",
                                      details__payment__in=["card", "cheque"])
    total = sum((Decimal(str(e.details["amount"])) for e in sales.only("details")), inv.ZERO)
    return PaidOtherwise(
        cheques_issued=cheques.aggregate(s=Sum("amount"))["s"] or inv.ZERO,
        cheques=cheques.count(), card_or_cheque_sales=total)


def casino_cheque_list(*, casino: str) -> QuerySet[CasinoCheque]:
    return CasinoCheque.objects.filter(casino_id=casino).order_by("issued_at", "number")


@dataclass(frozen=True)
class ForeignCountLine:
    """One foreign currency of a shift's last count (``ShiftCounted.foreign``): what the window
    received of it, what was counted, the difference in that currency and in the book currency
    at the rate the count valued it at (``docs/cage.md``, *Foreign notes at a window*)."""

    currency: str
    expected: Decimal
    counted: Decimal
    variance: Decimal
    rate: Decimal | None
    variance_value: Decimal


def foreign_count_lines(shift: Shift) -> list[ForeignCountLine]:
    last = (StoredEvent.objects.filter(stream=shift.stream, event_type="ShiftCounted")
            .order_by("-version").values_list("data", flat=True).first())
    if not last:
        return []
    counted = {c: sum((Decimal(d) * int(n) for d, n in counts.items()), Decimal("0.00"))
               for c, counts in (last.get("foreign") or {}).items()}
    variance = last.get("foreign_variance") or {}
    lines = []
    for currency in sorted(set(counted) | set(variance)):
        v = variance.get(currency, {})
        amount = Decimal(v.get("amount", "0.00"))
        lines.append(ForeignCountLine(
            currency=currency, counted=counted.get(currency, Decimal("0.00")),
            expected=counted.get(currency, Decimal("0.00")) - amount, variance=amount,
            rate=Decimal(v["rate"]) if "rate" in v else None,
            variance_value=Decimal(v.get("value", "0.00"))))
    return lines


def foreign_expected(shift: Shift) -> dict[str, dict[str, int]]:
    """The foreign notes ``shift`` received, per currency and denomination: its foreign
    tables' drop boxes (``DropBoxReceived.currency``), what its close counts them against. The
    exchange desk's deals are not a window's: the desk is one casino-wide holding
    (``docs/cage.md``, *Foreign notes at a window*). The demo and the tests count them so."""
    held: dict[str, dict[str, int]] = {}
    for data in (StoredEvent.objects.filter(stream=shift.stream, event_type="DropBoxReceived")
                 .order_by("version").values_list("data", flat=True)):
        currency = data.get("currency") or ""
        if not currency:
            continue
        lines = held.setdefault(currency, {})
        for d, n in (data.get("cash") or {}).items():
            key = f"{Decimal(d):.2f}"
            lines[key] = lines.get(key, 0) + int(n)
    return held
