"""What the ledger's commands share: parsing a gaming day and naming the casino."""

from __future__ import annotations

import argparse
import datetime as dt
import re
from dataclasses import dataclass

from django.utils import timezone

from casino.models import Casino

WORDS = {"today": 0, "yesterday": 1}


@dataclass(frozen=True)
class DaysBack:
    """A gaming day named relative to the casino's gaming day now (``today``, ``yesterday``,
    ``today-2``): which date it is depends on the casino's time zone and closing hour, so it is
    resolved once the casino is known (``on``)."""

    back: int

    def on(self, casino: Casino) -> dt.date:
        return casino.gaming_day(timezone.now()) - dt.timedelta(days=self.back)


def day(value: str) -> dt.date | DaysBack:
    """A gaming day: ``YYYY-MM-DD``, or ``today``, ``yesterday`` or ``today-N`` (the casino's
    gaming day now, the one before, N before), as the README's commands name the demo's days."""
    word = value.strip().lower()
    if word in WORDS:
        return DaysBack(WORDS[word])
    if match := re.fullmatch(r"today-(\d{1,4})", word):
        return DaysBack(int(match[1]))
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a day (YYYY-MM-DD, today, yesterday or "
                           "today-N)") from None


def on(value: dt.date | DaysBack, casino: Casino) -> dt.date:
    """``value`` as a date of ``casino``'s gaming days."""
    return value.on(casino) if isinstance(value, DaysBack) else value
