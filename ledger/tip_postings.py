"""The tips' postings (``docs/tips.md``): pure, as ``ledger.postings`` is, one function per
event class registered by ``@posts``. Tips are held for the staff, never revenue (Decreto-Lei
422/89, art. 79.º): the count credits tips held; a period's distribution moves them to what is
payable to the staff and to the fund; a tip found in a drop box (or a drop in a tip box) moves
between the table's win and the tips held."""

from __future__ import annotations

from casino.errors import Words
from tips.events import TipBoxCountConfirmed, TipMisplacementCorrected, TipsDistributed

from . import postings as p
from .chart import account


@p.posts
def tip_box_count_confirmed(event: TipBoxCountConfirmed, ctx: p.Context) -> p.Posting:
    value = p.amount(event.amount)
    p._same(p.counts_value(event.cash), value, "tip box: its cash and its amount")
    e = p._Entry().move(account("tips_cash"), account("tips_held"), value)
    return p.Posting(Words("Tip box {box} of {day} counted: held for the staff",
                             box=event.box, day=event.gaming_day.isoformat()), e.lines())


@p.posts
def tip_misplacement_corrected(event: TipMisplacementCorrected, ctx: p.Context) -> p.Posting:
    sign = {"drop_to_tips": 1, "tips_to_drop": -1}.get(event.direction)
    if sign is None:
        raise p.PostingError(f"a misplaced tip goes drop_to_tips or tips_to_drop, not "
                             f"{event.direction!r}")
    e = p._Entry().move(account("tips_misplaced", event.table), account("tips_held"),
                        sign * p.amount(event.amount))
    what = (Words("Tip found in the drop box of table {table} ({day}): held for the staff",
                    table=event.table, day=event.gaming_day.isoformat()) if sign == 1 else
            Words("Drop found in a tip box of table {table} ({day}): back to the table's win",
                    table=event.table, day=event.gaming_day.isoformat()))
    return p.Posting(what, e.lines())


@p.posts
def tips_distributed(event: TipsDistributed, ctx: p.Context) -> p.Posting:
    total, fund, staff = p.amount(event.total), p.amount(event.fund), p.amount(event.staff)
    p._same(fund + staff, total, "tips distributed: the fund's and the staff's shares")
    shares = sum((p.amount(s["amount"]) for s in event.shares), p.ZERO)
    p._same(shares, staff, "tips distributed: each person's share and the staff's")
    e = p._Entry().move(account("tips_held"), account("tips_fund_payable"), fund)
    e.move(account("tips_held"), account("tips_staff_payable"), staff)
    return p.Posting(Words("Tips of period {period} distributed: {fund} to the fund "
                             "({percent} %), {staff} to the staff", period=event.period,
                             fund=fund, percent=event.fund_percent, staff=staff), e.lines())


NOT_POSTED: dict[str, str] = {
    "TipRuleSet": "configuration",
    "TipStaffRegistered": "configuration (a staff number and a category)",
    "TipStaffCategoryChanged": "configuration", "TipStaffLeft": "configuration",
    "TipBoxDropped": "a box on its way to the count room: its count posts",
    "TipBoxCounted": "the first counter's count: the second counter's confirmation posts",
    "TipMisplacementReported": "moves nothing until a second person confirms it "
                               "(TipMisplacementCorrected posts)",
}
