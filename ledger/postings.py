"""Postings: what each event puts in the journal. Pure: no Django, no clock, no I/O.

One function per event class, registered where it is defined for the class its ``event``
parameter is annotated with (``@posts``, ``eventstore.dispatch``): ``post(event, context)``
finds it by the event's class and returns the journal entry it posts, or ``None``. The event is
the typed one, read through the upcasters (a stored event of an older schema version is posted
as the current version). The event classes are plain dataclasses without Django (each area's
``events.py`` imports only ``eventstore.events``, and the packages' ``__init__`` files are
empty), so importing them keeps this module pure. The few facts an entry needs beyond its event
(an account's balance, which table and game a table session belongs to) come from ``context``,
which the live projection answers from the database and a replay answers from memory: the same
function serves both.

Every entry balances, and so do its memorandum lines (class 0, the casino's chips at face value)
and its real lines taken apart: ``post`` refuses (``PostingError``) to return anything else.
``docs/ledger.md`` lists every event type and the entry it posts; ``NOT_POSTED`` says why each
other type of the platform posts nothing.
"""

from __future__ import annotations

import datetime as dt
import typing
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Protocol

from cage.events import (
    AdjustmentApproved,
    ChipsPutIntoService,
    ChipsRedeemed,
    ChipsSold,
    ChipsTakenOutOfService,
    CreditReceived,
    DropBoxReceived,
    FillIssued,
    JackpotPaid,
    ShiftClosed,
    ShiftOpened,
    TransferReceived,
    TransferSent,
)
from casino.errors import Words, gettext_noop
from eventstore.dispatch import Dispatch
from eventstore.events import Event
from games.events import (
    CreditRequested,
    DropBoxCountConfirmed,
    DropCounted,
    DropRecorded,
    RoundSettled,
    SlipVoided,
    TableSessionClosed,
    TableSessionOpened,
)
from jackpots.events import (
    JackpotContributed,
    JackpotHit,
    JackpotMeterCorrected,
    JackpotReset,
    JackpotSeeded,
)

from .chart import AccountRef, account
from .events import (
    CardChequeBatchSettled,
    CasinoChequePresented,
    GamingTaxAccrued,
    GamingTaxPaid,
)

ZERO = Decimal("0.00")
CENT = Decimal("0.01")
# A slip the pit may record after its session closed (a late slip, approved).
LateSlip = FillIssued | CreditRequested | SlipVoided


class PostingError(ValueError):
    """An event whose figures do not make a balanced entry (the event is wrong, or we are)."""


@dataclass(frozen=True)
class Line:
    account: AccountRef
    debit: Decimal
    credit: Decimal


@dataclass(frozen=True)
class SessionFacts:
    """What the ledger remembers of a table session between its events."""

    session_id: str
    table: str
    game: str
    drop_recorded: Decimal = ZERO
    drop_counted: Decimal | None = None
    gaming_day: dt.date | None = None  # the day it opened: its events are posted in that day
    # A table in a foreign currency: the rate its figures are booked at (``currency_postings``)
    currency: str = ""
    rate: Decimal | None = None


@dataclass(frozen=True)
class TableStats:
    """Additions to a table's results for the day (the figures that are not amounts posted)."""

    table: str
    game: str
    handle: Decimal = ZERO
    drop: Decimal = ZERO
    rounds: int = 0
    sessions: int = 0


@dataclass(frozen=True)
class Posting:
    description: str
    lines: tuple[Line, ...] = ()
    # A correction: the entry references the last entry posted for the same stream and type.
    corrects_previous: bool = False
    stats: TableStats | None = None
    # The gaming day the entry belongs to when it is not the day of its event's moment: a late
    # slip of a closed session belongs to the session's day (posted there, or in the next open
    # day if that day is closed).
    gaming_day: dt.date | None = None


class Context(Protocol):
    def balance(self, account: AccountRef) -> Decimal:
        """Debits less credits of ``account`` over every entry posted so far."""
        ...

    def session(self, session_id: str) -> SessionFacts | None: ...


# --- amounts ------------------------------------------------------------------------------------


def amount(value: Any) -> Decimal:
    """An amount of an event (its Decimal, or a decimal string or int), exactly in cents."""
    if isinstance(value, float | bool) or value is None:
        raise PostingError(f"{value!r} is not an amount")
    number = Decimal(str(value))
    if number != number.quantize(CENT):
        raise PostingError(f"{value!r} is not an amount in cents")
    return number.quantize(CENT)


def counts_value(counts: Mapping[str, int] | None) -> Decimal:
    """The value of pieces by denomination: ``{"20.00": 5}`` is 100.00."""
    return sum((amount(d) * int(n) for d, n in (counts or {}).items()), ZERO)


def chip_sets_value(chips: Mapping[str, Mapping[str, int]] | None) -> Decimal:
    """The value of ``{"<chip set>": {"20.00": 5}}``."""
    return sum((counts_value(c) for c in (chips or {}).values()), ZERO)


# --- building an entry --------------------------------------------------------------------------


class _Entry:
    def __init__(self) -> None:
        self._net: dict[AccountRef, Decimal] = {}

    def move(self, debit: AccountRef, credit: AccountRef, value: Decimal) -> _Entry:
        """Debit one account and credit another with ``value`` (reversed when negative)."""
        if value == 0:
            return self
        if value < 0:
            debit, credit, value = credit, debit, -value
        self._net[debit] = self._net.get(debit, ZERO) + value
        self._net[credit] = self._net.get(credit, ZERO) - value
        return self

    def lines(self) -> tuple[Line, ...]:
        """One line per account (its net), debits first, in the order the accounts came."""
        out = [Line(a, n, ZERO) for a, n in self._net.items() if n > 0]
        out += [Line(a, ZERO, -n) for a, n in self._net.items() if n < 0]
        return tuple(out)


def check_balanced(lines: Iterable[Line]) -> None:
    """Refuse lines that do not balance, overall and in memorandum and real accounts apart."""
    totals = {True: [ZERO, ZERO], False: [ZERO, ZERO]}
    for line in lines:
        if line.debit < 0 or line.credit < 0 or (line.debit > 0) == (line.credit > 0):
            raise PostingError(f"a line is a positive debit or a positive credit: {line}")
        side = totals[line.account.template.memorandum]
        side[0] += line.debit
        side[1] += line.credit
    for memorandum, (debit, credit) in totals.items():
        if debit != credit:
            part = "memorandum" if memorandum else "real"
            raise PostingError(f"{part} lines do not balance: debits {debit}, credits {credit}")


# --- accounts -----------------------------------------------------------------------------------


def _p() -> AccountRef:
    return account("chips_in_circulation")


def _held() -> AccountRef:
    return account("chips_held")


def _window(key: str, window: str) -> AccountRef:
    return account(key, window)


def _table(key: str, table: str) -> AccountRef:
    return account(key, table)


# --- postings, one function per event class -----------------------------------------------------

Poster = Callable[[Any, Context], Posting | None]
# Registered where each is defined, for the class its ``event`` parameter is annotated with.
posts: Dispatch[Poster] = Dispatch("posting")


def _chips_to_players(e: _Entry, place: AccountRef, value: Decimal) -> None:
    """Chips leave the casino's ``place`` for players' hands (negative: players give them back)."""
    e.move(_held(), place, value)


def _differences(e: _Entry, *, cash: AccountRef | None, cash_diff: Decimal,
                 chips: AccountRef, chips_diff: Decimal, result: AccountRef) -> None:
    """Found more (or less) than the books say: the cash and chips accounts follow the count.

    Chips found are chips that are not in players' hands after all: the liability goes down.
    """
    if cash is not None:
        e.move(cash, result, cash_diff)
    e.move(chips, _held(), chips_diff)
    e.move(_p(), result, chips_diff)


# cage ------------------------------------------------------------------------------------------


@posts
def shift_opened(event: ShiftOpened, ctx: Context) -> Posting | None:
    cash_account = _window("cage_cash", event.window)
    chips_account = _window("cage_chips", event.window)
    cash = counts_value(event.cash)
    chips = chip_sets_value(event.chips)
    cash_diff = cash - ctx.balance(cash_account)
    chips_diff = chips - ctx.balance(chips_account)
    e = _Entry()
    if event.previous_shift_id is None:
        # The first shift of a cage takes over what is there: cash from outside the platform
        # (a transitory account the accountant settles), chips the casino already held.
        e.move(cash_account, account("opening_counts"), cash_diff)
        e.move(chips_account, _held(), chips_diff)
        what = Words("Opening count taken over at {window} ({basis})", window=event.window,
                     basis=_basis(event.basis))
    else:
        # The opening takes over the last closing count, or, after a dispute a cage supervisor
        # resolved for it, the disputing cashier's count: the difference from the last closing
        # count (what the accounts hold) goes to the cage's over/short, as a closing variance.
        _differences(e, cash=cash_account, cash_diff=cash_diff, chips=chips_account,
                     chips_diff=chips_diff, result=_window("cage_over_short", event.window))
        what = Words("Opening count at {window} differs from the last closing count",
                     window=event.window)
        if event.basis == "dispute_count":
            what = Words("Opening count at {window} differs from the last closing count (the "
                         "disputed count, chosen by a cage supervisor)", window=event.window)
    lines = e.lines()
    return Posting(what, lines) if lines else None


@posts
def shift_closed(event: ShiftClosed, ctx: Context) -> Posting | None:
    cash_account = _window("cage_cash", event.window)
    chips_account = _window("cage_chips", event.window)
    cash_diff = counts_value(event.cash) - ctx.balance(cash_account)
    chips_diff = chip_sets_value(event.chips) - ctx.balance(chips_account)
    e = _Entry()
    _differences(e, cash=cash_account, cash_diff=cash_diff, chips=chips_account,
                 chips_diff=chips_diff, result=_window("cage_over_short", event.window))
    # Foreign notes the window received are the casino's holding of their currency (1171.<c>)
    # from their receipt; a difference at the close leaves it (or joins it): at the rate the
    # count valued it at in the book currency, to the window's over/short (7881), and at face
    # value in memorandum (0900.<c>.1171.<c> / 0900.<c>.7881.<window>), as a foreign box's
    # difference is posted (``docs/cage.md``, *Foreign notes at a window*).
    for currency, variance in sorted((event.foreign_variance or {}).items()):
        held = account("foreign_cash", currency)
        over_short = _window("cage_over_short", event.window)
        e.move(held, over_short, amount(variance["value"]))
        e.move(account("foreign_figures", f"{currency}.{held.code}"),
               account("foreign_figures", f"{currency}.{over_short.code}"),
               amount(variance["amount"]))
    lines = e.lines()
    if not lines:
        return None
    return Posting(Words("Shift closed at {window}: count {count}, variance {variance}",
                         window=event.window, count=event.count_number,
                         variance=amount(event.variance_value)), lines)


def _same(a: Decimal, b: Decimal, what: str) -> None:
    if a != b:
        raise PostingError(f"{what}: {a} and {b} should be equal")


def _payment(payment: str | None) -> str:
    """How a movement was paid: ``cash`` for every event stored before payments were named."""
    return str(payment or "cash")


def _cheque(number: str) -> Words:
    return Words(", casino cheque {number}", number=number)


# How a payment is said inside a description (``, by card``), the code kept as it was stored.
_BY = {"card": gettext_noop(", by card"), "cheque": gettext_noop(", by cheque")}
# The basis of a cage's first opening, said in words (the stored text keeps the code).
_BASES = {"blind_count": gettext_noop("blind count"),
          "previous_count": gettext_noop("the previous closing count")}


def _by(payment: str) -> Words | str:
    template = _BY.get(payment)
    return Words(template) if template else f", by {payment}"


def _basis(basis: object) -> Words | str:
    template = _BASES.get(str(basis))
    return Words.stored_as(str(basis), template) if template else str(basis)


@posts
def chips_sold(event: ChipsSold, ctx: Context) -> Posting:
    chips = counts_value(event.chips)
    payment = _payment(event.payment)
    if payment == "cash":
        cash = counts_value(event.cash) - counts_value(event.change)
        _same(cash, chips, "chips sold: the cash received less the change, and the chips")
        e = _Entry().move(_window("cage_cash", event.window), _p(), cash)
        how: Words | str = ""
    else:  # by card or the patron's cheque: to be cleared by the bank, no cash at the window
        _same(amount(event.amount), chips, f"chips sold by {payment}: the amount and the chips")
        e = _Entry().move(account("card_and_cheque_receipts"), _p(), chips)
        how = _by(payment)
    _chips_to_players(e, _window("cage_chips", event.window), chips)
    return Posting(Words("Chips sold at {window} ({transaction}{how})", window=event.window,
                         transaction=event.transaction_id, how=how), e.lines())


@posts
def chips_redeemed(event: ChipsRedeemed, ctx: Context) -> Posting:
    chips = counts_value(event.chips)
    if _payment(event.payment) == "casino_cheque":  # owed until the bank pays it, not out of the drawer
        _same(amount(event.amount), chips, "chips redeemed by cheque: the cheque and the chips")
        e = _Entry().move(_p(), account("casino_cheques_issued"), chips)
        how: Words | str = _cheque(event.cheque_number)
    else:
        cash = counts_value(event.cash)
        _same(cash, chips, "chips redeemed: the cash paid and the chips")
        e = _Entry().move(_p(), _window("cage_cash", event.window), cash)
        how = ""
    _chips_to_players(e, _window("cage_chips", event.window), -chips)
    return Posting(Words("Chips redeemed at {window} ({transaction}{how})",
                         window=event.window, transaction=event.transaction_id,
                         how=how), e.lines())


def _late_day(event: LateSlip) -> dt.date | None:
    """The day a late slip is posted in: its closed session's, or, that day being sealed, the
    open day the pit books it in (``booked_day``, with the sealed day it corrects)."""
    return event.booked_day or event.gaming_day


def _corrects(event: LateSlip) -> Words | str:
    booked = event.booked_day
    if not booked or booked == event.gaming_day:
        return ""
    return Words(" [a correction of sealed gaming day {day}, session {session}]",
                 day=event.gaming_day, session=event.session_id)


def _after_close(e: _Entry, table: str, value: Decimal) -> None:
    """A slip of a session that had closed moves the session's table win by ``value`` (the pit
    works the closed session's win out again): the close trued the table's float up to the
    closing count and put the difference in the table variance, so the variance moves by the
    same ``value`` and the float is trued up again (negative: the chips were players', not the
    house's)."""
    e.move(_table("table_float", table), _held(), value)
    e.move(_p(), _table("table_variance", table), value)


@posts
def fill_issued(event: FillIssued, ctx: Context) -> Posting:
    table = event.table
    value = amount(event.amount)
    e = _Entry().move(_table("table_float", table), _window("cage_chips", event.window), value)
    if not event.after_close:
        return Posting(Words("Fill {slip}: {window} to table {table}", slip=event.slip,
                             window=event.window, table=table), e.lines())
    _after_close(e, table, -value)  # the session's win is less by the fill
    return Posting(Words("Fill {slip}: {window} to table {table}, issued after its session "
                         "closed (approval {approval}): the session's variance moves by "
                         "{value}{corrects}", slip=event.slip, window=event.window,
                         table=table, approval=event.approval_id, value=-value,
                         corrects=_corrects(event)), e.lines(), gaming_day=_late_day(event))


@posts
def credit_received(event: CreditReceived, ctx: Context) -> Posting:
    e = _Entry().move(_window("cage_chips", event.window), account("chips_in_transit"),
                      amount(event.amount))
    return Posting(Words("Credit {slip}: table {table} chips received at {window}",
                         slip=event.slip, table=event.table, window=event.window),
                   e.lines())


@posts
def transfer_sent(event: TransferSent, ctx: Context) -> Posting:
    e = _Entry()
    e.move(account("cash_in_transit"), _window("cage_cash", event.window),
           counts_value(event.cash))
    e.move(account("chips_in_transit"), _window("cage_chips", event.window),
           chip_sets_value(event.chips))
    return Posting(Words("Transfer {transfer} sent: {window} to {to}",
                         transfer=event.transfer_id, window=event.window,
                         to=event.to_window), e.lines())


@posts
def transfer_received(event: TransferReceived, ctx: Context) -> Posting:
    e = _Entry()
    e.move(_window("cage_cash", event.window), account("cash_in_transit"),
           counts_value(event.cash))
    e.move(_window("cage_chips", event.window), account("chips_in_transit"),
           chip_sets_value(event.chips))
    return Posting(Words("Transfer {transfer} received: {source} to {window}",
                         transfer=event.transfer_id, source=event.from_window,
                         window=event.window), e.lines())


@posts
def jackpot_paid(event: JackpotPaid, ctx: Context) -> Posting:
    payable = account("jackpot_payable", event.pool_id)
    if _payment(event.payment) == "casino_cheque":
        e = _Entry().move(payable, account("casino_cheques_issued"), amount(event.amount))
        return Posting(Words("Jackpot prize paid at {window} to {winner} (pool {pool}, round "
                             "{round}{cheque})", window=event.window,
                             winner=event.winner, pool=event.pool_id,
                             round=event.round_id, cheque=_cheque(event.cheque_number)),
                       e.lines())
    cash = counts_value(event.cash)
    chips = counts_value(event.chips)
    _same(cash + chips, amount(event.amount), "jackpot paid: cash and chips, and the prize")
    e = _Entry().move(payable, _window("cage_cash", event.window), cash)
    e.move(payable, _p(), chips)
    _chips_to_players(e, _window("cage_chips", event.window), chips)
    return Posting(Words("Jackpot prize paid at {window} to {winner} (pool {pool}, round "
                         "{round})", window=event.window, winner=event.winner,
                         pool=event.pool_id, round=event.round_id), e.lines())


@posts
def drop_box_received(event: DropBoxReceived, ctx: Context) -> Posting:
    """The cash received goes to the cage; the box leaves the table's drop account at its count;
    what differs (received less counted) is a drop count difference of the table (7883), under
    either drop definition: the table's win, hold and tax were worked out on the count, so cash
    missing (or found) after it is no part of the win (``docs/ledger.md``)."""
    table = event.table
    received = counts_value(event.cash)
    counted = (amount(event.counted_amount) if event.counted_amount is not None
               else received)
    _same(received - counted, amount(event.variance_value),
          "drop box received: received less counted, and the variance")
    # A foreign table's box (``docs/currencies.md``): its notes go to the cage's foreign
    # holdings (1171.<currency>), worked here in that currency and booked at the session's
    # rate by ``currency_postings``; a book-currency box to the window's cash.
    cash = (account("foreign_cash", event.currency) if event.currency else
            _window("cage_cash", event.window))
    e = _Entry().move(cash, _table("drop", table), received)
    e.move(_table("drop_difference", table), _table("drop", table), counted - received)
    what = Words("Drop box {box} of table {table} received at {window}",
                 box=event.drop_box, table=table, window=event.window)
    if received != counted:
        what = Words("{what}: counted {counted}, received {received}, variance {variance}",
                     what=what, counted=counted, received=received,
                     variance=received - counted)
    return Posting(what, e.lines())


@posts
def adjustment_approved(event: AdjustmentApproved, ctx: Context) -> Posting:
    sign = {"in": 1, "out": -1}.get(event.direction)
    if sign is None:
        raise PostingError(f"an adjustment goes in or out, not {event.direction!r}")
    e = _Entry()
    _differences(e, cash=_window("cage_cash", event.window),
                 cash_diff=sign * counts_value(event.cash),
                 chips=_window("cage_chips", event.window),
                 chips_diff=sign * chip_sets_value(event.chips),
                 result=_window("cage_over_short", event.window))
    note = f"{event.note}".rstrip(": ")
    if event.direction == "in":
        what = (Words("Adjustment in at {window} approved: {note}", window=event.window,
                      note=note) if note else
                Words("Adjustment in at {window} approved", window=event.window))
    else:
        what = (Words("Adjustment out at {window} approved: {note}", window=event.window,
                      note=note) if note else
                Words("Adjustment out at {window} approved", window=event.window))
    return Posting(what, e.lines())


@posts
def chips_put_into_service(event: ChipsPutIntoService, ctx: Context) -> Posting:
    e = _Entry().move(_window("cage_chips", event.window), _held(), counts_value(event.chips))
    return Posting(Words("Chips put into service at {window} ({reference})",
                         window=event.window, reference=event.reference), e.lines())


@posts
def chips_taken_out_of_service(event: ChipsTakenOutOfService, ctx: Context) -> Posting:
    e = _Entry().move(_held(), _window("cage_chips", event.window), counts_value(event.chips))
    return Posting(Words("Chips taken out of service at {window} ({reason})",
                         window=event.window, reason=event.reason), e.lines())


# tables ----------------------------------------------------------------------------------------


def _session(session_id: str, ctx: Context) -> SessionFacts:
    facts = ctx.session(session_id)
    if facts is None:
        raise PostingError(f"table session {session_id} is unknown to the ledger "
                           "(its TableSessionOpened was not posted)")
    return facts


@posts
def table_session_opened(event: TableSessionOpened, ctx: Context) -> Posting | None:
    table = event.table
    float_account = _table("table_float", table)
    opening = amount(event.opening_amount)
    difference = opening - ctx.balance(float_account)
    e = _Entry()
    if event.previous_session_id is None:
        e.move(float_account, _held(), difference)  # the first float: chips the casino held
        what = Words("Table {table} opened with its first float", table=table)
    else:
        e.move(float_account, _held(), difference)
        e.move(_p(), _table("float_difference", table), difference)
        what = Words("Table {table} opened: float differs from the last closing count",
                     table=table)
    lines = e.lines()
    return Posting(what, lines) if lines else None


@posts
def credit_requested(event: CreditRequested, ctx: Context) -> Posting:
    table = event.table
    value = amount(event.amount)
    e = _Entry().move(account("chips_in_transit"), _table("table_float", table), value)
    if not event.after_close:
        return Posting(Words("Credit {slip}: chips leave table {table} for the cage",
                             slip=event.slip, table=table), e.lines())
    _after_close(e, table, value)  # the session's win is more by the credit
    return Posting(Words("Credit {slip}: chips that left table {table} for the cage, recorded "
                         "after its session closed (approval {approval}): the session's "
                         "variance moves by {value}{corrects}", slip=event.slip, table=table,
                         approval=event.approval_id, value=value,
                         corrects=_corrects(event)), e.lines(), gaming_day=_late_day(event))


@posts
def slip_voided(event: SlipVoided, ctx: Context) -> Posting | None:
    if event.kind != "credit":
        return None  # a fill moves chips only when the cage issues it; a voided one never was
    table = event.table
    value = amount(event.amount)
    e = _Entry().move(_table("table_float", table), account("chips_in_transit"), value)
    what = Words("Credit {slip} voided: the chips stay at table {table}", slip=event.slip,
                 table=table)
    day = None
    if event.after_close:
        _after_close(e, table, -value)  # the session's win is less by the credit
        what = Words("Credit {slip} voided after its session closed (approval {approval}): "
                     "the session's variance moves by {value}{corrects}", slip=event.slip,
                     approval=event.approval_id, value=-value,
                     corrects=_corrects(event))
        day = _late_day(event)
    lines = e.lines()
    return Posting(what, lines, gaming_day=day) if lines else None


@posts
def drop_recorded(event: DropRecorded, ctx: Context) -> Posting:
    table = event.table
    value = amount(event.amount)
    e = _Entry().move(_table("drop", table), _p(), value)
    _chips_to_players(e, _table("table_float", table), value)
    return Posting(Words("Cash for chips at table {table}, into the drop box", table=table),
                   e.lines())


@posts
def round_settled(event: RoundSettled, ctx: Context) -> Posting:
    facts = _session(event.session_id, ctx)
    correction = bool(event.correction)
    result = amount(event.result_delta if correction else event.result)
    e = _Entry().move(_p(), account("gaming_revenue", facts.table, facts.game), result)
    _chips_to_players(e, _table("table_float", facts.table), -result)
    what = (gettext_noop("Round corrected at table {table}: result {result} (round {round})")
            if correction else
            gettext_noop("Round settled at table {table}: result {result} (round {round})"))
    stats = TableStats(facts.table, facts.game,
                       handle=ZERO if correction else amount(event.handle),
                       rounds=0 if correction else 1)
    return Posting(Words(what, table=facts.table, result=result, round=event.round_id),
                   e.lines(), corrects_previous=correction, stats=stats)


@posts
def table_session_closed(event: TableSessionClosed, ctx: Context) -> Posting:
    facts = _session(event.session_id, ctx)
    table = facts.table
    if event.drop_count_room:
        return _closed_before_the_count(event, ctx, facts)
    # Version 1: the pit boss typed the drop count at the close (DropCounted, just before).
    counted = facts.drop_counted if facts.drop_counted is not None else facts.drop_recorded
    drop_diff = counted - facts.drop_recorded
    float_account = _table("table_float", table)
    float_diff = amount(event.closing_amount) - ctx.balance(float_account)
    variance = _table("table_variance", table)
    e = _Entry()
    if event.drop_basis == "recorded":
        drop = facts.drop_recorded
        e.move(_table("drop", table), _table("drop_difference", table), drop_diff)
        table_variance = float_diff
    else:
        drop = counted
        e.move(_table("drop", table), variance, drop_diff)
        table_variance = drop_diff + float_diff
    e.move(float_account, _held(), float_diff)
    e.move(_p(), variance, float_diff)
    return Posting(Words("Table {table} session closed: variance {variance} (drop {drop}, "
                         "session {session})", table=table, variance=table_variance, drop=drop,
                         session=event.session_id), e.lines(),
                   stats=TableStats(table, facts.game, drop=drop, sessions=1))


def _closed_before_the_count(event: TableSessionClosed, ctx: Context, facts: SessionFacts
                             ) -> Posting:
    """A session closed with its drop box on the way to the count room: the float difference
    now; the drop's difference when two counters have counted it (DropBoxCountConfirmed)."""
    table = facts.table
    float_account = _table("table_float", table)
    float_diff = amount(event.closing_amount) - ctx.balance(float_account)
    variance = _table("table_variance", table)
    e = _Entry()
    e.move(float_account, _held(), float_diff)
    e.move(_p(), variance, float_diff)
    recorded_basis = event.drop_basis == "recorded"
    drop = facts.drop_recorded if recorded_basis else ZERO
    what = (Words("Table {table} session closed: float variance {variance} (drop {drop}, "
                  "session {session})", table=table, variance=float_diff, drop=drop,
                  session=event.session_id) if recorded_basis else
            Words("Table {table} session closed: float variance {variance} (drop to be "
                  "counted, session {session})", table=table, variance=float_diff,
                  session=event.session_id))
    return Posting(what, e.lines(), stats=TableStats(table, facts.game, drop=drop, sessions=1))


@posts
def drop_box_count_confirmed(event: DropBoxCountConfirmed, ctx: Context) -> Posting:
    """The count room's count of the box: counted less recorded moves the drop account, into
    the table's win (drop definition ``counted``: 7212, and the counted drop is the day's drop)
    or into the drop count differences (``recorded``: 7883)."""
    facts = _session(event.session_id, ctx)
    table = facts.table
    counted = amount(event.amount)
    difference = counted - facts.drop_recorded
    e = _Entry()
    if event.drop_basis == "recorded":
        e.move(_table("drop", table), _table("drop_difference", table), difference)
        drop = ZERO
    else:
        e.move(_table("drop", table), _table("table_variance", table), difference)
        drop = counted
    return Posting(Words("Drop box of table {table} counted: {counted} against {recorded} "
                         "recorded (session {session})", table=table, counted=counted,
                         recorded=facts.drop_recorded, session=event.session_id), e.lines(),
                   stats=TableStats(table, facts.game, drop=drop))


# jackpots --------------------------------------------------------------------------------------


def _pool(key: str, pool_id: str) -> AccountRef:
    return account(key, pool_id)


def _funding(e: _Entry, pool_id: str, *, from_casino: Decimal, from_reserve: Decimal) -> None:
    e.move(_pool("jackpot_funding", pool_id), _pool("jackpot_liability", pool_id), from_casino)
    e.move(_pool("jackpot_reserve", pool_id), _pool("jackpot_liability", pool_id), from_reserve)


@posts
def jackpot_seeded(event: JackpotSeeded, ctx: Context) -> Posting:
    from_casino, from_reserve = amount(event.from_casino), amount(event.from_reserve)
    _same(from_casino + from_reserve, amount(event.amount), "jackpot seed: its two sources")
    e = _Entry()
    _funding(e, event.pool_id, from_casino=from_casino, from_reserve=from_reserve)
    return Posting(Words("Jackpot pool {pool} seeded with its start value",
                         pool=event.pool_id), e.lines())


@posts
def jackpot_contributed(event: JackpotContributed, ctx: Context) -> Posting:
    staked = amount(event.amount)
    to_pool, to_reserve = amount(event.to_pool), amount(event.to_reserve)
    retained = amount(event.retained)
    _same(to_pool + to_reserve + retained, staked, "jackpot bets: pool, reserve and retained")
    table = event.table
    e = _Entry()
    e.move(_p(), _pool("jackpot_liability", event.pool_id), to_pool)
    e.move(_p(), _pool("jackpot_reserve", event.pool_id), to_reserve)
    e.move(_p(), _pool("jackpot_retained", event.pool_id), retained)
    _chips_to_players(e, _table("jackpot_chips", table), -staked)
    return Posting(Words("Jackpot bets at table {table} (pool {pool}, round {round})",
                         table=table, pool=event.pool_id, round=event.round_id),
                   e.lines())


@posts
def jackpot_hit(event: JackpotHit, ctx: Context) -> Posting:
    e = _Entry().move(_pool("jackpot_liability", event.pool_id),
                      _pool("jackpot_payable", event.pool_id), amount(event.amount))
    return Posting(Words("Jackpot prize {combination} won by {player} at table {table} (pool "
                         "{pool})", combination=event.combination,
                         player=event.player, table=event.table,
                         pool=event.pool_id), e.lines())


@posts
def jackpot_reset(event: JackpotReset, ctx: Context) -> Posting | None:
    e = _Entry()
    _funding(e, event.pool_id, from_casino=amount(event.from_casino),
             from_reserve=amount(event.from_reserve))
    lines = e.lines()
    return Posting(Words("Jackpot pool {pool} restarts at its start value",
                         pool=event.pool_id), lines) if lines else None


@posts
def jackpot_meter_corrected(event: JackpotMeterCorrected, ctx: Context) -> Posting:
    meter = {"pool": "jackpot_liability", "reserve": "jackpot_reserve"}.get(event.meter)
    sign = {"up": 1, "down": -1}.get(event.direction)
    if meter is None or sign is None:
        raise PostingError(f"unknown jackpot meter correction {event.meter}/{event.direction}")
    e = _Entry().move(_pool("jackpot_corrections", event.pool_id), _pool(meter, event.pool_id),
                      sign * amount(event.amount))
    return Posting(Words("Jackpot {meter} of pool {pool} corrected {direction}: {reason}",
                         meter=event.meter, pool=event.pool_id, direction=event.direction,
                         reason=event.reason), e.lines())


# gaming tax ------------------------------------------------------------------------------------


@posts
def gaming_tax_accrued(event: GamingTaxAccrued, ctx: Context) -> Posting | None:
    e = _Entry()
    for line in event.lines:
        code = str(line["code"])
        e.move(account("gaming_tax_expense", code), account("gaming_tax_payable", code),
               amount(line["amount"]))
    lines = e.lines()
    return Posting(Words("Gaming tax of {month} accrued from its return",
                         month=event.month), lines) if lines else None


@posts
def gaming_tax_paid(event: GamingTaxPaid, ctx: Context) -> Posting:
    code = event.code
    e = _Entry().move(account("gaming_tax_payable", code), account("bank"),
                      amount(event.amount))
    return Posting(Words("Gaming tax {code} of {month} paid ({reference})", code=code,
                         month=event.month, reference=event.reference), e.lines())


# clearing against the bank ---------------------------------------------------------------------


@posts
def casino_cheque_presented(event: CasinoChequePresented, ctx: Context) -> Posting:
    e = _Entry().move(account("casino_cheques_issued"), account("bank"), amount(event.amount))
    return Posting(Words("Casino cheque {number} paid by the bank ({reference})",
                         number=event.number, reference=event.bank_reference), e.lines())


@posts
def card_cheque_batch_settled(event: CardChequeBatchSettled, ctx: Context) -> Posting:
    e = _Entry().move(account("bank"), account("card_and_cheque_receipts"),
                      amount(event.amount))
    return Posting(Words("Card and cheque receipts credited by the bank ({reference})",
                         reference=event.bank_reference), e.lines())


# --- event types that post nothing, and why -----------------------------------------------------

NOT_POSTED: dict[str, str] = {
    # configuration
    "CasinoRoleGranted": "configuration", "CasinoRoleRemoved": "configuration",
    "CasinoRegistered": "configuration", "CasinoSettingsChanged": "configuration",
    "ChipSetRegistered": "configuration", "ChipSetDenominationsChanged": "configuration",
    "CageConfigured": "configuration", "CageMinimumCashChanged": "configuration",
    "TableConfigured": "configuration", "TableLimitsChanged": "configuration",
    "TableOptionsChanged": "configuration", "DropDefinitionSet": "configuration",
    "TableTaxClassChanged": "configuration", "TaxParameterSet": "configuration",
    "JackpotPoolCreated": "configuration", "JackpotParametersChanged": "configuration",
    "JackpotTablesChanged": "configuration",
    "TableCapitalApproved": "configuration",
    # cage
    "SlipRefused": "the cage declined the slip: nothing moved",
    "AdjustmentRequested": "moves nothing until approved (AdjustmentApproved posts)",
    "AdjustmentRejected": "nothing moved",
    "CageCashFellBelowMinimum": "an alert", "CageCashRestoredAboveMinimum": "an alert",
    "ShiftCounted": "a count; the close posts the difference to the count it closes on",
    "ShiftOpeningDisputed": "a count nobody agreed on yet; the ShiftOpened that resolves it posts "
                            "any difference from the last closing count",
    "ShiftOpeningDisputeResolved": "a decision; the ShiftOpened appended with it posts",
    "VarianceExplained": "words; the close posts the variance",
    "VarianceApproved": "an approval; the close posts the variance",
    "VarianceRefused": "a refusal: the explanation set aside, nothing moves",
    "ChipsInCirculationRecorded": "a figure for the day (compare with account 2781)",
    # tables
    "FillRequested": "a request: the chips move when the cage issues the fill (FillIssued)",
    "DropCounted": "remembered; the session close posts the count's difference (sessions "
                   "closed before the count room)",
    "DropBoxCounted": "the first counter's count: the second counter's confirmation posts",
    "DropVarianceApproved": "an approval; the cage's DropBoxReceived posted the difference",
    "ColourChipsIssued": "colour chips are the player's value chips in another colour: no value "
                         "moves (paid in cash, the DropRecorded beside it posts)",
    "ColourChipsExchanged": "the same value back in value chips (a late exchange's discount "
                            "shows in the session's variance at the close)",
    "RoundOpened": "no value moves until the round settles",
    "BetPlaced": "chips on the layout are still the player's until the round settles",
    "BetCarried": "still the player's", "BetWithdrawn": "still the player's",
    "BettingClosed": "no value moves", "CardsDealt": "no value moves",
    "DecisionRecorded": "no value moves until the round settles",
    "OutcomeRecorded": "no value moves until the round settles",
    "BetSettled": "RoundSettled posts the round's net result (stakes lost less prizes paid)",
    "RoundVoided": "a void round settles nothing",
    "RoundCorrected": "the RoundSettled that follows it posts the difference",
    "TableVarianceApproved": "a second person approves a variance the close posted",
    # jackpots
    "JackpotBetPlaced": "a jackpot chip placed before the deal: JackpotContributed posts it when "
                        "the pool's coup collects it",
    "JackpotCoupSettled": "the coup's calculation as data; JackpotHit and JackpotReset post",
    "JackpotPrizePaid": "the cage's JackpotPaid posts the payment",
    # four eyes
    "ApprovalRequested": "a request: the change posts when approved, by its own events",
    "ApprovalGranted": "the approved change's own events post (recorded with it)",
    "ApprovalRefused": "nothing moved", "ApprovalWithdrawn": "nothing moved",
    # the ledger's own
    "PeriodClosed": "closes a ledger period",
    "GamingDayClosed": "the day's figures as fixed at its close; the PeriodClosed beside it "
                       "closes the period",
    "GamingDaySealed": "signs a closed gaming day's events and totals: nothing moves",
    # patrons and anti-money-laundering (docs/patrons.md): references, alerts, reports
    "PatronRegistered": "identifies a person: no money moves",
    "PatronVerified": "a document checked: no money moves",
    "PatronDataCorrected": "a patron's data corrected: no money moves",
    "PatronDataShredded": "a data key destroyed: no money moves",
    "AmlAlertRaised": "an alert about a movement that posts by its own event",
    "AmlAlertGrown": "an alert about a movement that posts by its own event",
    "LinkingPeriodSet": "configuration",
    "SuspiciousReportDrafted": "a report: no money moves",
    "SuspiciousReportReviewed": "a report: no money moves",
    "SuspiciousReportSent": "a report: no money moves",
}

# The tips' postings (docs/tips.md), registered by ``@posts`` where they are defined.
from . import tip_postings  # noqa: E402 (after ``posts`` and ``NOT_POSTED``, which it extends)

NOT_POSTED.update(tip_postings.NOT_POSTED)
from . import exchange_postings  # noqa: E402 (the exchange's postings, docs/currencies.md)

NOT_POSTED.update(exchange_postings.NOT_POSTED)
from . import pokerroom_postings  # noqa: E402  (the poker room's @posts, issue 38)

NOT_POSTED.update(pokerroom_postings.NOT_POSTED)
# The slot floor's postings, registered by their module (docs/machines.md § The books).
from . import machine_postings  # noqa: E402

NOT_POSTED.update(machine_postings.NOT_POSTED)
from . import currency_postings  # noqa: E402 (a foreign-currency table's figures at its rate)

NOT_POSTED.update(currency_postings.NOT_POSTED)

# What the ledger remembers of a table session (``session_after``) follows these.
SessionEvent = TableSessionOpened | DropRecorded | DropCounted | DropBoxCountConfirmed
SESSION_EVENTS: frozenset[type[Event]] = frozenset(typing.get_args(SessionEvent))
# Every event class the ledger reads: those it posts from, and those of table sessions.
EVENT_CLASSES: frozenset[type[Event]] = frozenset(posts.by_class) | SESSION_EVENTS
# Their stored names (what a reader of the store asks for).
EVENT_TYPES = frozenset(cls.event_type for cls in EVENT_CLASSES)


def post(event: Event, context: Context) -> Posting | None:
    """The entry ``event`` (typed, read through the upcasters) posts, or None. Raises
    PostingError if it would not balance."""
    poster = posts.by_class.get(type(event))
    if poster is None:
        return None
    posting = currency_postings.posted(poster, event, context)
    if posting is not None:
        check_balanced(posting.lines)
    return posting


def session_after(event: SessionEvent, facts: SessionFacts | None) -> SessionFacts | None:
    """What the ledger remembers of a table session after ``event`` (None: unchanged)."""
    if isinstance(event, TableSessionOpened):
        return SessionFacts(event.session_id, event.table, event.game,
                            gaming_day=event.gaming_day, currency=event.currency,
                            rate=event.rate)
    if facts is None:
        return None
    if isinstance(event, DropRecorded):
        return replace(facts, drop_recorded=facts.drop_recorded + amount(event.amount))
    return replace(facts, drop_counted=amount(event.amount))


# --- closed days --------------------------------------------------------------------------------


def open_day(day: dt.date, closed: Collection[dt.date]) -> dt.date:
    """The day an entry of ``day`` is posted in: ``day`` itself, or the first later day that is
    not closed (a closed day takes no new postings)."""
    while day in closed:
        day += dt.timedelta(days=1)
    return day

