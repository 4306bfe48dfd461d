"""Postings: what each event puts in the journal. Pure: no Django, no clock, no I/O.

``post(event_type, data, context)`` reads an event by its stored type name and JSON ``data``
(never the event classes, so history is read as it was stored) and returns the journal entry it
posts, or ``None``. The few facts an entry needs beyond its event (an account's balance, which
table and game a table session belongs to) come from ``context``, which the live projection
answers from the database and a replay answers from memory: the same function serves both.

Every entry balances, and so do its memorandum lines (class 0, the casino's chips at face value)
and its real lines taken apart: ``post`` refuses (``PostingError``) to return anything else.
``docs/ledger.md`` lists every event type and the entry it posts; ``NOT_POSTED`` says why each
other type of the platform posts nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Protocol

from casino.errors import Words, gettext_noop

from .chart import AccountRef, account

ZERO = Decimal("0.00")
CENT = Decimal("0.01")
Data = Mapping[str, Any]


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
    """An amount from event data: a decimal string (or int), exactly in cents."""
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


def _window(key: str, data: Data, field_name: str = "window") -> AccountRef:
    return account(key, str(data[field_name]))


def _table(key: str, table: str) -> AccountRef:
    return account(key, table)


# --- postings, one function per event type ------------------------------------------------------

Poster = Callable[[Data, Context], Posting | None]
POSTERS: dict[str, Poster] = {}


def posts(*event_types: str) -> Callable[[Poster], Poster]:
    def register(fn: Poster) -> Poster:
        for name in event_types:
            if name in POSTERS:
                raise TypeError(f"{name} has a posting already")
            POSTERS[name] = fn
        return fn

    return register


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


@posts("ShiftOpened")
def shift_opened(data: Data, ctx: Context) -> Posting | None:
    cash_account = _window("cage_cash", data)
    chips_account = _window("cage_chips", data)
    cash = counts_value(data.get("cash"))
    chips = chip_sets_value(data.get("chips"))
    cash_diff = cash - ctx.balance(cash_account)
    chips_diff = chips - ctx.balance(chips_account)
    e = _Entry()
    if data.get("previous_shift_id") is None:
        # The first shift of a cage takes over what is there: cash from outside the platform
        # (a transitory account the accountant settles), chips the casino already held.
        e.move(cash_account, account("opening_counts"), cash_diff)
        e.move(chips_account, _held(), chips_diff)
        what = Words("Opening count taken over at {window} ({basis})", window=data["window"],
                     basis=_basis(data.get("basis", "")))
    else:
        # The opening takes over the last closing count, or, after a dispute a cage supervisor
        # resolved for it, the disputing cashier's count: the difference from the last closing
        # count (what the accounts hold) goes to the cage's over/short, as a closing variance.
        _differences(e, cash=cash_account, cash_diff=cash_diff, chips=chips_account,
                     chips_diff=chips_diff, result=_window("cage_over_short", data))
        what = Words("Opening count at {window} differs from the last closing count",
                     window=data["window"])
        if data.get("basis") == "dispute_count":
            what = Words("Opening count at {window} differs from the last closing count (the "
                         "disputed count, chosen by a cage supervisor)", window=data["window"])
    lines = e.lines()
    return Posting(what, lines) if lines else None


@posts("ShiftClosed")
def shift_closed(data: Data, ctx: Context) -> Posting | None:
    cash_account = _window("cage_cash", data)
    chips_account = _window("cage_chips", data)
    cash_diff = counts_value(data.get("cash")) - ctx.balance(cash_account)
    chips_diff = chip_sets_value(data.get("chips")) - ctx.balance(chips_account)
    e = _Entry()
    _differences(e, cash=cash_account, cash_diff=cash_diff, chips=chips_account,
                 chips_diff=chips_diff, result=_window("cage_over_short", data))
    lines = e.lines()
    if not lines:
        return None
    return Posting(Words("Shift closed at {window}: count {count}, variance {variance}",
                         window=data["window"], count=data.get("count_number", ""),
                         variance=amount(data.get("variance_value", "0"))), lines)


def _same(a: Decimal, b: Decimal, what: str) -> None:
    if a != b:
        raise PostingError(f"{what}: {a} and {b} should be equal")


def _payment(data: Data) -> str:
    """How a movement was paid: ``cash`` for every event stored before payments were named."""
    return str(data.get("payment") or "cash")


def _cheque(data: Data) -> Words:
    return Words(", casino cheque {number}", number=data.get("cheque_number", ""))


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


@posts("ChipsSold")
def chips_sold(data: Data, ctx: Context) -> Posting:
    chips = counts_value(data.get("chips"))
    payment = _payment(data)
    if payment == "cash":
        cash = counts_value(data.get("cash")) - counts_value(data.get("change"))
        _same(cash, chips, "chips sold: the cash received less the change, and the chips")
        e = _Entry().move(_window("cage_cash", data), _p(), cash)
        how = ""
    else:  # by card or the patron's cheque: to be cleared by the bank, no cash at the window
        _same(amount(data["amount"]), chips, f"chips sold by {payment}: the amount and the chips")
        e = _Entry().move(account("card_and_cheque_receipts"), _p(), chips)
        how = _by(payment)
    _chips_to_players(e, _window("cage_chips", data), chips)
    return Posting(Words("Chips sold at {window} ({transaction}{how})", window=data["window"],
                         transaction=data.get("transaction_id", ""), how=how), e.lines())


@posts("ChipsRedeemed")
def chips_redeemed(data: Data, ctx: Context) -> Posting:
    chips = counts_value(data.get("chips"))
    if _payment(data) == "casino_cheque":  # owed until the bank pays it, not out of the drawer
        _same(amount(data["amount"]), chips, "chips redeemed by cheque: the cheque and the chips")
        e = _Entry().move(_p(), account("casino_cheques_issued"), chips)
        how: Words | str = _cheque(data)
    else:
        cash = counts_value(data.get("cash"))
        _same(cash, chips, "chips redeemed: the cash paid and the chips")
        e = _Entry().move(_p(), _window("cage_cash", data), cash)
        how = ""
    _chips_to_players(e, _window("cage_chips", data), -chips)
    return Posting(Words("Chips redeemed at {window} ({transaction}{how})",
                         window=data["window"], transaction=data.get("transaction_id", ""),
                         how=how), e.lines())


def _late_day(data: Data) -> dt.date | None:
    """The day a late slip is posted in: its closed session's, or, that day being sealed, the
    open day the pit books it in (``booked_day``, with the sealed day it corrects)."""
    day = data.get("booked_day") or data.get("gaming_day")
    return None if not day else dt.date.fromisoformat(str(day))


def _corrects(data: Data) -> Words | str:
    booked = data.get("booked_day")
    if not booked or booked == data.get("gaming_day"):
        return ""
    return Words(" [a correction of sealed gaming day {day}, session {session}]",
                 day=data.get("gaming_day"), session=data.get("session_id", ""))


def _after_close(e: _Entry, table: str, value: Decimal) -> None:
    """A slip of a session that had closed moves the session's table win by ``value`` (the pit
    works the closed session's win out again): the close trued the table's float up to the
    closing count and put the difference in the table variance, so the variance moves by the
    same ``value`` and the float is trued up again (negative: the chips were players', not the
    house's)."""
    e.move(_table("table_float", table), _held(), value)
    e.move(_p(), _table("table_variance", table), value)


@posts("FillIssued")
def fill_issued(data: Data, ctx: Context) -> Posting:
    table = str(data["table"])
    value = amount(data["amount"])
    e = _Entry().move(_table("table_float", table), _window("cage_chips", data), value)
    if not data.get("after_close"):
        return Posting(Words("Fill {slip}: {window} to table {table}", slip=data["slip"],
                             window=data["window"], table=table), e.lines())
    _after_close(e, table, -value)  # the session's win is less by the fill
    return Posting(Words("Fill {slip}: {window} to table {table}, issued after its session "
                         "closed (approval {approval}): the session's variance moves by "
                         "{value}{corrects}", slip=data["slip"], window=data["window"],
                         table=table, approval=data.get("approval_id", ""), value=-value,
                         corrects=_corrects(data)), e.lines(), gaming_day=_late_day(data))


@posts("CreditReceived")
def credit_received(data: Data, ctx: Context) -> Posting:
    e = _Entry().move(_window("cage_chips", data), account("chips_in_transit"),
                      amount(data["amount"]))
    return Posting(Words("Credit {slip}: table {table} chips received at {window}",
                         slip=data["slip"], table=data["table"], window=data["window"]),
                   e.lines())


@posts("TransferSent")
def transfer_sent(data: Data, ctx: Context) -> Posting:
    e = _Entry()
    e.move(account("cash_in_transit"), _window("cage_cash", data), counts_value(data.get("cash")))
    e.move(account("chips_in_transit"), _window("cage_chips", data),
           chip_sets_value(data.get("chips")))
    return Posting(Words("Transfer {transfer} sent: {window} to {to}",
                         transfer=data.get("transfer_id", ""), window=data["window"],
                         to=data["to_window"]), e.lines())


@posts("TransferReceived")
def transfer_received(data: Data, ctx: Context) -> Posting:
    e = _Entry()
    e.move(_window("cage_cash", data), account("cash_in_transit"), counts_value(data.get("cash")))
    e.move(_window("cage_chips", data), account("chips_in_transit"),
           chip_sets_value(data.get("chips")))
    return Posting(Words("Transfer {transfer} received: {source} to {window}",
                         transfer=data.get("transfer_id", ""), source=data["from_window"],
                         window=data["window"]), e.lines())


@posts("JackpotPaid")
def jackpot_paid(data: Data, ctx: Context) -> Posting:
    payable = account("jackpot_payable", str(data["pool_id"]))
    if _payment(data) == "casino_cheque":
        e = _Entry().move(payable, account("casino_cheques_issued"), amount(data["amount"]))
        return Posting(Words("Jackpot prize paid at {window} to {winner} (pool {pool}, round "
                             "{round}{cheque})", window=data["window"],
                             winner=data.get("winner", ""), pool=data["pool_id"],
                             round=data.get("round_id", ""), cheque=_cheque(data)), e.lines())
    cash = counts_value(data.get("cash"))
    chips = counts_value(data.get("chips"))
    _same(cash + chips, amount(data["amount"]), "jackpot paid: cash and chips, and the prize")
    e = _Entry().move(payable, _window("cage_cash", data), cash)
    e.move(payable, _p(), chips)
    _chips_to_players(e, _window("cage_chips", data), chips)
    return Posting(Words("Jackpot prize paid at {window} to {winner} (pool {pool}, round "
                         "{round})", window=data["window"], winner=data.get("winner", ""),
                         pool=data["pool_id"], round=data.get("round_id", "")), e.lines())


@posts("DropBoxReceived")
def drop_box_received(data: Data, ctx: Context) -> Posting:
    """The cash received goes to the cage; the box leaves the table's drop account at its count;
    what differs (received less counted) is a drop count difference of the table (7883), under
    either drop definition: the table's win, hold and tax were worked out on the count, so cash
    missing (or found) after it is no part of the win (``docs/ledger.md``)."""
    table = str(data["table"])
    received = counts_value(data.get("cash"))
    counted = (amount(data["counted_amount"]) if data.get("counted_amount") is not None
               else received)
    _same(received - counted, amount(data.get("variance_value", "0")),
          "drop box received: received less counted, and the variance")
    e = _Entry().move(_window("cage_cash", data), _table("drop", table), received)
    e.move(_table("drop_difference", table), _table("drop", table), counted - received)
    what = Words("Drop box {box} of table {table} received at {window}",
                 box=data.get("drop_box", ""), table=table, window=data["window"])
    if received != counted:
        what = Words("{what}: counted {counted}, received {received}, variance {variance}",
                     what=what, counted=counted, received=received,
                     variance=received - counted)
    return Posting(what, e.lines())


@posts("AdjustmentApproved")
def adjustment_approved(data: Data, ctx: Context) -> Posting:
    sign = {"in": 1, "out": -1}.get(str(data["direction"]))
    if sign is None:
        raise PostingError(f"an adjustment goes in or out, not {data['direction']!r}")
    e = _Entry()
    _differences(e, cash=_window("cage_cash", data), cash_diff=sign * counts_value(data.get("cash")),
                 chips=_window("cage_chips", data),
                 chips_diff=sign * chip_sets_value(data.get("chips")),
                 result=_window("cage_over_short", data))
    note = f"{data.get('note', '')}".rstrip(": ")
    if data["direction"] == "in":
        what = (Words("Adjustment in at {window} approved: {note}", window=data["window"],
                      note=note) if note else
                Words("Adjustment in at {window} approved", window=data["window"]))
    else:
        what = (Words("Adjustment out at {window} approved: {note}", window=data["window"],
                      note=note) if note else
                Words("Adjustment out at {window} approved", window=data["window"]))
    return Posting(what, e.lines())


@posts("ChipsPutIntoService")
def chips_put_into_service(data: Data, ctx: Context) -> Posting:
    e = _Entry().move(_window("cage_chips", data), _held(), counts_value(data.get("chips")))
    return Posting(Words("Chips put into service at {window} ({reference})",
                         window=data["window"], reference=data.get("reference", "")), e.lines())


@posts("ChipsTakenOutOfService")
def chips_taken_out_of_service(data: Data, ctx: Context) -> Posting:
    e = _Entry().move(_held(), _window("cage_chips", data), counts_value(data.get("chips")))
    return Posting(Words("Chips taken out of service at {window} ({reason})",
                         window=data["window"], reason=data.get("reason", "")), e.lines())


# tables ----------------------------------------------------------------------------------------


def _session(data: Data, ctx: Context) -> SessionFacts:
    facts = ctx.session(str(data["session_id"]))
    if facts is None:
        raise PostingError(f"table session {data['session_id']} is unknown to the ledger "
                           "(its TableSessionOpened was not posted)")
    return facts


@posts("TableSessionOpened")
def table_session_opened(data: Data, ctx: Context) -> Posting | None:
    table = str(data["table"])
    float_account = _table("table_float", table)
    opening = amount(data["opening_amount"])
    difference = opening - ctx.balance(float_account)
    e = _Entry()
    if data.get("previous_session_id") is None:
        e.move(float_account, _held(), difference)  # the first float: chips the casino held
        what = Words("Table {table} opened with its first float", table=table)
    else:
        e.move(float_account, _held(), difference)
        e.move(_p(), _table("float_difference", table), difference)
        what = Words("Table {table} opened: float differs from the last closing count",
                     table=table)
    lines = e.lines()
    return Posting(what, lines) if lines else None


@posts("CreditRequested")
def credit_requested(data: Data, ctx: Context) -> Posting:
    table = str(data["table"])
    value = amount(data["amount"])
    e = _Entry().move(account("chips_in_transit"), _table("table_float", table), value)
    if not data.get("after_close"):
        return Posting(Words("Credit {slip}: chips leave table {table} for the cage",
                             slip=data["slip"], table=table), e.lines())
    _after_close(e, table, value)  # the session's win is more by the credit
    return Posting(Words("Credit {slip}: chips that left table {table} for the cage, recorded "
                         "after its session closed (approval {approval}): the session's "
                         "variance moves by {value}{corrects}", slip=data["slip"], table=table,
                         approval=data.get("approval_id", ""), value=value,
                         corrects=_corrects(data)), e.lines(), gaming_day=_late_day(data))


@posts("SlipVoided")
def slip_voided(data: Data, ctx: Context) -> Posting | None:
    if data.get("kind") != "credit":
        return None  # a fill moves chips only when the cage issues it; a voided one never was
    table = str(data["table"])
    value = amount(data.get("amount", "0"))
    e = _Entry().move(_table("table_float", table), account("chips_in_transit"), value)
    what = Words("Credit {slip} voided: the chips stay at table {table}", slip=data["slip"],
                 table=table)
    day = None
    if data.get("after_close"):
        _after_close(e, table, -value)  # the session's win is less by the credit
        what = Words("Credit {slip} voided after its session closed (approval {approval}): "
                     "the session's variance moves by {value}{corrects}", slip=data["slip"],
                     approval=data.get("approval_id", ""), value=-value,
                     corrects=_corrects(data))
        day = _late_day(data)
    lines = e.lines()
    return Posting(what, lines, gaming_day=day) if lines else None


@posts("DropRecorded")
def drop_recorded(data: Data, ctx: Context) -> Posting:
    table = str(data["table"])
    value = amount(data["amount"])
    e = _Entry().move(_table("drop", table), _p(), value)
    _chips_to_players(e, _table("table_float", table), value)
    return Posting(Words("Cash for chips at table {table}, into the drop box", table=table),
                   e.lines())


@posts("RoundSettled")
def round_settled(data: Data, ctx: Context) -> Posting:
    facts = _session(data, ctx)
    correction = bool(data.get("correction"))
    result = amount(data["result_delta"] if correction else data["result"])
    e = _Entry().move(_p(), account("gaming_revenue", facts.table, facts.game), result)
    _chips_to_players(e, _table("table_float", facts.table), -result)
    what = (gettext_noop("Round corrected at table {table}: result {result} (round {round})")
            if correction else
            gettext_noop("Round settled at table {table}: result {result} (round {round})"))
    stats = TableStats(facts.table, facts.game,
                       handle=ZERO if correction else amount(data.get("handle", "0")),
                       rounds=0 if correction else 1)
    return Posting(Words(what, table=facts.table, result=result, round=data["round_id"]),
                   e.lines(), corrects_previous=correction, stats=stats)


@posts("TableSessionClosed")
def table_session_closed(data: Data, ctx: Context) -> Posting:
    facts = _session(data, ctx)
    table = facts.table
    if data.get("drop_count_room"):
        return _closed_before_the_count(data, ctx, facts)
    # Version 1: the pit boss typed the drop count at the close (DropCounted, just before).
    counted = facts.drop_counted if facts.drop_counted is not None else facts.drop_recorded
    drop_diff = counted - facts.drop_recorded
    float_account = _table("table_float", table)
    float_diff = amount(data["closing_amount"]) - ctx.balance(float_account)
    variance = _table("table_variance", table)
    e = _Entry()
    if data.get("drop_basis") == "recorded":
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
                         session=data["session_id"]), e.lines(),
                   stats=TableStats(table, facts.game, drop=drop, sessions=1))


def _closed_before_the_count(data: Data, ctx: Context, facts: SessionFacts) -> Posting:
    """A session closed with its drop box on the way to the count room: the float difference
    now; the drop's difference when two counters have counted it (DropBoxCountConfirmed)."""
    table = facts.table
    float_account = _table("table_float", table)
    float_diff = amount(data["closing_amount"]) - ctx.balance(float_account)
    variance = _table("table_variance", table)
    e = _Entry()
    e.move(float_account, _held(), float_diff)
    e.move(_p(), variance, float_diff)
    recorded_basis = data.get("drop_basis") == "recorded"
    drop = facts.drop_recorded if recorded_basis else ZERO
    what = (Words("Table {table} session closed: float variance {variance} (drop {drop}, "
                  "session {session})", table=table, variance=float_diff, drop=drop,
                  session=data["session_id"]) if recorded_basis else
            Words("Table {table} session closed: float variance {variance} (drop to be "
                  "counted, session {session})", table=table, variance=float_diff,
                  session=data["session_id"]))
    return Posting(what, e.lines(), stats=TableStats(table, facts.game, drop=drop, sessions=1))


@posts("DropBoxCountConfirmed")
def drop_box_count_confirmed(data: Data, ctx: Context) -> Posting:
    """The count room's count of the box: counted less recorded moves the drop account, into
    the table's win (drop definition ``counted``: 7212, and the counted drop is the day's drop)
    or into the drop count differences (``recorded``: 7883)."""
    facts = _session(data, ctx)
    table = facts.table
    counted = amount(data["amount"])
    difference = counted - facts.drop_recorded
    e = _Entry()
    if data.get("drop_basis") == "recorded":
        e.move(_table("drop", table), _table("drop_difference", table), difference)
        drop = ZERO
    else:
        e.move(_table("drop", table), _table("table_variance", table), difference)
        drop = counted
    return Posting(Words("Drop box of table {table} counted: {counted} against {recorded} "
                         "recorded (session {session})", table=table, counted=counted,
                         recorded=facts.drop_recorded, session=data["session_id"]), e.lines(),
                   stats=TableStats(table, facts.game, drop=drop))


# jackpots --------------------------------------------------------------------------------------


def _pool(key: str, data: Data) -> AccountRef:
    return account(key, str(data["pool_id"]))


def _funding(e: _Entry, data: Data, *, from_casino: Decimal, from_reserve: Decimal) -> None:
    e.move(_pool("jackpot_funding", data), _pool("jackpot_liability", data), from_casino)
    e.move(_pool("jackpot_reserve", data), _pool("jackpot_liability", data), from_reserve)


@posts("JackpotSeeded")
def jackpot_seeded(data: Data, ctx: Context) -> Posting:
    from_casino, from_reserve = amount(data["from_casino"]), amount(data["from_reserve"])
    _same(from_casino + from_reserve, amount(data["amount"]), "jackpot seed: its two sources")
    e = _Entry()
    _funding(e, data, from_casino=from_casino, from_reserve=from_reserve)
    return Posting(Words("Jackpot pool {pool} seeded with its start value",
                         pool=data["pool_id"]), e.lines())


@posts("JackpotContributed")
def jackpot_contributed(data: Data, ctx: Context) -> Posting:
    staked = amount(data["amount"])
    to_pool, to_reserve = amount(data["to_pool"]), amount(data["to_reserve"])
    retained = amount(data["retained"])
    _same(to_pool + to_reserve + retained, staked, "jackpot bets: pool, reserve and retained")
    table = str(data["table"])
    e = _Entry()
    e.move(_p(), _pool("jackpot_liability", data), to_pool)
    e.move(_p(), _pool("jackpot_reserve", data), to_reserve)
    e.move(_p(), _pool("jackpot_retained", data), retained)
    _chips_to_players(e, _table("jackpot_chips", table), -staked)
    return Posting(Words("Jackpot bets at table {table} (pool {pool}, round {round})",
                         table=table, pool=data["pool_id"], round=data.get("round_id", "")),
                   e.lines())


@posts("JackpotHit")
def jackpot_hit(data: Data, ctx: Context) -> Posting:
    e = _Entry().move(_pool("jackpot_liability", data), _pool("jackpot_payable", data),
                      amount(data["amount"]))
    return Posting(Words("Jackpot prize {combination} won by {player} at table {table} (pool "
                         "{pool})", combination=data.get("combination", ""),
                         player=data.get("player", ""), table=data.get("table", ""),
                         pool=data["pool_id"]), e.lines())


@posts("JackpotReset")
def jackpot_reset(data: Data, ctx: Context) -> Posting | None:
    e = _Entry()
    _funding(e, data, from_casino=amount(data["from_casino"]),
             from_reserve=amount(data["from_reserve"]))
    lines = e.lines()
    return Posting(Words("Jackpot pool {pool} restarts at its start value",
                         pool=data["pool_id"]), lines) if lines else None


@posts("JackpotMeterCorrected")
def jackpot_meter_corrected(data: Data, ctx: Context) -> Posting:
    meter = {"pool": "jackpot_liability", "reserve": "jackpot_reserve"}.get(str(data["meter"]))
    sign = {"up": 1, "down": -1}.get(str(data["direction"]))
    if meter is None or sign is None:
        raise PostingError(f"unknown jackpot meter correction {data['meter']}/{data['direction']}")
    e = _Entry().move(_pool("jackpot_corrections", data), _pool(meter, data),
                      sign * amount(data["amount"]))
    return Posting(Words("Jackpot {meter} of pool {pool} corrected {direction}: {reason}",
                         meter=data["meter"], pool=data["pool_id"], direction=data["direction"],
                         reason=data.get("reason", "")), e.lines())


# gaming tax ------------------------------------------------------------------------------------


@posts("GamingTaxAccrued")
def gaming_tax_accrued(data: Data, ctx: Context) -> Posting | None:
    e = _Entry()
    for line in data["lines"]:
        code = str(line["code"])
        e.move(account("gaming_tax_expense", code), account("gaming_tax_payable", code),
               amount(line["amount"]))
    lines = e.lines()
    return Posting(Words("Gaming tax of {month} accrued from its return",
                         month=data["month"]), lines) if lines else None


@posts("GamingTaxPaid")
def gaming_tax_paid(data: Data, ctx: Context) -> Posting:
    code = str(data["code"])
    e = _Entry().move(account("gaming_tax_payable", code), account("bank"),
                      amount(data["amount"]))
    return Posting(Words("Gaming tax {code} of {month} paid ({reference})", code=code,
                         month=data["month"], reference=data["reference"]), e.lines())


# clearing against the bank ---------------------------------------------------------------------


@posts("CasinoChequePresented")
def casino_cheque_presented(data: Data, ctx: Context) -> Posting:
    e = _Entry().move(account("casino_cheques_issued"), account("bank"), amount(data["amount"]))
    return Posting(Words("Casino cheque {number} paid by the bank ({reference})",
                         number=data["number"], reference=data["bank_reference"]), e.lines())


@posts("CardChequeBatchSettled")
def card_cheque_batch_settled(data: Data, ctx: Context) -> Posting:
    e = _Entry().move(account("bank"), account("card_and_cheque_receipts"),
                      amount(data["amount"]))
    return Posting(Words("Card and cheque receipts credited by the bank ({reference})",
                         reference=data["bank_reference"]), e.lines())


# --- event types that post nothing, and why -----------------------------------------------------

NOT_POSTED: dict[str, str] = {
    # configuration
    "CasinoRegistered": "configuration", "CasinoSettingsChanged": "configuration",
    "ChipSetRegistered": "configuration", "ChipSetDenominationsChanged": "configuration",
    "CageConfigured": "configuration", "CageMinimumCashChanged": "configuration",
    "TableConfigured": "configuration", "TableLimitsChanged": "configuration",
    "TableOptionsChanged": "configuration", "DropDefinitionSet": "configuration",
    "TableTaxClassChanged": "configuration", "TaxParameterSet": "configuration",
    "JackpotPoolCreated": "configuration", "JackpotParametersChanged": "configuration",
    "JackpotTablesChanged": "configuration",
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
    "SuspiciousReportDrafted": "a report: no money moves",
    "SuspiciousReportReviewed": "a report: no money moves",
    "SuspiciousReportSent": "a report: no money moves",
}

SESSION_EVENTS = frozenset({"TableSessionOpened", "DropRecorded", "DropCounted",
                            "DropBoxCountConfirmed"})
EVENT_TYPES = frozenset(POSTERS) | SESSION_EVENTS


def post(event_type: str, data: Data, context: Context) -> Posting | None:
    """The entry ``event_type`` with ``data`` posts, or None. Raises PostingError if it would
    not balance."""
    poster = POSTERS.get(event_type)
    if poster is None:
        return None
    posting = poster(data, context)
    if posting is not None:
        check_balanced(posting.lines)
    return posting


def session_after(event_type: str, data: Data, facts: SessionFacts | None
                  ) -> SessionFacts | None:
    """What the ledger remembers of a table session after ``event_type`` (None: unchanged)."""
    if event_type == "TableSessionOpened":
        day = data.get("gaming_day")
        return SessionFacts(str(data["session_id"]), str(data["table"]), str(data["game"]),
                            gaming_day=dt.date.fromisoformat(str(day)) if day else None)
    if facts is None:
        return None
    if event_type == "DropRecorded":
        return replace(facts, drop_recorded=facts.drop_recorded + amount(data["amount"]))
    if event_type in ("DropCounted", "DropBoxCountConfirmed"):
        return replace(facts, drop_counted=amount(data["amount"]))
    return None


# --- closed days --------------------------------------------------------------------------------


def open_day(day: dt.date, closed: Collection[dt.date]) -> dt.date:
    """The day an entry of ``day`` is posted in: ``day`` itself, or the first later day that is
    not closed (a closed day takes no new postings)."""
    while day in closed:
        day += dt.timedelta(days=1)
    return day

