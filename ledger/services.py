"""The ledger's write side: closing a gaming day's period.

Everything else the ledger writes, it writes as a projection of other apps' events. Closing a
period is the ledger's own command: it checks the day's journal under the append lock, which every
command takes first (so no posting can slip into the day while it is checked), then records ``PeriodClosed``; from then on
PostgreSQL refuses any entry in that day, and the projection posts an event of that day in the
first open day after it.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db import connection

from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound, gettext_noop
from casino.models import Casino, Role
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata
from games.selectors import drop_variances_unapproved, session_variances

from . import postings
from .answers import PeriodCloseAnswer
from .events import PeriodClosed
from .models import Period

CLOSING_ROLES = ("system", Role.ADMINISTRATOR)

# Messages tests and screens rely on.
DAY_NOT_OVER = gettext_noop("gaming day {day} is not over yet: it ends at {end} ({zone})")
EARLIER_DAY_OPEN = gettext_noop("gaming day {earlier} has postings and is still open: close it first")
UNBALANCED = gettext_noop("gaming day {day} does not balance: {detail}")
DROP_VARIANCE_UNAPPROVED = gettext_noop("gaming day {day} cannot close: drop boxes were received with a "
                                        "difference from their count that is not approved yet ({boxes}); "
                                        "explain each and have a cage supervisor approve it")
TABLE_VARIANCE_UNAPPROVED = gettext_noop("gaming day {day} cannot close: table variances are not approved "
                                         "yet ({sessions}); a pit boss asks, another pit boss or the "
                                         "accountant approves (docs/approvals.md)")

_UNBALANCED_SQL = """
SELECT e.number, sum(l.debit), sum(l.credit), count(l.id)
  FROM journal_entry e LEFT JOIN journal_line l ON l.entry_id = e.id
 WHERE e.casino_id = %s AND e.day = %s
 GROUP BY e.id, e.number
HAVING sum(l.debit) IS DISTINCT FROM sum(l.credit) OR count(l.id) < 2
 ORDER BY e.number
 LIMIT 10
"""
_TOTALS_SQL = """
SELECT count(DISTINCT e.id), min(e.number), max(e.number),
       coalesce(sum(l.debit), 0), coalesce(sum(l.credit), 0)
  FROM journal_entry e LEFT JOIN journal_line l ON l.entry_id = e.id
 WHERE e.casino_id = %s AND e.day = %s
"""
_BALANCE_TABLE_SQL = """
SELECT coalesce(sum(debit), 0), coalesce(sum(credit), 0)
  FROM ledger_balance WHERE casino_id = %s AND day = %s
"""
_EARLIER_OPEN_SQL = """
SELECT min(e.day) FROM journal_entry e
 WHERE e.casino_id = %s AND e.day < %s
   AND NOT EXISTS (SELECT 1 FROM ledger_period p WHERE p.casino_id = e.casino_id AND p.day = e.day)
"""


def period_stream(casino: str, day: dt.date) -> str:
    return f"ledger_period/{casino}.{day.isoformat()}"


@command("period_close")
def period_close(*, casino: str, day: dt.date, metadata: Metadata,
                 now: dt.datetime | None = None) -> PeriodCloseAnswer:
    """Close gaming day ``day`` of ``casino``'s ledger, if it is over and balances.

    Idempotent by state: a day already closed is left as it is and its figures returned.
    Refuses (``Conflict``) a day that is not over, a day after an open day with postings, and a
    day whose journal does not balance (every entry, and the day's totals, which must also agree
    with the running balances).
    """
    if metadata.role not in CLOSING_ROLES:
        raise NotAllowed("a ledger period is closed by the scheduled close or an administrator, "
                         "not in the {role} role", params={"role": metadata.role})
    if metadata.casino != casino:
        raise InvalidCommand("acting in casino {casino!r}, not {casino_2!r}",
                             params={"casino": metadata.casino, "casino_2": casino})
    the_casino = Casino.objects.filter(code=casino).first()
    if the_casino is None:
        raise NotFound("there is no casino {casino!r}", params={"casino": casino})
    closed = Period.objects.filter(casino_id=casino, day=day).first()
    if closed is not None:
        return _answer(casino, day, closed.entries, closed.debit_total, closed.credit_total,
                       already_closed=True)
    end = the_casino.gaming_day_end(day)
    if (now or clock.now()) < end:
        raise Conflict(DAY_NOT_OVER, params=dict(day=day, end=end.isoformat(),
                                           zone=the_casino.time_zone),
                       code="day_not_over", day=day.isoformat())
    _no_unapproved_drop_variance(casino, day)
    _no_unapproved_table_variance(casino, day)
    with connection.cursor() as cursor:
        cursor.execute(_EARLIER_OPEN_SQL, [casino, day])
        earlier = cursor.fetchone()[0]
        if earlier is not None:
            raise Conflict(EARLIER_DAY_OPEN, params=dict(earlier=earlier), code="earlier_day_open",
                           day=earlier.isoformat())
        cursor.execute(_UNBALANCED_SQL, [casino, day])
        bad = cursor.fetchall()
        if bad:
            detail = "; ".join(f"entry {n}: debits {d or 0}, credits {c or 0}, {k} line(s)"
                               for n, d, c, k in bad)
            raise Conflict(UNBALANCED, params=dict(day=day, detail=detail), code="unbalanced",
                           entries=[row[0] for row in bad])
        cursor.execute(_TOTALS_SQL, [casino, day])
        entries, first, last, debit, credit = cursor.fetchone()
        cursor.execute(_BALANCE_TABLE_SQL, [casino, day])
        running_debit, running_credit = cursor.fetchone()
    if debit != credit:
        raise Conflict(UNBALANCED, params=dict(day=day, detail=f"debits {debit}, credits {credit}"),
                       code="unbalanced")
    if (running_debit, running_credit) != (debit, credit):
        raise Conflict(UNBALANCED, params=dict(
            day=day, detail=f"the running balances ({running_debit} / {running_credit}) differ "
                            f"from the journal ({debit} / {credit})"), code="unbalanced")
    event = PeriodClosed(casino=casino, gaming_day=day, entries=entries, first_entry=first,
                         last_entry=last, debit_total=Decimal(debit), credit_total=Decimal(credit))
    store.append(period_stream(casino, day), [event], expected_version=0, metadata=metadata)
    return _answer(casino, day, entries, debit, credit, already_closed=False)


def _no_unapproved_table_variance(casino: str, day: dt.date) -> None:
    """A table variance of any size is approved by a second person before its gaming day closes
    (``docs/approvals.md``, kind ``table_variance``)."""
    waiting = [v for v in session_variances(casino=casino, gaming_day=day) if not v.approved]
    if waiting:
        listed = "; ".join(f"table {v.table}: {v.variance} ({v.state.replace('_', ' ')})"
                           for v in waiting[:10])
        raise Conflict(TABLE_VARIANCE_UNAPPROVED, params=dict(day=day, sessions=listed),
                       code="table_variance_unapproved", day=day.isoformat())


def _no_unapproved_drop_variance(casino: str, day: dt.date) -> None:
    """A drop box received at the cage with a difference from its count needs an explanation and
    a cage supervisor's approval before its gaming day closes (``docs/tables.md`` § The count
    room)."""
    waiting = drop_variances_unapproved(casino=casino, up_to=day)
    if waiting:
        listed = "; ".join(f"table {b.table} ({b.gaming_day}): {b.variance_value}"
                           for b in waiting[:10])
        raise Conflict(DROP_VARIANCE_UNAPPROVED, params=dict(day=day, boxes=listed),
                       code="drop_variance_unapproved",
                       sessions=[str(b.session_id) for b in waiting])


def _answer(casino: str, day: dt.date, entries: int, debit: Decimal, credit: Decimal, *,
            already_closed: bool) -> PeriodCloseAnswer:
    return PeriodCloseAnswer(casino=casino, day=day.isoformat(), entries=entries,
                             debit_total=str(Decimal(debit).quantize(postings.CENT)),
                             credit_total=str(Decimal(credit).quantize(postings.CENT)),
                             already_closed=already_closed)
