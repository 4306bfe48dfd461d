"""A demo gaming day of the casinos of one cell only (docs/cells.md): each cell is its own
deployment, so it registers and plays its own casinos, nothing of another cell's. The casinos,
tables and plays are the demo's own (``demo.day``); the day is then closed and sealed."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Sequence

from cage import services as cage_services
from cage.models import Shift
from cage.selectors import expected_count, foreign_expected
from casino.context import system_metadata
from casino.models import Casino, ChipSet, Role
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from demo.cage import DemoCage
from demo.day import _as, demo_tables, play_session
from demo.management.commands.seed_demo import DEMO_CASINOS
from eventstore.records import Metadata
from games import services
from games.limits import default_limits
from games.models import DropDefinition, Table, TableSession
from reporting.closes import gaming_day_close


def register(casino: str) -> None:
    """The demo casino ``casino`` and its chips, if missing."""
    for code, name, currency, tz, hour, chips in DEMO_CASINOS:
        if code != casino:
            continue
        if not Casino.objects.filter(code=code).exists():
            casino_register(code=code, name=name, currency=currency, time_zone=tz,
                            gaming_day_closes_at=hour,
                            metadata=system_metadata(code, job="cell_demo"))
        if not ChipSet.objects.filter(casino_id=code, code="main").exists():
            chip_set_register(casino=code, code="main", name="Value chips", denominations=chips,
                              metadata=system_metadata(code, job="cell_demo"))


def _tables(casino: str, count: int) -> list[Table]:
    mine = [t for t in demo_tables(count * 20) if t[0] == casino][:count]
    tables = []
    for code_casino, code, game, seats, options in mine:
        table = Table.objects.filter(casino_id=code_casino, code=code).first()
        if table is None:
            from demo.day import PRIZE_CAP, UNIT

            services.table_configure(
                casino=casino, code=code, name=f"{game.replace('_', ' ').title()} {code}",
                game=game, options=options, seats=seats, chip_set="main",
                limits=default_limits(game, UNIT[casino], options),
                max_prize_per_coup=PRIZE_CAP.get(casino) if game == "stud_poker" else None,
                metadata=_as(casino, Role.ADMINISTRATOR, "config"))
            table = Table.objects.get(casino_id=casino, code=code)
        tables.append(table)
    return tables


def play_cell_day(casinos: Sequence[str], *, tables: int, rounds: int, seed: int,
                  close: bool = True, tick: Callable[[], None] = lambda: None
                  ) -> list[TableSession]:
    """Play ``tables`` tables of each of ``casinos`` for ``rounds`` rounds, close the cage, and
    (``close``) close and seal each casino's gaming day."""
    rng = random.Random(f"{seed}:{TableSession.objects.count()}")
    cage = DemoCage()
    played: list[TableSession] = []
    for casino in casinos:
        register(casino)
        if not DropDefinition.objects.filter(casino_id=casino).exists():
            services.drop_definition_set(casino=casino, basis="counted",
                                         reason="the drop box as counted in the count room",
                                         metadata=_as(casino, Role.ADMINISTRATOR, "config"))
        for table in _tables(casino, tables):
            played.append(play_session(table, rounds, rng, cage, tick))
        cage.close(casino)
        if close:
            close_day(casino, next(s.gaming_day for s in played if s.casino_id == casino))
    return played


def close_day(casino: str, day: dt.date) -> None:
    """Count and close the cage's open shifts, then close (and seal) the gaming day, as just
    after its end: the demo's day ends hours from now, so its close runs on a clock set to
    five minutes after it, as the benchmarks of the close do (its events carry that time)."""
    from unittest import mock

    for shift in Shift.objects.filter(casino_id=casino).exclude(status="closed"):
        cash, chips = expected_count(shift)
        who = Metadata(actor="system:cell_demo:supervisor", role="cage_supervisor", casino=casino)
        cage_services.shift_count(shift_id=str(shift.id), cash=cash, chips=chips, metadata=who,
                                  foreign=foreign_expected(shift))
        cage_services.shift_close(shift_id=str(shift.id), metadata=who)
    after = Casino.objects.get(code=casino).gaming_day_end(day) + dt.timedelta(minutes=5)
    with mock.patch("django.utils.timezone.now", return_value=after):
        gaming_day_close(casino=casino, gaming_day=day, now=after,
                         metadata=system_metadata(casino, job="cell_demo"))
