"""The slot floor's part of the daily regulator file (``reporting.regulator_file``; the XSD's
optional ``Machines``): each machine read that day with its meters' differences and win, the
boxes counted, the hand pays recorded, and the tickets printed, redeemed and outstanding."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db.models import Sum
from lxml import etree

from casino.models import Casino
from casino.money import fmt
from machines.models import HandPay, Machine, MachineBox, MachineDay, SlotTicket

from .regulator_xml import element as _element


def _sum(query: object) -> str:
    total = query.aggregate(total=Sum("amount"))["total"]  # type: ignore[attr-defined]
    return fmt(total or Decimal("0.00"))


def machines_element(root: etree._Element, casino: Casino, day: dt.date) -> None:
    code = casino.code
    days = list(MachineDay.objects.filter(casino_id=code, gaming_day=day).order_by("machine"))
    if not days and not Machine.objects.filter(casino_id=code).exists():
        return
    part = _element(root, "Machines")
    machines = {m.number: m for m in Machine.objects.filter(casino_id=code)}
    for d in days:
        x = machines[d.machine]
        _element(part, "Machine", number=d.machine, bank=x.bank, game=x.game,
                 certifiedReturn=fmt(x.certified_return),
                 approvalReference=x.approval_reference, coinIn=fmt(d.coin_in),
                 coinOut=fmt(d.coin_out), jackpots=fmt(d.jackpots),
                 cancelledCredits=fmt(d.cancelled_credits), billsIn=fmt(d.bills_in),
                 ticketsIn=fmt(d.tickets_in), ticketsOut=fmt(d.tickets_out),
                 gamesPlayed=d.games_played, win=fmt(d.win))
    for box in MachineBox.objects.filter(casino_id=code, gaming_day=day).order_by("drop_id"):
        _element(part, "Box", drop=box.drop_id, machine=box.machine, counted=fmt(box.counted),
                 metered=fmt(box.metered), variance=fmt(box.variance), status=box.status)
    start, end = casino.gaming_day_start(day), casino.gaming_day_end(day)
    for pay in HandPay.objects.filter(casino_id=code, recorded_at__gte=start,
                                      recorded_at__lt=end).order_by("recorded_at", "handpay_id"):
        _element(part, "HandPay", id=pay.handpay_id, machine=pay.machine, kind=pay.kind,
                 amount=fmt(pay.amount), status=pay.status)
    tickets = SlotTicket.objects.filter(casino_id=code)
    _element(part, "Tickets", issued=_sum(tickets.filter(issued_at__gte=start, issued_at__lt=end)),
             redeemed=_sum(tickets.filter(status="redeemed", closed_at__gte=start,
                                          closed_at__lt=end)),
             outstanding=_sum(tickets.filter(status="outstanding")))
