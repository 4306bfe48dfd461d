"""The count room: a closed session's drop box counted by denomination by two counters.

The drop box (caixa de depósito) leaves the table at the close and is counted in the count room,
note by note, by two counters: cashiers or cage supervisors of the casino, each the person logged
in, neither of them the table's staff for that session (``table_staff``). The first counter
records the count (``DropBoxCounted``); the second counts the box too and confirms it by
entering the same figures (``DropBoxCountConfirmed``): that count is the session's counted drop,
the figure its table win, hold and tax use. Until it is confirmed, the box may be counted again
(the new count replaces the old one, ``count_number`` grows); once confirmed it is counted once
and for all: a difference found afterwards is the cage's drop variance (``drop_box_receive``),
explained and approved through the four-eyes kind ``drop_variance`` registered here. See
``docs/tables.md`` § The count room.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import eventstore
from casino import approvals as rules
from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound, gettext_noop
from casino.models import Approval, Casino, Role
from casino.money import CASH_DENOMINATIONS, counts_as_data, counts_value, fmt, parse_counts
from casino.services.approvals import Prepared, procedure
from eventstore import store
from eventstore.records import Metadata
from games.answers import DropBoxConfirmAnswer, DropBoxCountAnswer, DropVarianceApproveAnswer
from games.events import DropBoxCountConfirmed, DropBoxCounted, DropVarianceApproved
from games.models import DropBox, DropBoxStatus, Round, SessionStatus, Table, TableSession
from games.roles import COUNTER_ROLES

from ._common import command

# Messages tests and screens rely on.
NOT_A_COUNTER = gettext_noop("counting a drop box needs one of these roles: cashier, cage_supervisor "
                             "(you act as {role})")
TABLE_STAFF = gettext_noop("you worked table {table} in this session ({what}): its drop box is counted by "
                           "people who did not")
SESSION_STILL_OPEN = gettext_noop("the session of table {table} is still open: its drop box is counted "
                                  "after the close")
COUNTED_ALREADY = gettext_noop("the drop box of table {table} was counted already by {first} and {second}: "
                               "a box is counted once (a difference found at the cage is a drop variance)")
OWN_COUNT = gettext_noop("you recorded this count: a second counter counts the box and confirms it")
COUNTS_DIFFER = gettext_noop("your count ({mine}) is not the first counter's: count the box again "
                             "together, and record the count again if the first one was wrong")
NOT_COUNTED = gettext_noop("the drop box of table {table} has not been counted: record the count first")


def _session(metadata: Metadata, session_id: object) -> TableSession:
    """The session named, of this casino (another casino's is not found here)."""
    try:
        key = uuid.UUID(str(session_id))
    except ValueError:
        raise InvalidCommand("{session_id!r} is not a table session id",
                             params={"session_id": session_id},
                             field="session_id") from None
    session = TableSession.objects.filter(session_id=key, casino_id=metadata.casino).first()
    if session is None:
        raise NotFound("there is no table session {session_id} in casino {casino!r}",
                       params={"session_id": session_id, "casino": metadata.casino},
                       field="session_id", session=str(session_id))
    if not Table.objects.filter(casino_id=metadata.casino, code=session.table).exists():
        raise NotFound("there is no table {table!r} in casino {casino!r}",
                       params={"table": session.table, "casino": metadata.casino},
                       field="table", table=session.table)
    return session


def table_staff(session: TableSession) -> dict[str, str]:
    """The table's staff for ``session``, as the events have them: every person on record in
    the session's own stream (who opened it, recorded its drops, asked for its fills and credits,
    voided its slips, issued colour chips, closed it) and whoever opened one of its rounds or
    recorded a round's outcome. Person -> what they did first (for the refusal)."""
    staff: dict[str, str] = {}
    for recorded in eventstore.read_stream(session.stream):
        actor = str(recorded.metadata.get("actor", ""))
        if actor:
            staff.setdefault(actor, recorded.event_type)
    for opened_by, outcome_by in Round.objects.filter(session_id=session.session_id
                                                      ).values_list("opened_by", "outcome_by"):
        if opened_by:
            staff.setdefault(opened_by, "RoundOpened")
        if outcome_by:
            staff.setdefault(outcome_by, "OutcomeRecorded")
    return staff


def _counter(metadata: Metadata, session: TableSession) -> None:
    if metadata.role not in COUNTER_ROLES:
        raise NotAllowed(NOT_A_COUNTER, params=dict(role=metadata.role or "nobody"))
    what = table_staff(session).get(metadata.actor)
    if what is not None:
        raise NotAllowed(TABLE_STAFF, params=dict(table=session.table, what=what),
                         code="table_staff")


def _cash(metadata: Metadata, cash: object, session: TableSession
          ) -> tuple[dict[str, int], Decimal]:
    """The box's count, in the notes of the session's currency (a table in HKD drops HKD)."""
    casino = Casino.objects.get(code=metadata.casino)
    if cash is None:
        raise InvalidCommand("cash: count the notes and coins by denomination (an empty box "
                             "is an empty count, {})", field="cash")
    currency = session.currency or casino.currency
    counts = parse_counts(cash, allowed=CASH_DENOMINATIONS[currency], field="cash")
    return counts_as_data(counts), counts_value(counts).quantize(Decimal("0.01"))


def _box(session: TableSession) -> DropBox | None:
    return DropBox.objects.filter(session_id=session.session_id).first()


@command("drop_box_count")
def drop_box_count(*, session_id: str, cash: object, metadata: Metadata
                   ) -> DropBoxCountAnswer:
    """The first counter records the count of a closed session's drop box, by denomination."""
    session = _session(metadata, session_id)
    _counter(metadata, session)
    if session.status != SessionStatus.CLOSED:
        raise Conflict(SESSION_STILL_OPEN, params=dict(table=session.table), code="session_open",
                       field="session_id")
    counted, amount = _cash(metadata, cash, session)
    box = _box(session)
    if box is not None and box.status != DropBoxStatus.COUNTED:
        raise Conflict(COUNTED_ALREADY, params=dict(table=session.table, first=box.counted_by,
                                              second=box.confirmed_by),
                       code="counted_already", field="session_id")
    count_id = str(uuid.uuid4())
    number = 1 if box is None else box.count_number + 1
    store.append(f"drop_box/{session.session_id}", [DropBoxCounted(
        count_id=count_id, session_id=str(session.session_id), casino=session.casino_id,
        table=session.table, gaming_day=session.gaming_day, cash=counted, amount=amount,
        count_number=number)], expected_version=0 if box is None else box.version,
        metadata=metadata)
    return DropBoxCountAnswer(count_id=count_id, session_id=str(session.session_id),
                              table=session.table, count_number=number, amount=fmt(amount),
                              status=DropBoxStatus.COUNTED.value)


@command("drop_box_count_confirm")
def drop_box_count_confirm(*, session_id: str, cash: object, metadata: Metadata
                           ) -> DropBoxConfirmAnswer:
    """The second counter counts the box too: the same figures confirm the count, which becomes
    the session's counted drop."""
    session = _session(metadata, session_id)
    _counter(metadata, session)
    box = _box(session)
    if box is None:
        raise Conflict(NOT_COUNTED, params=dict(table=session.table), code="not_counted",
                       field="session_id")
    if box.status != DropBoxStatus.COUNTED:
        raise Conflict(COUNTED_ALREADY, params=dict(table=session.table, first=box.counted_by,
                                              second=box.confirmed_by),
                       code="counted_already", field="session_id")
    if metadata.actor == box.counted_by:
        raise NotAllowed(OWN_COUNT, code="four_eyes")
    counted, amount = _cash(metadata, cash, session)
    if counted != box.cash:
        raise Conflict(COUNTS_DIFFER, params=dict(mine=fmt(amount)), code="counts_differ",
                       field="cash")
    store.append(box.stream, [DropBoxCountConfirmed(
        count_id=str(box.count_id), session_id=str(session.session_id), table=session.table,
        game=session.game, cash=counted, amount=amount, counted_by=box.counted_by,
        drop_basis=session.drop_basis)], expected_version=box.version, metadata=metadata)
    session.refresh_from_db()
    return DropBoxConfirmAnswer(
        count_id=str(box.count_id), session_id=str(session.session_id), table=session.table,
        amount=fmt(amount), status=DropBoxStatus.CONFIRMED.value,
        counted_by=[box.counted_by, metadata.actor],
        drop=None if session.drop is None else fmt(session.drop),
        table_win=None if session.table_win is None else fmt(session.table_win),
        hold_percent=None if session.hold_percent is None else str(session.hold_percent),
        # the session's win is known now: a variance of any size waits for a second person
        variance=None if session.variance is None else fmt(session.variance),
        variance_state="awaiting_approval" if session.variance else "none")


# --- the drop variance: four eyes ------------------------------------------------------------

DROP_VARIANCE = rules.kind(
    "drop_variance", gettext_noop("a drop variance (the cage received a drop box with a difference from its "
    "count)"),
    [("miscount", gettext_noop("The count room miscounted the box")),
     ("cage_miscount", gettext_noop("The cage miscounted what it received")),
     ("note_missing", gettext_noop("A note or coin went missing between the count room and the cage")),
     ("counterfeit", gettext_noop("A counterfeit note was taken out")),
     ("damaged", gettext_noop("A damaged note was not accepted"))],
    request_roles=[Role.CASHIER, Role.CAGE_SUPERVISOR],
    approve_roles=[Role.CAGE_SUPERVISOR])

OWN_RECEIPT = gettext_noop("you received this drop box: another cage supervisor approves its variance")
NO_VARIANCE = gettext_noop("the drop box of table {table} was received as counted: there is no variance")
NOT_RECEIVED = gettext_noop("the drop box of table {table} has not been received by the cage: a drop "
                            "variance is the difference found when it is")


def _varied_box(metadata: Metadata, subject: str) -> DropBox:
    session = _session(metadata, subject)
    box = _box(session)
    if box is None or box.status != DropBoxStatus.RECEIVED:
        raise Conflict(NOT_RECEIVED, params=dict(table=session.table), code="not_received",
                       field="session_id")
    if box.variance_value == 0:
        raise InvalidCommand(NO_VARIANCE, params=dict(table=session.table), code="no_variance",
                             field="session_id")
    if box.variance_approved:
        raise Conflict("the drop variance of table {table} is approved already "
                       "(by {variance_approved_by})",
                       params={"table": session.table, "variance_approved_by": box.variance_approved_by}, code="approved_already",
                       field="session_id")
    return box


def _prepare(subject: str, details: Mapping[str, Any], metadata: Metadata) -> Prepared:
    box = _varied_box(metadata, subject)
    value = box.variance_value
    side = "short" if value < 0 else "over"
    return Prepared(
        subject=str(box.session_id),
        summary=(f"drop box of table {box.table} ({box.gaming_day}): received "
                 f"{fmt(box.received_amount or Decimal(0))} against the count "
                 f"{fmt(box.amount)}, {side} {fmt(abs(value))}"),
        amount=value,
        details={"table": box.table, "gaming_day": box.gaming_day.isoformat(),
                 "receipt_id": box.receipt_id, "counted": fmt(box.amount),
                 "received": fmt(box.received_amount or Decimal(0)),
                 "variance_cash": box.variance_cash})


def _apply(approval: Approval, metadata: Metadata) -> DropVarianceApproveAnswer:
    box = _varied_box(metadata, approval.subject)
    if metadata.actor == box.received_by:
        raise NotAllowed(OWN_RECEIPT, code="four_eyes")
    if approval.amount is not None and approval.amount != box.variance_value:
        raise Conflict("the variance changed since it was asked for: ask again",
                       code="variance_changed")
    store.append(box.stream, [DropVarianceApproved(
        session_id=str(box.session_id), table=box.table, receipt_id=box.receipt_id,
        variance_value=box.variance_value, approval_id=str(approval.id),
        reason=approval.reason)], expected_version=box.version, metadata=metadata)
    return DropVarianceApproveAnswer(session_id=str(box.session_id), table=box.table,
                                     variance_value=fmt(box.variance_value))


procedure(DROP_VARIANCE, prepare=_prepare, apply=_apply)
