"""The gaming-day close (fecho do dia de jogo): one command that closes a casino's day whole, or
refuses saying exactly what is missing.

A day closes when it is over and:

1. every table session and every cage shift of the day is closed, and no slot cashier's shift
   of the day is open or counted with a difference not approved (the list of what is still
   open otherwise);
2. its chips in circulation are recorded at the boundary (``cage.gaming_day_chips_record``);
3. its reconciliation passes (``reporting.reconciliation``): every line agrees with the ledger, or
   carries an approved exception (the four-eyes kind ``close_exception``: a supervisor's
   approval of that difference, with a reason and words);
4. then its figures are fixed in ``GamingDayClosed`` (results by table and game, the jackpot
   meters read, the day's totals, the exceptions and the digest of the day's close report),
   the ledger period is closed, and the day is sealed (``reporting.seals``: the casino's
   Ed25519 signature over its events' positions, last hash, totals and report digest).

Everything happens in one unit of work: a close refused or interrupted leaves nothing, and a
retry starts again. Closing a closed day changes nothing and returns the figures on record.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from cage.models import ChipCirculationDay, Shift, ShiftStatus
from cage.services import gaming_day_chips_record
from casino import approvals as rules
from casino.context import SYSTEM_ACTOR
from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound, Words, gettext_noop
from casino.models import Approval, ApprovalStatus, Casino, GamingDaySeal, Role
from casino.money import fmt
from casino.services.approvals import Prepared, procedure
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata
from games.models import GamingDayResult, SessionStatus, TableSession
from jackpots.models import JackpotPool
from ledger import reports
from ledger.events import GamingDayClosed
from ledger.models import DayClose, Period
from ledger.services import period_close
from reporting import reconciliation
from reporting.answers import CloseExceptionAnswer, DayCloseAnswer, SealRef
from reporting.close_currencies import in_book_currency
from reporting.close_report import report_digest, worked_out_report
from reporting.day_register import day_register
from reporting.machine_close import machine_day_figures, slot_shifts_still_open
from reporting.regulator_file import regulator_file_keep

# who closes a gaming day: these people (the close page's), or the scheduled close ("system")
CLOSE_PEOPLE = (Role.ACCOUNTANT, Role.CAGE_SUPERVISOR, Role.ADMINISTRATOR)
CLOSE_ROLES = (*CLOSE_PEOPLE, "system")
ZERO = Decimal("0.00")

# Messages tests and screens rely on.
STILL_OPEN = gettext_noop("gaming day {day} cannot close: still open: {items}")
NOT_RECONCILED = gettext_noop("gaming day {day} cannot close: these figures differ or are unexplained, and "
                              "no supervisor approved an exception for them: {lines}")


def stream(casino: str, day: dt.date) -> str:
    return f"gaming_day/{casino}.{day.isoformat()}"


def line_key(day: dt.date, line: reconciliation.Line) -> str:
    """What a close exception names: the day and the reconciliation line."""
    return f"{day.isoformat()}|{line.area}|{line.subject}|{line.what}"


# --- the exception a supervisor approves for a difference -------------------------------------

CLOSE_EXCEPTION = rules.kind(
    "close_exception", gettext_noop("an exception to the gaming day's reconciliation"),
    [("known_difference", gettext_noop("A difference found, understood and accepted for this day")),
     ("pending_elsewhere", gettext_noop("Settled on another day or by another procedure (named in the words)")),
     ("system_error", gettext_noop("A recording error to be corrected on the next open day")),
     ("other", gettext_noop("Another reason (said in the words)"))],
    request_roles=[Role.ACCOUNTANT, Role.CAGE_SUPERVISOR, Role.PIT_BOSS],
    approve_roles=[Role.ACCOUNTANT, Role.CAGE_SUPERVISOR, Role.ADMINISTRATOR])


def _prepare_exception(subject: str, details: Mapping[str, Any], metadata: Metadata
                       ) -> Prepared:
    day_text, _, rest = subject.partition("|")
    try:
        day = dt.date.fromisoformat(day_text)
    except ValueError:
        raise InvalidCommand("name the reconciliation line as day|area|subject|what",
                             field="subject") from None
    report = reconciliation.reconcile(casino=metadata.casino, gaming_day=day)
    for line in report.failures:
        if line_key(day, line) == subject:
            amount = line.difference if line.platform is not None and line.ledger is not None \
                else None
            return Prepared(subject=subject, amount=amount,
                            summary=f"{day}: {line.area} {line.subject}, {line.what}: "
                                    f"{line.note or f'difference {line.difference}'}")
    raise NotFound("the reconciliation of {day} has no failing line {rest!r}",
                   params={"day": day, "rest": rest}, field="subject")


def _apply_exception(approval: Approval, metadata: Metadata) -> CloseExceptionAnswer:
    return CloseExceptionAnswer(exception=approval.subject)  # the approval itself is the exception


procedure(CLOSE_EXCEPTION, prepare=_prepare_exception, apply=_apply_exception)


# --- the close --------------------------------------------------------------------------------


def _on_record(close: DayClose) -> DayCloseAnswer:
    """The first close's answer, as on record: its figures, its report's digest and its seal
    (issue 34: a close run again answers what the first one did)."""
    seal = GamingDaySeal.objects.filter(casino_id=close.casino_id, gaming_day=close.day).first()
    return DayCloseAnswer(casino=close.casino_id, gaming_day=close.day.isoformat(), closed=True,
                          already_closed=True, totals=close.totals, exceptions=close.exceptions,
                          report_digest=close.report_digest or None,
                          seal=None if seal is None else SealRef(
                              key_id=seal.key_id, signature=seal.signature,
                              first_position=seal.first_position,
                              last_position=seal.last_position))


def _still_open(casino: str, day: dt.date) -> list[Words]:
    items = [Words("table {table} (session {session})", table=s.table,
                   session=str(s.session_id)[:8])
             for s in TableSession.objects.filter(casino_id=casino, gaming_day=day,
                                                  status=SessionStatus.OPEN).order_by("table")]
    items += [Words("cage {cage} (shift {shift}, {status})", cage=s.cage, shift=str(s.id)[:8],
                    status=Words(str(ShiftStatus(s.status).label)))
              for s in Shift.objects.filter(casino_id=casino, gaming_day=day).exclude(
                  status=ShiftStatus.CLOSED).order_by("cage")]
    items += slot_shifts_still_open(casino, day)  # the slot cashier's windows (docs/machines.md)
    return items


def _exceptions(casino: str, day: dt.date) -> dict[str, str]:
    """The approved exceptions of the day: line key → approval id."""
    return {a.subject: str(a.id) for a in Approval.objects.filter(
        casino_id=casino, kind=CLOSE_EXCEPTION.name, status=ApprovalStatus.GRANTED,
        subject__startswith=f"{day.isoformat()}|")}


Figures = tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, str],
                list[dict[str, Any]], dict[str, Any]]


def _figures(casino: Casino, day: dt.date) -> Figures:
    results = [{"table": r.table, "game": r.game, "sessions": r.sessions, "rounds": r.rounds,
                "handle": fmt(r.handle), "drop": fmt(r.drop), "win": fmt(r.table_win)}
               for r in GamingDayResult.objects.filter(casino=casino, gaming_day=day)
               .order_by("table")]
    results = in_book_currency(casino, day, results)  # tables in other currencies (issue 39)
    jackpots = [{"pool_id": p.pool_id, "meter": fmt(p.amount), "reserve": fmt(p.reserve),
                 "unpaid": fmt(p.prizes_unpaid)}
                for p in JackpotPool.objects.filter(casino=casino).order_by("pool_id")]
    month = reports.gross_gaming_revenue(casino=casino.code, day_from=day, day_to=day,
                                         with_taxes=False).months[0]
    revenue = {"table_win": fmt(month.table_win), "jackpot_retained": fmt(month.jackpot_retained),
               "jackpot_funding": fmt(month.jackpot_funding),
               "jackpot_funding_deducted": fmt(month.jackpot_funding_deducted),
               **({"non_banked": fmt(month.non_banked_revenue)} if month.non_banked_revenue
                  else {}), **machine_day_figures(casino, day)}
    chips = ChipCirculationDay.objects.get(casino=casino, gaming_day=day).value
    totals = {
        "drop": fmt(sum((Decimal(str(r["drop"])) for r in results), ZERO)),
        "win": fmt(sum((Decimal(str(r["win"])) for r in results), ZERO)),
        "gaming_tax_base": fmt(month.gross_gaming_revenue),
        "chips_in_circulation": fmt(chips),
        "jackpot_liability": fmt(sum((Decimal(j["meter"]) + Decimal(j["unpaid"])
                                      for j in jackpots), ZERO)),
    }
    if "machine_win" in revenue:  # the slot floor's win by meters (docs/machines.md § Tax)
        totals["machine_win"] = revenue["machine_win"]
    return results, jackpots, totals, day_register(casino, day, results), revenue


@command("gaming_day_close")
def gaming_day_close(*, casino: str, gaming_day: dt.date, metadata: Metadata,
                     now: dt.datetime | None = None) -> DayCloseAnswer:
    """Close ``casino``'s gaming day whole, or refuse naming what is missing."""
    if metadata.role not in CLOSE_ROLES and not metadata.actor.startswith(SYSTEM_ACTOR):
        raise NotAllowed("a gaming day is closed by the scheduled close, an accountant, a cage "
                         "supervisor or an administrator, not in the {role} role",
                         params={"role": metadata.role})
    if metadata.casino != casino:
        raise InvalidCommand("acting in casino {casino!r}, not {casino_2!r}",
                             params={"casino": metadata.casino, "casino_2": casino})
    the_casino = Casino.objects.filter(code=casino).first()
    if the_casino is None:
        raise NotFound("there is no casino {casino!r}", params={"casino": casino})
    done = DayClose.objects.filter(casino=the_casino, day=gaming_day).first()
    if done is not None:
        return _on_record(done)
    end = the_casino.gaming_day_end(gaming_day)
    if (now or clock.now()) < end:
        raise Conflict("gaming day {gaming_day} is not over yet: it ends at {end}",
                       params={"gaming_day": gaming_day, "end": end.isoformat()},
                       code="day_not_over", day=gaming_day.isoformat())
    still_open = _still_open(casino, gaming_day)
    if still_open:
        raise Conflict(STILL_OPEN, params=dict(day=gaming_day, items="; ".join(still_open)),
                       code="still_open", open=still_open)

    from reporting.seals import gaming_day_seal

    system = Metadata(actor=metadata.actor, role="system", casino=casino,
                      request_id=metadata.request_id, correlation_id=metadata.correlation_id)
    gaming_day_chips_record(gaming_day=gaming_day, metadata=system)
    report = reconciliation.reconcile(casino=casino, gaming_day=gaming_day)
    exceptions = _exceptions(casino, gaming_day)
    unexcused = [line for line in report.failures
                 if line_key(gaming_day, line) not in exceptions]
    if unexcused:
        listed = "; ".join(f"{line.area} {line.subject} ({line.what}): "
                           f"{line.note or f'difference {line.difference}'}"
                           for line in unexcused[:12])
        raise Conflict(NOT_RECONCILED, params=dict(day=gaming_day, lines=listed),
                       code="not_reconciled",
                       lines=[line_key(gaming_day, line) for line in unexcused])
    used = sorted(exceptions[line_key(gaming_day, line)] for line in report.failures)
    results, jackpots, totals, register, revenue = _figures(the_casino, gaming_day)
    fixed = worked_out_report(the_casino, gaming_day)
    digest = report_digest(fixed)
    store.append(stream(casino, gaming_day), [GamingDayClosed(
        casino=casino, gaming_day=gaming_day, results=tuple(results), jackpots=tuple(jackpots),
        totals=totals, exceptions=tuple(used), report_digest=digest, register=tuple(register),
        revenue=revenue, report=fixed.as_data())], expected_version=0, metadata=metadata)
    period_close(casino=casino, day=gaming_day, metadata=system, now=now)
    seal = gaming_day_seal(casino=casino, gaming_day=gaming_day, report_digest=digest,
                           totals={k: Decimal(v) for k, v in totals.items()}, metadata=system)
    # the regulator file holds the seal: made once now, kept, served as kept (issue 34)
    regulator_file_keep(casino, gaming_day, now=now or clock.now())
    return DayCloseAnswer(casino=casino, gaming_day=gaming_day.isoformat(), closed=True,
                          already_closed=False, totals=totals, exceptions=used,
                          report_digest=digest,
                          seal=SealRef(key_id=seal.key_id, signature=seal.signature,
                          first_position=seal.first_position,
                          last_position=seal.last_position))


# --- where a day's close stands (the close page) ------------------------------------------------


def close_progress(*, casino: str, gaming_day: dt.date) -> list[tuple[str, bool, list[str]]]:
    """The close's steps for ``gaming_day``, each with whether it is done and what is missing
    (texts a screen says in its language: ``casino.errors.Words``)."""

    the_casino = Casino.objects.get(code=casino)
    over = the_casino.gaming_day_end(gaming_day) <= clock.now()
    still_open = _still_open(casino, gaming_day)
    recorded = ChipCirculationDay.objects.filter(casino_id=casino, gaming_day=gaming_day).exists()
    report = reconciliation.reconcile(casino=casino, gaming_day=gaming_day)
    exceptions = _exceptions(casino, gaming_day)
    unexcused = [line for line in report.failures
                 if line_key(gaming_day, line) not in exceptions]
    closed = DayClose.objects.filter(casino_id=casino, day=gaming_day).exists()
    period = Period.objects.filter(casino_id=casino, day=gaming_day).exists()
    end = f"{the_casino.gaming_day_end(gaming_day):%Y-%m-%d %H:%M}"
    return [
        (gettext_noop("the gaming day is over"), over,
         [] if over else [Words("it ends at {end} UTC", end=end)]),
        (gettext_noop("every table session and cage shift closed"), not still_open,
         list(still_open)),
        (gettext_noop("chips in circulation recorded at the boundary"), recorded, []),
        (gettext_noop("the day reconciles (or each difference has an approved exception)"),
         not unexcused, [Words("{area} {subject}: {what}", area=Words(line.area),
                               subject=line.subject, what=line.what)
                         for line in unexcused[:8]]),
        (gettext_noop("the day's figures fixed"), closed, []),
        (gettext_noop("the ledger period closed"), period, []),
    ]
