"""The demo's three gaming days, as a casino would have lived them (issue 36).

For each demo casino, counted from its gaming day now (``Casino.gaming_day``):

* the day before yesterday: played, every table and cage (the vault too) closed and counted,
  then closed by the accountant the next morning: its figures fixed, its ledger period closed,
  sealed (so its archive, close report and the month's tax return are there to read);
* yesterday: played and closed out the same way, but not closed: the accountant closes and
  seals it from the desk;
* today: open and playing on the wall clock (sessions and cage shifts open, a jackpot owed).

A past day is played on the demo's clock (``eventstore.clock``): it stands at 14:00 of the
casino's day when the day starts and moves on a few minutes after each round, so every event is
recorded inside its gaming day, in order, as it would have been; nothing is rewritten after.
The days are played oldest first, casino by casino, through ``DAY_PLAYERS`` (each area's play
of one day), then the cage's close.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.utils import timezone

from casino.models import Casino, Role
from demo import currencies, machines, pokerroom, showcase, tips
from demo.cage import MAIN, DemoCage
from demo.day import DEMO_TABLES, DayPlayer, DemoDay, _as, demo_tables, play_tables
from eventstore.clock import clock_set
from games import services
from games.models import DropDefinition, TableSession

START_HOUR = 14  # a past day's play starts at 14:00, the casino's time
PLAY_HOURS = 11  # and its last round is dealt by 01:00
CLOSE_AFTER = dt.timedelta(hours=1)  # the accountant closes the day an hour after its end

# The day's players, in order: each plays its area's part of one casino's gaming day, given a
# ``demo.day.DemoDay``. Another area plugs its play in with one line here (and its import): a
# ``play_day(d: DemoDay) -> None`` in its ``demo/<area>.py`` that plays through its services,
# calls ``d.tick()`` after each of its rounds or games (the clock moves on), and on a past day
# (``d.over``) leaves nothing open: the cage closes after every player, then the day closes.
# ``d.advance(by)`` moves a past day's clock on without a round. Issue 37's slot floor plugs in
# here too: ``machines.play_day,`` (``demo/machines.py``).
DAY_PLAYERS: list[DayPlayer] = [
    play_tables,  # the pit's tables, with the cage's fills, credits, sales and drop boxes
    pokerroom.play_day,  # four cash tables, a tournament; chemin de fer in Lisbon
    tips.play_day,  # the tip boxes, counted by two; a period over distributed
    currencies.play_day,  # Macau's exchange desk: HKD bought and sold, the holding revalued
    machines.play_day,  # the slot floor: its machines read, boxes counted, tickets settled
    showcase.play_day,  # compliance: yesterday's half of the anonymous structuring shown today
]

# Each area's showcase on the first run (compliance alerts, approvals waiting): called once,
# today, after the days are played, with the casinos' DemoCage (``demo.showcase``).
Showcase = Callable[[DemoCage], None]
SHOWCASES: list[Showcase] = [showcase.compliance_showcase, showcase.approvals_showcase]


@dataclass
class DemoClock:
    """A clock that stands at ``at`` and moves only when told (``advance``)."""

    at: dt.datetime

    def now(self) -> dt.datetime:
        return self.at

    def advance(self, by: dt.timedelta) -> None:
        self.at += by


@contextmanager
def on_clock(clock: DemoClock | None) -> Iterator[None]:
    if clock is None:
        yield
        return
    with clock_set(clock.now):
        yield


@dataclass(frozen=True)
class PlayedDay:
    casino: str
    day: dt.date
    state: str  # "sealed", "closed out", "open"
    sessions: list[TableSession]


def _ready(casino: str) -> None:
    if not DropDefinition.objects.filter(casino_id=casino).exists():
        services.drop_definition_set(casino=casino, basis="counted",
                                     reason="the drop box as counted in the count room",
                                     metadata=_as(casino, Role.ADMINISTRATOR, "config"))


def _still(_by: dt.timedelta) -> None:
    """Today's clock is the wall's: nothing to move."""


def _play(d: DemoDay, *, vault: bool = True) -> None:
    """One casino's day by every player; a day over leaves its main cage closed, and its vault
    unless ``vault`` is False."""
    for player in DAY_PLAYERS:
        player(d)
    if d.over:
        d.cage.close(d.casino)
        if vault:
            d.cage.close_vault(d.casino)


def play_today_closed(*, tables: int, rounds: int, seed: int, tick: Callable[[], None]
                      ) -> list[TableSession]:
    """The one-day demo (``demo_day`` without ``--days``; ``demo.day.play_day``): today, on the
    wall clock, by the same ``DAY_PLAYERS``, in each casino with one of the ``tables`` tables,
    every table session, poker table and tournament closed, and the main cage's shift (the
    vault stays open, as a day played on top of it may use it)."""
    rng = random.Random(f"{seed}:{TableSession.objects.count()}")
    cage = DemoCage()
    played: list[TableSession] = []
    for code in dict.fromkeys(c for c, *_ in demo_tables(tables)):
        casino = Casino.objects.get(code=code)
        _ready(code)
        the_day = DemoDay(casino=code, day=today_of(casino), over=True, rng=rng, cage=cage,
                          rounds=rounds, tables=tables, tick=tick)
        _play(the_day, vault=False)
        played += the_day.sessions
    return played


def today_of(casino: Casino) -> dt.date:
    return casino.gaming_day(timezone.now())


def play_days(*, rounds: int, seed: int, tick: Callable[[], None], days: int = 3,
              tables: int | None = None) -> list[PlayedDay]:
    """Play ``days`` gaming days of every demo casino, ending today (``days`` 1: today only);
    the oldest of three is closed and sealed. Returns each day with its sessions."""
    from reporting.closes import gaming_day_close

    count = tables if tables is not None else sum(len(t) for t in DEMO_TABLES.values())
    rng = random.Random(f"{seed}:{TableSession.objects.count()}")
    cage = DemoCage()
    casinos = [Casino.objects.get(code=code) for code in DEMO_TABLES]
    played: list[PlayedDay] = []
    # the configuration stands before the first day played (a chain's recorded_at never goes
    # back: set now, it would hold the past days' events at now)
    with clock_set(lambda: timezone.now() - dt.timedelta(days=days)):
        for casino in casinos:
            _ready(casino.code)
    for back in range(days - 1, -1, -1):
        for casino in casinos:
            day = today_of(casino) - dt.timedelta(days=back)
            over = back > 0
            clock = None
            if over:
                start = casino.gaming_day_start(day).astimezone(
                    dt.UTC) + dt.timedelta(hours=START_HOUR - casino.gaming_day_closes_at)
                clock = DemoClock(start)
            mine = sum(1 for t in DEMO_TABLES[casino.code])
            step = dt.timedelta(hours=PLAY_HOURS) / max(1, rounds * max(1, mine))

            def moved(clock: DemoClock | None = clock, step: dt.timedelta = step) -> None:
                if clock is not None:
                    clock.advance(step)
                tick()

            cage.pay_now = over
            the_day = DemoDay(casino=casino.code, day=day, over=over, rng=rng, cage=cage,
                              rounds=rounds, tables=count, tick=moved,
                              advance=clock.advance if clock is not None else _still)
            with on_clock(clock):
                _play(the_day)
            state = "closed out" if over else "open"
            if back >= 2:
                assert clock is not None
                clock.at = casino.gaming_day_end(day) + CLOSE_AFTER
                with on_clock(clock):
                    gaming_day_close(casino=casino.code, gaming_day=day,
                                     metadata=_as(casino.code, Role.ACCOUNTANT, "contabilista"))
                state = "sealed"
            played.append(PlayedDay(casino.code, day, state, the_day.sessions))
    cage.pay_now = True
    if days > 1:  # the demo's story; a single day (the tests' demo_day) plays only the tables
        for shown in SHOWCASES:
            shown(cage)
    return played


__all__ = ["DAY_PLAYERS", "MAIN", "SHOWCASES", "DemoClock", "PlayedDay", "play_days",
           "play_today_closed"]
