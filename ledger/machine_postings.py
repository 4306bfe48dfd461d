"""The slot floor's postings (docs/machines.md § The books): one function per event class,
registered with the ledger's ``posts`` as every posting is. Pure: no Django. ``ledger.postings``
imports this module once, so the ledger reads these classes too.

Each movement of money is posted once, from the record that knows it first:

* a reading's difference (``MetersRead``, and the play before a rollover or a RAM clear,
  ``MetersReset``): bills into the box (box ← credits), play (credits → revenue: coin in less
  coin out), the progressive contribution (revenue → pool);
* tickets by their own events: printed (credits → tickets outstanding), redeemed at a machine
  (tickets → credits) or at the cage (tickets → cage cash), expired (tickets → other income);
* hand pays by their own events: recorded (a jackpot: revenue → payable; cancelled credits:
  credits → payable; a progressive hit: pool → payable), paid (payable → cage cash);
* a slot cashier's shift: its opening count less the window's book (a first shift's count is
  cash brought from outside: the opening counts, as a cage's first blind count), and at its close
  counted less expected, to the slot cashier's over/short;
* the count room's confirmation: the box to the cage's cash, the difference to the machine's
  drop differences; a progressive pool's start value and each reset: funded by the casino.

So the ticket liability is the tickets outstanding at every instant, and the meters' ticket and
hand-pay figures are checked against these events by the reconciliation, not posted twice.
"""

from __future__ import annotations

from casino.errors import Words
from machines import meters as m
from machines.events import (
    HandPayPaid,
    HandPayRecorded,
    MachineBoxCountConfirmed,
    MetersRead,
    MetersReset,
    SlotProgressiveCreated,
    SlotProgressiveHit,
    SlotShiftClosed,
    SlotShiftOpened,
    TicketExpired,
    TicketIssued,
    TicketRedeemed,
)

from .chart import account
from .postings import Context, Posting, _Entry, amount, posts

NOT_POSTED: dict[str, str] = {
    "MachineAdded": "configuration", "MachineConfigured": "configuration",
    "MachineMoved": "configuration", "MachineServiceChanged": "configuration",
    "MachineRetired": "configuration",
    "MachineBoxCounted": "the first counter's count: the second counter's confirmation posts",
    "MachineBoxVarianceExplained": "words and an approval; the confirmation posted the variance",
    "SlotCashCounted": "a count: the reconciliation holds it against 1146.W",
    "MachineParameterSet": "configuration",
    "SlotShiftCounted": "a count: the close posts its difference",
    "SlotShiftVarianceExplained": "words and an approval; the close posts the difference",
}


@posts
def meters_read(event: MetersRead | MetersReset, ctx: Context) -> Posting:
    diff = m.from_data(event.difference)
    machine = event.machine
    revenue = account("machine_revenue", machine)
    credits = account("machine_credits")
    e = _Entry().move(account("machine_box", machine), credits, amount(diff.bills_in))
    e.move(credits, revenue, amount(diff.coin_in - diff.coin_out))
    if event.pool:
        e.move(revenue, account("slot_progressive", event.pool), amount(event.contribution))
    what = (Words("Meters of machine {machine} read ({reading})", machine=machine,
                  reading=event.reading_id) if isinstance(event, MetersRead) else
            Words("Meters of machine {machine} before its {kind} ({reading})", machine=machine,
                  kind=event.kind, reading=event.reading_id))
    return Posting(what, e.lines(), gaming_day=event.gaming_day)


@posts
def ticket_issued(event: TicketIssued, ctx: Context) -> Posting:
    e = _Entry().move(account("machine_credits"), account("ticket_liability"),
                      amount(event.amount))
    return Posting(Words("Ticket {ticket} printed at machine {machine}",
                         ticket=event.validation, machine=event.machine), e.lines())


@posts
def ticket_redeemed(event: TicketRedeemed, ctx: Context) -> Posting:
    to = (account("machine_credits") if event.place == "machine"
          else account("slot_cash", event.window))
    e = _Entry().move(account("ticket_liability"), to, amount(event.amount))
    return Posting(Words("Ticket {ticket} redeemed at {where}", ticket=event.validation,
                         where=event.machine or event.window), e.lines())


@posts
def ticket_expired(event: TicketExpired, ctx: Context) -> Posting:
    e = _Entry().move(account("ticket_liability"), account("tickets_expired"),
                      amount(event.amount))
    return Posting(Words("Ticket {ticket} expired", ticket=event.validation), e.lines())


@posts
def hand_pay_recorded(event: HandPayRecorded, ctx: Context) -> Posting:
    source = {"jackpot": account("machine_revenue", event.machine),
              "cancelled_credits": account("machine_credits")}.get(event.kind)
    if source is None:
        source = account("slot_progressive", event.pool)
    e = _Entry().move(source, account("hand_pays_payable"), amount(event.amount))
    return Posting(Words("Hand pay {handpay} at machine {machine} ({kind})",
                         handpay=event.handpay_id, machine=event.machine, kind=event.kind),
                   e.lines())


@posts
def hand_pay_paid(event: HandPayPaid, ctx: Context) -> Posting:
    e = _Entry().move(account("hand_pays_payable"), account("slot_cash", event.window),
                      amount(event.amount))
    return Posting(Words("Hand pay {handpay} paid at {window}, slip {slip}",
                         handpay=event.handpay_id, window=event.window, slip=event.slip),
                   e.lines())


@posts
def machine_box_count_confirmed(event: MachineBoxCountConfirmed, ctx: Context) -> Posting:
    box = account("machine_box", event.machine)
    e = _Entry().move(account("slot_cash", event.window), box, amount(event.counted))
    # counted − metered: more counted than metered empties the box by the metered amount and
    # the rest is found money (a credit to the differences); less counted is money missing
    e.move(box, account("machine_drop_difference", event.machine),
           amount(event.counted) - amount(event.metered))
    return Posting(Words("Box {drop} of machine {machine} counted into {window}",
                         drop=event.drop_id, machine=event.machine, window=event.window),
                   e.lines(), gaming_day=event.gaming_day)


@posts
def slot_progressive_created(event: SlotProgressiveCreated, ctx: Context) -> Posting:
    e = _Entry().move(account("slot_progressive_funding", event.pool),
                      account("slot_progressive", event.pool), amount(event.start))
    return Posting(Words("Machine progressive {pool} funded", pool=event.pool), e.lines())


@posts
def slot_progressive_hit(event: SlotProgressiveHit, ctx: Context) -> Posting:
    # the prize leaves the pool by the hand pay recorded with the hit; the reset is funded here
    e = _Entry().move(account("slot_progressive_funding", event.pool),
                      account("slot_progressive", event.pool), amount(event.reset_to))
    return Posting(Words("Machine progressive {pool} hit at machine {machine}: reset",
                         pool=event.pool, machine=event.machine), e.lines())


@posts
def slot_shift_opened(event: SlotShiftOpened, ctx: Context) -> Posting:
    source = (account("opening_counts") if event.first
              else account("slot_cash_over_short", event.window))
    e = _Entry().move(account("slot_cash", event.window), source,
                      amount(event.opening_variance))
    return Posting(Words("Slot cashier's shift {shift} opened at {window}", shift=event.shift_id,
                         window=event.window), e.lines(), gaming_day=event.gaming_day)


@posts
def slot_shift_closed(event: SlotShiftClosed, ctx: Context) -> Posting:
    e = _Entry().move(account("slot_cash", event.window),
                      account("slot_cash_over_short", event.window), amount(event.variance))
    return Posting(Words("Slot cashier's shift {shift} closed at {window}", shift=event.shift_id,
                         window=event.window), e.lines(), gaming_day=event.gaming_day)
