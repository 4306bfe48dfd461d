"""The gaming day's close report: what the accountant signs off and the day's seal signs.

``close_report(casino=, gaming_day=)`` gathers, from the existing selectors and reports (never
from raw events), every figure of one gaming day:

* per table (``games.models.GamingDayResult``, the day's closed sessions): opening, fills,
  credits, drop, closing, win, hold % (win ÷ drop), and the hold against theoretical: the
  theoretical win of the bets actually staked (``games.hold.check``: the engine's game math
  where it has a figure, the exact or published figures of ``games.hold`` otherwise; each line
  says which in ``figures``), the theoretical hold % of the handle beside the actual win ÷
  handle, and win less theoretical win;
* per game: the tables' sums;
* the cage's reconciliation (``cage.reports``): per shift, per cage over the day and the
  casino's total: opening, receipts and payments (the movements, by type), expected, counted,
  variance, in value;
* the jackpots (``jackpots.models.JackpotMeterReading``, the meters as they stood at the day's
  start and end): each pool's meter, reserve, hits of the day and their amount, paid during the
  day, owed at the end;
* the gross gaming revenue of the day and its taxes by the rules in force that day
  (``ledger.reports.gross_gaming_revenue``, ``ledger.taxes``, ``docs/gaming-tax.md``): what the
  day adds to its month's return;
* the exceptions approved: the granted approvals (``docs/approvals.md``) whose change concerns
  the day (a table or drop variance, a late or voided slip, a void, a meter correction);
* the late corrections booked in the day: changes to sessions of sealed days (their figures
  stay as signed), each with what it corrects; the tables' wins include them (``carried``);
* a casino with tables in more than one currency: per currency, the tables' win in it and in
  the book currency, the cage's holdings and the chips in players' hands
  (``reporting.close_currencies.currency_lines``, ``docs/currencies.md``);
* the day's totals: drop, win, gaming-tax base, chips in circulation at the day's boundary,
  jackpot liability (meter + reserve + prizes owed, accounts 2782 + 2784 + 2783).

The jackpot meters and the chips in circulation are read at the day's boundary; the tables,
the cage and the approvals as their projections hold them. That is how the close works the
report out, once: the close records it whole in its event (``GamingDayClosed.report``) and the
seal signs its digest. From then on a closed day's report is the one on record, served as
stored (``stored_report``), never worked out again: a table made *dupla*, a casino's closing
hour moved, a prize paid or a slip voided after the seal change nothing of it, and
``report_digest`` gives the seal's digest on every run (issue 34). Only a day closed before
the report was recorded (an empty ``report``) is still worked out from the projections.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import types
import typing
import uuid
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, is_dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, TypeAlias

from cage import reports as cage_reports
from cage import selectors as cage_selectors
from cage.models import ChipCirculationDay
from casino.models import Approval, ApprovalStatus, Casino, GamingDaySeal
from casino.money import fmt
from eventstore import read_stream
from eventstore.hashing import canonical_json
from games import hold
from games.models import (
    CarriedCorrection,
    GamingDayResult,
    Round,
    SessionStatus,
    Slip,
    Table,
    TableSession,
)
from jackpots.models import JackpotMeterReading, JackpotPool
from ledger import reports, selectors, tax_rules
from ledger import taxes as taxes_of
from reporting.close_currencies import CurrencyLine, currency_lines
from reporting.day_register import day_register
from reporting.machine_close import MachineLine, machine_close_lines, machine_day_figures
from reporting.pokerroom_figures import NonBankedLine, non_banked_lines

ZERO = Decimal("0.00")
CENT = Decimal("0.01")
HUNDRED = Decimal(100)

#: What the digest is taken over: JSON-native values only.
Plain: TypeAlias = "str | int | bool | list[Plain] | dict[str, Plain] | None"


def _percent(part: Decimal, whole: Decimal) -> Decimal | None:
    if not whole:
        return None
    return (part / whole * HUNDRED).quantize(CENT, rounding=ROUND_HALF_UP)


def _money(value: Decimal | None) -> Decimal:
    return (value or ZERO).quantize(CENT)


# --- the report's parts -------------------------------------------------------------------------


@dataclass(frozen=True)
class TableLine:
    """One table's day (its closed sessions). ``win`` = closing − opening + credits − fills +
    drop (plus slips moved after the close); ``hold_percent`` = win ÷ drop."""

    table: str
    game: str
    sessions: int
    rounds: int
    opening: Decimal
    fills: Decimal
    credits: Decimal
    drop: Decimal
    closing: Decimal
    win: Decimal
    hold_percent: Decimal | None
    handle: Decimal
    theoretical_win: Decimal  # Σ stake × house edge of the bets staked (games.hold)
    theoretical_hold_percent: Decimal | None  # theoretical win ÷ handle
    win_handle_percent: Decimal | None  # win ÷ handle: what compares with the theoretical
    against_theoretical: Decimal  # win − theoretical win
    figures: str  # where the house edges came from: engine, local, engine+local, or none
    carried: Decimal = ZERO  # part of win: late corrections of sealed days booked in this day


@dataclass(frozen=True)
class SessionLine:
    """One closed table session of the day (issue 36): its own opening and closing tray, never
    added to another session's. ``number``: the table's sessions of the day counted from 1, by
    the time they opened; ``win`` = closing − opening + credits − fills + drop."""

    table: str
    number: int
    opened_at: dt.datetime
    closed_at: dt.datetime | None
    opening: Decimal
    fills: Decimal
    credits: Decimal
    drop: Decimal
    closing: Decimal
    win: Decimal


@dataclass(frozen=True)
class GameLine:
    """The tables of one game, added up."""

    game: str
    tables: int
    sessions: int
    rounds: int
    opening: Decimal
    fills: Decimal
    credits: Decimal
    drop: Decimal
    closing: Decimal
    win: Decimal
    hold_percent: Decimal | None
    handle: Decimal
    theoretical_win: Decimal
    theoretical_hold_percent: Decimal | None
    win_handle_percent: Decimal | None
    against_theoretical: Decimal


@dataclass(frozen=True)
class Movement:
    kind: str  # the event type that moved the money (ChipsSold, FillIssued...)
    received: Decimal
    paid: Decimal


@dataclass(frozen=True)
class CageLine:
    """One cage's accountability, in value: opening + receipts − payments = expected;
    counted − expected = variance (counted and variance empty until counted).

    ``scope``: ``shift`` (one shift), ``day`` (the cage's shifts of the day), ``total`` (every
    cage of the casino)."""

    cage: str
    scope: str
    shift: str
    status: str
    opening: Decimal
    receipts: Decimal
    payments: Decimal
    expected: Decimal
    counted: Decimal | None
    variance: Decimal | None
    movements: tuple[Movement, ...]


@dataclass(frozen=True)
class JackpotLine:
    """One pool over the day: the meters at the day's end, the hits of the day, what the cage
    paid during the day and what is still owed at its end."""

    pool: str
    name: str
    meter: Decimal
    reserve: Decimal
    hits: int
    hits_amount: Decimal
    paid: Decimal
    owed: Decimal

    @property
    def liability(self) -> Decimal:
        return self.meter + self.reserve + self.owed


@dataclass(frozen=True)
class Revenue:
    """The day's gross gaming revenue, the gaming-tax base (``docs/ledger.md``)."""

    table_revenue: Decimal
    table_variance: Decimal
    jackpot_retained: Decimal
    jackpot_funding: Decimal
    gross_gaming_revenue: Decimal


@dataclass(frozen=True)
class TaxLine:
    code: str
    name: str
    rate: Decimal | None  # percent; None: no single rate (none applied, or several)
    base: Decimal
    amount: Decimal  # never below zero
    legal_source: str


@dataclass(frozen=True)
class ExceptionLine:
    """A change after the fact approved by a second person (``docs/approvals.md``)."""

    approval: str
    kind: str
    subject: str
    reason: str
    amount: Decimal | None
    summary: str
    requested_by: str
    approved_by: str
    approved_at: str


@dataclass(frozen=True)
class CorrectionLine:
    """A late change to a session of a sealed day, booked in this day (its table win takes
    ``win_change``); the sealed day's figures stay as signed."""

    table: str
    corrects_day: dt.date
    session: str
    kind: str
    slip: str
    win_change: Decimal
    approval: str


@dataclass(frozen=True)
class Totals:
    drop: Decimal
    win: Decimal
    gaming_tax_base: Decimal
    taxes: Decimal
    chips_in_circulation: Decimal
    jackpot_liability: Decimal
    machine_win: Decimal | None = None  # the slot floor's win by meters (none: no floor read)


@dataclass(frozen=True)
class CloseReport:
    casino: str
    casino_name: str
    currency: str
    jurisdiction: str
    gaming_day: dt.date
    starts_at: dt.datetime
    ends_at: dt.datetime  # the boundary: chips in circulation and meters are read here
    tables: tuple[TableLine, ...]
    games: tuple[GameLine, ...]
    cage: tuple[CageLine, ...]
    jackpots: tuple[JackpotLine, ...]
    revenue: Revenue
    taxes: tuple[TaxLine, ...]
    exceptions: tuple[ExceptionLine, ...]
    totals: Totals
    corrections: tuple[CorrectionLine, ...] = ()
    non_banked: tuple[NonBankedLine, ...] = ()  # the poker room (docs/poker-room.md)
    machines: tuple[MachineLine, ...] = ()  # the slot floor (reporting/machine_close.py)
    sessions: tuple[SessionLine, ...] = ()  # each table session's own figures (issue 36)
    # each currency of a casino with tables in more than one (reporting/close_currencies.py)
    currencies: tuple[CurrencyLine, ...] = ()

    def as_data(self) -> dict[str, Plain]:
        """The report as JSON-native values (amounts as decimal strings, UTC ISO times): what
        the API returns and the digest is taken over."""
        data = _plain(self)
        assert isinstance(data, dict)
        if not data["non_banked"]:  # a day without a poker room keeps the digest it had
            del data["non_banked"]
        if not data["sessions"]:  # a report made before the sessions were listed: as it was
            del data["sessions"]
        if not data["currencies"]:  # a casino of one currency keeps the digest it had
            del data["currencies"]
        totals = data["totals"]
        assert isinstance(totals, dict)
        if totals["machine_win"] is None:  # nor a day without a slot floor
            del totals["machine_win"]
        return data


def _plain(value: object) -> Plain:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}  # type: ignore[arg-type]
    raise TypeError(f"the close report holds no {type(value).__name__}")


def _unplain(kind: Any, value: Any) -> Any:
    """``_plain`` undone: a stored report's values back into the report's types."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (types.UnionType, typing.Union):
        if value is None:
            return None
        return _unplain(next(a for a in args if a is not type(None)), value)
    if origin is tuple:
        return tuple(_unplain(args[0], v) for v in value)
    if kind is Decimal:
        return Decimal(value)
    if kind is dt.datetime:
        return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    if kind is dt.date:
        return dt.date.fromisoformat(value)
    if isinstance(kind, type) and is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        return kind(**{f.name: _unplain(hints[f.name], value[f.name])
                       for f in fields(kind) if f.name in value})
    return value


def report_from_data(data: Mapping[str, Any]) -> CloseReport:
    """The report of ``data`` (``CloseReport.as_data``, as the close recorded it): the same
    values, so ``as_data`` gives ``data`` back and the digest is the recorded one."""
    report = _unplain(CloseReport, data)
    assert isinstance(report, CloseReport)
    return report


def stored_report(casino: str, gaming_day: dt.date) -> dict[str, Plain] | None:
    """The close report a closed day's close recorded (``GamingDayClosed.report``), or None
    (the day is not closed, or was closed before the report was recorded)."""
    closed = read_stream(f"gaming_day/{casino}.{gaming_day.isoformat()}")
    if not closed:
        return None
    report = closed[0].data.get("report") or None
    return dict(report) if report else None


def report_digest(report: CloseReport) -> str:
    """SHA-256 (hex) of the report's canonical JSON (``eventstore.hashing``): the digest
    the day's seal signs."""
    return hashlib.sha256(canonical_json(report.as_data())).hexdigest()


# --- tables and games ---------------------------------------------------------------------------


def _stakes_by_table(casino: str, day: dt.date) -> dict[str, dict[str, list[Decimal]]]:
    """The stakes of the settled rounds of the day's closed sessions, by table and edge key:
    [sum, squares] (``games.selectors.session_stakes``, for every session in one query)."""
    sessions = TableSession.objects.filter(casino_id=casino, gaming_day=day,
                                           status=SessionStatus.CLOSED).values("session_id")
    out: dict[str, dict[str, list[Decimal]]] = defaultdict(dict)
    for table, stakes in (Round.objects.filter(session_id__in=sessions, status="settled")
                          .order_by("table", "opened_at", "round_id")
                          .values_list("table", "stakes")):
        for key, (total, squares) in stakes.items():
            acc = out[table].setdefault(key, [ZERO, ZERO])
            acc[0] += Decimal(total)
            acc[1] += Decimal(squares)
    return out


def _tables(casino: str, day: dt.date) -> list[TableLine]:
    stakes = _stakes_by_table(casino, day)
    options = dict(Table.objects.filter(casino_id=casino).values_list("code", "options"))
    lines = []
    for row in GamingDayResult.objects.filter(casino_id=casino, gaming_day=day).order_by("table"):
        table_stakes = {k: [str(v[0]), str(v[1])] for k, v in
                        sorted(stakes.get(row.table, {}).items())}
        check = hold.check(row.game, table_stakes, row.table_win, options.get(row.table) or {})
        theoretical = _money(check["theoretical_win"])
        sources = sorted(set(check["sources"].values()))
        handle = _money(row.handle)
        lines.append(TableLine(
            table=row.table, game=row.game, sessions=row.sessions, rounds=row.rounds,
            opening=_money(row.opening_amount), fills=_money(row.fills),
            credits=_money(row.credits), drop=_money(row.drop),
            closing=_money(row.closing_amount), win=_money(row.table_win),
            hold_percent=_percent(row.table_win, row.drop), handle=handle,
            theoretical_win=theoretical, theoretical_hold_percent=_percent(theoretical, handle),
            win_handle_percent=_percent(row.table_win, handle),
            against_theoretical=_money(row.table_win) - theoretical,
            figures="+".join(sources) or "none", carried=_money(row.carried_win)))
    return lines


def _sessions(casino: str, day: dt.date) -> list[SessionLine]:
    lines: list[SessionLine] = []
    number: dict[str, int] = defaultdict(int)
    for s in (TableSession.objects.filter(casino_id=casino, gaming_day=day,
                                          status=SessionStatus.CLOSED)
              .order_by("table", "opened_at", "session_id")):
        number[s.table] += 1
        lines.append(SessionLine(
            table=s.table, number=number[s.table], opened_at=s.opened_at, closed_at=s.closed_at,
            opening=_money(s.opening_amount), fills=_money(s.fills_amount),
            credits=_money(s.credits_amount), drop=_money(s.drop),
            closing=_money(s.closing_amount), win=_money(s.table_win)))
    return lines


def as_sealed(report: CloseReport) -> CloseReport:
    """``report`` as its day's seal signed it: a day sealed before the report listed its
    sessions keeps the report (and the digest) it was sealed with, without them."""
    if not report.sessions:
        return report
    seal = GamingDaySeal.objects.filter(casino_id=report.casino,
                                        gaming_day=report.gaming_day).first()
    if seal is None or seal.report_digest == report_digest(report):
        return report
    before = replace(report, sessions=())
    return before if seal.report_digest == report_digest(before) else report


def _games(tables: Iterable[TableLine]) -> list[GameLine]:
    by_game: dict[str, list[TableLine]] = defaultdict(list)
    for line in tables:
        by_game[line.game].append(line)
    out = []
    for game in sorted(by_game):
        rows = by_game[game]

        def total(name: str, rows: list[TableLine] = rows) -> Decimal:
            return sum((getattr(r, name) for r in rows), ZERO)

        win, drop, handle, theoretical = (total("win"), total("drop"), total("handle"),
                                          total("theoretical_win"))
        out.append(GameLine(
            game=game, tables=len(rows), sessions=sum(r.sessions for r in rows),
            rounds=sum(r.rounds for r in rows), opening=total("opening"), fills=total("fills"),
            credits=total("credits"), drop=drop, closing=total("closing"), win=win,
            hold_percent=_percent(win, drop), handle=handle, theoretical_win=theoretical,
            theoretical_hold_percent=_percent(theoretical, handle),
            win_handle_percent=_percent(win, handle), against_theoretical=win - theoretical))
    return out


# --- the cage -----------------------------------------------------------------------------------


def _cage_line(section: cage_reports.Section, scope: str, shift: str) -> CageLine:
    totals = section.totals
    return CageLine(
        cage=section.cage or "TOTAL", scope=scope, shift=shift, status=section.status,
        opening=_money(totals["opening"]), receipts=_money(totals["receipts"]),
        payments=_money(totals["payments"]), expected=_money(totals["expected"]),
        counted=None if totals["counted"] is None else _money(totals["counted"]),
        variance=None if totals["variance"] is None else _money(totals["variance"]),
        movements=tuple(Movement(kind, _money(i), _money(o))
                        for kind, (i, o) in sorted(section.movements.items())))


def _cage(casino: str, day: dt.date) -> list[CageLine]:
    shifts_by_cage = defaultdict(list)
    for shift in cage_selectors.shift_list(casino=casino, gaming_day=day):
        shifts_by_cage[shift.cage].append(shift)
    lines = []
    for section in cage_reports.gaming_day_reconciliation(casino=casino, gaming_day=day).sections:
        if not section.cage:
            lines.append(_cage_line(section, "total", ""))
            continue
        for shift in shifts_by_cage[section.cage]:
            one = cage_reports.shift_reconciliation(shift).sections[0]
            lines.append(_cage_line(one, "shift", str(shift.id)))
        lines.append(_cage_line(section, "day", ""))
    return lines


# --- jackpots -----------------------------------------------------------------------------------


def _reading(casino: str, pool: str, before: dt.datetime) -> JackpotMeterReading | None:
    return (JackpotMeterReading.objects
            .filter(casino_id=casino, pool_id=pool, recorded_at__lt=before)
            .order_by("-version").first())


def _jackpots(casino: Casino, day: dt.date) -> list[JackpotLine]:
    start, end = casino.gaming_day_start(day), casino.gaming_day_end(day)
    lines = []
    for pool in JackpotPool.objects.filter(casino=casino).order_by("pool_id"):
        at_end = _reading(casino.code, pool.pool_id, end)
        if at_end is None:  # the pool did not exist yet
            continue
        at_start = _reading(casino.code, pool.pool_id, start)
        hits_before = at_start.hits if at_start else 0
        won_before = at_start.wins if at_start else ZERO
        owed_before = at_start.prizes_unpaid if at_start else ZERO
        won = _money(at_end.wins - won_before)
        lines.append(JackpotLine(
            pool=pool.pool_id, name=pool.name, meter=_money(at_end.amount),
            reserve=_money(at_end.reserve), hits=at_end.hits - hits_before, hits_amount=won,
            # what was owed at the start, plus the day's prizes, less what is owed at the end
            paid=_money(owed_before + won - at_end.prizes_unpaid),
            owed=_money(at_end.prizes_unpaid)))
    return lines


# --- exceptions approved ------------------------------------------------------------------------


def _session_of(approval: Approval) -> str | None:
    """The table session an approval's change concerns, if it concerns one."""
    kind, subject = approval.kind, approval.subject
    if kind in ("table_variance", "drop_variance"):
        return subject
    if kind == "late_slip" and approval.details.get("session_id"):
        return str(approval.details["session_id"])
    if kind in ("slip_void", "late_slip", "late_fill"):
        slip_kind, _, number = subject.partition("/")
        if not number:
            slip_kind, number = "fill", subject
        slip = Slip.objects.filter(casino_id=approval.casino_id, kind=slip_kind,
                                   number=number).values_list("session_id", flat=True).first()
        return None if slip is None else str(slip)
    if kind == "round_void" and (round_id := _uuid(subject)) is not None:
        found = Round.objects.filter(round_id=round_id).values_list(
            "session_id", flat=True).first()
        return None if found is None else str(found)
    return None


def _uuid(value: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(value)
    except ValueError:
        return None


def _exceptions(casino: Casino, day: dt.date) -> list[ExceptionLine]:
    """The granted approvals whose change concerns ``day``: through the table session it
    changes (its gaming day), or, for a change of no session (a jackpot meter correction), the
    gaming day it was approved in. None of the day's can be approved before the day starts."""
    granted = list(Approval.objects.filter(
        casino=casino, status=ApprovalStatus.GRANTED,
        decided_at__gte=casino.gaming_day_start(day)).order_by("decided_at", "id"))
    sessions = {a.id: _session_of(a) for a in granted}
    wanted = [_uuid(s) for s in sessions.values() if s]
    days = dict(TableSession.objects.filter(session_id__in=[s for s in wanted if s])
                .values_list("session_id", "gaming_day"))
    carried = dict(CarriedCorrection.objects.filter(
        casino=casino, approval_id__in=[str(a.id) for a in granted])
        .values_list("approval_id", "booked_day"))
    out = []
    for approval in granted:
        session = _uuid(sessions[approval.id] or "")
        concerns: dt.date | None
        if str(approval.id) in carried:  # a sealed day's session: booked in a later day
            concerns = carried[str(approval.id)]
        elif session is not None:
            concerns = days.get(session)
        else:
            assert approval.decided_at is not None
            concerns = casino.gaming_day(approval.decided_at)
        if concerns != day:
            continue
        assert approval.decided_at is not None
        out.append(ExceptionLine(
            approval=str(approval.id), kind=approval.kind, subject=approval.subject,
            reason=approval.reason,
            amount=None if approval.amount is None else _money(approval.amount),
            summary=approval.summary, requested_by=approval.requested_by,
            approved_by=approval.decided_by, approved_at=str(_plain(approval.decided_at))))
    return out


def _corrections(casino: str, day: dt.date) -> list[CorrectionLine]:
    return [CorrectionLine(table=c.table, corrects_day=c.corrects_day,
                           session=str(c.session_id), kind=c.kind, slip=c.slip,
                           win_change=_money(c.win_change), approval=c.approval_id)
            for c in CarriedCorrection.objects.filter(casino_id=casino, booked_day=day)
            .order_by("position")]


# --- the day ------------------------------------------------------------------------------------


def _chips_in_circulation(casino: Casino, day: dt.date) -> Decimal:
    """As recorded for the day, or worked out just before the boundary (the same figure)."""
    recorded = ChipCirculationDay.objects.filter(casino=casino, gaming_day=day).first()
    if recorded is not None:
        return _money(recorded.value)
    return _money(cage_selectors.chips_in_circulation(
        casino=casino.code, before=casino.gaming_day_end(day)).value)


def _day_taxes(casino: Casino, day: dt.date, tables: list[TableLine],
               month: reports.MonthRevenue) -> tax_rules.Month:
    """The day's gaming taxes by the rules in force that day (``docs/gaming-tax.md``): what the
    day adds to its month's return, a negative base taxed at zero."""

    results = [{"table": t.table, "game": t.game, "drop": fmt(t.drop), "win": fmt(t.win)}
               for t in tables]
    register = [tax_rules.RegisterLine(
        day=day, table=r["table"], game=r["game"], bank=r["bank"], vip=r["vip"],
        opening=Decimal(r["opening"]), drop=Decimal(r["drop"]), win=Decimal(r["win"]),
        commission=Decimal(r["commission"]),
        capital=Decimal(r["capital"]) if "capital" in r else None,
        capital_source=r.get("capital_source", ""))
        for r in day_register(casino, day, results)]
    revenue = tax_rules.DayRevenue(day=day, table_win=month.table_win,
                                   jackpot_retained=month.jackpot_retained,
                                   jackpot_funding=month.jackpot_funding,
                                   non_banked=month.non_banked_revenue)
    return taxes_of.day_figures(casino, day, register, revenue)


def close_report(*, casino: str, gaming_day: dt.date) -> CloseReport:
    """The close report of ``casino``'s ``gaming_day`` (NotFound for an unknown casino): a
    closed day's as its close recorded it, an open day's worked out now."""
    the_casino = selectors.casino_get(casino)
    stored = stored_report(casino, gaming_day)
    if stored is not None:
        return report_from_data(stored)
    return worked_out_report(the_casino, gaming_day)


def worked_out_report(the_casino: Casino, gaming_day: dt.date) -> CloseReport:
    """The report worked out from the projections as they stand (what the close records)."""
    casino = the_casino.code
    tables = _tables(casino, gaming_day)
    games = _games(tables)
    cage = _cage(casino, gaming_day)
    jackpots = _jackpots(the_casino, gaming_day)
    month = reports.gross_gaming_revenue(casino=casino, day_from=gaming_day, day_to=gaming_day,
                                         with_taxes=False).months[0]
    base = _money(month.gross_gaming_revenue)
    revenue = Revenue(table_revenue=_money(month.table_revenue),
                      table_variance=_money(month.table_variance),
                      jackpot_retained=_money(month.jackpot_retained),
                      jackpot_funding=_money(month.jackpot_funding), gross_gaming_revenue=base)
    day_taxes = _day_taxes(the_casino, gaming_day, tables, month)
    taxes = [TaxLine(code=t.code, name=t.name, rate=t.rate, base=t.base, amount=t.amount,
                     legal_source=t.legal_source) for t in day_taxes.lines]
    totals = Totals(
        drop=sum((t.drop for t in tables), ZERO), win=sum((t.win for t in tables), ZERO),
        gaming_tax_base=base,
        taxes=sum((t.amount for t in taxes), ZERO),
        chips_in_circulation=_chips_in_circulation(the_casino, gaming_day),
        jackpot_liability=sum((j.liability for j in jackpots), ZERO),
        machine_win=_machine_win(the_casino, gaming_day))
    return as_sealed(CloseReport(
        casino=casino, casino_name=the_casino.name, currency=the_casino.currency,
        jurisdiction=taxes_of.jurisdiction_of(the_casino), gaming_day=gaming_day,
        starts_at=the_casino.gaming_day_start(gaming_day),
        ends_at=the_casino.gaming_day_end(gaming_day), tables=tuple(tables), games=tuple(games),
        cage=tuple(cage), jackpots=tuple(jackpots), revenue=revenue, taxes=tuple(taxes),
        exceptions=tuple(_exceptions(the_casino, gaming_day)), totals=totals,
        corrections=tuple(_corrections(casino, gaming_day)),
        non_banked=tuple(non_banked_lines(casino, gaming_day)),
        machines=tuple(machine_close_lines(the_casino, gaming_day)),
        sessions=tuple(_sessions(casino, gaming_day)),
        currencies=tuple(currency_lines(the_casino, gaming_day))))


def _machine_win(casino: Casino, day: dt.date) -> Decimal | None:
    figures = machine_day_figures(casino, day)
    return Decimal(figures["machine_win"]) if figures else None
