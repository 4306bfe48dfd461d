"""Reads of the ledger: accounts, entries, periods, and which casino a person may read.

The ledger is read by accountants (reads and exports only), regulators and administrators; the
permission check is written once, in ``casino_get_for``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch, QuerySet
from django.utils.translation import get_language

from casino.errors import InvalidCommand, NotAllowed, NotFound
from casino.models import Casino, Role
from casino.selectors import casino_codes_for

from .models import Account, JournalEntry, JournalLine, Period

READER_ROLES: tuple[str, ...] = (Role.ACCOUNTANT, Role.REGULATOR, Role.ADMINISTRATOR)


def casino_get(code: str) -> Casino:
    casino = Casino.objects.filter(code=code).first()
    if casino is None:
        raise NotFound("there is no casino {code!r}", params={"code": code}, casino=code)
    return casino


def casino_get_for(user: AbstractBaseUser | AnonymousUser, code: str,
                   roles: Sequence[str] = READER_ROLES) -> Casino:
    """The casino, if ``user`` holds one of ``roles`` there (NotAllowed otherwise)."""
    if not user.is_authenticated:
        raise NotAllowed("log in first")
    casino = casino_get(code)
    if code not in casino_codes_for(user, *roles):
        raise NotAllowed("reading the ledger of {code!r} needs one of these roles there: "
                         "{roles}", params={"code": code, "roles": ', '.join(roles)})
    return casino


def casinos_for(user: AbstractBaseUser | AnonymousUser,
                roles: Sequence[str] = READER_ROLES) -> QuerySet[Casino]:
    return Casino.objects.filter(code__in=casino_codes_for(user, *roles)).order_by("code")


def casino_for_command(code: str | None) -> Casino:
    """The casino a management command works on: the one named, or the only one there is."""
    if code:
        return casino_get(code)
    casinos = list(Casino.objects.all()[:2])
    if len(casinos) != 1:
        raise InvalidCommand("name the casino (--casino CODE): there is "
                             "{value}",
                             params={"value": 'none' if not casinos else 'more than one'})
    return casinos[0]


# Every range a request may ask for is bounded (issue 35, finding 5: gross-gaming-revenue walked
# every month of from..to, one request held a worker's core for two minutes, and
# to=9999-12-31 overflowed into a 500): at most a year and a day, the longest span a report
# needs (a year's monthly returns), of days between FIRST_DAY and LAST_DAY.
MAX_PERIOD_DAYS = 366
FIRST_DAY = dt.date(2000, 1, 1)
LAST_DAY = dt.date(2199, 12, 31)


def day_bounded(day: dt.date, name: str = "day") -> dt.date:
    """``day``, if between ``FIRST_DAY`` and ``LAST_DAY``; else a refusal naming ``name``."""
    if not FIRST_DAY <= day <= LAST_DAY:
        raise InvalidCommand("{day} is not a gaming day this casino can have (from {first} to "
                             "{last})", params={"day": day, "first": FIRST_DAY,
                                                "last": LAST_DAY}, field=name)
    return day


def period_bounds(day_from: dt.date, day_to: dt.date) -> tuple[dt.date, dt.date]:
    day_bounded(day_from, "from")
    day_bounded(day_to, "to")
    if day_from > day_to:
        raise InvalidCommand("the period starts ({day_from}) after it ends ({day_to})",
                             params={"day_from": day_from, "day_to": day_to})
    if (day_to - day_from).days + 1 > MAX_PERIOD_DAYS:
        raise InvalidCommand("ask for at most {days} gaming days at a time",
                             params={"days": MAX_PERIOD_DAYS}, field="to")
    return day_from, day_to


def account_list(*, casino: str) -> QuerySet[Account]:
    return Account.objects.filter(casino_id=casino).order_by("code")


def entry_list(*, casino: str, day_from: dt.date, day_to: dt.date) -> QuerySet[JournalEntry]:
    return (JournalEntry.objects.filter(casino_id=casino, day__gte=day_from, day__lte=day_to)
            .select_related("corrects")
            .prefetch_related(Prefetch("lines", queryset=JournalLine.objects.order_by("line_no")))
            .order_by("number"))


def entry_get(*, casino: str, number: int) -> JournalEntry:
    entry = (JournalEntry.objects.filter(casino_id=casino, number=number)
             .select_related("corrects")
             .prefetch_related(Prefetch("lines", queryset=JournalLine.objects.order_by("line_no")),
                               "corrections")
             .first())
    if entry is None:
        raise NotFound("there is no journal entry {number} in {casino}",
                       params={"number": number, "casino": casino}, entry=number)
    return entry


def period_list(*, casino: str) -> QuerySet[Period]:
    return Period.objects.filter(casino_id=casino).order_by("-day")


def account_names(*, casino: str, codes: Sequence[str]) -> dict[str, str]:
    """Each account's name in the active language (the chart keeps English and Portuguese)."""
    portuguese = (get_language() or "en").lower().startswith("pt")
    return {code: (name_pt or name) if portuguese else name
            for code, name, name_pt in Account.objects.filter(
                casino_id=casino, code__in=codes).values_list("code", "name", "name_pt")}


def tax_accruals(*, casino: str, month: str) -> list[Any]:
    """A month's gaming taxes as accrued and paid (``ledger.taxes.gaming_tax_accrue``)."""
    from .models import TaxAccrual

    return list(TaxAccrual.objects.filter(casino_id=casino, month=month).order_by("code"))
