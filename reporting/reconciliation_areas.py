"""The reconciliation's lines of the tips and of the exchange at the cage (issue 39): what
each area holds against its ledger accounts, in the book currency.

* tips: the confirmed tip boxes' cash (1150), the tips held, boxes and corrections less what
  was distributed (2791), the staff's (2792) and the fund's (2793) payables;
* exchange: the desk's book-currency cash (1161) and each foreign holding's book value
  (1171.<currency>), its amount in its own currency in the note;
* the foreign notes counted at the windows' closes of the day, per currency, against what the
  ledger moved for those shifts at face value (0900.<currency>.1171.<currency>: the boxes
  received, less a variance at the close), ``docs/cage.md``, *Foreign notes at a window*.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db import connection
from django.db.models import Sum

from cage.models import Shift, ShiftStatus
from casino.errors import Words, gettext_noop
from casino.models import Casino
from casino.money import fmt
from eventstore.models import StoredEvent
from exchange import selectors as exchange
from tips import selectors as tips
from tips.models import TipBox, TipPeriod

from .reconciliation_lines import Line, ledger_balance

ZERO = Decimal("0.00")


def tips_and_exchange(casino: Casino) -> list[Line]:
    code = casino.code
    lines: list[Line] = []
    boxes = (TipBox.objects.filter(casino_id=code, status="confirmed")
             .aggregate(s=Sum("amount"))["s"] or ZERO)
    periods = TipPeriod.objects.filter(casino_id=code).aggregate(f=Sum("fund"), s=Sum("staff"))
    if boxes or ledger_balance(code, "2791"):
        lines += [
            Line(gettext_noop("tips"), gettext_noop("tip boxes"),
                 gettext_noop("cash of the tip boxes counted"), boxes, ledger_balance(code, "1150")),
            Line(gettext_noop("tips"), gettext_noop("tips held"),
                 gettext_noop("counted and corrected, less distributed"), tips.tips_held(code),
                 -ledger_balance(code, "2791")),
            Line(gettext_noop("tips"), gettext_noop("staff"), gettext_noop("distributed, payable"),
                 periods["s"] or ZERO, -ledger_balance(code, "2792")),
            Line(gettext_noop("tips"), gettext_noop("fund"), gettext_noop("distributed, payable"),
                 periods["f"] or ZERO, -ledger_balance(code, "2793")),
        ]
    desk = exchange.desk_get(code)
    if desk is not None:
        lines.append(Line(gettext_noop("exchange"), gettext_noop("desk"),
                          Words("cash in {currency}", currency=desk.book_currency), desk.cash,
                          ledger_balance(code, "1161")))
    # the foreign holdings: the desk's deals and the foreign tables' drop boxes received
    for held in exchange.holdings(code):
        lines.append(Line(
            gettext_noop("exchange"), held.currency,
            Words("book value in {currency}", currency=casino.currency),
            Decimal(held.book_value), ledger_balance(code, f"1171.{held.currency}"),
            Words("{amount} {currency} held", amount=fmt(Decimal(held.amount)),
                  currency=held.currency)))
    return lines


def foreign_at_windows(casino: Casino, day: dt.date) -> list[Line]:
    """Per foreign currency, the notes the day's closed shifts counted at their closes
    (``ShiftClosed.foreign``) against the ledger's face value of those shifts' foreign notes
    (the memorandum 0900.<currency>.1171.<currency> of the entries of their streams). A day
    whose windows counted no foreign notes has no line (a single-currency casino's report is
    unchanged)."""
    streams = [f"shift/{i}" for i in Shift.objects.filter(
        casino=casino, gaming_day=day, status=ShiftStatus.CLOSED).values_list("id", flat=True)]
    counted: dict[str, Decimal] = {}
    for data in StoredEvent.objects.filter(stream__in=streams, event_type="ShiftClosed"
                                           ).values_list("data", flat=True):
        for currency, counts in (data.get("foreign") or {}).items():
            counted[currency] = counted.get(currency, ZERO) + sum(
                (Decimal(d) * int(n) for d, n in counts.items()), ZERO)
    lines = []
    for currency in sorted(counted):
        code = f"0900.{currency}.1171.{currency}"
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT coalesce(sum(l.debit - l.credit), 0) FROM journal_line l "
                "JOIN journal_entry e ON e.id = l.entry_id WHERE l.casino_id = %s AND "
                "l.account_code = %s AND e.stream = ANY(%s)", [casino.code, code, streams])
            ledger = Decimal(cursor.fetchone()[0]).quantize(Decimal("0.01"))
        lines.append(Line(gettext_noop("cage"), currency,
                          Words("counted at the windows' closes, {currency}", currency=currency),
                          counted[currency].quantize(Decimal("0.01")), ledger))
    return lines
