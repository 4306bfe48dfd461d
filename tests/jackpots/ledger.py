"""The ledger's balance of a pool's jackpot accounts, read from its journal (tests only)."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Sum

from .conftest import CASINO


def ledger_balance(key: str, pool_id: str) -> Decimal:
    """Credit less debit of the pool's account ``key`` (jackpot_liability, jackpot_payable,
    jackpot_reserve): what the ledger says the casino owes there."""
    from ledger.chart import account
    from ledger.models import JournalLine

    code = account(key, pool_id).code
    sums = JournalLine.objects.filter(casino_code=CASINO, account_code=code).aggregate(
        debit=Sum("debit"), credit=Sum("credit"))
    return ((sums["credit"] or Decimal(0)) - (sums["debit"] or Decimal(0))).quantize(
        Decimal("0.01"))
