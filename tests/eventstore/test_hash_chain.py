"""Tamper evidence: verify_events and the standalone verifier name the first altered event."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction

import eventstore
from eventstore import store
from eventstore.hashing import canonical_json, event_hash
from eventstore.records import Metadata

from .conftest import ChipsCounted, counted

pytestmark = pytest.mark.django_db(transaction=True)
VERIFIER = Path(__file__).resolve().parents[2] / "tools" / "verify_events.py"


@pytest.fixture
def five_events(meta: Metadata) -> None:
    with transaction.atomic():
        store.append("round/R1", counted(3), expected_version=0, metadata=meta)
    with transaction.atomic():
        store.append("round/R2", counted(2, "12.34"), expected_version=0, metadata=meta)


def _tamper(position: int, new_data: str) -> None:
    """Alter an event behind the store's back, as a superuser who can disable the trigger."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE event DISABLE TRIGGER event_refuse_update_delete")
        cursor.execute("UPDATE event SET data = %s::jsonb WHERE position = %s",
                       [new_data, position])
        cursor.execute("ALTER TABLE event ENABLE TRIGGER event_refuse_update_delete")


def _export(tmp_path: Path, *extra: str) -> Path:
    out = tmp_path / "events.jsonl"
    call_command("export_events", "--output", str(out), *extra, stderr=StringIO())
    return out


def _verify(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(VERIFIER), str(path), *extra],
                          capture_output=True, text=True, check=False)


@pytest.mark.usefixtures("five_events")
def test_an_untouched_store_verifies_in_django_and_standalone(tmp_path: Path) -> None:
    out = StringIO()
    call_command("verify_events", stdout=out)
    assert "OK: 5 events verified" in out.getvalue()
    result = _verify(_export(tmp_path))
    assert result.returncode == 0, result.stdout
    assert "OK: 5 events verified" in result.stdout


@pytest.mark.usefixtures("five_events")
def test_an_altered_event_fails_both_verifiers_at_its_position(tmp_path: Path) -> None:
    _tamper(4, '{"table": "T0", "amount": "99.99"}')
    with pytest.raises(CommandError, match="broken at position 4"):
        call_command("verify_events")
    result = _verify(_export(tmp_path))
    assert result.returncode == 1
    assert "position 4" in result.stdout


@pytest.mark.usefixtures("five_events")
def test_a_partial_export_verifies_from_an_anchor(tmp_path: Path) -> None:
    anchor = eventstore.read_page(2, 1)[0].hash
    path = _export(tmp_path, "--from-position", "4")
    lines = path.read_text().splitlines()
    assert [json.loads(line)["position"] for line in lines] == [4, 5]
    assert _verify(path).returncode == 1  # no anchor: refused, not trusted
    assert _verify(path, "--anchor", anchor).returncode == 0


@pytest.mark.usefixtures("five_events")
def test_the_documented_hash_is_sha256_of_canonical_json(tmp_path: Path) -> None:
    """docs/event-hash.md by hand: hash = sha256(canonical JSON of the exported fields)."""
    import hashlib

    first = json.loads(_export(tmp_path).read_text().splitlines()[0])
    body = {k: v for k, v in first.items() if k not in ("hash", "sequence")}
    manual = hashlib.sha256(
        json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    ).hexdigest()
    assert manual == first["hash"]
    assert canonical_json({"b": 1, "a": "é"}) == '{"a":"é","b":1}'.encode()
    assert event_hash(position=first["position"], stream=first["stream"],
                      version=first["version"], event_type=first["type"],
                      schema_version=first["schema_version"], data=first["data"],
                      metadata=first["metadata"], recorded_at=first["recorded_at"],
                      prev_hash=first["prev_hash"]) == first["hash"]


def test_appended_hashes_follow_docs_event_hash_with_characters_json_escapes(tmp_path: Path) -> None:
    """The append writes each envelope's shared parts once (hashing.ChainHasher): with quotes,
    back-slashes, control and non-ASCII characters in the stream, the metadata and the data,
    every hash is still sha256 of the plain json.dumps of the exported fields."""
    import hashlib

    odd = Metadata(actor='Zé "o" \\ \t\n\x01', role="pit_boss", casino="lisboa",
                   request_id="ñ\u2028", correlation_id="r1")
    with transaction.atomic():
        store.append('round/é"1\\', counted(3), expected_version=0, metadata=odd)
    with transaction.atomic():
        store.append("round/R2", [ChipsCounted(table='T"\x7f€', amount=Decimal("1.50"))],
                     expected_version=0, metadata=odd)

    # JSON Lines split at "\n" only: U+2028 stays raw inside a string (str.splitlines splits it).
    lines = _export(tmp_path).read_text(encoding="utf-8").rstrip("\n").split("\n")
    assert sum('round/é\\"1' in line for line in lines) == 3
    for line in lines:
        exported = json.loads(line)
        body = {k: v for k, v in exported.items() if k not in ("hash", "sequence")}
        manual = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"),
                                           ensure_ascii=False).encode()).hexdigest()
        assert manual == exported["hash"], exported["position"]
    assert _verify(_export(tmp_path)).returncode == 0
