"""What the ledger's commands share: parsing a gaming day and naming the casino."""

from __future__ import annotations

import datetime as dt

from django.core.management.base import CommandError


def day(value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"{value!r} is not a day (YYYY-MM-DD)") from None
