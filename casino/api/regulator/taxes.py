"""The gaming-tax return the regulator reads: **one selector to swap** when the gaming tax is
rebuilt. Today: the ledger's gross gaming revenue by month and each tax of the casino's
jurisdiction on it (``ledger.reports.gross_gaming_revenue``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from casino.money import fmt


def gaming_tax_return(*, casino: str, day_from: dt.date, day_to: dt.date) -> dict[str, Any]:
    from ledger.reports import gross_gaming_revenue

    report = gross_gaming_revenue(casino=casino, day_from=day_from, day_to=day_to)
    return {
        "casino": report.casino, "currency": report.currency,
        "jurisdiction": report.jurisdiction,
        "months": [{
            "month": m.month.isoformat(), "table_revenue": fmt(m.table_revenue),
            "table_variance": fmt(m.table_variance), "jackpot_retained": fmt(m.jackpot_retained),
            "jackpot_funding": fmt(m.jackpot_funding),
            "gross_gaming_revenue": fmt(m.gross_gaming_revenue),
            "taxes": [{"code": t.rate.code, "name": t.rate.name,
                       "rate": None if t.rate.rate is None else str(t.rate.rate),
                       "legal_source": t.rate.legal_source,
                       "amount": None if t.amount is None else fmt(t.amount)} for t in m.taxes],
            "tax_total": fmt(m.tax_total)} for m in report.months],
    }
