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


def test_the_platforms_event_page_pages_a_carried_casino_by_this_cells_positions(
        demo: Demo, tmp_path: Any) -> None:
    """The platform's own event page (``/api/v1/events/``, the casino's accountants' and
    administrators', a follower's) serves a carried
    casino's events as the regulator's API does: at the positions their hashes cover, with this
    cell's beside them; ``next_after`` is this cell's, so a follower paging by it reads each
    event once, and the pages, written as they came, verify offline. A casino that never moved
    pages the same way, without ``cell_position``."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from django.contrib.auth import get_user_model

    from casino.models import Membership, Role

    head = _carry_faro()
    accountant = get_user_model().objects.get(username=str(Role.ACCOUNTANT))
    Membership.objects.create(user=accountant, casino_id="faro", role=Role.ACCOUNTANT)
    books = demo.client(str(Role.ACCOUNTANT))
    srij = demo.client("srij")

    def pages(casino: str, limit: int) -> tuple[list[dict[str, Any]], list[int]]:
        events, afters, after = [], [], 0
        while True:
            answer = books.get(f"/api/v1/events/?casino={casino}&after={after}&limit={limit}")
            assert answer.status_code == 200, answer.json()
            page = answer.json()
            events += page["events"]
            afters.append(page["next_after"])
            if not page["events"]:
                return events, afters
            after = page["next_after"]

    events, afters = pages("faro", limit=1)
    assert [(e["position"], e["cell_position"], e["sequence"]) for e in events] == [
        (41, head + 1, 1), (42, head + 2, 2)]
    assert afters == [head + 1, head + 2, head + 2]  # the last, empty page keeps its after
    export = Path(tmp_path, "faro.jsonl")
    export.write_text("".join(json.dumps(e) + "\n" for e in events))
    verifier = Path(__file__).resolve().parents[2] / "tools" / "verify_events.py"
    checked = subprocess.run([sys.executable, str(verifier), str(export)],
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "OK: 2 events verified" in checked.stdout

    # Lisbon, never moved: every one of its events once, in order, as the regulator reads them
    lisboa, _ = pages("lisboa", limit=500)
    regulator = read_all(srij, f"{API}/casinos/lisboa/events/?page_size=500")
    assert len(lisboa) > 500
    assert [e["sequence"] for e in lisboa] == list(range(1, len(lisboa) + 1))
    assert [(e["position"], e["hash"]) for e in lisboa] == [
        (e["position"], e["hash"]) for e in regulator]
    assert not any("cell_position" in e for e in lisboa)


def test_a_sealed_day_is_read_and_verified_by_the_casinos_own_numbers(demo: Demo) -> None:
    """A seal names the casino's events it covers by their numbers in its chain, the same in
    every cell (a casino moved keeps them, not its positions): the day's events are asked by
    them, and the chain between them checked, and both agree with the seal's positions here."""
    from demo.cells import close_day

    close_day("lisboa", demo.day)  # closed and sealed, as just after its end
    srij = demo.client("srij")
    days = srij.get(f"{API}/casinos/lisboa/gaming-days/").json()["results"]
    (seal,) = [d["seal"] for d in days if d["seal"]]
    payload = seal["payload"]
    first, last = seal["first_sequence"], seal["last_sequence"]
    assert (first, last, seal["prev_hash"]) == (
        payload["first_sequence"], payload["last_sequence"], payload["prev_hash"])
    url = f"{API}/casinos/lisboa/events/?page_size=50"

    by_number = read_all(srij, f"{url}&sequence_from={first}&sequence_to={last}")
    by_position = read_all(srij, f"{url}&position_after={seal['first_position'] - 1}"
                                 f"&position_to={seal['last_position']}")

    assert by_number == by_position
    assert [e["sequence"] for e in by_number] == list(range(first, last + 1))
    assert by_number[0]["prev_hash"] == seal["prev_hash"]
    assert by_number[-1]["hash"] == seal["last_hash"]
    check = srij.get(f"{API}/casinos/lisboa/chain/verification/?sequence_from={first}"
                     f"&sequence_to={last}").json()
    assert check["ok"], check
    assert (check["checked"], check["first_position"], check["last_position"],
            check["last_hash"]) == (last - first + 1, seal["first_position"],
                                    seal["last_position"], seal["last_hash"])

    # a number the chain does not hold is named; the two kinds of bound are not mixed
    beyond = StoredEvent.objects.filter(casino_id="lisboa").count() + 1
    missing = srij.get(f"{API}/casinos/lisboa/chain/verification/?sequence_from=1"
                       f"&sequence_to={beyond}").json()
    mixed = srij.get(f"{API}/casinos/lisboa/chain/verification/?from=1&sequence_to=3")
    half = srij.get(f"{API}/casinos/lisboa/chain/verification/?sequence_from=3")
    assert (missing["ok"], missing["checked"]) == (False, beyond - 1)
    assert f"has no event {beyond}" in missing["reason"]
    assert mixed.status_code == 400
    assert "not both" in mixed.json()["error"]["message"]
    assert half.status_code == 400
    assert "sequence_to" in half.json()["error"]["message"]


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




def _carry_faro() -> int:
    """Faro, as ``cells_move`` carries a casino into this cell: its first two events, appended
    at positions 41 and 42 of its first cell (the casino's, then its table's), placed after this
    cell's head with those positions kept as ``recorded_position``. The head before them."""
    import json

    from casino.models import Casino
    from eventstore.hashing import GENESIS_HASH
    from eventstore.store import POSITION_LOCK_KEY

    Casino.objects.create(code="faro", name="Faro", currency="EUR", time_zone="Europe/Lisbon",
                          gaming_day_closes_at=6, version=2)
    with connection.cursor() as cursor:
        cursor.execute("SELECT event_position_lock(%s)", [POSITION_LOCK_KEY])
        cursor.execute("SELECT max(position) FROM event")
        (head,) = cursor.fetchone()
        previous = GENESIS_HASH
        for n, appended_at, stream in ((1, 41, "casino/faro"), (2, 42, "table/faro.t1")):
            data = {"casino": "faro", "n": n}
            metadata = {"actor": "system", "role": "system", "casino": "faro"}
            recorded_at = f"2026-12-01T10:00:0{n}.000000Z"
            digest = event_hash(position=appended_at, stream=stream, version=1,
                                event_type="CarriedForTest", schema_version=1, data=data,
                                metadata=metadata, recorded_at=recorded_at, prev_hash=previous)
            cursor.execute(
                "INSERT INTO event (position, stream, version, event_type, schema_version, data,"
                " metadata, casino_id, recorded_at, prev_hash, hash, sequence, recorded_position)"
                " VALUES (%s, %s, 1, 'CarriedForTest', 1, %s::jsonb, %s::jsonb, "
                "'faro', %s, %s, %s, %s, %s)",
                [head + n, stream, json.dumps(data), json.dumps(metadata),
                 recorded_at.replace("Z", "+00:00"), previous, digest, n, appended_at])
            previous = digest
    return int(head)


def test_a_casino_carried_from_another_cell_is_served_where_its_hashes_were_made(
        demo: Demo, tmp_path: Any) -> None:
    """A casino moved into this cell (``cells_move``) keeps, beside each event's place here,
    the position it was appended at, which its hash covers. The API serves that position, the
    place beside it (``cell_position``), and its page, written as it came, verifies offline
    (``tools/verify_events.py``, which shares no code with the platform); a table's
    configuration history is served so too; the casino's numbers find its events and check its
    chain as in its first cell, and positions are this cell's."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from games.models import Table

    head = _carry_faro()

    Table.objects.create(casino_id="faro", code="t1", name="T1", game="roulette", seats=7,
                         chip_set="eur", limits={}, version=1)
    srij = demo.client("srij")
    events = srij.get(f"{API}/casinos/faro/events/").json()["results"]

    assert [(e["position"], e["cell_position"]) for e in events] == [
        (41, head + 1), (42, head + 2)]
    export = Path(tmp_path, "faro.jsonl")
    export.write_text("".join(json.dumps(e) + "\n" for e in events))  # the page, as it came
    verifier = Path(__file__).resolve().parents[2] / "tools" / "verify_events.py"
    checked = subprocess.run([sys.executable, str(verifier), str(export)],
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "OK: 2 events verified" in checked.stdout

    # the table's configuration history: its event as the page served it
    table = srij.get(f"{API}/casinos/faro/tables/t1/").json()
    assert table["configuration_history"] == [events[1]]
    # the casino's numbers find its second event, this cell's positions too
    by_number = srij.get(f"{API}/casinos/faro/events/?sequence_from=2&sequence_to=2").json()
    by_position = srij.get(f"{API}/casinos/faro/events/?position_after={head + 1}").json()
    assert by_number["results"] == by_position["results"] == [events[1]]
    # and check its chain here, as in its first cell
    check = srij.get(f"{API}/casinos/faro/chain/verification/?sequence_from=1&sequence_to=2")
    assert check.json() == {"ok": True, "first_position": head + 1, "last_position": head + 2,
                            "first_sequence": 1, "last_sequence": 2, "checked": 2,
                            "last_hash": events[1]["hash"], "bad_position": None, "reason": ""}
