"""What the projections read, live and in a rebuild, without declaring anything:

* a handler reading another projection's table sees it as if every event before it had been
  written at once (a spy handler written to catch a stale read);
* an event stored in an older schema version is read by every projection as the current one;
* a rebuild of one casino leaves the other casino's rows untouched, and rebuilt equals live.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator
from decimal import Decimal as D
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from eventstore import events as event_types
from eventstore import projections
from eventstore.changes import Change, Update
from eventstore.projections import Projection, handles
from eventstore.records import RecordedEvent
from eventstore.writer import Reader, Writer
from games import events as ev
from games.models import Bet, Round, TableSession
from games.services import round_record, table_session_open

from ..conftest import CASINO, pit, rebuild_differences

pytestmark = pytest.mark.django_db(transaction=True)

BETS = [{"seat": 1, "type": "red", "amount": "10"}, {"seat": 2, "type": "even", "amount": "20"},
        {"seat": 3, "type": "straight", "numbers": [17], "amount": "5"}]


class Spy(Projection):
    """Counts, at each bet, the bets of its round it can read in the rounds projection's table."""

    name = "spy"
    seen: list[int]

    @handles
    def bet(self, event: ev.BetPlaced, recorded: RecordedEvent) -> Iterator[Change]:
        self.seen.append(Bet.objects.filter(round_id=event.round_id).count())
        return iter(())


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    watcher = Spy()
    watcher.seen = []
    registry = projections.registry
    by_type = {k: list(v) for k, v in registry.by_event_type.items()}
    by_type["BetPlaced"] = [*by_type.get("BetPlaced", []), watcher]
    monkeypatch.setattr(registry, "by_event_type", by_type)
    return watcher


def test_a_handler_reading_another_projections_table_sees_every_event_before_it(
        make_table: Any, spy: Spy) -> None:
    table = make_table("french_roulette")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 20},
                             metadata=pit()).session_id
    # One append: the round opened, three bets, no more bets, outcome, settlement. The rounds
    # projection's INSERT of each bet is still pending when the spy reads: the writer sends it
    # first, so the spy sees one bet, then two, then three.
    round_record(session_id=sid, bets=BETS, outcome={"number": 17}, metadata=pit())
    assert spy.seen == [1, 2, 3]
    spy.seen.clear()
    round_record(session_id=sid, bets=BETS[:2], outcome={"number": 2}, metadata=pit(key=""))
    assert spy.seen == [1, 2]


# --- an event stored in an older version ----------------------------------------------------------


@pytest.fixture
def round_settled_v0(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if ``RoundSettled`` had once been stored as version 0 with ``house_result`` for
    ``result`` and the prizes in cents: the upcaster makes it version 1."""

    def v0_to_v1(data: dict[str, Any]) -> dict[str, Any]:
        data = dict(data)
        data["result"] = data.pop("house_result")
        data["prizes"] = str((D(data.pop("prizes_cents")) / 100).quantize(D("0.01")))
        return data

    monkeypatch.setitem(event_types._UPCASTERS, ("RoundSettled", 0), v0_to_v1)


@pytest.mark.usefixtures("round_settled_v0")
def test_an_event_stored_in_an_older_version_is_read_by_every_projection_as_the_current() -> None:
    rid, sid = str(uuid.uuid4()), str(uuid.uuid4())
    old = RecordedEvent(
        position=5, stream=f"round/{rid}", version=9, event_type="RoundSettled", schema_version=0,
        data={"round_id": rid, "session_id": sid, "handle": "35.00", "house_result": "-120.00",
              "prizes_cents": "15500", "pending": [], "point_after": None, "stakes": {}},
        metadata={"actor": "ana", "casino": CASINO}, recorded_at=dt.datetime.now(dt.UTC),
        prev_hash="0" * 64, hash="1" * 64)
    handlers = projections.registry.by_event_type["RoundSettled"]
    assert {p.name for p in handlers} >= {"rounds", "table_sessions", "ledger"}
    reader = Reader(Writer())
    made = {p.name: list(p.changes(old, reader)) for p in handlers if p.name != "ledger"}
    (the_round,) = made["rounds"]
    assert isinstance(the_round, Update)
    assert (the_round.set["result"], the_round.set["prizes"]) == (D("-120.00"), D("155.00"))
    (session,) = made["table_sessions"]
    assert session.add == {"handle": D("35.00"), "round_result": D("-120.00")}
    # the ledger posts from the same current-version event
    event = old.event
    assert isinstance(event, ev.RoundSettled)
    assert (event.result, event.prizes) == (D("-120.00"), D("155.00"))
    assert "house_result" not in event.to_data()


# --- a rebuild of one casino ------------------------------------------------------------------------


def _rows(casino: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every projection row of ``casino``, ids included: a rebuild of another casino must leave
    them exactly as they are."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    for projection in projections.registry.projections.values():
        for model in projection.models:
            rows = projection.casino_rows(model, casino).order_by("pk")
            found[model._meta.db_table] = [tuple(r) for r in rows.values_list()]
    return found


def test_rebuilding_one_casino_leaves_the_others_rows_as_they_are(settings: Any) -> None:
    from demo.day import play_day

    settings.DEBUG = True  # the demo's casinos and logins
    call_command("seed_demo", verbosity=0)
    play_day(tables=10, rounds=2, seed=11, tick=lambda: None)  # 8 in Lisbon, 2 in Macau
    macau_before = _rows("macau")
    assert sum(len(rows) for rows in macau_before.values()) > 20
    lisboa_sessions = TableSession.objects.filter(casino_id="lisboa").count()
    assert lisboa_sessions > 0
    # Lisbon's projections drift from its events; Macau's too, by hand, to see it is not touched.
    Round.objects.filter(casino_id="lisboa").update(result=D("999.99"))
    TableSession.objects.filter(casino_id="macau").update(opened_by="edited by hand")
    macau_edited = _rows("macau")

    out = StringIO()
    call_command("rebuild_projections", "--casino", "lisboa", stdout=out)

    assert "rebuilt from" in out.getvalue()
    assert _rows("macau") == macau_edited  # untouched, edit and ids included
    assert not Round.objects.filter(casino_id="lisboa", result=D("999.99")).exists()
    assert TableSession.objects.filter(casino_id="lisboa").count() == lisboa_sessions
    # Macau's own rebuild puts its edit right, and then every projection equals a rebuild.
    call_command("rebuild_projections", "--casino", "macau", stdout=StringIO())
    assert not TableSession.objects.filter(opened_by="edited by hand").exists()
    assert sorted(map(len, _rows("macau").values())) == sorted(map(len, macau_before.values()))
    assert rebuild_differences() == []
