"""Reads of the pit, over the projection tables (never over raw events)."""

from __future__ import annotations

import datetime as dt
import re
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import connection
from django.db.models import Count, QuerySet, Sum

from casino.errors import NotFound, gettext_noop, status_words
from casino.models import Approval, ApprovalStatus, Membership
from jackpots.models import JackpotConfigVersion

from . import hold
from .models import (
    Bet,
    DropBox,
    GamingDayResult,
    JackpotBet,
    Round,
    SessionStatus,
    Slip,
    Table,
    TableSession,
)


def slip_get(*, casino: str, kind: str, number: str) -> Slip:
    """A fill or credit slip by its number (the cage checks it before issuing or receiving)."""
    slip = Slip.objects.filter(casino_id=casino, kind=kind, number=number).first()
    if slip is None:
        raise NotFound("there is no {kind} slip {number} in casino {casino!r}",
                       params={"kind": status_words(kind, "slip kind"), "number": number, "casino": casino}, slip=number)
    return slip


def slip_list(*, casino: str, kind: str | None = None) -> QuerySet[Slip]:
    slips = Slip.objects.filter(casino_id=casino)
    return slips.filter(kind=kind) if kind else slips


_NUMBERED = re.compile(r"^(?P<prefix>.*?)(?P<digits>[0-9]+)$")


def slip_missing_numbers(*, casino: str, kind: str) -> list[dict[str, Any]]:
    """Numbers missing between the lowest and the highest slip used, per series (prefix).

    A voided slip is not missing: its number stays used. A slip book is numbered in sequence, so
    a gap is a slip that was taken out of the book and never recorded.
    """
    series: dict[tuple[str, int], set[int]] = {}
    for number in Slip.objects.filter(casino_id=casino, kind=kind).values_list("number",
                                                                                flat=True):
        match = _NUMBERED.match(number)
        if match is None:
            continue
        key = (match["prefix"], len(match["digits"]))
        series.setdefault(key, set()).add(int(match["digits"]))
    report = []
    for (prefix, width), used in sorted(series.items()):
        gaps = [n for n in range(min(used), max(used) + 1) if n not in used]
        report.append({"series": prefix, "first": f"{prefix}{min(used):0{width}d}",
                       "last": f"{prefix}{max(used):0{width}d}",
                       "missing": [f"{prefix}{n:0{width}d}" for n in gaps]})
    return report


def table_tray_totals(*, casino: str) -> dict[Decimal, int]:
    """Value chips in the trays of all tables, by denomination (for the cage's chips in
    circulation): an open session's float (opening + fills issued - credits), else the table's
    last closing count, until its next opening."""
    totals: dict[Decimal, int] = {}
    open_floats = dict(TableSession.objects.filter(casino_id=casino, status=SessionStatus.OPEN)
                       .values_list("table", "float_chips"))
    for code, last_closing in Table.objects.filter(casino_id=casino).values_list(
            "code", "last_closing"):
        chips = open_floats.get(code, last_closing) or {}
        for denomination, pieces in chips.items():
            key = Decimal(denomination)
            totals[key] = totals.get(key, 0) + pieces
    return {d: n for d, n in sorted(totals.items(), reverse=True) if n}


def table_list(*, casino: str) -> QuerySet[Table]:
    return Table.objects.filter(casino_id=casino)


def table_get(*, casino: str, code: str) -> Table:
    table = Table.objects.filter(casino_id=casino, code=code).first()
    if table is None:
        raise NotFound("there is no table {code!r} in casino {casino!r}",
                       params={"code": code, "casino": casino})
    return table


def table_session_get(*, session_id: str) -> TableSession:
    session = TableSession.objects.filter(session_id=session_id).first()
    if session is None:
        raise NotFound("there is no table session {session_id}", params={"session_id": session_id})
    return session


def table_session_list(*, casino: str, table: str | None = None, gaming_day: Any = None,
                       status: str | None = None) -> QuerySet[TableSession]:
    sessions = TableSession.objects.filter(casino_id=casino)
    if table:
        sessions = sessions.filter(table=table)
    if gaming_day:
        sessions = sessions.filter(gaming_day=gaming_day)
    if status:
        sessions = sessions.filter(status=status)
    return sessions.order_by("-opened_at")


def round_get(*, round_id: str) -> Round:
    found = Round.objects.filter(round_id=round_id).first()
    if found is None:
        raise NotFound("there is no round {round_id}", params={"round_id": round_id})
    return found


def session_casino(*, session_id: str, user_id: int | None = None) -> tuple[str, set[str]]:
    """The casino of a table session, and the roles ``user_id`` holds there: one statement (the
    pit API asks both of every command on a session)."""
    return _casino_of(TableSession, session_id, user_id,
                      gettext_noop("there is no table session {session_id}"), "session_id")


def round_casino(*, round_id: str, user_id: int | None = None) -> tuple[str, set[str]]:
    """The casino of a round, and the roles ``user_id`` holds there (see ``session_casino``)."""
    return _casino_of(Round, round_id, user_id, gettext_noop("there is no round {round_id}"),
                      "round_id")


def _casino_of(model: type[TableSession] | type[Round], value: str, user_id: int | None,
               missing: str, name: str) -> tuple[str, set[str]]:
    """``missing``: the refusal's template, ``{name}`` in it the value asked for."""
    try:
        ident = uuid.UUID(str(value))
    except ValueError:
        raise NotFound(missing, params={name: value}) from None
    quote = connection.ops.quote_name
    meta, memberships = model._meta, Membership._meta
    # One plain statement: the pit API asks it of every command, and the ORM took longer to
    # compile its subquery than the server took to answer it.
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.casino_id, ARRAY(SELECT m.role FROM {quote(memberships.db_table)} m "
            f"WHERE m.user_id = %s AND m.casino_id = t.casino_id) "
            f"FROM {quote(meta.db_table)} t WHERE t.{quote(meta.pk.column)} = %s",
            [user_id or 0, ident])
        row = cursor.fetchone()
    if row is None:
        raise NotFound(missing, params={name: value})
    return str(row[0]), set(row[1])


def round_list(*, session_id: str) -> QuerySet[Round]:
    return Round.objects.filter(session_id=session_id).order_by("number")


def bet_list(*, round_id: str) -> QuerySet[Bet]:
    return Bet.objects.filter(round_id=round_id).order_by("id")


def jackpot_bet_list(*, round_id: str) -> QuerySet[JackpotBet]:
    """The round's jackpot chips, with what the pool's coup made of them."""
    return JackpotBet.objects.filter(round_id=round_id).order_by("id")


def table_jackpots(*, casino: str) -> dict[str, dict[str, Any]]:
    """Each table's jackpot, derived from the pool it feeds (one query): table code ->
    ``{pool_id, config_version, jackpot}``, ``jackpot`` being the ``options.jackpot`` its next
    round opens with. A table feeding no pool is absent."""

    found: dict[str, dict[str, Any]] = {}
    for version in (JackpotConfigVersion.objects.filter(casino_id=casino)
                    .order_by("pool_id", "-version").distinct("pool_id")):
        for code in version.config.get("tables", []):
            found[code] = {"pool_id": version.pool_id, "config_version": version.version,
                           "jackpot": version.config["jackpot"]}
    return found


def table_jackpot(*, casino: str, code: str) -> dict[str, Any] | None:
    """One table's jackpot, derived from the pool it feeds (see ``table_jackpots``), or None."""
    return table_jackpots(casino=casino).get(code)


def _add_stakes(totals: dict[str, list[Decimal]], stakes: dict[str, list[str]]) -> None:
    """Add one round's stakes (edge key -> [sum, squares]) to ``totals``."""
    for key, (total, squares) in stakes.items():
        acc = totals.setdefault(key, [Decimal(0), Decimal(0)])
        acc[0] += Decimal(total)
        acc[1] += Decimal(squares)


def _stakes_text(totals: dict[str, list[Decimal]]) -> dict[str, list[str]]:
    return {k: [str(v[0]), str(v[1])] for k, v in sorted(totals.items())}


def session_stakes(session_id: Any) -> dict[str, list[str]]:
    """Stakes first put at risk in the session's settled rounds, by edge key: [sum, squares]."""
    totals: dict[str, list[Decimal]] = {}
    for stakes in Round.objects.filter(session_id=session_id, status="settled").values_list(
            "stakes", flat=True):
        _add_stakes(totals, stakes)
    return _stakes_text(totals)


def session_hold_check(session: TableSession) -> dict[str, Any]:
    """The session's win against the game math for the bets staked (see ``games.hold``)."""
    actual = session.table_win if session.table_win is not None else session.round_result
    options = Table.objects.filter(casino_id=session.casino_id, code=session.table).values_list(
        "options", flat=True).first() or {}
    return hold.check(session.game, session_stakes(session.session_id), actual, options)


def gaming_day_by_table(*, casino: str, gaming_day: Any = None) -> QuerySet[GamingDayResult]:
    rows = GamingDayResult.objects.filter(casino_id=casino)
    return rows.filter(gaming_day=gaming_day) if gaming_day else rows


def gaming_day_by_game(*, casino: str, gaming_day: Any = None) -> list[dict[str, Any]]:
    """Results by game and gaming day: the by-table rows summed."""
    rows = gaming_day_by_table(casino=casino, gaming_day=gaming_day)
    return list(rows.values("gaming_day", "game").annotate(
        tables=Count("table"), sessions=Sum("sessions"), rounds=Sum("rounds"), drop=Sum("drop"),
        fills=Sum("fills"), credits=Sum("credits"), handle=Sum("handle"),
        round_result=Sum("round_result"), table_win=Sum("table_win"),
    ).order_by("gaming_day", "game"))


# --- the count room -----------------------------------------------------------------------------


def drop_box_session(*, casino: str, session_id: object) -> tuple[TableSession, DropBox | None]:
    """A session of ``casino`` and its drop box, if counted (the cage receives a box against
    its count). NotFound for an unknown session, or one of another casino, or of a table that
    does not exist."""
    missing = gettext_noop("there is no table session {session_id} in casino {casino!r}")
    params = {"session_id": session_id, "casino": casino}
    try:
        key = uuid.UUID(str(session_id))
    except ValueError:
        raise NotFound(missing, params=params, field="session_id") from None
    session = TableSession.objects.filter(session_id=key, casino_id=casino).first()
    if session is None:
        raise NotFound(missing, params=params, field="session_id")
    if not Table.objects.filter(casino_id=casino, code=session.table).exists():
        raise NotFound("there is no table {table!r} in casino {casino!r}",
                       params={"table": session.table, "casino": casino},
                       field="table")
    return session, DropBox.objects.filter(session_id=key).first()


def drop_box_list(*, casino: str, gaming_day: Any = None) -> QuerySet[DropBox]:
    boxes = DropBox.objects.filter(casino_id=casino)
    return boxes.filter(gaming_day=gaming_day) if gaming_day else boxes


@dataclass(frozen=True)
class DropBoxReconciliation:
    """One closed session's drop box on a gaming day: counted in the count room against
    received at the cage. ``difference`` is received less counted (None until both are known);
    ``explained``: a drop variance request (reason and words) is on record; ``approved``: a cage
    supervisor approved it."""

    session_id: str
    table: str
    gaming_day: dt.date
    status: str  # "not counted", or the box's status: counted, confirmed, received
    counted: Decimal | None
    received: Decimal | None
    difference: Decimal | None
    counted_by: tuple[str, ...]
    received_by: str
    explained: bool
    approved: bool
    approval_id: str | None

    @property
    def reconciled(self) -> bool:
        """Counted by two, received, and any difference explained and approved."""
        return self.difference is not None and (self.difference == 0 or self.approved)


def drop_box_reconciliation(*, casino: str, gaming_day: dt.date
                            ) -> list[DropBoxReconciliation]:
    """Every drop box of ``casino``'s sessions closed on ``gaming_day``: counted against received,
    with its difference and whether it is explained and approved (``reconcile``'s drop boxes)."""
    sessions = TableSession.objects.filter(casino_id=casino, gaming_day=gaming_day,
                                           status=SessionStatus.CLOSED).order_by("table",
                                                                                 "opened_at")
    boxes = {b.session_id: b for b in DropBox.objects.filter(casino_id=casino,
                                                             gaming_day=gaming_day)}
    asked = {a.subject: a for a in Approval.objects.filter(
        casino_id=casino, kind="drop_variance",
        status__in=(ApprovalStatus.REQUESTED, ApprovalStatus.GRANTED)).order_by("requested_at")}
    out = []
    for session in sessions:
        box = boxes.get(session.session_id)
        if box is None:
            out.append(DropBoxReconciliation(
                str(session.session_id), session.table, session.gaming_day, "not counted",
                None, None, None, (), "", False, False, None))
            continue
        confirmed = box.confirmed_by != ""
        received = box.received_amount
        approval = asked.get(str(box.session_id))
        out.append(DropBoxReconciliation(
            session_id=str(box.session_id), table=box.table, gaming_day=box.gaming_day,
            status=box.status, counted=box.amount if confirmed else None, received=received,
            difference=(received - box.amount if confirmed and received is not None else None),
            counted_by=((box.counted_by, box.confirmed_by) if confirmed else (box.counted_by,)),
            received_by=box.received_by,
            explained=box.variance_approved or approval is not None,
            approved=box.variance_approved,
            approval_id=(str(box.variance_approval_id) if box.variance_approval_id
                         else str(approval.id) if approval is not None else None)))
    return out


def drop_variances_unapproved(*, casino: str, up_to: dt.date) -> list[DropBox]:
    """Drop boxes of gaming days up to ``up_to`` received with a difference not yet approved
    (a gaming day does not close over one)."""
    return list(DropBox.objects.filter(casino_id=casino, gaming_day__lte=up_to,
                                       variance_approval_id__isnull=True)
                .exclude(variance_value=0).order_by("gaming_day", "table"))


def drop_boxes_to_receive(*, casino: str) -> QuerySet[DropBox]:
    """Boxes counted by two counters that the cage has not received yet."""
    return DropBox.objects.filter(casino_id=casino, status="confirmed").order_by(
        "gaming_day", "table")


@dataclass(frozen=True)
class CountRoomRow:
    session: TableSession
    box: DropBox | None
    approval: Approval | None  # a drop variance request awaiting a decision


def count_room_list(*, casino: str, limit: int = 100) -> list[CountRoomRow]:
    """The count room's work: the latest closed sessions with their boxes (to count, to confirm,
    received), and any drop variance awaiting approval."""
    sessions = list(TableSession.objects.filter(casino_id=casino, status=SessionStatus.CLOSED)
                    .order_by("-closed_at")[:limit])
    boxes = {b.session_id: b for b in DropBox.objects.filter(
        session_id__in=[s.session_id for s in sessions])}
    waiting = {a.subject: a for a in Approval.objects.filter(
        casino_id=casino, kind="drop_variance", status=ApprovalStatus.REQUESTED)}
    return [CountRoomRow(s, boxes.get(s.session_id), waiting.get(str(s.session_id)))
            for s in sessions]


# --- table variances and their approval (docs/approvals.md, kind table_variance) ---------------

VARIANCE_NONE = "none"  # the session closed without a variance
VARIANCE_AWAITING = "awaiting_approval"  # nobody has asked yet
VARIANCE_REQUESTED = "requested"  # asked for, awaiting a second person
VARIANCE_APPROVED = "approved"


@dataclass(frozen=True)
class SessionVariance:
    """A closed session's table variance and where its approval stands."""

    session_id: str
    table: str
    game: str
    gaming_day: dt.date
    table_win: Decimal
    round_result: Decimal
    variance: Decimal
    state: str
    approval_id: str | None = None  # the request awaiting a decision, or the one granted
    requested_by: str = ""
    approved_by: str = ""
    late_amount: Decimal = Decimal("0.00")  # the win moved after the close (late slips)

    @property
    def approved(self) -> bool:
        return self.state in (VARIANCE_NONE, VARIANCE_APPROVED)


def session_variances(*, casino: str, gaming_day: dt.date) -> list[SessionVariance]:
    """Every closed session of ``casino`` on ``gaming_day`` with its table variance (table win
    less the rounds' result) and the state of its approval: what ``reconcile`` reports as
    unexplained while any is not ``approved`` (or ``none``)."""

    sessions = list(TableSession.objects.filter(
        casino_id=casino, gaming_day=gaming_day, status=SessionStatus.CLOSED)
        .order_by("table", "closed_at"))
    asked = {a.subject: a for a in Approval.objects.filter(
        casino_id=casino, kind="table_variance", status=ApprovalStatus.REQUESTED,
        subject__in=[str(s.session_id) for s in sessions])}
    rows = []
    for s in sessions:
        variance = s.variance if s.variance is not None else Decimal("0.00")
        request = asked.get(str(s.session_id))
        if not variance:
            state, approval = VARIANCE_NONE, None
        elif s.variance_approved == variance:
            state, approval = VARIANCE_APPROVED, str(s.variance_approval_id)
        elif request is not None:
            state, approval = VARIANCE_REQUESTED, str(request.id)
        else:
            state, approval = VARIANCE_AWAITING, None
        rows.append(SessionVariance(
            session_id=str(s.session_id), table=s.table, game=s.game, gaming_day=s.gaming_day,
            table_win=s.table_win or Decimal("0.00"), round_result=s.round_result,
            variance=variance, state=state, approval_id=approval,
            requested_by=request.requested_by if request is not None else "",
            approved_by=s.variance_approved_by if state == VARIANCE_APPROVED else "",
            late_amount=s.late_amount))
    return rows


# --- the floor ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class FloorRow:
    """An open table on the floor, as it stands now (``docs/floor.md``)."""

    session: TableSession
    drop: Decimal  # recorded so far (the box is counted after the close)
    result: Decimal  # the rounds' result so far: stakes lost − prizes paid
    hold_percent: Decimal | None  # result ÷ drop so far
    check: dict[str, Any]  # games.hold.check over the settled rounds' stakes

    @property
    def against_theoretical(self) -> Decimal | None:
        """Win ÷ handle minus the theoretical hold, in points of the handle."""
        actual, expected = (self.check.get("actual_hold_percent"),
                            self.check.get("theoretical_hold_percent"))
        return None if actual is None or expected is None else actual - expected


def floor(*, casino: str) -> list[FloorRow]:
    """Each open session of ``casino`` with its running result, drop so far, hold, and the hold
    check against the game math (one query for the sessions, one for their stakes)."""
    sessions = list(TableSession.objects.filter(casino_id=casino, status=SessionStatus.OPEN)
                    .order_by("table"))
    options = dict(Table.objects.filter(casino_id=casino).values_list("code", "options"))
    stakes: dict[Any, dict[str, list[Decimal]]] = {s.session_id: {} for s in sessions}
    for session_id, round_stakes in Round.objects.filter(
            session_id__in=list(stakes), status="settled").values_list("session_id", "stakes"):
        _add_stakes(stakes[session_id], round_stakes)
    rows = []
    for s in sessions:
        drop = s.drop_recorded
        check = hold.check(s.game, _stakes_text(stakes[s.session_id]), s.round_result,
                           options.get(s.table) or {})
        rows.append(FloorRow(
            session=s, drop=drop, result=s.round_result, check=check,
            hold_percent=(s.round_result / drop * 100).quantize(Decimal("0.01"))
            if drop else None))
    return rows
