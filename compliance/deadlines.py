"""When a suspicious-transaction report is due at the authority (issue 34): pure, no Django.

The clock runs from the suspicion: the gaming day of the earliest alert the report is drafted
from (the movement that raised it, the day the alert was raised). Each jurisdiction's rule is
data with its source (``docs/patrons.md``, Suspicious-transaction reports: the deadline):

* Portugal: Lei n.º 83/2017, art. 43.º, n.º 1, the obliged entity informs the DCIAP and the UIF
  "de imediato", and art. 44.º, n.º 1, b), "logo que a entidade obrigada conclua que a operação
  é suspeita": no days of grace, the report is due the day of the suspicion.
* Macau: two working days. The GIF (the authority that receives the reports) states that the
  reporting entities "devem participar ao GIF quaisquer operações suspeitas nos dois dias
  seguintes à sua realização" ("within 2 working days following the performance of such
  operations"), under Regulamento Administrativo n.º 7/2006 as amended by RA n.º 17/2017; the
  article of the regulation and of the DICJ's Instrução n.º 1/2016 that sets it was not found
  in the text: FLAGGED, for the compliance officer to confirm.

Working days leave out Saturdays, Sundays and the jurisdiction's public holidays: a list that
is a parameter (``holidays``; a deployment sets ``COMPLIANCE_PUBLIC_HOLIDAYS``), the Macau list
below a demonstration one, FLAGGED, to be replaced by the year's list the Government publishes
in the Boletim Oficial.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

# what a report's deadline says of it on a day (``state``)
OVERDUE = "overdue"      # not sent, and the due day has passed
DUE_SOON = "due_soon"    # not sent, due today or on the next working day
OPEN = "open"            # not sent, due later
SENT = "sent"            # sent on or before its due day
SENT_LATE = "sent_late"  # sent after its due day
STATES = (OVERDUE, DUE_SOON, OPEN, SENT, SENT_LATE)


@dataclass(frozen=True)
class ReportDeadline:
    jurisdiction: str
    working_days: int  # after the day of the suspicion; 0: that day itself ("de imediato")
    source: str
    flagged: bool  # the rule is not confirmed in the text: a parameter with its source


DEADLINES: dict[str, ReportDeadline] = {
    "PT": ReportDeadline(
        "PT", 0, "Lei n.º 83/2017, art. 43.º, n.º 1 (\"informam de imediato\") e art. 44.º, "
                 "n.º 1, b) (\"logo que a entidade obrigada conclua que a operação é suspeita\")",
        flagged=False),
    "MO": ReportDeadline(
        "MO", 2, "Regulamento Administrativo n.º 7/2006, na redacção do RA n.º 17/2017, e "
                 "Instrução da DICJ n.º 1/2016: dois dias úteis seguintes à operação, como o "
                 "GIF o publica (gif.gov.mo); o artigo não foi confirmado",
        flagged=True),
}

# FLAGGED demonstration list: Macau's public holidays of 2026, the days Ordem Executiva n.º
# 60/2000 names (New Year, the Lunar New Year's eve and first three days, Cheng Ming, Good
# Friday and Holy Saturday, Labour Day, Buddha, Tung Ng, the day after Chong Chao, 1 and 2
# October, Chong Yeong, All Souls, the Immaculate Conception, the MSAR's day, the winter
# solstice, Christmas Eve and Christmas) with their 2026 dates reckoned by the project from the
# lunar calendar; replace by the year's list the Government publishes (Boletim Oficial) with
# ``COMPLIANCE_PUBLIC_HOLIDAYS``.
MACAU_HOLIDAYS_SOURCE = ("Ordem Executiva n.º 60/2000's days, dated for 2026 by the project "
                         "(flagged); to be replaced by the Government's "
                         "published list (Boletim Oficial)")
MACAU_HOLIDAYS: tuple[dt.date, ...] = tuple(dt.date.fromisoformat(d) for d in (
    "2026-01-01", "2026-02-16", "2026-02-17", "2026-02-18", "2026-02-19", "2026-04-03",
    "2026-04-04",
    "2026-04-05", "2026-05-01", "2026-05-24", "2026-06-19", "2026-09-26", "2026-10-01",
    "2026-10-02", "2026-10-18", "2026-11-02", "2026-12-08", "2026-12-20", "2026-12-22",
    "2026-12-24", "2026-12-25",
))
HOLIDAYS: dict[str, tuple[dt.date, ...]] = {"MO": MACAU_HOLIDAYS, "PT": ()}


class NoDeadline(LookupError):
    pass


def deadline_for(jurisdiction: str) -> ReportDeadline:
    try:
        return DEADLINES[jurisdiction]
    except KeyError:
        raise NoDeadline(f"no report deadline is set for {jurisdiction!r}") from None


def working_day(day: dt.date, holidays: frozenset[dt.date]) -> bool:
    return day.weekday() < 5 and day not in holidays


def due_on(suspected_on: dt.date, working_days: int, holidays: Iterable[dt.date]) -> dt.date:
    """The last day the report may be sent: ``working_days`` working days after the day of the
    suspicion (0: that day)."""
    off = frozenset(holidays)
    day = suspected_on
    left = working_days
    while left > 0:
        day += dt.timedelta(days=1)
        if working_day(day, off):
            left -= 1
    return day


def state(due: dt.date, today: dt.date, sent_on: dt.date | None,
          holidays: Iterable[dt.date]) -> str:
    """What the deadline says of a report on ``today`` (``STATES``)."""
    if sent_on is not None:
        return SENT if sent_on <= due else SENT_LATE
    if today > due:
        return OVERDUE
    if today == due or due_on(today, 1, holidays) >= due:
        return DUE_SOON
    return OPEN
