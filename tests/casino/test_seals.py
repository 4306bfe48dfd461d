"""The seal of a gaming day (issue 14, item 4): one signed event, checked offline by the
standalone verifier against an export of the events and the casino's public key.

Every test sets its own keys in the environment (``CASINO_SEAL_KEY_<CODE>``); the expected
positions are counted by hand from what each test records.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import subprocess
import sys
from dataclasses import asdict
from decimal import Decimal as D
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from rest_framework.test import APIClient

import eventstore
from casino import seal as rules
from casino.context import person_metadata, system_metadata
from casino.errors import Conflict, InvalidCommand, NotAllowed
from casino.models import GamingDaySeal, Membership, Role
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from eventstore.commands import run_command
from eventstore.hashing import canonical_json, event_hash, format_time
from eventstore.models import StoredEvent
from eventstore.records import Metadata
from ledger.services import period_close
from reporting.answers import DaySealAnswer
from reporting.seals import NO_KEY, PERIOD_OPEN, gaming_day_seal, key_variable

pytestmark = pytest.mark.django_db
VERIFIER = Path(__file__).resolve().parents[2] / "tools" / "verify_events.py"
CASINO = "lisboa"
OTHER = "macau"
DAY = dt.date(2025, 3, 1)
NEXT = dt.date(2025, 3, 2)
AFTER = dt.datetime(2025, 3, 5, 12, tzinfo=dt.UTC)  # both days are over by then
TOTALS = {"drop": D("1500.00"), "win": D("-250.50"), "gaming_tax_base": D("0.00"),
          "chips_in_circulation": D("12000.00"), "jackpot_liability": D("3210.75")}
REPORT = hashlib.sha256(b"the close report of 2025-03-01").hexdigest()


def _pem(key: Ed25519PrivateKey) -> str:
    return rules.private_pem(key).decode("ascii")


@pytest.fixture
def key(monkeypatch: pytest.MonkeyPatch) -> Ed25519PrivateKey:
    made = Ed25519PrivateKey.generate()
    monkeypatch.setenv("CASINO_SEAL_KEY_LISBOA", _pem(made))
    monkeypatch.delenv("CASINO_SEAL_KEY_LISBOA_FILE", raising=False)
    return made


def system(casino: str = CASINO) -> Metadata:
    return system_metadata(casino, job="test")


def _casino(code: str = CASINO, zone: str = "Europe/Lisbon") -> None:
    """Two events of the casino: its registration and its chip set."""
    casino_register(code=code, name=f"Casino {code}", currency="EUR", time_zone=zone,
                    gaming_day_closes_at=6, metadata=system(code))
    chip_set_register(casino=code, code="main", name="Value chips",
                      denominations=["100.00", "25.00", "5.00"], metadata=system(code))


def _close(day: dt.date, casino: str = CASINO) -> None:
    """One event: the day's ledger period closed (an empty journal balances)."""
    period_close(casino=casino, day=day, metadata=system(casino), now=AFTER)


def _seal(day: dt.date = DAY, **changes: Any) -> DaySealAnswer:
    arguments: dict[str, Any] = dict(casino=CASINO, gaming_day=day, totals=TOTALS,
                                     report_digest=REPORT, metadata=system())
    arguments.update(changes)
    return gaming_day_seal(**arguments)


@pytest.fixture
def sealed_day(key: Ed25519PrivateKey) -> DaySealAnswer:
    """Positions 1-2 the casino, 3 the period closed, 4 the seal."""
    _casino()
    _close(DAY)
    return _seal()


def _export(tmp_path: Path) -> Path:
    out = tmp_path / "events.jsonl"
    call_command("export_events", "--output", str(out), stderr=StringIO())
    return out


def _public_key_file(tmp_path: Path, casino: str = CASINO) -> Path:
    out = tmp_path / f"{casino}.pem"
    call_command("export_seal_key", "--casino", casino, "--output", str(out), stderr=StringIO())
    return out


def _verify(export: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(VERIFIER), str(export), *extra],
                          capture_output=True, text=True, check=False)


def _tamper(position: int, new_data: dict[str, Any]) -> None:
    """Alter an event behind the store's back, as a superuser who can disable the trigger."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE event DISABLE TRIGGER event_refuse_update_delete")
        cursor.execute("UPDATE event SET data = %s::jsonb WHERE position = %s",
                       [json.dumps(new_data), position])
        cursor.execute("ALTER TABLE event ENABLE TRIGGER event_refuse_update_delete")


# --- the pure part ---------------------------------------------------------------------------


def test_the_pure_part_signs_the_canonical_payload_and_refuses_any_change() -> None:
    made = Ed25519PrivateKey.generate()
    payload = {"casino": "lisboa", "gaming_day": "2025-03-01", "first_position": 1,
               "last_position": 3, "last_hash": "ab" * 32, "totals": {"win": "-1.50"},
               "report_digest": REPORT, "key_id": rules.key_id(made.public_key())}
    signature = rules.sign(payload, made)
    # the message is the plain canonical JSON (sorted keys, no spaces) of the payload
    message = json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
    made.public_key().verify(bytes.fromhex(signature), message)
    assert rules.verify({**payload, "signature": signature}, signature, made.public_key())
    assert not rules.verify({**payload, "totals": {"win": "1.50"}}, signature,
                            made.public_key())
    stranger = Ed25519PrivateKey.generate().public_key()
    assert not rules.verify(payload, signature, stranger)
    assert not rules.verify({**payload, "key_id": rules.key_id(stranger)}, signature, stranger)


# --- what a seal holds -----------------------------------------------------------------------


def test_a_seal_covers_the_casinos_events_up_to_the_last_one_and_signs_them(
        sealed_day: DaySealAnswer, key: Ed25519PrivateKey) -> None:
    assert sealed_day.already_sealed is False
    assert (sealed_day.first_position, sealed_day.last_position) == (1, 3)
    assert sealed_day.position == 4
    assert sealed_day.last_hash == StoredEvent.objects.get(position=3).hash
    stored = StoredEvent.objects.get(stream=f"seal/{CASINO}.2025-03-01")
    assert stored.event_type == "GamingDaySealed"
    assert stored.data["totals"] == {
        "drop": "1500.00", "win": "-250.50", "gaming_tax_base": "0.00",
        "chips_in_circulation": "12000.00", "jackpot_liability": "3210.75"}
    assert stored.data["report_digest"] == REPORT
    assert stored.data["gaming_day"] == "2025-03-01"
    # the signature is the key's over the canonical JSON of the data without the signature
    unsigned = {k: v for k, v in stored.data.items() if k != "signature"}
    key.public_key().verify(bytes.fromhex(stored.data["signature"]), canonical_json(unsigned))
    expected_id = "ed25519:" + hashlib.sha256(key.public_key().public_bytes_raw()).hexdigest()[:16]
    assert stored.data["key_id"] == expected_id
    # the private key is nowhere in the events or the projection
    secret = _pem(key).splitlines()[1]
    assert secret not in json.dumps(list(StoredEvent.objects.values_list("data", "metadata")))
    row = GamingDaySeal.objects.get(casino_id=CASINO, gaming_day=DAY)
    assert row.payload == stored.data
    assert (row.first_position, row.last_position, row.position) == (1, 3, 4)


def test_the_next_seal_covers_what_followed_the_previous_one_and_no_other_casinos_events(
        sealed_day: DaySealAnswer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(key_variable(OTHER), _pem(Ed25519PrivateKey.generate()))
    _casino(OTHER, "Asia/Macau")  # positions 5, 6: Macau's
    _close(NEXT)  # 7: Lisbon's
    _close(DAY, OTHER)  # 8: Macau's
    second = _seal(NEXT)
    # Lisbon's events after position 3: its first seal (4) and its period (7); 8 is Macau's
    assert (second.first_position, second.last_position) == (4, 7)
    assert second.last_hash == StoredEvent.objects.get(position=7).hash
    assert second.position == 9
    macau = gaming_day_seal(casino=OTHER, gaming_day=DAY, totals=TOTALS, report_digest=REPORT,
                            metadata=system(OTHER))
    assert (macau.first_position, macau.last_position) == (5, 8)
    # one export holds both casinos' seals; each casino's key checks its own
    export = _export(tmp_path)
    lisbon = _verify(export, "--public-key", str(_public_key_file(tmp_path)), "--casino", CASINO)
    assert lisbon.returncode == 0, lisbon.stdout
    assert lisbon.stdout.count("OK: seal of lisboa") == 2
    assert "macau" not in lisbon.stdout
    both = _verify(export, "--public-key", str(_public_key_file(tmp_path)))
    assert both.returncode == 1
    assert "FAILED: seal of macau 2025-03-01: signed with key" in both.stdout


def test_a_close_seals_in_its_own_unit_of_work_covering_what_it_recorded_before(
        key: Ed25519PrivateKey) -> None:
    """The gaming-day close calls the seal from its own command: the period it closed a moment
    before, in the same transaction, is the seal's last covered event."""
    _casino()

    def close() -> DaySealAnswer:
        period_close(casino=CASINO, day=DAY, metadata=system(), now=AFTER)  # position 3
        return _seal()

    done = run_command(command="test_gaming_day_close", metadata=system(), payload={},
                       handler=close)
    assert (done.first_position, done.last_position, done.position) == (1, 3, 4)
    assert done.last_hash == StoredEvent.objects.get(position=3).hash


def test_sealing_twice_records_one_seal_and_returns_the_one_on_record(
        sealed_day: DaySealAnswer) -> None:
    again = _seal(totals={**TOTALS, "drop": D("9999.00")}, report_digest="ab" * 32)
    assert again.already_sealed is True
    assert {k: v for k, v in asdict(again).items() if k != "already_sealed"} == {
        k: v for k, v in asdict(sealed_day).items() if k != "already_sealed"}
    assert StoredEvent.objects.filter(event_type="GamingDaySealed").count() == 1
    assert StoredEvent.objects.count() == 4
    assert GamingDaySeal.objects.get().totals["drop"] == "1500.00"


# --- the standalone verifier -----------------------------------------------------------------


def test_a_seal_verifies_with_the_standalone_verifier(
        sealed_day: DaySealAnswer, tmp_path: Path) -> None:
    result = _verify(_export(tmp_path), "--public-key", str(_public_key_file(tmp_path)))
    assert result.returncode == 0, result.stdout
    assert "OK: 4 events verified" in result.stdout
    assert "OK: seal of lisboa 2025-03-01 (positions 1-3" in result.stdout


def test_a_seal_as_the_api_lists_it_verifies_against_the_export(
        sealed_day: DaySealAnswer, tmp_path: Path) -> None:
    client = APIClient()
    client.force_authenticate(_user("rita", Role.REGULATOR))
    listed = client.get("/api/v1/seals/", {"casino": CASINO}).json()
    seal_file = tmp_path / "seals.json"
    seal_file.write_text(json.dumps(listed))
    key_file = tmp_path / "published.pem"
    key_file.write_text(client.get(f"/api/v1/casinos/{CASINO}/seal-key/").json()["public_key"])
    result = _verify(_export(tmp_path), "--public-key", str(key_file), "--seal", str(seal_file))
    assert result.returncode == 0, result.stdout
    assert "OK: seal of lisboa 2025-03-01" in result.stdout


def test_an_event_altered_after_the_seal_fails_the_verifier(
        sealed_day: DaySealAnswer, tmp_path: Path) -> None:
    key_file = _public_key_file(tmp_path)
    original = StoredEvent.objects.get(position=2).data
    _tamper(2, {**original, "name": "Fichas de outro"})
    result = _verify(_export(tmp_path), "--public-key", str(key_file))
    assert result.returncode == 1
    assert "FAILED after 1 good events: position 2: content does not match its hash" in \
        result.stdout


def test_an_export_rehashed_after_an_alteration_fails_the_seal(
        sealed_day: DaySealAnswer, tmp_path: Path) -> None:
    """Whoever rewrites an event and recomputes every hash after it makes a chain that holds
    together: the seal's signed last hash is what it no longer matches."""
    key_file = _public_key_file(tmp_path)
    lines = [json.loads(line) for line in _export(tmp_path).read_text().splitlines()]
    lines[1]["data"]["name"] = "Fichas de outro"
    previous = lines[0]["hash"]
    for event in lines[1:]:
        event["prev_hash"] = previous
        hashed = {k: v for k, v in event.items() if k not in ("hash", "sequence")}
        event["hash"] = previous = hashlib.sha256(canonical_json(hashed)).hexdigest()
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(json.dumps(e) + "\n" for e in lines))
    result = _verify(forged, "--public-key", str(key_file))
    assert "OK: 4 events verified" in result.stdout  # the chain alone does not see it
    assert result.returncode == 1
    assert ("FAILED: seal of lisboa 2025-03-01: casino lisboa's event 3 (position 3) does not "
            "have the hash it signed") in result.stdout


def test_a_store_rehashed_after_an_alteration_passes_the_chain_and_fails_its_seals(
        sealed_day: DaySealAnswer) -> None:
    """The same forgery inside the database, by someone who may disable the triggers."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE event DISABLE TRIGGER USER")
        cursor.execute("UPDATE event SET data = data || '{\"name\": \"Fichas de outro\"}' "
                       "WHERE position = 2")
        previous = StoredEvent.objects.get(position=1).hash
        for event in StoredEvent.objects.filter(position__gte=2).order_by("position"):
            digest = event_hash(position=event.position, stream=event.stream,
                                version=event.version, event_type=event.event_type,
                                schema_version=event.schema_version, data=event.data,
                                metadata=event.metadata, recorded_at=format_time(event.recorded_at),
                                prev_hash=previous)
            cursor.execute("UPDATE event SET prev_hash = %s, hash = %s WHERE position = %s",
                           [previous, digest, event.position])
            previous = digest
        cursor.execute("ALTER TABLE event ENABLE TRIGGER USER")
    out = StringIO()
    with pytest.raises(CommandError, match="seal of lisboa 2025-03-01: the event at position 3 "
                                           "does not have the hash it signed"):
        call_command("verify_events", "--seals", stdout=out)
    assert "OK: 4 events verified" in out.getvalue()


def test_verify_events_checks_the_seals_in_the_database(sealed_day: DaySealAnswer) -> None:
    out = StringIO()
    call_command("verify_events", "--seals", stdout=out)
    assert "OK: 1 seal(s) of lisboa verified" in out.getvalue()


def test_verify_events_names_a_seal_signed_by_another_key_than_the_casinos(
        sealed_day: DaySealAnswer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASINO_SEAL_KEY_LISBOA", _pem(Ed25519PrivateKey.generate()))
    with pytest.raises(CommandError, match=f"signed with key {sealed_day.key_id}, not the "
                                           "casino's key now"):
        call_command("verify_events", "--seals", stdout=StringIO())


def test_a_seal_signed_by_another_key_fails(
        sealed_day: DaySealAnswer, tmp_path: Path) -> None:
    export = _export(tmp_path)
    stranger = tmp_path / "stranger.pem"
    stranger.write_text(rules.public_pem(Ed25519PrivateKey.generate()))
    result = _verify(export, "--public-key", str(stranger))
    assert result.returncode == 1
    assert "signed with key ed25519:" in result.stdout
    assert "not with the public key given" in result.stdout
    # a seal that names the published key but was signed by another one
    published = GamingDaySeal.objects.get()
    forged = {k: v for k, v in published.payload.items() if k != "signature"}
    forged["totals"] = {**forged["totals"], "win": "1000000.00"}
    signature = Ed25519PrivateKey.generate().sign(canonical_json(forged)).hex()
    seal_file = tmp_path / "forged-seal.json"
    seal_file.write_text(json.dumps({"payload": forged, "signature": signature}))
    result = _verify(export, "--public-key", str(_public_key_file(tmp_path)),
                     "--seal", str(seal_file))
    assert result.returncode == 1
    assert "the signature does not match its payload and the public key" in result.stdout


def test_the_verifier_refuses_an_export_that_does_not_hold_the_covered_events(
        sealed_day: DaySealAnswer, tmp_path: Path) -> None:
    part = tmp_path / "part.jsonl"
    call_command("export_events", "--output", str(part), "--from-position", "3",
                 stderr=StringIO())
    anchor = StoredEvent.objects.get(position=2).hash
    result = _verify(part, "--anchor", anchor, "--public-key", str(_public_key_file(tmp_path)))
    assert result.returncode == 1
    assert ("the export does not hold every event of casino lisboa it covers (1-3; 1 is "
            "missing)") in result.stdout


# --- refusals: each records nothing ----------------------------------------------------------


def test_without_a_key_the_seal_is_refused_and_nothing_recorded(
        db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CASINO_SEAL_KEY_LISBOA", raising=False)
    monkeypatch.delenv("CASINO_SEAL_KEY_LISBOA_FILE", raising=False)
    _casino()
    _close(DAY)
    with pytest.raises(Conflict) as refused:
        _seal()
    assert refused.value.message == NO_KEY.format(casino=CASINO,
                                                   variable="CASINO_SEAL_KEY_LISBOA")
    assert refused.value.extra["field"] == "casino"
    assert StoredEvent.objects.count() == 3
    assert not GamingDaySeal.objects.exists()


def test_a_key_is_read_from_the_file_the_environment_names(
        db: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    made = Ed25519PrivateKey.generate()
    path = tmp_path / "lisboa-seal.pem"
    path.write_text(_pem(made))
    monkeypatch.delenv("CASINO_SEAL_KEY_LISBOA", raising=False)
    monkeypatch.setenv("CASINO_SEAL_KEY_LISBOA_FILE", str(path))
    _casino()
    _close(DAY)
    done = _seal()
    assert done.key_id == rules.key_id(made.public_key())
    monkeypatch.setenv("CASINO_SEAL_KEY_LISBOA_FILE", str(tmp_path / "missing.pem"))
    _close(NEXT)
    with pytest.raises(Conflict, match=r"CASINO_SEAL_KEY_LISBOA_FILE.*cannot be read"):
        _seal(NEXT)


def test_a_key_that_is_not_ed25519_is_refused(
        db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASINO_SEAL_KEY_LISBOA", "-----BEGIN PRIVATE KEY-----\nnope\n"
                                                  "-----END PRIVATE KEY-----\n")
    _casino()
    _close(DAY)
    with pytest.raises(Conflict, match="the seal key of casino lisboa "
                                       r"\(CASINO_SEAL_KEY_LISBOA\) cannot be used"):
        _seal()
    assert StoredEvent.objects.count() == 3


def test_a_day_whose_ledger_period_is_open_is_not_sealed(key: Ed25519PrivateKey) -> None:
    _casino()
    with pytest.raises(Conflict) as refused:
        _seal()
    assert refused.value.message == PERIOD_OPEN.format(day=DAY)
    assert refused.value.extra["field"] == "gaming_day"
    assert StoredEvent.objects.count() == 2


def test_a_seal_follows_the_last_sealed_day(sealed_day: DaySealAnswer) -> None:
    with pytest.raises(Conflict, match="gaming day 2025-02-28 cannot be sealed: 2025-03-01 is "
                                       "sealed already"):
        _seal(dt.date(2025, 2, 28))
    assert StoredEvent.objects.count() == 4


@pytest.mark.parametrize(("totals", "field", "message"), [
    ({**TOTALS, "win": 12.5}, "totals.win", "win must be a decimal amount"),
    ({**TOTALS, "drop": "10.001"}, "totals.drop", "not an amount with at most two decimals"),
    ({**TOTALS, "drop": "ten"}, "totals.drop", "is not an amount"),
    ({**TOTALS, "drop": D("NaN")}, "totals.drop", "is not an amount"),
    ({**TOTALS, "drop": D("1E+40")}, "totals.drop", "more than the largest amount the books hold"),
    ({k: v for k, v in TOTALS.items() if k != "jackpot_liability"}, "totals",
     "the day's totals lack jackpot_liability"),
    ({**TOTALS, "Hold %": "1.00"}, "totals.Hold %", "is not a figure's name"),
])
def test_totals_that_are_not_amounts_are_refused(
        key: Ed25519PrivateKey, totals: dict[str, Any], field: str, message: str) -> None:
    _casino()
    _close(DAY)
    with pytest.raises(InvalidCommand, match=message) as refused:
        _seal(totals=totals)
    assert refused.value.extra["field"] == field
    assert StoredEvent.objects.count() == 3


def test_a_report_digest_that_is_not_hexadecimal_is_refused(key: Ed25519PrivateKey) -> None:
    _casino()
    _close(DAY)
    with pytest.raises(InvalidCommand, match="digest is its SHA-256") as refused:
        _seal(report_digest="not a digest")
    assert refused.value.extra["field"] == "report_digest"


def test_a_cashier_does_not_seal(key: Ed25519PrivateKey) -> None:
    _casino()
    _close(DAY)
    cashier = person_metadata(username="ana", role=Role.CASHIER, casino=CASINO)
    with pytest.raises(NotAllowed, match="sealed by its close, not in the cashier role"):
        _seal(metadata=cashier)
    accountant = person_metadata(username="alice", role=Role.ACCOUNTANT, casino=CASINO)
    assert _seal(metadata=accountant).already_sealed is False


# --- development keys ------------------------------------------------------------------------


def test_in_debug_a_casino_without_a_key_gets_a_development_key_in_a_file(
        db: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, settings: Any,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.delenv("CASINO_SEAL_KEY_LISBOA", raising=False)
    monkeypatch.delenv("CASINO_SEAL_KEY_LISBOA_FILE", raising=False)
    settings.DEBUG = True
    settings.SEAL_DEV_KEY_DIR = tmp_path / "keys"
    _casino()
    _close(DAY)
    done = _seal()
    made = rules.private_key_from_pem((tmp_path / "keys" / "lisboa.pem").read_bytes())
    assert done.key_id == rules.key_id(made.public_key())
    assert "DEVELOPMENT SEAL KEY generated for casino lisboa" in caplog.text


# --- publishing the public key ---------------------------------------------------------------


def _user(name: str, role: str) -> User:
    user = User.objects.create_user(name)
    Membership.objects.create(user=user, casino_id=CASINO, role=role)
    return user


def test_the_public_key_is_published_to_the_regulator_and_by_command(
        sealed_day: DaySealAnswer, key: Ed25519PrivateKey) -> None:
    client = APIClient()
    client.force_authenticate(_user("rita", Role.REGULATOR))
    published = client.get(f"/api/v1/casinos/{CASINO}/seal-key/").json()
    assert published == {"casino": CASINO, "algorithm": "Ed25519",
                         "key_id": sealed_day.key_id,
                         "public_key": rules.public_pem(key.public_key())}
    assert "PRIVATE" not in published["public_key"]
    out = StringIO()
    call_command("export_seal_key", "--casino", CASINO, stdout=out, stderr=StringIO())
    assert out.getvalue() == published["public_key"]
    seals = client.get("/api/v1/seals/", {"casino": CASINO}).json()
    assert len(seals) == 1
    assert seals[0]["gaming_day"] == "2025-03-01"
    assert seals[0]["signature"] == sealed_day.signature
    assert "signature" not in seals[0]["payload"]
    assert seals[0]["payload"]["last_position"] == 3


def test_a_cashier_reads_neither_the_key_nor_the_seals(sealed_day: DaySealAnswer) -> None:
    client = APIClient()
    client.force_authenticate(_user("ana", Role.CASHIER))
    for url in (f"/api/v1/casinos/{CASINO}/seal-key/", f"/api/v1/seals/?casino={CASINO}"):
        response = client.get(url)
        assert response.status_code == 403
        assert response.json()["error"]["extra"]["field"] == "casino"


def test_export_seal_key_names_a_casino_without_a_key(
        db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CASINO_SEAL_KEY_LISBOA", raising=False)
    monkeypatch.delenv("CASINO_SEAL_KEY_LISBOA_FILE", raising=False)
    _casino()
    with pytest.raises(CommandError, match="casino lisboa has no seal key"):
        call_command("export_seal_key", "--casino", CASINO, stdout=StringIO(),
                     stderr=StringIO())


# --- rebuild ---------------------------------------------------------------------------------


def test_the_seals_rebuild_from_their_events(sealed_day: DaySealAnswer) -> None:
    assert eventstore.check(["seals"]) == []


@pytest.fixture(autouse=True)
def _no_stray_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """No key of the shell running the tests leaks into them."""
    for code in (CASINO, OTHER):
        monkeypatch.delenv(key_variable(code), raising=False)
        monkeypatch.delenv(f"{key_variable(code)}_FILE", raising=False)


# --- the web admin ---------------------------------------------------------------------------


def test_the_seals_screen_shows_each_sealed_day_and_the_public_key(
        sealed_day: DaySealAnswer, key: Ed25519PrivateKey) -> None:
    from django.test import Client

    browser = Client()
    browser.force_login(_user("alice", Role.ACCOUNTANT))
    page = browser.get(f"/seals/{CASINO}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-seal="2025-03-01"' in html
    assert sealed_day.key_id in html
    assert "1–3" in html
    assert "win: -250.50 EUR" in html
    assert f'href="/seals/{CASINO}/key.pem"' in html
    assert f'href="/seals/{CASINO}/"' in browser.get("/").content.decode()  # the home page
    pem = browser.get(f"/seals/{CASINO}/key.pem")
    assert pem.content.decode() == rules.public_pem(key.public_key())
    assert pem["Content-Disposition"] == 'attachment; filename="lisboa-seal-key.pem"'


def test_the_seals_screen_is_not_for_the_cashier(sealed_day: DaySealAnswer) -> None:
    from django.test import Client

    browser = Client()
    browser.force_login(_user("ana", Role.CASHIER))
    assert browser.get(f"/seals/{CASINO}/").status_code == 403
    assert browser.get(f"/seals/{CASINO}/key.pem").status_code == 403
