"""The period over which a casino links movements toward the identification threshold (issue
34): one patron's movements, or the movements the cashier or the pit marks as one unidentified
player's, within ``days`` gaming days ending with the movement's are summed. Configuration is
events (``LinkingPeriodSet``, with its author): read as of the movement's gaming day, never
live; before any is set, the gaming day alone, and the answer says so (its ``source``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from casino.context import require_role
from casino.errors import InvalidCommand, gettext_noop
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata

from ..answers import LinkingPeriodAnswer
from ..events import LinkingPeriodSet
from ..models import LinkingPeriod
from ._common import COMPLIANCE_ROLES, casino_get

# Lei n.º 83/2017, art. 76.º, n.º 1 links "várias operações aparentemente relacionadas" and sets
# no period: the gaming day is this project's default, for the compliance officer to widen.
DEFAULT_SOURCE = ("default: the gaming day (Lei n.º 83/2017, art. 76.º, n.º 1 sets no period; "
                  "no setting recorded)")
MAX_DAYS = 366
DAYS_BAD = gettext_noop("the linking period is a whole number of gaming days from 1 to {most}, "
                        "not {given!r}")
FROM_DAY_BAD = gettext_noop("from_day is a gaming day as YYYY-MM-DD, not {given!r}")
FROM_DAY_PAST = gettext_noop("a linking period takes effect from today's gaming day on "
                             "({earliest} or later), never for a day past: not {given}")
REASON_MISSING = gettext_noop("say why the linking period changes")


@dataclass(frozen=True)
class PeriodInForce:
    """The linking period on a gaming day: ``days`` ending with it, from ``first_day``, and
    where it comes from (the version's author and reason, or the default)."""

    days: int
    first_day: dt.date
    source: str


def period_for(casino: str, gaming_day: dt.date) -> PeriodInForce:
    """The version in force on ``gaming_day`` (the latest whose ``from_day`` is on or before
    it; of two for one day, the later recorded)."""
    row = (LinkingPeriod.objects.filter(casino=casino, from_day__lte=gaming_day)
           .order_by("-from_day", "-position").first())
    if row is None:
        return PeriodInForce(days=1, first_day=gaming_day, source=DEFAULT_SOURCE)
    return PeriodInForce(
        days=row.days, first_day=gaming_day - dt.timedelta(days=row.days - 1),
        source=f"set by {row.set_by} from {row.from_day.isoformat()}: {row.reason}")


@command("linking_period_set")
def linking_period_set(*, days: object, from_day: object, reason: object,
                       metadata: Metadata) -> LinkingPeriodAnswer:
    """A new version of the casino's linking period, from ``from_day`` (today's gaming day or
    later: a day past keeps the period it was screened under)."""
    require_role(metadata, COMPLIANCE_ROLES, "setting the linking period")
    casino = casino_get(metadata.casino).code
    try:
        count = int(str(days))
    except ValueError:
        count = 0
    if not 1 <= count <= MAX_DAYS or str(days).strip() != str(count):
        raise InvalidCommand(DAYS_BAD, params={"most": MAX_DAYS, "given": days}, field="days")
    try:
        start = dt.date.fromisoformat(str(from_day))
    except ValueError:
        raise InvalidCommand(FROM_DAY_BAD, params={"given": from_day},
                             field="from_day") from None
    # a gaming day runs past midnight: yesterday's date may still be the open gaming day
    earliest = clock.now().date() - dt.timedelta(days=1)
    if start < earliest:
        raise InvalidCommand(FROM_DAY_PAST, params={"earliest": earliest.isoformat(),
                                                    "given": start.isoformat()},
                             field="from_day")
    why = str(reason or "").strip()
    if not why:
        raise InvalidCommand(REASON_MISSING, field="reason")
    version = LinkingPeriod.objects.filter(casino=casino).count()
    store.append(f"aml_linking/{casino}", [LinkingPeriodSet(
        casino=casino, days=count, from_day=start, reason=why)],
        expected_version=version, metadata=metadata)
    return LinkingPeriodAnswer(casino=casino, days=count, from_day=start.isoformat(),
                               version=version + 1)
