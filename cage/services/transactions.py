"""Movements of an open shift: chips sold and redeemed, transfers, jackpot payouts (against a
recorded hit, through ``jackpots.services.jackpot_prize_pay``), drop boxes,
adjustments, and chips put into (or taken out of) service at the vault.

Every movement is one event on the shift's stream, recorded with its actor (the metadata), after
checking that the amounts add up and that the window holds what it hands out. A refused
movement records nothing.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from decimal import Decimal

from cage.roles import CAGE_ROLES, SUPERVISOR_ROLES
from casino.context import require_role
from casino.errors import (
    Conflict,
    InvalidCommand,
    NotAllowed,
    NotFound,
    gettext_noop,
    kind_words,
    status_words,
)
from casino.models import Casino
from casino.money import CASH_DENOMINATIONS, Money, fmt, parse_counts
from compliance.services.screening import (
    Checked,
    alerts_raise,
    cheque_check,
    movement_check,
)
from compliance.thresholds import PAYOUT, PURCHASE, REDEMPTION
from eventstore.commands import command, in_command
from eventstore.records import Metadata
from games.selectors import drop_box_session

from .. import inventory as inv
from ..answers import (
    AdjustmentDecisionAnswer,
    AdjustmentRequestAnswer,
    ChipsRedeemAnswer,
    ChipsSellAnswer,
    ChipsServiceAnswer,
    DropBoxReceiveAnswer,
    JackpotPayoutAnswer,
    TransferSendAnswer,
)
from ..events import (
    AdjustmentApproved,
    AdjustmentRejected,
    AdjustmentRequested,
    ChipsPutIntoService,
    ChipsRedeemed,
    ChipsSold,
    ChipsTakenOutOfService,
    DropBoxReceived,
    JackpotPaid,
    TransferReceived,
    TransferSent,
)
from ..models import Adjustment, AdjustmentStatus, CageKind, CasinoCheque, Shift, ShiftStatus
from ._common import (
    append,
    cage_get,
    cash_counts,
    cash_data,
    casino_get,
    check_holds,
    chip_counts,
    chip_set_code,
    chips_data,
    holdings,
    must_equal,
    new_id,
    require_open,
    shift_get,
    text,
)

# Which kind of cage may send to which (a cashier window deals with the main cage and the vault,
# never directly with another window).
ALLOWED_TRANSFERS = frozenset({
    (CageKind.WINDOW, CageKind.MAIN), (CageKind.MAIN, CageKind.WINDOW),
    (CageKind.WINDOW, CageKind.VAULT), (CageKind.VAULT, CageKind.WINDOW),
    (CageKind.MAIN, CageKind.VAULT), (CageKind.VAULT, CageKind.MAIN),
})
COUNTER_KINDS = (CageKind.MAIN, CageKind.WINDOW)  # where players and tables are served

# Messages tests and screens rely on.
TARGET_NOT_OPEN = gettext_noop("{target} has no open shift: a transfer goes only to an open cage")
PAIR_NOT_ALLOWED = gettext_noop("a {source} may not send to a {target} (allowed: window ↔ main cage ↔ vault)")
OWN_ADJUSTMENT = gettext_noop("you asked for this adjustment: a second person must approve it")
BOX_NOT_COUNTED = gettext_noop("the drop box of table {table} has not been counted by two counters in the "
                               "count room: the cage receives a box against its count")
BOX_RECEIVED = gettext_noop("the drop box of table {table} was received already at {window} (receipt {receipt})")
PAYMENT_UNKNOWN = gettext_noop("payment must be one of {allowed}, not {given!r}")
NOTHING_IN_CASH = gettext_noop("paid by {payment}, no {what} changes hands at the window: "
                               "leave {what} empty")
CHEQUE_NUMBER_BAD = gettext_noop("{number!r} is not a casino cheque number: type the number "
                                 "printed on the cheque (letters, digits and hyphens, 3 to 32)")
PSEUDONYM = re.compile(r"P-[0-9a-fA-F]{4,16}")  # as the pit labels a player (casino.players)
MARK_NOT_A_LABEL = gettext_noop("the player's mark is the pseudonym the pit gives an unidentified "
                                "player, P- and 4 to 16 hexadecimal digits (P-7f3a): never a name")
MARK_WITH_PATRON = gettext_noop("a mark is for a player not identified: with a patron, leave it out")
CHEQUE_NUMBER_ALONE = gettext_noop("a cheque number goes only with a payment by casino cheque")
CHEQUE_USED = gettext_noop("casino cheque {number} was issued already ({kind} {reference} at "
                           "{window}): each pre-numbered cheque is used once")

# How a movement is paid (``docs/cage.md``). A player buys chips with cash, a card or their own
# cheque; the cage pays a redemption or a jackpot in cash (and chips) or by casino cheque.
CASH, CARD, CHEQUE, CASINO_CHEQUE = "cash", "card", "cheque", "casino_cheque"
SALE_PAYMENTS = (CASH, CARD, CHEQUE)
PAYOUT_PAYMENTS = (CASH, CASINO_CHEQUE)
_CHEQUE_NUMBER = re.compile(r"[A-Z0-9][A-Z0-9-]{2,31}")


def _counter_shift(metadata: Metadata, shift_id: str, action: str) -> Shift:
    require_role(metadata, CAGE_ROLES, action)
    shift = shift_get(metadata, shift_id)
    require_open(shift)
    if shift.cage_kind not in COUNTER_KINDS:
        raise InvalidCommand("{action} is done at the main cage or a cashier window, "
                             "not at the {shift}",
                             params={"action": action, "shift": shift.get_cage_kind_display().lower()},
                             field="shift")
    return shift


def _not_empty(inventory: inv.Inventory, field: str) -> None:
    if not inventory:
        raise InvalidCommand("{field}: nothing to move", params={"field": field}, field=field)


def _mark(value: object, patron: object) -> str:
    """The cashier's mark for one unidentified player: a short description, never with a
    patron (an identified patron is linked by their id)."""
    mark = "" if value is None else str(value).strip()
    if mark and not PSEUDONYM.fullmatch(mark):  # no personal data in events (issue 35)
        raise InvalidCommand(MARK_NOT_A_LABEL, field="mark")
    if mark and patron not in (None, ""):
        raise InvalidCommand(MARK_WITH_PATRON, field="mark")
    return mark


def _screen(casino: Casino, shift: Shift, patron: object, kind: str, amount: Decimal,
            cash: Decimal, mark: str = "") -> Checked:
    """Anti-money-laundering law's word on the movement, last, once everything else is
    checked: refused until the patron is identified and verified (``docs/patrons.md``)."""
    return movement_check(casino=casino, patron=patron, gaming_day=shift.gaming_day, kind=kind,
                          amount=amount, cash=cash, where=shift.cage, mark=mark)


def _payment(value: object, allowed: tuple[str, ...]) -> str:
    payment = CASH if value in (None, "") else str(value)
    if payment not in allowed:
        raise InvalidCommand(PAYMENT_UNKNOWN, params={"allowed": ", ".join(allowed),
                                                     "given": payment}, field="payment")
    return payment


def _nothing(inventory: inv.Inventory, *, payment: str, what: str, field: str) -> None:
    if inventory:
        raise InvalidCommand(NOTHING_IN_CASH, params={"payment": payment.replace("_", " "),
                                                     "what": what}, field=field)


def _cheque_number(casino: Casino, payment: str, value: object) -> str:
    """The pre-printed number of the casino cheque paid, never used before in the casino (the
    command's append lock serialises two windows issuing one number; a unique index holds it)."""
    given = "" if value is None else str(value).strip().upper()
    if payment != CASINO_CHEQUE:
        if given:
            raise InvalidCommand(CHEQUE_NUMBER_ALONE, field="cheque_number")
        return ""
    if not _CHEQUE_NUMBER.fullmatch(given):
        raise InvalidCommand(CHEQUE_NUMBER_BAD, params={"number": given}, field="cheque_number")
    used = CasinoCheque.objects.filter(casino=casino, number=given).first()
    if used is not None:
        raise Conflict(CHEQUE_USED, params={"number": given, "kind": kind_words(used.kind, "cheque kind"),
                                            "reference": used.reference, "window": used.window},
                       code="cheque_number_used", field="cheque_number")
    return given


@command("chips_sell")
def chips_sell(
    *, shift_id: str, amount: Money, chips: object, cash: object = None,
    change: object = None, chip_set: str | None = None, patron: object = None,
    payment: object = None, mark: object = None, metadata: Metadata,
) -> ChipsSellAnswer:
    """A player buys chips for cash: cash in by denomination, chips (and any change) out.
    ``patron``: the identified patron's id, required at the anti-money-laundering threshold
    (alone or with their other movements of the day); none for an anonymous player below it.
    ``payment``: ``cash`` (the default), ``card`` or ``cheque`` (the player's own): paid by card
    or cheque, no cash comes in and none goes back; what an identified patron so bought is what
    a casino cheque may pay them back (``docs/patrons.md``). ``mark``: the cashier's mark for
    one unidentified player (a description, never a name): the movements so marked, at the cage
    or the tables, are linked as one patron's (``docs/patrons.md``)."""
    shift = _counter_shift(metadata, shift_id, "selling chips")
    casino = casino_get(metadata)
    how = _payment(payment, SALE_PAYMENTS)
    total = amount  # parsed at the edge
    chip_set_ = chip_set_code(casino, chip_set)
    chips_out = inv.of(chips={chip_set_: chip_counts(casino, chip_set_, chips)})
    cash_in = inv.of(cash_counts(casino, cash, required=how == CASH))
    change_out = inv.of(cash_counts(casino, change, field="change"))
    _not_empty(chips_out, "chips")
    must_equal(total, inv.value(chips_out), what="the chips", field="chips")
    if how == CASH:
        must_equal(total, inv.value(cash_in) - inv.value(change_out),
                   what="the cash received less the change", field="cash")
    else:
        _nothing(cash_in, payment=how, what="cash", field="cash")
        _nothing(change_out, payment=how, what="change", field="change")
    out = inv.add(chips_out, change_out)
    check_holds(shift, out, field="chips", incoming=cash_in)
    mark_ = _mark(mark, patron)
    checked = _screen(casino, shift, patron, PURCHASE, total, total if how == CASH else inv.ZERO,
                      mark_)

    transaction_id = new_id()
    append(shift, [ChipsSold(
        transaction_id=transaction_id, shift_id=str(shift.id), window=shift.cage,
        chip_set=chip_set_, chips=chips_data(inv.chips_part(chips_out))[chip_set_],
        cash=cash_data(inv.cash_part(cash_in)), change=cash_data(inv.cash_part(change_out)),
        amount=total, patron_id=checked.patron_id, payment=how, mark=mark_)], metadata)
    alerts_raise(checked, event_type="ChipsSold", reference=transaction_id, where=shift.cage,
                 metadata=metadata)
    return ChipsSellAnswer(transaction_id=transaction_id, shift_id=str(shift.id),
                           amount=fmt(total), patron_id=checked.patron_id or None, payment=how,
                           version=shift.version)


@command("chips_redeem")
def chips_redeem(
    *, shift_id: str, amount: Money, chips: object, cash: object = None,
    chip_set: str | None = None, patron: object = None, payment: object = None,
    cheque_number: object = None, mark: object = None, metadata: Metadata,
) -> ChipsRedeemAnswer:
    """A player cashes chips in: chips in, cash out (which the window must hold). ``patron`` as
    in ``chips_sell``. ``payment`` ``casino_cheque``: the whole amount by the pre-numbered
    casino cheque ``cheque_number``, nominative to the identified patron and crossed, never
    more than they bought by card or cheque that day (Lei n.º 83/2017, art. 76.º, n.º 3, a));
    no cash leaves the drawer."""
    shift = _counter_shift(metadata, shift_id, "redeeming chips")
    casino = casino_get(metadata)
    how = _payment(payment, PAYOUT_PAYMENTS)
    total = amount  # parsed at the edge
    chip_set_ = chip_set_code(casino, chip_set)
    chips_in = inv.of(chips={chip_set_: chip_counts(casino, chip_set_, chips)})
    cash_out = inv.of(cash_counts(casino, cash, required=how == CASH))
    _not_empty(chips_in, "chips")
    must_equal(total, inv.value(chips_in), what="the chips", field="chips")
    if how == CASH:
        must_equal(total, inv.value(cash_out), what="the cash paid", field="cash")
        check_holds(shift, cash_out, field="cash")
    else:
        _nothing(cash_out, payment=how, what="cash", field="cash")
    number = _cheque_number(casino, how, cheque_number)
    mark_ = _mark(mark, patron)
    checked = _screen(casino, shift, patron, REDEMPTION, total, inv.value(cash_out), mark_)
    if number:
        cheque_check(checked, prize=False)

    transaction_id = new_id()
    append(shift, [ChipsRedeemed(
        transaction_id=transaction_id, shift_id=str(shift.id), window=shift.cage,
        chip_set=chip_set_, chips=chips_data(inv.chips_part(chips_in))[chip_set_],
        cash=cash_data(inv.cash_part(cash_out)), amount=total,
        patron_id=checked.patron_id, payment=how, cheque_number=number,
        mark=mark_)], metadata)
    alerts_raise(checked, event_type="ChipsRedeemed", reference=transaction_id,
                 where=shift.cage, metadata=metadata)
    return ChipsRedeemAnswer(transaction_id=transaction_id, shift_id=str(shift.id),
                             amount=fmt(total), patron_id=checked.patron_id or None, payment=how,
                             cheque_number=number or None, version=shift.version)


@command("transfer_send")
def transfer_send(
    *, shift_id: str, to_cage: str, metadata: Metadata, cash: object = None,
    chips: object = None,
) -> TransferSendAnswer:
    """Send cash and chips to another cage's open shift: both shifts record it, atomically."""
    require_role(metadata, CAGE_ROLES, "sending a transfer")
    casino = casino_get(metadata)
    source = shift_get(metadata, shift_id)
    require_open(source)
    target_cage = cage_get(casino.code, to_cage)
    if target_cage.code == source.cage:
        raise InvalidCommand("a cage cannot send to itself", field="to_cage")
    if (source.cage_kind, target_cage.kind) not in ALLOWED_TRANSFERS:
        raise NotAllowed(PAIR_NOT_ALLOWED, params=dict(
            source=CageKind(source.cage_kind).label.lower(),
            target=target_cage.get_kind_display().lower()), code="transfer_not_allowed")
    target = Shift.objects.filter(casino=casino, cage=target_cage.code,
                                  status=ShiftStatus.OPEN).first()
    if target is None:
        raise Conflict(TARGET_NOT_OPEN, params=dict(
            target=f"{target_cage.get_kind_display().lower()} {target_cage.code}"),
            code="target_not_open", field="to_cage")
    moved = holdings(casino, cash, chips)
    _not_empty(moved, "cash and chips")
    check_holds(source, moved, field="cash")
    total = inv.value(moved)

    transfer_id = new_id()
    cash_ = cash_data(inv.cash_part(moved))
    chips_ = chips_data(inv.chips_part(moved))
    append(source, [TransferSent(
        transfer_id=transfer_id, shift_id=str(source.id), window=source.cage,
        to_window=target.cage, to_shift_id=str(target.id), cash=cash_, chips=chips_,
        amount=total)], metadata)
    append(target, [TransferReceived(
        transfer_id=transfer_id, shift_id=str(target.id), window=target.cage,
        from_window=source.cage, from_shift_id=str(source.id), cash=cash_, chips=chips_,
        amount=total)], metadata)
    return TransferSendAnswer(transfer_id=transfer_id, shift_id=str(source.id),
                              to_shift_id=str(target.id), amount=fmt(total), version=source.version)


@in_command
def jackpot_payout_record(
    *, shift_id: str, prize_id: str, pool_id: str, round_id: str, winner: str, amount: Decimal,
    metadata: Metadata, cash: object = None, chips: object = None, chip_set: str | None = None,
    patron: object = None, payment: object = None, cheque_number: object = None,
) -> JackpotPayoutAnswer:
    """The window's side of a jackpot payment: ``amount`` out of the window in cash, chips or
    both (``JackpotPaid``), checked against what the window holds.

    Not a service of its own: only ``jackpots.services.jackpot_prize_pay`` calls it, inside its
    unit of work, with the pool, round and winner of the hit it pays (``docs/cage.md``): the cage
    pays no jackpot the pool did not award. ``payment`` ``casino_cheque``: all of ``amount`` by
    the casino cheque ``cheque_number``, only to the identified winner, nominative and crossed
    (Lei n.º 83/2017, art. 76.º, n.º 3, b) and n.º 4); no cash or chips leave the window."""
    shift = _counter_shift(metadata, shift_id, "paying a jackpot")
    casino = casino_get(metadata)
    how = _payment(payment, PAYOUT_PAYMENTS)
    chip_set_ = chip_set_code(casino, chip_set) if chips is not None else ""
    chips_out = (inv.of(chips={chip_set_: chip_counts(casino, chip_set_, chips)})
                 if chip_set_ else {})
    paid = inv.add(inv.of(cash_counts(casino, cash)), chips_out)
    if how == CASH:
        _not_empty(paid, "cash and chips")
        must_equal(amount, inv.value(paid), what="the cash and chips paid", field="cash")
        check_holds(shift, paid, field="cash")
    else:
        _nothing(paid, payment=how, what="cash or chips", field="cash")
    number = _cheque_number(casino, how, cheque_number)
    checked = _screen(casino, shift, patron, PAYOUT, amount, inv.value(paid, inv.CASH))
    if number:
        cheque_check(checked, prize=True)

    payout_id = new_id()
    append(shift, [JackpotPaid(
        payout_id=payout_id, shift_id=str(shift.id), window=shift.cage, pool_id=pool_id,
        round_id=round_id, winner=winner, amount=amount, cash=cash_data(inv.cash_part(paid)),
        chip_set=chip_set_, chips=chips_data(inv.chips_part(paid)).get(chip_set_, {}),
        prize_id=prize_id, patron_id=checked.patron_id, payment=how,
        cheque_number=number)], metadata)
    alerts_raise(checked, event_type="JackpotPaid", reference=payout_id, where=shift.cage,
                 metadata=metadata)
    return JackpotPayoutAnswer(payout_id=payout_id, shift_id=str(shift.id), amount=fmt(amount),
                               patron_id=checked.patron_id or None, payment=how,
                               cheque_number=number or None, version=shift.version)


@dataclass(frozen=True)
class CountedBox:
    """What the cage reads of a drop box counted in the count room."""

    session_id: str
    table: str
    count_id: str
    cash: dict[Decimal, int]
    amount: Decimal
    receipt_id: str
    window: str
    # a foreign-currency table's box: its currency and the session's rate ("" / None: the book
    # currency's)
    currency: str = ""
    rate: Decimal | None = None


def counted_box_get(*, casino: str, session_id: object) -> CountedBox:
    """The drop box of ``session_id`` as the count room counted it (``games.selectors``: a
    named coupling of the cage to the pit, pyproject.toml). Refused when the session is unknown
    here, or its box not counted by two counters yet."""
    session, box = drop_box_session(casino=casino, session_id=session_id)
    if box is None or not box.confirmed_by:
        raise Conflict(BOX_NOT_COUNTED, params=dict(table=session.table), code="not_counted",
                       field="session_id")
    return CountedBox(session_id=str(session.session_id), table=session.table,
                      count_id=str(box.count_id),
                      cash={Decimal(d): int(n) for d, n in dict(box.cash).items()},
                      amount=Decimal(box.amount), receipt_id=box.receipt_id, window=box.window,
                      currency=session.currency, rate=session.rate)


def _box_cash(casino: Casino, currency: str, raw: object) -> dict[Decimal, int]:
    """The notes of a box, by denomination of its currency: the book currency's, or a foreign
    table's own (a box of HKD is counted in HKD's notes, never as patacas)."""
    if not currency:
        return cash_counts(casino, raw, required=True)
    if raw is None:
        raise InvalidCommand("{field} is missing", params={"field": "cash"}, field="cash")
    return parse_counts(raw, allowed=CASH_DENOMINATIONS[currency], field="cash")


@command("drop_box_receive")
def drop_box_receive(
    *, shift_id: str, session_id: str, cash: object, metadata: Metadata,
    table: str | None = None, amount: Money | None = None, drop_box: str = "",
) -> DropBoxReceiveAnswer:
    """Take a table's drop box from the count room against its count: its cash, counted by
    denomination. Any difference from the count (received less counted) is a drop variance,
    recorded with the receipt; it needs an explanation and a cage supervisor's approval
    (approval kind ``drop_variance``) before its gaming day closes."""
    shift = _counter_shift(metadata, shift_id, "receiving a drop box")
    casino = casino_get(metadata)
    label = text(drop_box, field="drop_box", required=False, limit=64)
    box = counted_box_get(casino=casino.code, session_id=session_id)
    cash_in = inv.of(_box_cash(casino, box.currency, cash))
    received = inv.value(cash_in)
    if amount is not None:
        must_equal(amount, received,
                   what="the notes and coins", field="cash")
    if box.receipt_id:
        raise Conflict(BOX_RECEIVED, params=dict(table=box.table, window=box.window,
                                           receipt=box.receipt_id),
                       code="received_already", field="session_id")
    if table not in (None, "") and table != box.table:
        raise InvalidCommand("session {session_id} is of table {table}, not {table_2}",
                             params={"session_id": box.session_id, "table": box.table, "table_2": table},
                             field="table")
    if box.amount:
        _not_empty(cash_in, "cash")
    counted = inv.of(box.cash)
    difference = inv.variance(counted, cash_in)

    receipt_id = new_id()
    append(shift, [DropBoxReceived(
        receipt_id=receipt_id, shift_id=str(shift.id), window=shift.cage,
        session_id=box.session_id, table=box.table, drop_box=label,
        cash=cash_data(inv.cash_part(cash_in)), amount=received, count_id=box.count_id,
        counted=cash_data(inv.cash_part(counted)), counted_amount=box.amount,
        variance_cash=cash_data(inv.cash_part(difference)),
        variance_value=received - box.amount, currency=box.currency, rate=box.rate)],
        metadata)
    return DropBoxReceiveAnswer(receipt_id=receipt_id, shift_id=str(shift.id), session_id=box.session_id,
                                table=box.table, amount=fmt(received), counted=fmt(box.amount),
                                variance_value=fmt(received - box.amount),
                                variance_needs_approval=received != box.amount, version=shift.version,
                                currency=box.currency)


@command("adjustment_request")
def adjustment_request(
    *, shift_id: str, direction: str, reason: str, metadata: Metadata, cash: object = None,
    chips: object = None,
) -> AdjustmentRequestAnswer:
    """Ask to correct the window's contents. Nothing moves until a second person approves."""
    require_role(metadata, CAGE_ROLES, "requesting an adjustment")
    casino = casino_get(metadata)
    shift = shift_get(metadata, shift_id)
    require_open(shift)
    if direction not in ("in", "out"):
        raise InvalidCommand("direction must be 'in' or 'out', not {direction!r}",
                             params={"direction": direction},
                             field="direction")
    why = text(reason, field="reason")
    moved = holdings(casino, cash, chips)
    _not_empty(moved, "cash and chips")
    if direction == "out":
        check_holds(shift, moved, field="cash")

    adjustment_id = new_id()
    append(shift, [AdjustmentRequested(
        adjustment_id=adjustment_id, shift_id=str(shift.id), window=shift.cage,
        direction=direction, cash=cash_data(inv.cash_part(moved)),
        chips=chips_data(inv.chips_part(moved)), amount=inv.value(moved), reason=why)],
        metadata)
    return AdjustmentRequestAnswer(adjustment_id=adjustment_id, shift_id=str(shift.id),
                                   status=AdjustmentStatus.REQUESTED.value, amount=fmt(inv.value(moved)),
                                   version=shift.version)


def _pending_adjustment(metadata: Metadata, adjustment_id: str) -> tuple[Adjustment, Shift]:
    try:
        key = uuid.UUID(str(adjustment_id))
    except ValueError:
        raise InvalidCommand("{adjustment_id!r} is not an adjustment id",
                             params={"adjustment_id": adjustment_id},
                             field="adjustment") from None
    adjustment = Adjustment.objects.select_related("shift").filter(
        id=key, shift__casino_id=metadata.casino).first()
    if adjustment is None:
        raise NotFound("there is no adjustment {adjustment_id} in {casino}",
                       params={"adjustment_id": adjustment_id, "casino": metadata.casino})
    if adjustment.status != AdjustmentStatus.REQUESTED:
        raise Conflict("the adjustment was {status} already by "
                       "{decided_by}",
                       params={"status": status_words(adjustment.status, "adjustment status"),
                               "decided_by": adjustment.decided_by}, code="adjustment_decided")
    require_open(adjustment.shift)
    return adjustment, adjustment.shift


@command("adjustment_approve")
def adjustment_approve(*, adjustment_id: str, metadata: Metadata, note: str = "") -> AdjustmentDecisionAnswer:
    """The second person (a cage supervisor, not the requester) approves: it applies now."""
    require_role(metadata, SUPERVISOR_ROLES, "approving an adjustment")
    adjustment, shift = _pending_adjustment(metadata, adjustment_id)
    if metadata.actor == adjustment.requested_by:
        raise NotAllowed(OWN_ADJUSTMENT, code="four_eyes")
    remark = text(note, field="note", required=False)
    moved = inv.of({Decimal(d): n for d, n in adjustment.cash.items()},
                   {s: {Decimal(d): n for d, n in c.items()} for s, c in adjustment.chips.items()})
    if adjustment.direction == "out":
        check_holds(shift, moved, field="cash")

    append(shift, [AdjustmentApproved(
        adjustment_id=str(adjustment.id), shift_id=str(shift.id), window=shift.cage,
        direction=adjustment.direction, cash=adjustment.cash, chips=adjustment.chips,
        amount=adjustment.amount, note=remark)], metadata)
    return AdjustmentDecisionAnswer(adjustment_id=str(adjustment.id), shift_id=str(shift.id),
                                    status=AdjustmentStatus.APPROVED.value, version=shift.version)


@command("adjustment_reject")
def adjustment_reject(*, adjustment_id: str, note: str, metadata: Metadata) -> AdjustmentDecisionAnswer:
    require_role(metadata, SUPERVISOR_ROLES, "rejecting an adjustment")
    adjustment, shift = _pending_adjustment(metadata, adjustment_id)
    remark = text(note, field="note")

    append(shift, [AdjustmentRejected(adjustment_id=str(adjustment.id),
                                      shift_id=str(shift.id), window=shift.cage,
                                      note=remark)], metadata)
    return AdjustmentDecisionAnswer(adjustment_id=str(adjustment.id), shift_id=str(shift.id),
                                    status=AdjustmentStatus.REJECTED.value, version=shift.version)


def _vault_shift(metadata: Metadata, shift_id: str, action: str) -> Shift:
    require_role(metadata, SUPERVISOR_ROLES, action)
    shift = shift_get(metadata, shift_id)
    require_open(shift)
    if shift.cage_kind != CageKind.VAULT:
        raise InvalidCommand("{action} is done at the vault",
                             params={"action": action}, field="shift")
    return shift


@command("chips_put_into_service")
def chips_put_into_service(
    *, shift_id: str, chips: object, reference: str, metadata: Metadata,
    chip_set: str | None = None,
) -> ChipsServiceAnswer:
    """New chips enter the casino's stock, into the vault. Chips in circulation start here."""
    shift = _vault_shift(metadata, shift_id, "putting chips into service")
    casino = casino_get(metadata)
    chip_set_ = chip_set_code(casino, chip_set)
    new = inv.of(chips={chip_set_: chip_counts(casino, chip_set_, chips)})
    _not_empty(new, "chips")
    ref = text(reference, field="reference", limit=200)

    append(shift, [ChipsPutIntoService(
        shift_id=str(shift.id), window=shift.cage, chip_set=chip_set_,
        chips=chips_data(inv.chips_part(new))[chip_set_], amount=inv.value(new),
        reference=ref)], metadata)
    return ChipsServiceAnswer(shift_id=str(shift.id), amount=fmt(inv.value(new)),
                              version=shift.version)


@command("chips_take_out_of_service")
def chips_take_out_of_service(
    *, shift_id: str, chips: object, reason: str, metadata: Metadata,
    chip_set: str | None = None,
) -> ChipsServiceAnswer:
    shift = _vault_shift(metadata, shift_id, "taking chips out of service")
    casino = casino_get(metadata)
    chip_set_ = chip_set_code(casino, chip_set)
    gone = inv.of(chips={chip_set_: chip_counts(casino, chip_set_, chips)})
    _not_empty(gone, "chips")
    why = text(reason, field="reason")
    check_holds(shift, gone, field="chips")

    append(shift, [ChipsTakenOutOfService(
        shift_id=str(shift.id), window=shift.cage, chip_set=chip_set_,
        chips=chips_data(inv.chips_part(gone))[chip_set_], amount=inv.value(gone),
        reason=why)], metadata)
    return ChipsServiceAnswer(shift_id=str(shift.id), amount=fmt(inv.value(gone)),
                              version=shift.version)
