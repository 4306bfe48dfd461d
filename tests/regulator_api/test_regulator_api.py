"""The regulator's API as an inspector uses it on a played demo day: the whole event stream
page by page, with hashes that recompute; filters (an unknown one refused); every round
replayed; the state of a table and a cage as of an instant; query counts that do not grow with
the page."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from eventstore.hashing import event_hash
from eventstore.models import StoredEvent
from games.models import Bet, Round, RoundStatus, TableSession

from .conftest import API, Demo

pytestmark = pytest.mark.django_db

LISTS = ["tables/", "sessions/", "rounds/", "slips/", "shifts/", "jackpot-pools/", "events/",
         "gaming-days/"]


def read_all(client: Any, url: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    while url:
        answer = client.get(url)
        assert answer.status_code == 200, answer.json()
        rows += answer.json()["results"]
        url = answer.json()["next"]
    return rows


def test_an_inspector_reads_the_whole_day_by_position_and_every_hash_recomputes(
        demo: Demo) -> None:
    srij = demo.client("srij")

    events = read_all(srij, f"{API}/casinos/lisboa/events/?page_size=40")

    lisbon = StoredEvent.objects.filter(casino_id="lisboa")
    assert len(events) == lisbon.count() > 150
    positions = [e["position"] for e in events]
    assert positions == sorted(positions)
    assert len(set(positions)) == len(positions)
    assert not StoredEvent.objects.filter(position__in=positions).exclude(
        casino_id="lisboa").exists()  # nothing of Macau's
    for e in events:
        assert event_hash(position=e["position"], stream=e["stream"], version=e["version"],
                          event_type=e["type"], schema_version=e["schema_version"],
                          data=e["data"], metadata=e["metadata"],
                          recorded_at=e["recorded_at"], prev_hash=e["prev_hash"]) == e["hash"]
    head = events[-1]["position"]
    chain = srij.get(f"{API}/casinos/lisboa/chain/verification/?from=1&to={head}").json()
    assert chain["ok"], chain
    assert chain["checked"] == len(events)

    # a list asks the same queries for one row as for fifty (no N+1)
    counts = {}
    for collection in LISTS:
        url = f"{API}/casinos/lisboa/{collection}"
        with CaptureQueriesContext(connection) as one:
            assert srij.get(url + "?page_size=1").status_code == 200
        with CaptureQueriesContext(connection) as fifty:
            assert srij.get(url + "?page_size=50").status_code == 200
        counts[collection] = (len(one), len(fifty))
    # the token, the casino, the page, (the days' periods and seals), the access log
    assert counts == {c: (n, n) for c, (n, _) in counts.items()}
    assert max(n for n, _ in counts.values()) <= 6, counts

    # the filters, and an unknown one refused
    the_round = Round.objects.filter(casino_id="lisboa", status=RoundStatus.SETTLED).first()
    assert the_round is not None
    url = f"{API}/casinos/lisboa/events/"

    opened = read_all(srij, url + "?type=RoundOpened,RoundSettled&page_size=500")
    one_round = srij.get(url + f"?stream=round/{the_round.round_id}").json()["results"]
    later = srij.get(url + "?position_after=100&page_size=3").json()["results"]
    unknown = srij.get(url + "?event_type=RoundOpened")
    bad = srij.get(url + "?position_after=many")

    assert {e["type"] for e in opened} == {"RoundOpened", "RoundSettled"}
    lisbon_rounds = Round.objects.filter(casino_id="lisboa").count()
    assert sum(e["type"] == "RoundOpened" for e in opened) == lisbon_rounds
    assert {e["stream"] for e in one_round} == {f"round/{the_round.round_id}"}
    assert next(e["type"] for e in one_round) == "RoundOpened"
    assert [e["position"] > 100 for e in later] == [True, True, True]
    assert unknown.status_code == 400
    assert unknown.json()["error"]["extra"]["fields"]["event_type"][0].startswith(
        "unknown parameter")
    assert bad.status_code == 400
    assert "position_after" in bad.json()["error"]["message"]


def test_every_round_replays_to_its_settlement_and_a_table_and_cage_as_of_an_instant(
        demo: Demo) -> None:
    checked = 0
    for casino, inspector in (("lisboa", "srij"), ("macau", "dicj")):
        client = demo.client(inspector)
        for the_round in Round.objects.filter(casino_id=casino):
            answer = client.get(f"{API}/casinos/{casino}/rounds/{the_round.round_id}/replay/")
            assert answer.status_code == 200
            replay = answer.json()
            if the_round.status == RoundStatus.SETTLED:
                assert replay["matches"] is True, replay
                bets = Bet.objects.filter(round_id=the_round.round_id).count()
                assert len(replay["bets"]) == bets
                for line in replay["bets"]:
                    assert line["recorded"] == line["replayed"]
                checked += 1
            else:
                assert replay["matches"] is None
    assert checked >= 17  # 18 rounds played, one of them voided

    # the state of a table and of a cage as of an instant
    srij = demo.client("srij")
    session = TableSession.objects.get(casino_id="lisboa", table="rf1")
    before = (session.opened_at - dt.timedelta(microseconds=1)).isoformat()
    after = (session.closed_at + dt.timedelta(seconds=1)).isoformat()  # type: ignore[operator]

    empty = srij.get(f"{API}/casinos/lisboa/tables/rf1/as-of/", {"at": before}).json()
    closed = srij.get(f"{API}/casinos/lisboa/tables/rf1/as-of/", {"at": after}).json()
    cage = srij.get(f"{API}/casinos/lisboa/cages/main/as-of/", {"at": after}).json()
    naive = srij.get(f"{API}/casinos/lisboa/cages/main/as-of/", {"at": "2026-01-01T00:00:00"})

    assert empty["figures"] == {}
    # after the close the tray is what was counted at the close, denomination by denomination
    assert closed["figures"] == {f"main {d}": str(n) for d, n in sorted(
        session.closing.items(), key=lambda item: float(item[0])) if n}
    table_events = set(StoredEvent.objects.filter(casino_id="lisboa").values_list(
        "position", flat=True))
    for positions in closed["behind"].values():
        assert set(positions) <= table_events
        assert max(positions) <= closed["position"]
    assert cage["figures"]
    assert naive.status_code == 400


