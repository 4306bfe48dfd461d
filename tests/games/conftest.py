"""Fixtures for the pit's tests: a casino, a chip set, tables of each game, pit bosses, and the
cage that issues fills (through the cage's own services)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

import eventstore
from casino.context import person_metadata, system_metadata
from casino.models import Role
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from eventstore.answers import as_data
from eventstore.models import StoredEvent
from eventstore.records import Metadata
from games.answers import DropBoxConfirmAnswer
from games.limits import default_limits
from games.services import table_configure

CASINO = "lisboa"
DENOMINATIONS = ["1000", "500", "100", "25", "5", "1", "0.50", "0.25", "0.05", "0.01"]


def pit(actor: str = "ana", *, key: str | None = None) -> Metadata:
    """A pit boss's metadata. Each command gets an idempotency key of its own, as from the API
    and the screens (the keyed path: append lock first, reads ahead, the INSERT sent early);
    ``key=""`` for none."""
    return person_metadata(username=actor, role=Role.PIT_BOSS, casino=CASINO,
                           idempotency_key=uuid.uuid4().hex if key is None else key)


def counter(name: str = "rita", role: str = Role.CASHIER, *, key: str | None = None
            ) -> Metadata:
    """A counter in the count room: a cashier or a cage supervisor who did not work the table."""
    return person_metadata(username=name, role=role, casino=CASINO,
                           idempotency_key=uuid.uuid4().hex if key is None else key)


def count_box(session_id: str, cash: dict[str, int]) -> DropBoxConfirmAnswer:
    """The count room counts a closed session's drop box: Rita records, Sofia confirms."""
    from games.services import drop_box_count, drop_box_count_confirm

    drop_box_count(session_id=session_id, cash=cash, metadata=counter())
    return drop_box_count_confirm(session_id=session_id, cash=cash,
                                  metadata=counter("sofia", Role.CAGE_SUPERVISOR))


def close_and_count(session_id: str, closing: dict[str, int], metadata: Any,
                    cash: dict[str, int] | None = None) -> dict[str, Any]:
    """Close a session on its closing count and have its drop box (empty unless ``cash``)
    counted in the count room: the close's answer, with the win and variance the count gives."""
    from games.services import table_session_close

    closed = table_session_close(session_id=session_id, closing=closing, metadata=metadata)
    counted = count_box(session_id, cash or {})
    return {**as_data(closed), **{k: getattr(counted, k) for k in ("drop", "table_win", "variance",
                                                                   "variance_state")}}


def notes(amount: str) -> dict[str, int]:
    """``amount`` in euro notes and coins, largest first (a drop box's contents)."""
    from casino.money import CASH_DENOMINATIONS

    rest, out = Decimal(amount), {}
    for d in CASH_DENOMINATIONS["EUR"]:
        if rest >= d:
            out[f"{d:.2f}"], rest = int(rest // d), rest % d
    return out


def events_count() -> int:
    return StoredEvent.objects.count()


@pytest.fixture
def casino() -> str:
    meta = system_metadata(CASINO, job="test")
    casino_register(code=CASINO, name="Casino Lisboa", currency="EUR", time_zone="Europe/Lisbon",
                    gaming_day_closes_at=6, metadata=meta)
    chip_set_register(casino=CASINO, code="main", name="Value chips",
                      denominations=DENOMINATIONS, metadata=meta)
    return CASINO


TableMaker = Callable[..., str]


@pytest.fixture
def make_table(casino: str) -> TableMaker:
    def make(game: str, code: str | None = None, *, minimum: str = "5", seats: int = 7,
             options: dict[str, Any] | None = None, cap: str | None = None,
             limits: dict[str, Any] | None = None) -> str:
        code = code or game.replace("_", "-")
        table_configure(casino=CASINO, code=code, name=code.upper(), game=game,
                        options=options or {}, seats=seats, chip_set="main",
                        limits=limits or default_limits(game, Decimal(minimum), options),
                        max_prize_per_coup=cap, metadata=pit("admin"))
        return code

    return make


@pytest.fixture
def cage(casino: str) -> Callable[[str], None]:
    """``issue(slip)``: the cage issues a requested fill slip (its own services)."""
    from cage.services import cage_configure, fill_issue, shift_open

    cashier = person_metadata(username="caixa", role=Role.CASHIER, casino=CASINO)
    state: dict[str, str] = {}

    def issue(slip: str) -> None:
        if "shift" not in state:
            cage_configure(code="main", name="Main cage", kind="main",
                           metadata=person_metadata(username="gestor", role=Role.ADMINISTRATOR,
                                                    casino=CASINO))
            opened = shift_open(cage="main", metadata=cashier, cash={"500.00": 100},
                                chips={"main": {"1000.00": 100, "100.00": 500, "25.00": 500,
                                                "5.00": 1000, "1.00": 1000}})
            state["shift"] = opened.shift_id
        fill_issue(shift_id=state["shift"], slip=slip, metadata=cashier)

    return issue


def rebuild_differences() -> list[object]:
    """``eventstore.check()`` over every projection (whose tables are migrated: another app's
    work in progress may register projections before its migration lands), after firing the
    deferred constraint triggers pending in the test's transaction (the cage's: TRUNCATE refuses
    to run while any are pending)."""
    from django.db import connection

    from eventstore import projections

    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    tables = set(connection.introspection.table_names())
    names = [p.name for p in projections.registry.projections.values()
             if all(m._meta.db_table in tables for m in p.models)]
    assert {"tables", "table_sessions", "slips", "rounds", "gaming_days"} <= set(names)
    return list(eventstore.check(names))
