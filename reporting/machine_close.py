"""The slot floor's part of the close report (``reporting.close_report``): each machine read in
the day, its win by meters, its return against its certified one (and the band's flag)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from casino.errors import Words, gettext_noop
from casino.models import Casino
from machines import selectors
from machines.models import Machine, MachineDay, SlotShift
from machines.services.shifts import shift_awaits_approval

# what holds a day's close up at a slot cashier's window (issue 34 item 6, as a cage's shift)
SLOT_SHIFT_OPEN = gettext_noop("slot cashier {window} (shift {shift}, {status})")
AWAITS_APPROVAL = gettext_noop("counted, its difference not approved")


@dataclass(frozen=True)
class MachineLine:
    machine: str
    bank: str
    game: str
    coin_in: Decimal
    coin_out: Decimal
    jackpots: Decimal
    games_played: int
    win: Decimal
    certified_return: Decimal
    actual_return: Decimal | None
    flagged: bool


def machine_close_lines(casino: Casino, day: dt.date) -> list[MachineLine]:
    machines = {m.number: m for m in Machine.objects.filter(casino_id=casino.code)}
    lives = selectors.lifetime(casino.code)
    lines = []
    for d in MachineDay.objects.filter(casino_id=casino.code, gaming_day=day).order_by("machine"):
        x = machines[d.machine]
        check = selectors.watch(x, lives.get(d.machine))
        lines.append(MachineLine(machine=d.machine, bank=x.bank, game=x.game, coin_in=d.coin_in,
                                 coin_out=d.coin_out, jackpots=d.jackpots,
                                 games_played=d.games_played, win=d.win,
                                 certified_return=x.certified_return,
                                 actual_return=check.actual, flagged=check.outside))
    return lines


def slot_shifts_still_open(casino: str, day: dt.date) -> list[Words]:
    """The slot cashier's shifts of ``day`` that hold its close up, in words: each still open
    (not counted), and each counted with a difference not yet explained and approved. A shift
    counted whose differences are approved (or nil) but not closed is the reconciliation's
    outstanding line (``reporting.machine_reconciliation``), as a cage's counted shift is."""
    return [Words(SLOT_SHIFT_OPEN, window=s.window, shift=s.shift_id,
                  status=(Words.stored_as("open", "open", context="shift status")
                          if s.status == "open" else Words(AWAITS_APPROVAL)))
            for s in SlotShift.objects.filter(casino_id=casino, gaming_day=day).exclude(
                status="closed").order_by("window", "opened_at")
            if s.status == "open" or shift_awaits_approval(s)]


def machine_day_figures(casino: Casino, day: dt.date) -> dict[str, str]:
    """The slot floor's figures a day's close fixes (``GamingDayClosed``'s totals and revenue):
    the machines' win by meters and the machines on the floor, or nothing on a day no machine
    was read (so a casino without a slot floor keeps the figures, and the seals, it had)."""
    days = MachineDay.objects.filter(casino_id=casino.code, gaming_day=day)
    if not days.exists():
        return {}
    win = sum((d.win for d in days), Decimal("0.00"))
    on_floor = Machine.objects.filter(casino_id=casino.code, retired=False).count()
    return {"machine_win": str(win.quantize(Decimal("0.01"))), "machines": str(on_floor)}
