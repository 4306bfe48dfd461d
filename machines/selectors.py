"""Reads of the slot floor (projection tables only), for its API, screens, the regulator and
reports."""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet, Sum

from casino.errors import NotFound
from casino.money import fmt

from . import meters as m
from .answers import (
    HandPayRow,
    MachineDayRow,
    MachineDetail,
    MachineRow,
    SlotShiftRow,
    TicketRow,
)
from .models import (
    HandPay,
    Machine,
    MachineConfigVersion,
    MachineDay,
    MeterReading,
    SlotShift,
    SlotTicket,
)

ZERO = Decimal("0.00")


def machine_list(casino: str) -> QuerySet[Machine]:
    return Machine.objects.filter(casino_id=casino).order_by("bank", "position", "number")


def machine_get(casino: str, number: str) -> Machine:
    found = Machine.objects.filter(casino_id=casino, number=number).first()
    if found is None:
        raise NotFound("there is no machine {machine!r} in casino {casino!r}",
                       params={"machine": number, "casino": casino})
    return found


def lifetime(casino: str) -> dict[str, tuple[Decimal, Decimal, int]]:
    """Every machine's coin in, paid (coin out and jackpots) and games over its life, in one
    query: what the return watch reads for a whole floor."""
    return {r["machine"]: (r["coin_in"] or ZERO, (r["coin_out"] or ZERO) + (r["jackpots"] or ZERO),
                           int(r["games"] or 0))
            for r in MachineDay.objects.filter(casino_id=casino).values("machine").annotate(
                coin_in=Sum("coin_in"), coin_out=Sum("coin_out"), jackpots=Sum("jackpots"),
                games=Sum("games_played")).order_by()}


def watch(machine: Machine, life: tuple[Decimal, Decimal, int] | None) -> m.ReturnCheck:
    coin_in, paid, games = life or (ZERO, ZERO, 0)
    return m.return_check(coin_in=coin_in, paid=paid, games=games,
                          certified=machine.certified_return, spread=machine.return_spread)


def floor_rows(casino: str, day: dt.date) -> list[MachineRow]:
    """The floor's rows in three queries (machines, their day, their lives)."""
    days = {d.machine: d for d in MachineDay.objects.filter(casino_id=casino, gaming_day=day)}
    lives = lifetime(casino)
    return [machine_row(x, day, today=days.get(x.number), life=lives.get(x.number), known=True)
            for x in machine_list(casino)]


def machine_row(machine: Machine, day: dt.date, *, today: MachineDay | None = None,
                life: tuple[Decimal, Decimal, int] | None = None,
                known: bool = False) -> MachineRow:
    if not known:
        today = MachineDay.objects.filter(casino_id=machine.casino_id, machine=machine.number,
                                          gaming_day=day).first()
        life = lifetime(machine.casino_id).get(machine.number)
    check = watch(machine, life)
    return MachineRow(
        machine=machine.number, bank=machine.bank, position=machine.position,
        manufacturer=machine.manufacturer, model=machine.model, game=machine.game,
        denomination=fmt(machine.denomination), certified_return=fmt(machine.certified_return),
        in_service=machine.in_service, retired=machine.retired,
        config_version=machine.config_version, approval_reference=machine.approval_reference,
        last_read_at=machine.last_read_at.isoformat() if machine.last_read_at else "",
        win_today=fmt(today.win if today else ZERO),
        coin_in_today=fmt(today.coin_in if today else ZERO),
        games_today=today.games_played if today else 0,
        actual_return="" if check.actual is None else fmt(check.actual),
        return_low=fmt(check.low) if check.games else "",
        return_high=fmt(check.high) if check.games else "", flagged=check.outside)


def machine_detail(machine: Machine, day: dt.date, *, readings: int = 50) -> MachineDetail:
    configurations = [
        {"version": c.version, "event_type": c.event_type, "config": c.config,
         "approval_reference": c.approval_reference, "reason": c.reason,
         "recorded_by": c.recorded_by, "effective_at": c.effective_at.isoformat()}
        for c in MachineConfigVersion.objects.filter(casino_id=machine.casino_id,
                                                     machine=machine.number).order_by("version")]
    reads = [
        {"reading_id": r.reading_id, "kind": r.kind, "source": r.source,
         "read_at": r.read_at.isoformat(), "gaming_day": r.gaming_day.isoformat(),
         "meters": r.meters, "difference": r.difference, "win": fmt(r.win),
         "recorded_by": r.recorded_by, "witnessed_by": r.witnessed_by}
        for r in MeterReading.objects.filter(casino_id=machine.casino_id, machine=machine.number)
        .order_by("-version")[:readings]]
    return MachineDetail(machine=machine_row(machine, day), configurations=configurations,
                         readings=reads)


def day_rows(casino: str, day: dt.date) -> list[MachineDayRow]:
    return [MachineDayRow(
        machine=d.machine, gaming_day=d.gaming_day.isoformat(), coin_in=fmt(d.coin_in),
        coin_out=fmt(d.coin_out), jackpots=fmt(d.jackpots),
        cancelled_credits=fmt(d.cancelled_credits), bills_in=fmt(d.bills_in),
        tickets_in=fmt(d.tickets_in), tickets_out=fmt(d.tickets_out),
        contributions=fmt(d.contributions), games_played=d.games_played, win=fmt(d.win))
        for d in MachineDay.objects.filter(casino_id=casino, gaming_day=day).order_by("machine")]


def day_totals(casino: str, day: dt.date) -> dict[str, Any]:
    """The floor's day by meters: machines read, coin in, win."""
    totals = MachineDay.objects.filter(casino_id=casino, gaming_day=day).aggregate(
        coin_in=Sum("coin_in"), win=Sum("win"), games=Sum("games_played"))
    return {"machines": MachineDay.objects.filter(casino_id=casino, gaming_day=day).count(),
            "coin_in": totals["coin_in"] or ZERO, "win": totals["win"] or ZERO,
            "games": int(totals["games"] or 0)}


def month_win(casino: str, first: dt.date, last: dt.date) -> Decimal:
    total = MachineDay.objects.filter(casino_id=casino, gaming_day__gte=first,
                                      gaming_day__lte=last).aggregate(win=Sum("win"))["win"]
    return total or ZERO


def ticket_rows(casino: str, *, status: str = "") -> list[TicketRow]:
    query = SlotTicket.objects.filter(casino_id=casino)
    if status:
        query = query.filter(status=status)
    return [TicketRow(validation=t.validation, machine=t.machine, amount=fmt(t.amount),
                      issued_at=t.issued_at.isoformat(), expires_on=t.expires_on.isoformat(),
                      status=t.status, place=t.place, window=t.window)
            for t in query.order_by("-issued_at")[:1000]]


def hand_pay_rows(casino: str, *, status: str = "") -> list[HandPayRow]:
    query = HandPay.objects.filter(casino_id=casino)
    if status:
        query = query.filter(status=status)
    return [HandPayRow(handpay_id=h.handpay_id, machine=h.machine, kind=h.kind,
                       amount=fmt(h.amount), machine_event=h.machine_event, status=h.status,
                       window=h.window, slip=h.slip, paid_by=h.paid_by,
                       witnessed_by=h.witnessed_by)
            for h in query.order_by("-recorded_at")[:1000]]


def _figure(value: Decimal | None) -> str:
    return "" if value is None else fmt(value)


def slot_shift_row(s: SlotShift) -> SlotShiftRow:
    """A shift's figures as the screen shows them: blind while it is open (its opening count
    only), every figure once counted."""
    row = SlotShiftRow(shift_id=s.shift_id, window=s.window, gaming_day=s.gaming_day.isoformat(),
                       status=s.status, opened_by=s.opened_by,
                       opened_at=s.opened_at.isoformat(), opening=fmt(s.opening))
    if s.status == "open":
        return row
    return dataclasses.replace(
        row, book=fmt(s.book), opening_variance=fmt(s.opening_variance), first=s.first,
        boxes_in=fmt(s.boxes_in), tickets_paid=fmt(s.tickets_paid),
        hand_pays_paid=fmt(s.hand_pays_paid), count_number=s.count_number,
        counted=_figure(s.counted), expected=_figure(s.expected), variance=_figure(s.variance),
        counted_by=s.counted_by, explanation=s.explanation, approved_by=s.approved_by,
        closed_by=s.closed_by, closed_at=s.closed_at.isoformat() if s.closed_at else "")


def slot_shift_rows(casino: str, window: str, *, status: str = "") -> list[SlotShiftRow]:
    """A window's shifts, the latest first (the last 1,000)."""
    query = SlotShift.objects.filter(casino_id=casino, window=window)
    if status:
        query = query.filter(status=status)
    return [slot_shift_row(s) for s in query.order_by("-opened_at")[:1000]]


def ticket_liability(casino: str) -> Decimal:
    total = SlotTicket.objects.filter(casino_id=casino, status="outstanding").aggregate(
        total=Sum("amount"))["total"]
    return total or ZERO
