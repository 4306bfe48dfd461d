"""Reports read from the ledger: trial balance, results by table, game and day, gross gaming
revenue and its taxes by month.

All read the running balances (``ledger_balance``, per account and gaming day) and the table
figures (``ledger_table_day``) the projection keeps beside the journal, so a report over a year
adds up days, not journal lines. Periods are gaming days, inclusive at both ends.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from django.db import connection

from casino.models import Casino

ZERO = Decimal("0.00")
CENT = Decimal("0.01")
HUNDRED = Decimal(100)


# --- trial balance ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrialBalanceRow:
    code: str
    name: str
    kind: str
    snc: str
    macau: str
    opening: Decimal  # debit balance (negative: credit) before the period
    debit: Decimal  # posted in the period
    credit: Decimal
    closing: Decimal  # debit balance at the end of the period
    name_pt: str = ""  # the chart's Portuguese name (screens in pt-PT show it)

    @property
    def closing_debit(self) -> Decimal:
        return self.closing if self.closing > 0 else ZERO

    @property
    def closing_credit(self) -> Decimal:
        return -self.closing if self.closing < 0 else ZERO


@dataclass
class TrialBalance:
    casino: str
    currency: str
    day_from: dt.date
    day_to: dt.date
    rows: list[TrialBalanceRow] = field(default_factory=list)

    @property
    def debit(self) -> Decimal:
        return sum((r.debit for r in self.rows), ZERO)

    @property
    def credit(self) -> Decimal:
        return sum((r.credit for r in self.rows), ZERO)

    @property
    def closing(self) -> Decimal:
        """Sum of the closing balances: zero, as every entry balances."""
        return sum((r.closing for r in self.rows), ZERO)

    @property
    def balanced(self) -> bool:
        return self.debit == self.credit and self.closing == 0


_TRIAL_BALANCE_SQL = """
SELECT a.code, a.name, a.kind, a.snc, a.macau, a.name_pt,
       coalesce(sum(b.debit - b.credit) FILTER (WHERE b.day < %s), 0),
       coalesce(sum(b.debit) FILTER (WHERE b.day BETWEEN %s AND %s), 0),
       coalesce(sum(b.credit) FILTER (WHERE b.day BETWEEN %s AND %s), 0)
  FROM ledger_account a
  JOIN ledger_balance b ON b.casino_id = a.casino_id AND b.account_code = a.code
 WHERE a.casino_id = %s AND b.day <= %s
 GROUP BY a.code, a.name, a.kind, a.snc, a.macau, a.name_pt
 ORDER BY a.code
"""


def trial_balance(*, casino: str, day_from: dt.date, day_to: dt.date) -> TrialBalance:
    """Every account with a balance or a movement: opening, debits and credits of the period,
    closing. Totals: debits = credits, and the closing balances add up to zero."""
    currency = Casino.objects.filter(code=casino).values_list("currency", flat=True).first()
    report = TrialBalance(casino, currency or "", day_from, day_to)
    with connection.cursor() as cursor:
        cursor.execute(_TRIAL_BALANCE_SQL, [day_from, day_from, day_to, day_from, day_to,
                                            casino, day_to])
        for code, name, kind, snc, macau, name_pt, opening, debit, credit in cursor.fetchall():
            opening, debit, credit = (Decimal(v).quantize(CENT) for v in (opening, debit, credit))
            if opening == 0 and debit == 0 and credit == 0:
                continue
            report.rows.append(TrialBalanceRow(code, name, kind, snc, macau, opening, debit,
                                               credit, opening + debit - credit, name_pt))
    return report


def account_balance(*, casino: str, code: str, day_to: dt.date | None = None) -> Decimal:
    """Debits less credits of one account, over every day (or up to ``day_to``)."""
    sql = ("SELECT coalesce(sum(debit - credit), 0) FROM ledger_balance "
           "WHERE casino_id = %s AND account_code = %s")
    params: list[str | dt.date] = [casino, code]
    if day_to is not None:
        sql += " AND day <= %s"
        params.append(day_to)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return Decimal(cursor.fetchone()[0]).quantize(CENT)


# --- results by table, game and day -------------------------------------------------------------


@dataclass
class Result:
    day: dt.date | None
    table: str
    game: str
    handle: Decimal = ZERO
    drop: Decimal = ZERO
    revenue: Decimal = ZERO  # round results (account 7211)
    variance: Decimal = ZERO  # inventory win less round results (account 7212)
    rounds: int = 0
    sessions: int = 0

    @property
    def win(self) -> Decimal:
        """Table win = revenue + variance (the inventory win of the closed sessions)."""
        return self.revenue + self.variance

    @property
    def hold_percent(self) -> Decimal | None:
        """Win ÷ drop, the industry's hold %."""
        return _percent(self.win, self.drop)

    @property
    def win_handle_percent(self) -> Decimal | None:
        """Win ÷ handle: what compares with the game's house edge."""
        return _percent(self.win, self.handle)

    def add(self, other: Result) -> None:
        self.handle += other.handle
        self.drop += other.drop
        self.revenue += other.revenue
        self.variance += other.variance
        self.rounds += other.rounds
        self.sessions += other.sessions


def _percent(part: Decimal, whole: Decimal) -> Decimal | None:
    if not whole:
        return None
    return (part / whole * HUNDRED).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


_TABLE_ACCOUNTS_SQL = """
SELECT b.day, a.scope, a.template, a.game, sum(b.credit - b.debit)
  FROM ledger_balance b
  JOIN ledger_account a ON a.casino_id = b.casino_id AND a.code = b.account_code
 WHERE b.casino_id = %s AND b.day BETWEEN %s AND %s AND a.template IN ('7211', '7212')
 GROUP BY b.day, a.scope, a.template, a.game
"""
_TABLE_DAYS_SQL = """
SELECT day, "table", game, handle, "drop", rounds, sessions FROM ledger_table_day
 WHERE casino_id = %s AND day BETWEEN %s AND %s
"""


def table_results(*, casino: str, day_from: dt.date, day_to: dt.date,
                  by: str = "day") -> list[Result]:
    """Handle, drop, win and hold by ``day`` (each table each day), ``table`` or ``game``
    (over the whole period)."""
    if by not in ("day", "table", "game"):
        raise ValueError(f"results are grouped by day, table or game, not {by!r}")
    rows: dict[tuple[dt.date, str], Result] = {}
    with connection.cursor() as cursor:
        cursor.execute(_TABLE_DAYS_SQL, [casino, day_from, day_to])
        for day, table, game, handle, drop, rounds, sessions in cursor.fetchall():
            rows[(day, table)] = Result(day, table, game, Decimal(handle), Decimal(drop),
                                        rounds=rounds, sessions=sessions)
        cursor.execute(_TABLE_ACCOUNTS_SQL, [casino, day_from, day_to])
        for day, table, template, game, amount in cursor.fetchall():
            row = rows.setdefault((day, table), Result(day, table, game))
            if game and not row.game:
                row.game = game
            if template == "7211":
                row.revenue += Decimal(amount)
            else:
                row.variance += Decimal(amount)
    days = sorted(rows.values(), key=lambda r: (r.day or dt.date.min, r.table))
    if by == "day":
        return days
    grouped: dict[str, Result] = {}
    for r in days:
        key = r.table if by == "table" else r.game
        total = grouped.setdefault(key, Result(None, r.table if by == "table" else "", r.game))
        total.add(r)
    return [grouped[k] for k in sorted(grouped)]


# --- gross gaming revenue by month -------------------------------------------------------------


@dataclass
class MonthRevenue:
    month: dt.date  # the first day of the month
    table_revenue: Decimal = ZERO  # round results
    table_variance: Decimal = ZERO
    jackpot_retained: Decimal = ZERO
    jackpot_funding: Decimal = ZERO  # start values the casino funded (its own line)
    jackpot_funding_deducted: Decimal = ZERO  # the part of it the jurisdiction deducts
    # the poker room's commission: rake, time charges, entry fees, chemin de fer commission,
    # less overlays (docs/poker-room.md § The books)
    non_banked_revenue: Decimal = ZERO
    # the month's gaming taxes, from its closed days (``ledger.taxes.monthly_return``)
    tax_total: Decimal = ZERO
    days_closed: int = 0

    @property
    def table_win(self) -> Decimal:
        return self.table_revenue + self.table_variance

    @property
    def gross_gaming_revenue(self) -> Decimal:
        """The gaming-tax base (``docs/gaming-tax.md``): table win and jackpot bets retained,
        less the start values funded only where the jurisdiction deducts them."""
        return (self.table_win + self.jackpot_retained + self.non_banked_revenue
                - self.jackpot_funding_deducted)


@dataclass
class GrossGamingRevenue:
    casino: str
    currency: str
    jurisdiction: str
    months: list[MonthRevenue]


NON_BANKED_TEMPLATES = ("7215", "7216", "7217", "7885")  # the poker room's revenue and overlay
_GGR_SQL = """
SELECT b.day, a.template, sum(b.credit - b.debit)
  FROM ledger_balance b
  JOIN ledger_account a ON a.casino_id = b.casino_id AND a.code = b.account_code
 WHERE b.casino_id = %s AND b.day BETWEEN %s AND %s
   AND a.template IN ('7211', '7212', '7213', '7214', '7215', '7216', '7217', '7885')
 GROUP BY 1, 2
"""


def gross_gaming_revenue(*, casino: str, day_from: dt.date, day_to: dt.date,
                         with_taxes: bool = True) -> GrossGamingRevenue:
    """The gross gaming revenue by month, from the ledger (table win + jackpot bets retained,
    the start values the casino funded on their own line and deducted where the jurisdiction
    says, each day by its rules), and each month's gaming taxes from its closed days."""
    from . import tax_rules
    from .taxes import monthly_return, rules_for

    the_casino = Casino.objects.filter(code=casino).first()
    currency = the_casino.currency if the_casino else ""
    rules = rules_for(the_casino) if the_casino else None
    prefix = "pt" if rules and rules.jurisdiction == tax_rules.PT else "mo"
    months: dict[dt.date, MonthRevenue] = {}
    month = day_from.replace(day=1)
    while month <= day_to:
        months[month] = MonthRevenue(month)
        month = (month + dt.timedelta(days=32)).replace(day=1)
    with connection.cursor() as cursor:
        cursor.execute(_GGR_SQL, [casino, day_from, day_to])
        for day, template, amount in cursor.fetchall():
            m = months.setdefault(day.replace(day=1), MonthRevenue(day.replace(day=1)))
            value = Decimal(amount)
            if template == "7211":
                m.table_revenue += value
            elif template == "7212":
                m.table_variance += value
            elif template == "7213":
                m.jackpot_retained += value
            elif template in NON_BANKED_TEMPLATES:
                m.non_banked_revenue += value
            else:
                m.jackpot_funding -= value  # a debit balance: what the casino funded
                if rules and rules.flag(f"{prefix}.jackpot_start_deducted", day):
                    m.jackpot_funding_deducted -= value
    if with_taxes and the_casino is not None:
        for m in months.values():
            the_return = monthly_return(casino, m.month)
            m.tax_total = the_return.total
            m.days_closed = len(the_return.days_closed)
    return GrossGamingRevenue(casino, currency, rules.jurisdiction if rules else "",
                              [months[k] for k in sorted(months)])
