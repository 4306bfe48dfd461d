"""The gaming-tax returns the regulator reads: each month of a period as the accountant's return
gives it (``ledger.taxes.monthly_return``: made of the closed days, each day at the parameters in
force, ``docs/gaming-tax.md``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from casino.money import fmt
from ledger.taxes import monthly_return


def _months(day_from: dt.date, day_to: dt.date) -> list[dt.date]:
    month, out = day_from.replace(day=1), []
    while month <= day_to:
        out.append(month)
        month = (month + dt.timedelta(days=32)).replace(day=1)
    return out


def gaming_tax_return(*, casino: str, day_from: dt.date, day_to: dt.date) -> dict[str, Any]:
    returns = [monthly_return(casino, m) for m in _months(day_from, day_to)]
    first = returns[0] if returns else None
    return {
        "casino": casino, "currency": first.currency if first else "",
        "jurisdiction": first.jurisdiction if first else "",
        "months": [{
            "month": r.month.isoformat(), "complete": r.complete,
            "days_closed": [d.isoformat() for d in r.days_closed],
            "days_open": [d.isoformat() for d in r.days_open],
            "gross_gaming_revenue": fmt(r.figures.gross_revenue),
            "negative_base": fmt(r.figures.negative_base),
            "taxable_revenue": fmt(r.figures.taxable_revenue),
            "jackpot_funding": fmt(r.figures.jackpot_funding),
            "jackpot_funding_deducted": r.figures.jackpot_funding_deducted,
            "lines": [{"code": t.code, "name": t.name, "base": fmt(t.base),
                       "rate": None if t.rate is None else str(t.rate),
                       "amount": fmt(t.amount), "annual": t.annual,
                       "legal_source": t.legal_source} for t in r.lines],
            "tax_total": fmt(r.total), "accrued": r.accrued, "paid": fmt(r.paid)}
            for r in returns],
    }
