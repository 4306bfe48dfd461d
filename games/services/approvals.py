"""The pit's kinds of approval (four eyes, ``casino.approvals``; ``docs/approvals.md``).

- ``round_void``: voiding a round whose outcome is recorded. Before the outcome a pit boss voids
  alone (``round_void``); after it the void takes away what the outcome pays, so one pit boss
  asks and another approves. A settled round is never voided (a correction puts it right,
  ``round_correct``, already four eyes).
- ``slip_void``: voiding a slip (fill or credit) of a session that has closed. The cage is the
  other party of every slip: a cage supervisor confirms it never acted on the slip.
- ``late_slip``: a fill or credit slip added to a session that has closed (the pit forgot it).
  A credit moves the closed session's win at once (it counts when recorded); a fill moves it
  when the cage issues it, which is then a late fill (``late_fill``, the cage's kind, approved
  again: each movement has its own four eyes). A cage supervisor approves: the cage is the other
  party of the slip.
- ``session_rate``: a session of a table in a foreign currency opened at a rate beyond the
  currency's band from the casino's last posted rate (``table_currency.session_rate``): a pit
  boss asks, a second person who may post rates approves, and the session opens then.
- ``table_variance``: a closed session's table variance (table win less the rounds' result) of
  any size. The session closes as the count says; the variance waits, shown as such, until a
  second person (another pit boss, or the accountant before the gaming day closes) approves it.

Each kind's ``prepare`` checks the request and says what will move; its ``apply`` records the
change with the approval's id, in the approval's unit of work, refusing if the thing moved on.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from casino import approvals as rules
from casino.errors import Conflict, InvalidCommand, NotFound, gettext_noop
from casino.models import Approval, Role
from casino.money import fmt
from casino.selectors import carried_note
from casino.services.approvals import Prepared, procedure
from eventstore import store
from eventstore.records import Metadata
from games.answers import (
    RoundCorrectAnswer,
    RoundVoidAnswer,
    SessionOpenAnswer,
    SlipRequestAnswer,
    SlipVoidAnswer,
    TableVarianceApproveAnswer,
)
from games.events import TableVarianceApproved
from games.models import Round, RoundStatus, SessionStatus, SlipKind, Table, TableSession

from ._common import casino_get, round_get, session_get, table_get
from .rounds import correct_round, round_preview, void_round
from .sessions import open_session, record_slip, slip_request_checked, slip_voidable, void_slip
from .table_currency import BOOK_CURRENCY_RATE, asked_rate, session_rate, table_currency

OTHER = ("other", gettext_noop("Another reason (say it in words)"))

ROUND_VOID = rules.kind(
    "round_void", gettext_noop("voiding a round after its outcome"),
    # golpe nulo: American roulette n.º 22, French n.º 14; stud poker n.º 19 (Portaria 217/2007)
    [("foreign_object", gettext_noop("A chip, another ball or an object fell on the wheel (golpe nulo)")),
     ("dice_irregular", gettext_noop("The dice left the table, or landed stacked or cocked")),
     ("dealing_error", gettext_noop("A dealing error that cannot be put right (a card exposed, a wrong "
                       "number of cards)")),
     ("equipment_fault", gettext_noop("Equipment fault (wheel, shoe, shuffler, electronic table)")),
     ("procedure", gettext_noop("The game's procedure was not followed (a bet after «nada mais», a wrong "
                   "shooter)")),
     OTHER],
    request_roles=[Role.PIT_BOSS], approve_roles=[Role.PIT_BOSS])

ROUND_CORRECTION = rules.kind(
    "round_correction", gettext_noop("correcting a settled round's outcome"),
    # the pit boss who recorded the outcome asks; another pit boss corrects (four eyes)
    [("wrong_outcome", gettext_noop("The outcome was recorded wrongly (a number, a card, a hand)")),
     ("wrong_seat", gettext_noop("A hand or a bet was recorded on the wrong seat")),
     OTHER],
    request_roles=[Role.PIT_BOSS], approve_roles=[Role.PIT_BOSS])

SLIP_VOID = rules.kind(
    "slip_void", gettext_noop("voiding a slip of a closed session"),
    [("never_left", gettext_noop("The chips never left the table (credit) or never reached it (fill)")),
     ("wrong_table", gettext_noop("The slip was written for the wrong table or session")),
     ("wrong_figures", gettext_noop("The slip's figures are wrong: a new slip replaces it")),
     ("duplicate", gettext_noop("The same chips were recorded on two slips")),
     OTHER],
    request_roles=[Role.PIT_BOSS], approve_roles=[Role.CAGE_SUPERVISOR])

LATE_SLIP = rules.kind(
    "late_slip", gettext_noop("adding a slip to a closed session"),
    [("not_recorded", gettext_noop("The slip was written at the table but not recorded before the close")),
     ("system_down", gettext_noop("The system was unavailable when the slip was written")),
     ("wrong_session", gettext_noop("The slip was recorded on another session by mistake (voided there)")),
     OTHER],
    request_roles=[Role.PIT_BOSS], approve_roles=[Role.CAGE_SUPERVISOR])

TABLE_VARIANCE = rules.kind(
    "table_variance", gettext_noop("a table variance"),
    [("miscount", gettext_noop("A miscount of the tray or the drop box (recounted, confirmed)")),
     ("unrecorded_payout", gettext_noop("A payout or a bet not recorded round by round")),
     ("colour_chips_late", gettext_noop("Colour chips exchanged late, at the table minimum (n.º 15)")),
     ("rounding", gettext_noop("Prizes rounded to the cent or to the smallest chip")),
     ("slip_error", gettext_noop("A fill or a credit recorded on the wrong session")),
     OTHER],
    request_roles=[Role.PIT_BOSS], approve_roles=[Role.PIT_BOSS, Role.ACCOUNTANT])


def _uuid(value: str, what: str, field: str) -> str:
    try:
        return str(uuid.UUID(str(value)))
    except ValueError:
        raise NotFound("there is no {what} {value!r}",
                       params={"what": what, "value": value}, field=field) from None


# --- a round voided after its outcome -----------------------------------------------------------


def _round_in(metadata: Metadata, subject: str, *, lock: bool = False) -> Round:
    the_round = round_get(_uuid(subject, "round", "subject"), lock=lock)
    if the_round.casino_id != metadata.casino:
        raise NotFound("there is no round {subject} in {casino}",
                       params={"subject": subject, "casino": metadata.casino}, field="subject")
    return the_round


def _needs_outcome(the_round: Round) -> None:
    if the_round.status in (RoundStatus.BETTING, RoundStatus.CLOSED):
        raise Conflict("the round has no outcome yet: a pit boss voids it alone, no approval "
                       "is needed", code="approval_not_needed", round=str(the_round.round_id))
    if the_round.status == RoundStatus.SETTLED:
        raise Conflict("the round is settled: a mistake is put right by a correction, not a "
                       "void", code="already_settled", round=str(the_round.round_id))
    if the_round.status == RoundStatus.VOIDED:
        raise Conflict("the round is void already", code="round_voided",
                       round=str(the_round.round_id))


def _round_void_prepare(subject: str, details: Mapping[str, Any], metadata: Metadata
                        ) -> Prepared:
    the_round = _round_in(metadata, subject)
    _needs_outcome(the_round)
    table = table_get(the_round.casino_id, the_round.table)
    plan = round_preview(the_round, table)
    return Prepared(
        subject=str(the_round.round_id),
        summary=(f"void round {the_round.number} at table {the_round.table}: its recorded "
                 f"outcome pays {fmt(plan.prizes)} in prizes (the house's result "
                 f"{fmt(plan.result)} on {fmt(plan.handle)} staked); void, nothing is settled"),
        amount=plan.prizes,
        details={"table": the_round.table, "number": the_round.number,
                 "session_id": str(the_round.session_id), "prizes": fmt(plan.prizes),
                 "result": fmt(plan.result), "handle": fmt(plan.handle)})


def _round_void_apply(approval: Approval, metadata: Metadata) -> RoundVoidAnswer:
    the_round = _round_in(metadata, approval.subject, lock=True)
    _needs_outcome(the_round)
    return void_round(the_round, reason=approval.explanation, metadata=metadata,
                      reason_code=approval.reason, approval_id=str(approval.id),
                      requested_by=approval.requested_by)


# --- a settled round corrected, asked for by the pit boss who recorded it ------------------------


def _settled(the_round: Round) -> None:
    if the_round.status != RoundStatus.SETTLED:
        raise Conflict("round {number} is not settled: its outcome is recorded again, or the "
                       "round voided, without a correction",
                       params={"number": the_round.number}, code="not_settled")


def _round_correction_prepare(subject: str, details: Mapping[str, Any], metadata: Metadata
                              ) -> Prepared:
    the_round = _round_in(metadata, subject)
    _settled(the_round)
    outcome = details.get("outcome")
    if not isinstance(outcome, dict) or not outcome:
        raise InvalidCommand("say the right outcome", field="outcome")
    return Prepared(
        subject=str(the_round.round_id),
        summary=(f"correct round {the_round.number} at table {the_round.table}: its result "
                 f"{fmt(the_round.result)} is settled again on the right outcome"),
        details={"table": the_round.table, "number": the_round.number,
                 "session_id": str(the_round.session_id), "outcome": outcome,
                 "result": fmt(the_round.result)})


def _round_correction_apply(approval: Approval, metadata: Metadata) -> RoundCorrectAnswer:
    the_round = _round_in(metadata, approval.subject, lock=True)
    _settled(the_round)
    table = table_get(the_round.casino_id, the_round.table)
    return correct_round(the_round, table, outcome=dict(approval.details["outcome"]),
                         reason=approval.explanation, metadata=metadata)


# --- a slip of a closed session voided ----------------------------------------------------------


def _slip_of(subject: str, details: Mapping[str, Any]) -> tuple[str, str]:
    """``credit/C9`` (or the slip's number with ``details.kind``) as (kind, number)."""
    kind, _, number = subject.partition("/")
    if not number:
        kind, number = str(details.get("kind", "")), subject
    return kind, number


def _closed_session_of(session_id: object, *, lock: bool = False) -> TableSession:
    session = session_get(str(session_id), lock=lock, open_only=False)
    if session.status == SessionStatus.OPEN:
        raise Conflict("the session of table {table} is open: a pit boss voids its "
                       "slips alone, no approval is needed",
                       params={"table": session.table}, code="approval_not_needed")
    return session


def _carried(session: TableSession) -> str:
    return carried_note(casino=session.casino_id, gaming_day=session.gaming_day)


def _slip_void_prepare(subject: str, details: Mapping[str, Any], metadata: Metadata
                       ) -> Prepared:
    kind, number = _slip_of(subject, details)
    found = slip_voidable(metadata.casino, kind, number)
    session = _closed_session_of(found.session_id)
    moves = -found.amount if kind == SlipKind.CREDIT else Decimal("0.00")
    what = (f"the session's table win moves by {fmt(moves)}" if moves else
            "the fill was never issued: no figure moves")
    return Prepared(
        subject=f"{kind}/{found.number}",
        summary=(f"void {kind} slip {found.number} ({fmt(found.amount)}) of table "
                 f"{session.table}, whose session of gaming day {session.gaming_day} has "
                 f"closed: {what}{_carried(session)}"),
        amount=moves,
        details={"kind": kind, "slip": found.number, "session_id": str(session.session_id),
                 "table": session.table, "gaming_day": session.gaming_day.isoformat(),
                 "amount": fmt(found.amount), "win_change": fmt(moves)})


def _slip_void_apply(approval: Approval, metadata: Metadata) -> SlipVoidAnswer:
    kind, number = _slip_of(approval.subject, approval.details)
    found = slip_voidable(metadata.casino, kind, number)
    session = _closed_session_of(found.session_id, lock=True)
    return void_slip(session, found, reason=approval.explanation, metadata=metadata,
                     reason_code=approval.reason, approval_id=str(approval.id))


# --- a slip added to a closed session -----------------------------------------------------------


def _late_slip(subject: str, details: Mapping[str, Any], metadata: Metadata, *,
               lock: bool = False) -> tuple[TableSession, str, str, Table, dict[str, int],
                                            Decimal]:
    kind, number = _slip_of(subject, details)
    if kind not in SlipKind.values:
        raise InvalidCommand("a slip is a fill or a credit, not {kind!r}",
                             params={"kind": kind}, field="kind")
    session = _closed_session_of(_uuid(str(details.get("session_id", "")), "table session",
                                       "session_id"), lock=lock)
    if session.casino_id != metadata.casino:
        raise NotFound("there is no table session {session_id} in "
                       "{casino}",
                       params={"session_id": details.get('session_id'), "casino": metadata.casino}, field="session_id")
    chips = details.get("chips")
    if not isinstance(chips, dict):
        raise InvalidCommand("give the slip's chips by denomination", field="chips")
    number, table, counted, amount = slip_request_checked(session, kind, number, chips)
    return session, kind, number, table, counted, amount


def _late_slip_prepare(subject: str, details: Mapping[str, Any], metadata: Metadata
                       ) -> Prepared:
    session, kind, number, _table, counted, amount = _late_slip(subject, details, metadata)
    moves = amount if kind == SlipKind.CREDIT else Decimal("0.00")
    what = (f"the session's table win moves by {fmt(moves)}" if moves else
            "the table win moves when the cage issues the fill (a late fill, approved again)")
    return Prepared(
        subject=f"{kind}/{number}",
        summary=(f"add {kind} slip {number} ({fmt(amount)}) to table {session.table}, whose "
                 f"session of gaming day {session.gaming_day} has closed: {what}"
                 f"{_carried(session)}"),
        amount=moves,
        details={"kind": kind, "slip": number, "session_id": str(session.session_id),
                 "table": session.table, "gaming_day": session.gaming_day.isoformat(),
                 "chips": counted, "amount": fmt(amount), "win_change": fmt(moves)})


def _late_slip_apply(approval: Approval, metadata: Metadata) -> SlipRequestAnswer:
    session, kind, number, table, counted, amount = _late_slip(
        approval.subject, approval.details, metadata, lock=True)
    return record_slip(session, table, kind, number, counted, amount, metadata,
                       approval_id=str(approval.id))


SESSION_RATE = rules.kind(
    "session_rate", gettext_noop("opening a session at a rate beyond the band"),
    [("rate_moved", gettext_noop("The currency moved since the casino's last posted rate")),
     ("agreed_rate", gettext_noop("A rate agreed for the session by the casino's management")),
     OTHER],
    # who posts a rate and approves one beyond the band (exchange.roles.RATE_ROLES)
    request_roles=[Role.PIT_BOSS],
    approve_roles=[Role.CAGE_SUPERVISOR, Role.ACCOUNTANT, Role.ADMINISTRATOR])

# --- a session's rate beyond the band (docs/currencies.md) --------------------------------------


def _rate_table(metadata: Metadata, subject: str, details: Mapping[str, Any]
                ) -> tuple[Table, str, Decimal, Decimal]:
    """The table, its currency, the rate asked and the last posted one, checked: a rate beyond
    the band (within it the pit boss opens alone) and no session open."""
    table = table_get(metadata.casino, subject)
    casino = casino_get(metadata.casino)
    currency = table_currency(table, casino)
    if currency == casino.currency:
        raise InvalidCommand(BOOK_CURRENCY_RATE, params={"table": table.code,
                                                         "currency": currency},
                             code="book_currency", field="subject")
    asked = asked_rate(details.get("rate"))
    _currency, last = session_rate(table, casino)  # refused when no rate is posted yet
    assert last is not None  # a foreign currency's
    try:
        session_rate(table, casino, asked)
    except Conflict as beyond:
        if beyond.code != "rate_beyond_band":
            raise
        if table.open_session_id is not None:
            raise Conflict("table {table} already has an open session",
                           params={"table": table.code}, code="session_open") from None
        return table, currency, asked, last
    raise Conflict("the rate {rate} is within {currency}'s band from its last posted rate "
                   "{last}: the pit boss opens the session at it without an approval",
                   params={"rate": asked.normalize(), "currency": currency,
                           "last": last.normalize()}, code="approval_not_needed")


def _session_rate_prepare(subject: str, details: Mapping[str, Any], metadata: Metadata
                          ) -> Prepared:
    table, currency, asked, last = _rate_table(metadata, subject, details)
    opening = details.get("opening")
    return Prepared(
        subject=table.code,
        summary=(f"a session of table {table.code} in {currency} at {asked.normalize()} "
                 f"(the last posted rate {last.normalize()})"),
        details={"table": table.code, "currency": currency, "rate": str(asked.normalize()),
                 "last_rate": str(last.normalize()),
                 "opening": dict(opening) if isinstance(opening, Mapping) else None})


def _session_rate_apply(approval: Approval, metadata: Metadata) -> SessionOpenAnswer:
    details = approval.details
    return open_session(casino=metadata.casino, table=approval.subject,
                        opening=details.get("opening"), metadata=metadata,
                        rate=details.get("rate"), rate_approval_id=str(approval.id))


# --- a table variance ---------------------------------------------------------------------------


def _variance_session(metadata: Metadata, subject: str, *, lock: bool = False) -> TableSession:
    session = session_get(_uuid(subject, "table session", "subject"), lock=lock,
                          open_only=False)
    if session.casino_id != metadata.casino:
        raise NotFound("there is no table session {subject} in {casino}",
                       params={"subject": subject, "casino": metadata.casino},
                       field="subject")
    if session.status != SessionStatus.CLOSED or session.variance is None:
        raise Conflict("the session of table {table} is open: its variance is known "
                       "at the close", params={"table": session.table}, code="session_open")
    if session.variance == 0:
        raise Conflict("the session of table {table} closed without a variance: there "
                       "is nothing to approve",
                       params={"table": session.table}, code="approval_not_needed")
    return session


def _variance_prepare(subject: str, details: Mapping[str, Any], metadata: Metadata
                      ) -> Prepared:
    session = _variance_session(metadata, subject)
    if session.variance_approved == session.variance:
        raise Conflict("the variance {variance} of table {table} is "
                       "approved already (by {variance_approved_by})",
                       params={"variance": fmt(session.variance), "table": session.table, "variance_approved_by": session.variance_approved_by},
                       code="variance_approved_already")
    assert session.variance is not None
    assert session.table_win is not None
    return Prepared(
        subject=str(session.session_id),
        summary=(f"table variance {fmt(session.variance)} of table {session.table}, session "
                 f"of gaming day {session.gaming_day}: table win {fmt(session.table_win)}, "
                 f"rounds' result {fmt(session.round_result)}"),
        amount=session.variance,
        details={"session_id": str(session.session_id), "table": session.table,
                 "gaming_day": session.gaming_day.isoformat(),
                 "variance": fmt(session.variance), "table_win": fmt(session.table_win),
                 "round_result": fmt(session.round_result)})


def _variance_apply(approval: Approval, metadata: Metadata
                    ) -> TableVarianceApproveAnswer:
    session = _variance_session(metadata, approval.subject, lock=True)
    asked = Decimal(str(approval.details.get("variance", "")))
    assert session.variance is not None
    if session.variance != asked:
        raise Conflict("the variance of table {table} has moved since it was asked "
                       "for ({asked}, now {variance}): refuse this request "
                       "and ask again",
                       params={"table": session.table, "asked": fmt(asked), "variance": fmt(session.variance)}, code="variance_moved", variance=fmt(session.variance))
    store.append(session.stream, [TableVarianceApproved(
        session_id=str(session.session_id), table=session.table, variance=session.variance,
        approval_id=str(approval.id), reason_code=approval.reason,
        requested_by=approval.requested_by)], expected_version=session.version,
        metadata=metadata)
    return TableVarianceApproveAnswer(session_id=str(session.session_id),
                                      variance=fmt(session.variance), status="approved")


procedure(ROUND_VOID, prepare=_round_void_prepare, apply=_round_void_apply)
procedure(ROUND_CORRECTION, prepare=_round_correction_prepare, apply=_round_correction_apply)
procedure(SLIP_VOID, prepare=_slip_void_prepare, apply=_slip_void_apply)
procedure(LATE_SLIP, prepare=_late_slip_prepare, apply=_late_slip_apply)
procedure(TABLE_VARIANCE, prepare=_variance_prepare, apply=_variance_apply)
procedure(SESSION_RATE, prepare=_session_rate_prepare, apply=_session_rate_apply)

__all__ = ["LATE_SLIP", "ROUND_CORRECTION", "ROUND_VOID", "SLIP_VOID", "TABLE_VARIANCE"]
