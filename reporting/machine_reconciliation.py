"""The slot floor's lines of the reconciliation (``reporting.reconciliation``, docs/machines.md
§ Reconciliation): what the floor's meters, counts, tickets, hand pays and pools say against the
ledger's accounts, each worked out apart.

* each machine read in the day: its play by meters (coin in − coin out − contributions − the
  jackpots it locked up for) against its revenue (7218.M) over the day's events;
* each machine read in the day: its hand-paid jackpots and cancelled credits by meters against
  the hand pays recorded against it that day (its own events);
* the day's tickets out and in by meters against the tickets printed and taken at machines;
* the tickets outstanding against 2795; the hand pays recorded not yet paid against 2788;
  the bills metered into boxes not yet dropped against 1145; each progressive pool against
  2796;
* each progressive pool: the day's ``progressive_contributions`` meters of its machines against
  the contributions the ledger moved into its liability (2796.P) on the day's readings;
* each count of the slot cashier's cash in the day: counted against the window's cash in the
  ledger (1146.W) up to the count; each slot cashier's shift of the day not closed, outstanding
  (open, or counted and not closed);
* each box counted in the day: counted against metered, unexplained until a second counter
  confirms it and, if they differ, a second person approves the explanation.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db import connection
from django.db.models import Q, Sum

from casino.errors import Words, gettext_noop
from casino.models import Casino
from machines.models import (
    HandPay,
    Machine,
    MachineBox,
    MachineDay,
    SlotCashCount,
    SlotProgressive,
    SlotShift,
    SlotTicket,
)
from machines.services.shifts import shift_awaits_approval

from .reconciliation_lines import ZERO, Line, ledger_balance

AREA = gettext_noop("machines")


def _sum(query: object, field: str = "amount") -> Decimal:
    total = query.aggregate(total=Sum(field))["total"]  # type: ignore[attr-defined]
    return (total or ZERO).quantize(Decimal("0.01"))


def _balances(casino: str, template: str, *, event_day: dt.date | None = None
              ) -> dict[str, Decimal]:
    """Debits less credits of every account of ``template`` (``1145`` → ``1145.M001``, …), by
    scope, in one statement (a floor has thousands of machines)."""
    sql = ("SELECT l.account_code, coalesce(sum(l.debit - l.credit), 0) FROM journal_line l "
           "JOIN journal_entry e ON e.id = l.entry_id "
           "WHERE l.casino_id = %s AND l.account_code LIKE %s")
    params: list[Any] = [casino, f"{template}.%"]
    if event_day is not None:
        sql += " AND e.event_day = %s"
        params.append(event_day)
    with connection.cursor() as cursor:
        cursor.execute(sql + " GROUP BY l.account_code", params)
        return {code.partition(".")[2]: Decimal(total).quantize(Decimal("0.01"))
                for code, total in cursor.fetchall()}


def machine_lines(casino: Casino, day: dt.date) -> list[Line]:
    code = casino.code
    start, end = casino.gaming_day_start(day), casino.gaming_day_start(day + dt.timedelta(days=1))
    in_day = Q(recorded_at__gte=start, recorded_at__lt=end)
    lines: list[Line] = []
    pays: dict[tuple[str, str], Decimal] = {
        (p["machine"], p["kind"]): p["total"] for p in
        HandPay.objects.filter(in_day, casino_id=code).values("machine", "kind")
        .annotate(total=Sum("amount")).order_by()}
    revenue = _balances(code, "7218", event_day=day)
    for row in MachineDay.objects.filter(casino_id=code, gaming_day=day).order_by("machine"):
        jackpots = pays.get((row.machine, "jackpot"), ZERO)
        paid_by_hand = sum((pays.get((row.machine, kind), ZERO) for kind in
                            ("jackpot", "progressive", "cancelled_credits")), ZERO)
        lines.append(Line(AREA, row.machine, gettext_noop("play by meters, less jackpots"),
                          row.coin_in - row.coin_out - row.contributions - jackpots,
                          -revenue.get(row.machine, ZERO),
                          Words("win by meters {win}", win=row.win)))
        lines.append(Line(AREA, row.machine, gettext_noop("hand pays by meters"),
                          row.jackpots + row.cancelled_credits, paid_by_hand,
                          gettext_noop("jackpots and cancelled credits metered, against the "
                                       "hand pays recorded")))
    # a machine whose revenue moved in the day though no reading of the day says so
    read = {row.machine for row in MachineDay.objects.filter(casino_id=code, gaming_day=day)}
    for machine, total in sorted(revenue.items()):
        if machine not in read and total:
            lines.append(Line(AREA, machine, gettext_noop("play by meters, less jackpots"),
                              -sum((v for (m, k), v in pays.items()
                                    if m == machine and k == "jackpot"), ZERO), -total))
    metered = MachineDay.objects.filter(casino_id=code, gaming_day=day)
    tickets = SlotTicket.objects.filter(casino_id=code)
    lines.append(Line(AREA, gettext_noop("tickets"), gettext_noop("tickets out by meters"),
                      _sum(metered, "tickets_out"),
                      _sum(tickets.filter(issued_at__gte=start, issued_at__lt=end))))
    lines.append(Line(AREA, gettext_noop("tickets"), gettext_noop("tickets in by meters"),
                      _sum(metered, "tickets_in"),
                      _sum(tickets.filter(place="machine", closed_at__gte=start,
                                          closed_at__lt=end))))
    lines.append(Line(AREA, gettext_noop("tickets"), gettext_noop("tickets outstanding"),
                      _sum(tickets.filter(status="outstanding")), -ledger_balance(code, "2795")))
    lines.append(Line(AREA, gettext_noop("hand pays"), gettext_noop("recorded, not yet paid"),
                      _sum(HandPay.objects.filter(casino_id=code, status="recorded")),
                      -ledger_balance(code, "2788")))
    boxes = Machine.objects.filter(casino_id=code)
    ledger_boxes = sum(_balances(code, "1145").values(), ZERO)
    lines.append(Line(AREA, gettext_noop("boxes"), gettext_noop("bills metered, not yet dropped"),
                      _sum(boxes, "box_metered"), ledger_boxes))
    for pool in SlotProgressive.objects.filter(casino_id=code).order_by("pool"):
        lines.append(Line(AREA, pool.pool, gettext_noop("progressive pool"), pool.amount,
                          -ledger_balance(code, f"2796.{pool.pool}")))
    lines.extend(_contribution_lines(casino, day))
    lines.extend(_slot_cash_lines(casino, day))
    for box in MachineBox.objects.filter(casino_id=code, gaming_day=day).order_by("drop_id"):
        confirmed = box.status == "confirmed"
        lines.append(Line(
            AREA, Words("box {drop} of {machine}", drop=box.drop_id, machine=box.machine),
            gettext_noop("counted against metered"), box.counted, box.metered,
            box.explanation or ("" if confirmed else gettext_noop("awaiting the second counter")),
            unexplained=not confirmed or bool(box.variance and not box.approved_by),
            accepted=bool(box.approved_by)))
    return lines


def _contribution_lines(casino: Casino, day: dt.date) -> list[Line]:
    """Each pool: what its machines' own ``progressive_contributions`` meters say they gave it
    in the day, against what the ledger credited to its liability (2796.P) from the day's
    readings and resets (the contribution at the pool's rate on the coin in read)."""
    code = casino.code
    pools = dict(Machine.objects.filter(casino_id=code).exclude(progressive_pool="")
                 .values_list("number", "progressive_pool"))
    metered: dict[str, Decimal] = {}
    for row in MachineDay.objects.filter(casino_id=code, gaming_day=day,
                                         machine__in=list(pools)):
        pool = pools[row.machine]
        metered[pool] = metered.get(pool, ZERO) + row.progressive_contributions
    sql = ("SELECT l.account_code, coalesce(sum(l.credit - l.debit), 0) FROM journal_line l "
           "JOIN journal_entry e ON e.id = l.entry_id WHERE l.casino_id = %s "
           "AND l.account_code LIKE %s AND e.event_day = %s "
           "AND e.event_type IN ('MetersRead', 'MetersReset') GROUP BY l.account_code")
    with connection.cursor() as cursor:
        cursor.execute(sql, [code, "2796.%", day])
        posted = {account.partition(".")[2]: Decimal(total).quantize(Decimal("0.01"))
                  for account, total in cursor.fetchall()}
    return [Line(AREA, pool, gettext_noop("progressive contributions by meters"),
                 metered.get(pool, ZERO).quantize(Decimal("0.01")), posted.get(pool, ZERO),
                 gettext_noop("the machines' contribution meters, against the pool's liability "
                              "credited from the day's readings"))
            for pool in sorted(set(metered) | set(posted))]


def _slot_cash_lines(casino: Casino, day: dt.date) -> list[Line]:
    """Each count of the slot cashier's cash in the day: what was counted against the window's
    cash in the ledger (1146.W, debits less credits) from the events before the count; and each
    slot cashier's shift closed in the day: its closing count against 1146.W up to its close."""
    lines = []
    sql_upto = ("SELECT coalesce(sum(l.debit - l.credit), 0) FROM journal_line l "
                "JOIN journal_entry e ON e.id = l.entry_id WHERE l.casino_id = %s "
                "AND l.account_code = %s AND e.event_position <= %s")
    for count in SlotCashCount.objects.filter(casino_id=casino.code, gaming_day=day):
        sql = ("SELECT coalesce(sum(l.debit - l.credit), 0) FROM journal_line l "
               "JOIN journal_entry e ON e.id = l.entry_id WHERE l.casino_id = %s "
               "AND l.account_code = %s AND e.event_position < %s")
        with connection.cursor() as cursor:
            cursor.execute(sql, [casino.code, f"1146.{count.window}", count.position])
            (expected,) = cursor.fetchone()
        lines.append(Line(AREA, Words("slot cashier {window}, count {count}",
                                      window=count.window, count=count.count_id),
                          gettext_noop("cash counted against the ledger"), count.counted,
                          Decimal(expected).quantize(Decimal("0.01")),
                          Words("counted by {who}, witnessed by {witness}",
                                who=count.counted_by, witness=count.witnessed_by)))
    for shift in SlotShift.objects.filter(casino_id=casino.code, gaming_day=day,
                                          status="closed").order_by("closed_position"):
        # the close posts counted − expected: the window's cash in the ledger after it is the
        # closing count when the shift's own figures (opening, boxes, tickets, hand pays) agree
        # with the ledger's postings at the window
        with connection.cursor() as cursor:
            cursor.execute(sql_upto, [casino.code, f"1146.{shift.window}", shift.closed_position])
            (held,) = cursor.fetchone()
        lines.append(Line(AREA, Words("slot cashier {window}, shift {shift}",
                                      window=shift.window, shift=shift.shift_id),
                          gettext_noop("closing count against the ledger"), shift.counted,
                          Decimal(held).quantize(Decimal("0.01")),
                          Words("counted by {who}, closed by {closer}",
                                who=shift.counted_by, closer=shift.closed_by)))
    # a shift of the day not closed: outstanding, as a cage's shift counted and not closed is
    for shift in SlotShift.objects.filter(casino_id=casino.code, gaming_day=day).exclude(
            status="closed").order_by("window", "opened_at"):
        label = Words("slot cashier {window}, shift {shift}", window=shift.window,
                      shift=shift.shift_id)
        if shift.status == "open":
            lines.append(Line(AREA, label, gettext_noop("open, not counted"), None, None,
                              gettext_noop("the shift awaits its closing count"),
                              unexplained=True))
            continue
        lines.append(Line(AREA, label, gettext_noop("counted, not closed"), None, None,
                          gettext_noop("its difference awaits a supervisor's approval")
                          if shift_awaits_approval(shift) else
                          gettext_noop("the count awaits its close"), unexplained=True))
    return lines
