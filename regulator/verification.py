"""What the regulator's API verifies: a casino's hash chain between two positions (or two of its
events' numbers in its chain), a day's seal,
and a day's archive and regulator file (built by the ledger). The views call only these.

One chain per casino (ADR 0007, ``docs/event-hash.md``): the casino's events between two global
positions are a stretch of its own chain, checked with ``verify_casino_chain`` (each hash, each
link to the casino's event before), never reading another casino's events.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import IO

from django.db.models import Max, Min

from casino.errors import NotFound
from eventstore.models import StoredEvent
from eventstore.verify import verify_casino_chain
from reporting.archives import archive_name
from reporting.archives import day_archive as build
from reporting.regulator_file import filename, regulator_file
from reporting.seals import seal_check


@dataclass(frozen=True)
class ChainCheck:
    first_position: int
    last_position: int
    checked: int  # the casino's events checked
    last_hash: str
    bad_position: int | None = None
    reason: str = ""
    first_sequence: int = 0  # the casino's events checked, by their numbers in its chain
    last_sequence: int = 0

    @property
    def ok(self) -> bool:
        return self.bad_position is None


def chain_verify(*, casino: str, first: int, last: int, by: str = "position") -> ChainCheck:
    """The casino's events from ``first`` to ``last``: each hash recomputed and each link to the
    casino's event before checked; the first that does not fit is named. ``by`` "position":
    this database's positions; "sequence": the casino's own numbers, the same in every cell (a
    seal's ``first_sequence`` and ``last_sequence``, before and after a move), every one of
    which must be there."""
    span = StoredEvent.objects.filter(casino_id=casino, **{f"{by}__gte": first,
                                                           f"{by}__lte": last}).aggregate(
        lo=Min("sequence"), hi=Max("sequence"), first=Min("position"), last=Max("position"))
    if by == "sequence":
        report = verify_casino_chain(casino, first=first, last=last)
        return ChainCheck(span["first"] or 0, span["last"] or 0, report.checked,
                          report.last_hash, report.bad_position, report.reason, first, last)
    if span["lo"] is None:
        return ChainCheck(first, last, 0, "")
    report = verify_casino_chain(casino, first=span["lo"], last=span["hi"])
    return ChainCheck(first, last, report.checked, report.last_hash, report.bad_position,
                      report.reason, span["lo"], span["hi"])


@dataclass(frozen=True)
class SealVerification:
    casino: str
    gaming_day: dt.date
    problem: str

    @property
    def ok(self) -> bool:
        return not self.problem


def seal_verify(*, casino: str, gaming_day: dt.date) -> SealVerification:
    """The day's seal checked against the events stored now and the casino's public key."""
    for check in seal_check(casino=casino):
        if check.gaming_day == gaming_day:
            return SealVerification(casino, gaming_day, check.problem)
    raise NotFound("gaming day {gaming_day} of {casino} is not sealed",
                   params={"gaming_day": gaming_day.isoformat(), "casino": casino})


def day_archive(*, casino: str, gaming_day: dt.date, out: IO[bytes]) -> str:
    """Write the sealed day's archive (``reporting.archives.day_archive``) to ``out``; its file
    name."""

    build(casino=casino, gaming_day=gaming_day, out=out)
    return archive_name(casino, gaming_day)


def day_regulator_file(*, casino: str, gaming_day: dt.date) -> tuple[bytes, str]:
    """The sealed day's regulator file (XML against ``reporting/xsd/regulator-day-1.xsd``) and its
    file name."""

    return regulator_file(casino, gaming_day), filename(casino, gaming_day)
