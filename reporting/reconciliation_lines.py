"""A reconciliation's lines and the ledger's side of them: what ``reconciliation`` and the
areas' parts of it (``reconciliation_areas``, ``reconciliation_currencies``,
``machine_reconciliation``) are made of."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from typing import Any

from django.db import connection

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class Line:
    area: str  # chips, cage, shift, table, drop, jackpot, pending
    subject: str
    what: str
    platform: Decimal | None
    ledger: Decimal | None
    note: str = ""
    unexplained: bool = False
    accepted: bool = False  # a difference explained and approved by a second person

    @property
    def difference(self) -> Decimal:
        if self.platform is None or self.ledger is None:
            return ZERO
        return self.platform - self.ledger

    @property
    def ok(self) -> bool:
        return (self.difference == 0 or self.accepted) and not self.unexplained

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for name in ("platform", "ledger"):
            data[name] = None if data[name] is None else str(data[name])
        data["difference"] = str(self.difference)
        data["ok"] = self.ok
        return data


@dataclass
class Report:
    casino: str
    gaming_day: dt.date
    lines: list[Line] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(line.ok for line in self.lines)

    @property
    def failures(self) -> list[Line]:
        return [line for line in self.lines if not line.ok]

    def as_dict(self) -> dict[str, Any]:
        return {"casino": self.casino, "gaming_day": self.gaming_day.isoformat(), "ok": self.ok,
                "lines": [line.as_dict() for line in self.lines]}


# --- the ledger's side --------------------------------------------------------------------------


def ledger_balance(casino: str, code: str, *, position: int | None = None,
                   event_day: dt.date | None = None, every_sub_account: bool = False) -> Decimal:
    """Debits less credits of ``code`` (and of its sub-accounts, every code starting with it,
    with ``every_sub_account``): over every entry, or those of events up to ``position``, or
    those of events of gaming day ``event_day`` (wherever they were posted)."""
    sql = ("SELECT coalesce(sum(l.debit - l.credit), 0) FROM journal_line l "
           "JOIN journal_entry e ON e.id = l.entry_id WHERE l.casino_id = %s AND "
           + ("l.account_code LIKE %s" if every_sub_account else "l.account_code = %s"))
    params: list[Any] = [casino, f"{code}%" if every_sub_account else code]
    if position is not None:
        sql += " AND e.event_position <= %s"
        params.append(position)
    if event_day is not None:
        sql += " AND e.event_day = %s"
        params.append(event_day)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return Decimal(cursor.fetchone()[0]).quantize(Decimal("0.01"))
