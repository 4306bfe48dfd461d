"""The poker room in the day's reports (``docs/poker-room.md`` § The books): what the close
report's non-banked section, the daily register's commission column and the reconciliation
read of it. Revenue is read from the ledger by the gaming day of the events; the floor's side
from the poker room's own projections."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import connection

from casino.errors import Words, gettext_noop
from casino.money import fmt
from pokerroom.models import PokerTable, Tournament

ZERO = Decimal("0.00")
#: the house's revenue of the non-banked games: rake and time charges, entry fees, the chemin
#: de fer commission, less an overlay on a guarantee (an expense, by its sign)
RAKE, FEES, COMMISSION, OVERLAY = "7215", "7216", "7217", "7885"
REVENUE_TEMPLATES = (RAKE, FEES, COMMISSION, OVERLAY)

_SQL = """
SELECT a.template, a.scope, coalesce(sum(l.credit - l.debit), 0)
  FROM journal_line l
  JOIN journal_entry e ON e.id = l.entry_id
  JOIN ledger_account a ON a.casino_id = l.casino_id AND a.code = l.account_code
 WHERE l.casino_id = %s AND e.event_day = %s AND a.template IN ('7215', '7216', '7217', '7885')
 GROUP BY 1, 2
"""


def _revenue(casino: str, day: dt.date) -> dict[str, dict[str, Decimal]]:
    """Credit less debit of each revenue template by scope (table or tournament) for the day."""
    out: dict[str, dict[str, Decimal]] = defaultdict(dict)
    with connection.cursor() as cursor:
        cursor.execute(_SQL, [casino, day])
        for template, scope, value in cursor.fetchall():
            out[scope][template] = Decimal(value).quantize(Decimal("0.01"))
    return out


@dataclass(frozen=True)
class NonBankedLine:
    """A poker room table or tournament over the day: its game and the house's commission by
    kind (``revenue`` = rake + fees + commission − overlay)."""

    subject: str
    kind: str  # "table" or "tournament"
    game: str
    rake: Decimal
    fees: Decimal
    commission: Decimal
    overlay: Decimal

    @property
    def revenue(self) -> Decimal:
        return self.rake + self.fees + self.commission - self.overlay


def non_banked_lines(casino: str, day: dt.date) -> list[NonBankedLine]:
    """The close report's non-banked section: every poker room table and tournament with
    revenue on ``day``."""
    revenue = _revenue(casino, day)
    games = dict(PokerTable.objects.filter(casino_id=casino).values_list("code", "game"))
    events = dict(Tournament.objects.filter(casino_id=casino).values_list("code", "game"))
    lines = []
    for scope in sorted(revenue):
        r = revenue[scope]
        kind = "table" if scope in games else "tournament"
        lines.append(NonBankedLine(
            subject=scope, kind=kind, game=games.get(scope) or events.get(scope, ""),
            rake=r.get(RAKE, ZERO), fees=r.get(FEES, ZERO), commission=r.get(COMMISSION, ZERO),
            overlay=-r.get(OVERLAY, ZERO)))
    return lines


def register_rows(casino: str, day: dt.date) -> list[dict[str, Any]]:
    """The daily register's rows of the non-banked games (``docs/gaming-tax.md``): their base
    is the commission collected (DL 422/89 art. 86.º), never a drop or a win."""
    return [{"table": line.subject, "game": line.game, "bank": "simples", "vip": False,
             "opening": "0.00", "drop": "0.00", "win": "0.00",
             "commission": fmt(line.revenue)} for line in non_banked_lines(casino, day)]


def reconcile_lines(casino: str) -> list[tuple[str, str, Any, Decimal, Decimal, str]]:
    """The poker room's reconciliation, as ``(area, subject, what, platform, ledger, note)``:
    each table's players' money (2786), its rake recorded against its revenue (7215 and 7217),
    its rake box counted against the rake recorded; each tournament's prize pool still owed
    (2787) and its pool against the prizes paid."""
    balances: dict[str, Decimal] = {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT account_code, coalesce(sum(credit - debit), 0) FROM journal_line "
            "WHERE casino_id = %s AND split_part(account_code, '.', 1) IN "
            "('2786', '2787', '7215', '7217') GROUP BY 1", [casino])
        for code, value in cursor.fetchall():
            balances[code] = Decimal(value).quantize(Decimal("0.01"))
    area = gettext_noop("poker room")
    lines: list[tuple[str, str, Any, Decimal, Decimal, str]] = []
    for t in PokerTable.objects.filter(casino_id=casino).order_by("code"):
        lines.append((area, t.code, gettext_noop("players' money at the table"),
                      t.players_money, balances.get(f"2786.{t.code}", ZERO), ""))
        recorded = t.rake_recorded + t.time_charges + t.commission
        ledger = (balances.get(f"7215.{t.code}", ZERO) + balances.get(f"7217.{t.code}", ZERO))
        lines.append((area, t.code, gettext_noop("rake and commission recorded"), recorded,
                      ledger, ""))
        lines.append((area, t.code, gettext_noop("rake box counted against rake recorded"),
                      t.rake_counted + t.rake_uncounted,
                      t.rake_recorded + t.time_charges,
                      Words("{counted} counted, {uncounted} not counted yet",
                            counted=fmt(t.rake_counted), uncounted=fmt(t.rake_uncounted))))
    for tournament in Tournament.objects.filter(casino_id=casino).order_by("code"):
        owed = tournament.pool - tournament.prizes_paid if tournament.status == "finished" \
            else tournament.collected
        lines.append((area, tournament.code, gettext_noop("prize pool owed"), owed,
                      balances.get(f"2787.{tournament.code}", ZERO),
                      Words("pool {pool}, prizes paid {paid}", pool=fmt(tournament.pool),
                            paid=fmt(tournament.prizes_paid))))
    return lines
