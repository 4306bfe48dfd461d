"""Gaming taxes: the parameters in force, their changes, the monthly return, its accrual and
payment (``docs/gaming-tax.md``).

The rules are data (``ledger.tax_rules``: the legal baseline of each parameter with its source);
every change is a ``TaxParameterSet`` event, from a day on, with who, when and the legal source
it cites (``tax_parameter_set``). A month's return (``monthly_return``) is made of the casino's
closed days only: the register and revenue each close fixed (``GamingDayClosed``), each day at
the parameters in force that day. ``gaming_tax_accrue`` books a finished month's return as a
liability; ``gaming_tax_pay`` pays it. Nothing here reads Django settings.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from cage.models import Shift
from casino.context import SYSTEM_ACTOR
from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound
from casino.jurisdictions import jurisdiction_of as rule
from casino.models import Casino, Role
from casino.money import Money, fmt
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata
from games.models import TableSession

from . import tax_rules
from .answers import AccruedTax, TaxAccrueAnswer, TaxParameterAnswer, TaxPayAnswer
from .events import GamingTaxAccrued, GamingTaxPaid, TaxParameterSet
from .machine_taxes import machine_days, machine_lines
from .models import DayClose, TaxAccrual, TaxParameterChange
from .tax_rules import ZERO, DayRevenue, RegisterLine, Rules, TaxLine

TAX_ROLES = (Role.ACCOUNTANT, Role.ADMINISTRATOR)


def jurisdiction_of(casino: Casino) -> str:
    """The one rule, ``casino.jurisdictions`` (the regulator's API scopes by it too)."""

    return rule(casino.code, casino.currency)


def rules_for(casino: Casino) -> Rules:
    """The casino's jurisdiction's baseline and every change recorded (selector)."""
    where = jurisdiction_of(casino)
    changes = [tax_rules.Change(code=c.code, value=c.value, effective_from=c.effective_from,
                                legal_source=c.legal_source, casino=c.casino_code,
                                set_by=c.set_by, set_at=c.set_at, position=c.position)
               for c in TaxParameterChange.objects.filter(jurisdiction=where)]
    return Rules(where, casino.code, changes)


def parameter_history(casino: Casino) -> list[TaxParameterChange]:
    """Every change of the casino's jurisdiction's parameters (its own and the jurisdiction's)."""
    from django.db.models import Q

    return list(TaxParameterChange.objects.filter(jurisdiction=jurisdiction_of(casino)).filter(
        Q(casino_code="") | Q(casino_code=casino.code)).order_by("position"))


def _casino(code: str) -> Casino:
    found = Casino.objects.filter(code=code).first()
    if found is None:
        raise NotFound("there is no casino {code!r}", params={"code": code}, field="casino")
    return found


def check_accountant(metadata: Metadata, what: str) -> None:
    """Refuse ``what`` unless the command is an accountant's or an administrator's (the
    ledger's own commands: the gaming taxes, the bank's clearing)."""
    if metadata.role not in TAX_ROLES:
        raise NotAllowed("{what} is for an accountant or an administrator, not the "
                         "{role} role", params={"what": what, "role": metadata.role})


# --- changing a parameter ------------------------------------------------------------------------


@command("tax_parameter_set")
def tax_parameter_set(*, code: str, value: object, effective_from: dt.date, legal_source: str,
                      for_casino: bool = False, note: str = "", metadata: Metadata) -> TaxParameterAnswer:
    """Change a gaming-tax parameter from ``effective_from`` on, citing its legal source; for
    the acting casino alone (``for_casino``, and always for a per-casino parameter) or for
    every casino of its jurisdiction. Refused from a day already closed in a casino it reaches
    (a closed day's figures are sealed)."""
    check_accountant(metadata, "changing a gaming-tax parameter")
    casino = _casino(metadata.casino)
    try:
        p = tax_rules.parameter(code)
        stored = p.parse(value)
    except tax_rules.ParameterError as error:
        raise InvalidCommand(error.template, params=error.params,
                             field="value" if code in tax_rules.BY_CODE else "code") from None
    where = jurisdiction_of(casino)
    if p.jurisdiction != where:
        raise InvalidCommand("{code} is a parameter of {jurisdiction}; casino {code_2} "
                             "answers to {value}",
                             params={"code": code, "jurisdiction": p.jurisdiction, "code_2": casino.code, "value": where or 'no jurisdiction'}, field="code")
    if not isinstance(effective_from, dt.date):
        raise InvalidCommand("the day it is in force from is a date", field="effective_from")
    if not legal_source.strip():
        raise InvalidCommand("cite the legal source of the new value (article, order, contract "
                             "clause)", field="legal_source")
    scoped = for_casino or p.per_casino
    reached = ([casino.code] if scoped else
               [c.code for c in Casino.objects.all() if jurisdiction_of(c) == where])
    closed = DayClose.objects.filter(casino_id__in=reached, day__gte=effective_from) \
        .order_by("-day").values_list("casino_id", "day").first()
    if closed is not None:
        raise Conflict("gaming day {closed} of {closed_2} is closed and sealed: a change "
                       "can take effect from {closed_3} at the earliest",
                       params={"closed": closed[1], "closed_2": closed[0], "closed_3": closed[1] + dt.timedelta(days=1)},
                       code="day_closed", field="effective_from")
    version = TaxParameterChange.objects.filter(jurisdiction=where).count()
    store.append(f"tax_rules/{where}", [TaxParameterSet(
        jurisdiction=where, code=code, value=stored, effective_from=effective_from,
        legal_source=legal_source.strip(), casino=casino.code if scoped else "",
        note=note.strip())], expected_version=version, metadata=metadata)
    return TaxParameterAnswer(jurisdiction=where, code=code, value=stored,
                              effective_from=effective_from.isoformat(),
                              casino=casino.code if scoped else "", version=version + 1)


# --- the monthly return --------------------------------------------------------------------------


@dataclass(frozen=True)
class ParameterInForce:
    code: str
    name: str
    value: str
    effective_from: dt.date
    legal_source: str
    set_by: str  # empty: the legal baseline
    demo: bool


@dataclass(frozen=True)
class MonthlyReturn:
    """One casino's gaming-tax return for one month, made of its closed days."""

    casino: str
    casino_name: str
    currency: str
    jurisdiction: str
    month: dt.date  # its first day
    days_closed: tuple[dt.date, ...]
    days_open: tuple[dt.date, ...]  # days with activity not closed yet: the return is partial
    register: tuple[RegisterLine, ...]
    revenue: tuple[DayRevenue, ...]
    figures: tax_rules.Month
    lines: tuple[TaxLine, ...]  # the month's taxes, then the annual figures' accruals
    parameters: tuple[ParameterInForce, ...]  # at the month's last day
    accrued: bool
    paid: Decimal

    @property
    def complete(self) -> bool:
        return not self.days_open

    @property
    def total(self) -> Decimal:
        return sum((line.amount for line in self.lines), ZERO)

    @property
    def monthly_total(self) -> Decimal:
        return sum((line.amount for line in self.lines if not line.annual), ZERO)


def month_of(text: str) -> dt.date:
    """``YYYY-MM`` → its first day, or InvalidCommand."""
    try:
        return dt.date.fromisoformat(f"{text}-01")
    except (TypeError, ValueError):
        raise InvalidCommand("a month is YYYY-MM, not {text!r}",
                             params={"text": text}, field="month") from None


def _month_end(month: dt.date) -> dt.date:
    return tax_rules._month_end(month)


def _register(close: DayClose) -> list[RegisterLine]:
    return [RegisterLine(day=close.day, table=str(r["table"]), game=str(r["game"]),
                         bank=str(r.get("bank", "simples")), vip=bool(r.get("vip", False)),
                         opening=Decimal(str(r["opening"])), drop=Decimal(str(r["drop"])),
                         win=Decimal(str(r["win"])),
                         commission=Decimal(str(r.get("commission", "0"))),
                         capital=(Decimal(str(r["capital"])) if r.get("capital") is not None
                                  else None),
                         capital_source=str(r.get("capital_source", "")))
            for r in close.register]


def _revenue(close: DayClose) -> DayRevenue:
    r = close.revenue
    return DayRevenue(day=close.day, table_win=Decimal(str(r.get("table_win", "0"))),
                      jackpot_retained=Decimal(str(r.get("jackpot_retained", "0"))),
                      jackpot_funding=Decimal(str(r.get("jackpot_funding", "0"))),
                      non_banked=Decimal(str(r.get("non_banked", "0"))))


def _closes(casino: Casino, first: dt.date, last: dt.date) -> list[DayClose]:
    return list(DayClose.objects.filter(casino=casino, day__gte=first, day__lte=last)
                .order_by("day"))


def _active_days(casino: Casino, first: dt.date, last: dt.date) -> set[dt.date]:
    days = set(TableSession.objects.filter(casino=casino, gaming_day__gte=first,
                                           gaming_day__lte=last)
               .values_list("gaming_day", flat=True))
    days |= set(Shift.objects.filter(casino=casino, gaming_day__gte=first, gaming_day__lte=last)
                .values_list("gaming_day", flat=True))
    return days | machine_days(casino.code, first, last)


def _months_of_year(month: dt.date) -> list[dt.date]:
    return [dt.date(month.year, m, 1) for m in range(1, month.month + 1)]


def _year_lines(casino: Casino, rules: Rules, month: dt.date, closes: Sequence[DayClose]
                ) -> tuple[tax_rules.Month, list[TaxLine]]:
    """The month's figures and lines, with the annual figures accrued to it."""
    by_month: dict[dt.date, list[DayClose]] = {}
    for c in closes:
        by_month.setdefault(c.day.replace(day=1), []).append(c)
    bases: list[Decimal] = []
    iej = taxable = table_win = ZERO
    tables: set[str] = set()
    vip: set[str] = set()
    before: dict[str, Decimal] = {}
    figures: tax_rules.Month | None = None
    lines: list[TaxLine] = []
    for index, m in enumerate(_months_of_year(month), start=1):
        days = by_month.get(m, [])
        register = [line for c in days for line in _register(c)]
        figures = tax_rules.month_figures(rules=rules, month=m, register=register,
                                          revenue=[_revenue(c) for c in days],
                                          earlier_bases=bases)
        bases.append(figures.gross_revenue)
        iej += sum((t.amount for t in figures.lines if t.code.startswith("pt-iej")), ZERO)
        taxable += figures.taxable_revenue
        table_win += sum((r.win for r in register), ZERO)
        # the premium's tables: the banked ones (the poker room's tables and tournaments are
        # left out until a source says how Macau's premium counts them: docs/poker-room.md)
        tables |= {r.table for r in register if r.banked}
        vip |= {r.table for r in register if r.vip and r.banked}
        ytd = tax_rules.YearToDate(months=index, taxable_revenue=taxable, iej=iej,
                                   tables=frozenset(tables), vip_tables=frozenset(vip),
                                   table_win=table_win)
        now = tax_rules.annual_to_date(rules=rules, day=_month_end(m), ytd=ytd)
        if m == month:
            annual_bases = {"pt-contrapartida": taxable, "mo-premium": Decimal(len(tables)),
                            "mo-special-premium": table_win}
            lines = [*figures.lines, *tax_rules.annual_lines(
                rules=rules, day=_month_end(m), before=before, now=now, bases=annual_bases)]
        before = now
    assert figures is not None
    return figures, lines


def monthly_return(casino: str, month: str | dt.date) -> MonthlyReturn:
    """The casino's gaming-tax return for ``month`` (``YYYY-MM`` or its first day): its closed
    days' register and revenue, each day's taxes at the parameters in force that day, and the
    year's annual figures accrued to the month. Read-only (the regulator's API may serve it)."""
    the_casino = _casino(casino)
    first = month_of(month) if isinstance(month, str) else month.replace(day=1)
    last = _month_end(first)
    rules = rules_for(the_casino)
    year = _closes(the_casino, dt.date(first.year, 1, 1), last)
    this_month = [c for c in year if c.day >= first]
    closed = {c.day for c in this_month}
    still_open = sorted(_active_days(the_casino, first, last) - closed)
    figures, lines = _year_lines(the_casino, rules, first, year)
    lines[len(figures.lines):len(figures.lines)] = machine_lines(rules, this_month, last)
    p = tax_rules.BY_CODE
    parameters = tuple(
        ParameterInForce(code=f.code, name=p[f.code].name, value=f.value,
                         effective_from=f.effective_from, legal_source=f.legal_source,
                         set_by=f.set_by, demo=p[f.code].demo and not f.set_by)
        for f in (rules.in_force(code, last) for code in rules.codes()))
    accruals = TaxAccrual.objects.filter(casino=the_casino, month=first.strftime("%Y-%m"))
    return MonthlyReturn(
        casino=the_casino.code, casino_name=the_casino.name, currency=the_casino.currency,
        jurisdiction=rules.jurisdiction, month=first, days_closed=tuple(sorted(closed)),
        days_open=tuple(still_open),
        register=tuple(line for c in this_month for line in _register(c)),
        revenue=tuple(_revenue(c) for c in this_month), figures=figures, lines=tuple(lines),
        parameters=parameters, accrued=accruals.exists(),
        paid=sum((a.paid for a in accruals), ZERO))


def day_figures(casino: Casino, day: dt.date, register: Sequence[RegisterLine],
                revenue: DayRevenue) -> tax_rules.Month:
    """One day's taxes by the rules in force that day (the close report's lines): what the day
    adds to its month's return."""
    return tax_rules.month_figures(rules=rules_for(casino), month=day.replace(day=1),
                                   register=register, revenue=[revenue])


# --- accrual and payment -------------------------------------------------------------------------


def _stream(casino: str, month: dt.date) -> str:
    return f"gaming_tax/{casino}.{month.strftime('%Y-%m')}"


@command("gaming_tax_accrue")
def gaming_tax_accrue(*, casino: str, month: str, metadata: Metadata,
                      now: dt.datetime | None = None) -> TaxAccrueAnswer:
    """Book a finished month's return as a liability (``GamingTaxAccrued``): refused before the
    month is over, while a day with activity is not closed, or a second time."""
    if not metadata.actor.startswith(SYSTEM_ACTOR):
        check_accountant(metadata, "accruing a month's gaming tax")
    if metadata.casino != casino:
        raise InvalidCommand("acting in casino {casino!r}, not {casino_2!r}",
                             params={"casino": metadata.casino, "casino_2": casino})
    the_casino = _casino(casino)
    first = month_of(month)
    end = the_casino.gaming_day_end(_month_end(first))
    if (now or clock.now()) < end:
        raise Conflict("{month} is not over: its last gaming day ends at {end}",
                       params={"month": month, "end": end.isoformat()},
                       code="month_not_over")
    if TaxAccrual.objects.filter(casino=the_casino, month=month).exists():
        raise Conflict("the gaming tax of {month} is accrued already",
                       params={"month": month}, code="already_accrued")
    the_return = monthly_return(casino, first)
    if not the_return.complete:
        days = ", ".join(d.isoformat() for d in the_return.days_open)
        raise Conflict("{month} cannot be accrued: these gaming days are not closed: {days}",
                       params={"month": month, "days": days},
                       code="days_not_closed", days=[d.isoformat() for d in the_return.days_open])
    lines = tuple({"code": t.code, "name": t.name, "base": fmt(t.base), "amount": fmt(t.amount)}
                  for t in the_return.lines)
    answered = [AccruedTax(**line) for line in lines]
    store.append(_stream(casino, first), [GamingTaxAccrued(
        casino=casino, month=month, jurisdiction=the_return.jurisdiction, lines=lines,
        total=the_return.total)], expected_version=0, metadata=metadata)
    return TaxAccrueAnswer(casino=casino, month=month, lines=answered,
                           total=fmt(the_return.total))


@command("gaming_tax_pay")
def gaming_tax_pay(*, casino: str, month: str, code: str, amount: Money, reference: str,
                   metadata: Metadata) -> TaxPayAnswer:
    """Pay an accrued tax of a month (``GamingTaxPaid``), at most what is still owed, citing
    the payment document."""
    check_accountant(metadata, "paying a gaming tax")
    if metadata.casino != casino:
        raise InvalidCommand("acting in casino {casino!r}, not {casino_2!r}",
                             params={"casino": metadata.casino, "casino_2": casino})
    first = month_of(month)
    accrual = TaxAccrual.objects.filter(casino_id=casino, month=month, code=code).first()
    if accrual is None:
        raise NotFound("no accrued tax {code!r} for {month} in {casino}",
                       params={"code": code, "month": month, "casino": casino}, field="code")
    value = amount  # parsed at the edge (``casino.money.parse_amount``)
    owed = accrual.accrued - accrual.paid
    if value > owed:
        raise Conflict("{code} of {month} owes {owed}, not {value}",
                       params={"code": code, "month": month, "owed": fmt(owed), "value": fmt(value)},
                       code="more_than_owed", field="amount")
    if not reference.strip():
        raise InvalidCommand("give the payment document's reference (guia, receipt)",
                             field="reference")
    version = 1 + sum(len(a.payments) for a in
                      TaxAccrual.objects.filter(casino_id=casino, month=month))
    store.append(_stream(casino, first), [GamingTaxPaid(
        casino=casino, month=month, code=code, amount=value, reference=reference.strip())],
        expected_version=version, metadata=metadata)
    return TaxPayAnswer(casino=casino, month=month, code=code, paid=fmt(value),
                        owed=fmt(owed - value))
