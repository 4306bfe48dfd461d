"""A gaming day's archive and its regulator file (issue 16, items 7 and 8): a demo day of both
demo casinos, closed and sealed; each casino's archive verifies offline with the standalone
verifier alone (run with ``python -S``: the standard library only), holds nothing of the other
casino, and fails once altered; the regulator file validates against the XSD (lxml)."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import override_settings
from lxml import etree
from rest_framework.test import APIClient

from casino import seal as rules
from casino.context import system_metadata
from casino.errors import NotFound
from casino.models import Casino, GamingDaySeal, Membership, Role
from eventstore.hashing import canonical_json
from eventstore.models import StoredEvent
from reporting.archives import day_archive
from reporting.regulator_file import NAMESPACE, SCHEMA, regulator_file
from reporting.seals import key_variable

pytestmark = pytest.mark.django_db
VERIFIER = Path(__file__).resolve().parents[2] / "tools" / "verify_events.py"
CASINOS = ("lisboa", "macau")


def _close_vault(casino: str) -> None:
    from cage import services as cage
    from cage.models import Shift
    from cage.selectors import expected_count
    from eventstore.records import Metadata

    for shift in Shift.objects.filter(casino_id=casino).exclude(status="closed"):
        cash, chips = expected_count(shift)
        who = Metadata(actor="test:supervisor", role="cage_supervisor", casino=casino)
        cage.shift_count(shift_id=str(shift.id), cash=cash, chips=chips, metadata=who)
        cage.shift_close(shift_id=str(shift.id), metadata=who)


@pytest.fixture
def days(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, dt.date]:
    """A demo day of ten tables (eight in Lisbon, two in Macau), one round each; each casino's
    day closed and sealed."""
    from demo.day import play_day
    from reporting.closes import gaming_day_close

    for code in CASINOS:
        monkeypatch.setenv(key_variable(code),
                           rules.private_pem(Ed25519PrivateKey.generate()).decode("ascii"))
    with override_settings(DEBUG=True):
        call_command("seed_demo", verbosity=0)
    played = play_day(tables=10, rounds=1, seed=2007, tick=lambda: None)
    closed = {}
    for code in CASINOS:
        _close_vault(code)
        day = next(s.gaming_day for s in played if s.casino_id == code)
        after = Casino.objects.get(code=code).gaming_day_end(day) + dt.timedelta(minutes=5)
        with mock.patch("django.utils.timezone.now", return_value=after):
            assert gaming_day_close(casino=code, gaming_day=day,
                                    metadata=system_metadata(code, job="test")).closed
        closed[code] = day
    # the regulator pinned each casino's key once (docs/regulator.md): the verifier trusts them
    pinned = tmp_path / "trusted-keys"
    pinned.mkdir()
    for code in CASINOS:
        call_command("export_seal_key", "--casino", code, "--output", str(pinned / f"{code}.pem"),
                     stderr=io.StringIO())
    monkeypatch.setenv("CASINO_TRUSTED_KEYS", str(pinned))
    return closed


def _verify(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-S", str(VERIFIER), str(path), *extra],
                          capture_output=True, text=True, check=False)


def _archive(tmp_path: Path, casino: str, day: dt.date) -> Path:
    out = tmp_path / f"{casino}.zip"
    call_command("export_day", "--casino", casino, "--day", day.isoformat(), "--output", str(out),
                 stderr=io.StringIO())
    return out


def _rewrite(source: Path, target: Path, change: Any, *, fix_manifest: bool = True) -> Path:
    """A copy of the archive with ``change(files)`` applied; the manifest's digests updated to
    match (as a forger would), unless ``fix_manifest`` is off."""
    with zipfile.ZipFile(source) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    change(files)
    if fix_manifest:
        manifest = json.loads(files["manifest.json"])
        manifest["files"] = {name: hashlib.sha256(content).hexdigest()
                             for name, content in files.items() if name != "manifest.json"}
        files["manifest.json"] = json.dumps(manifest).encode()
    with zipfile.ZipFile(target, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return target


def _each_casinos_day_verifies_offline_alone_and_holds_nothing_of_the_other(
        days: dict[str, dt.date], tmp_path: Path) -> None:
    for casino, day in days.items():
        path = _archive(tmp_path, casino, day)
        result = _verify(path)
        assert result.returncode == 0, result.stdout
        seal = GamingDaySeal.objects.get(casino_id=casino, gaming_day=day)
        first, last = seal.payload["first_sequence"], seal.payload["last_sequence"]
        assert first == 1  # the casino's first day: from its registration on
        assert f"OK: {last} events of {casino} (1-{last}) chain from the hash before them" \
            in result.stdout
        assert f"OK: seal of {casino} {day} signed by {seal.key_id}" in result.stdout
        assert "OK: results.csv is the day's close's results" in result.stdout
        assert "OK: close-report.json is the report the seal signed" in result.stdout
        with zipfile.ZipFile(path) as archive:
            assert sorted(archive.namelist()) == [
                "close-report.json", "events.jsonl", "manifest.json", "public-key.pem",
                "regulator.xml", "results.csv", "seal.json"]
            events = [json.loads(line) for line in
                      archive.read("events.jsonl").decode().splitlines()]
            manifest = json.loads(archive.read("manifest.json"))
            results = archive.read("results.csv").decode().splitlines()
        # exactly the casino's events the seal covers, and nothing of the other casino
        other = next(c for c in CASINOS if c != casino)
        assert {e["metadata"]["casino"] for e in events} == {casino}
        assert [e["sequence"] for e in events] == list(range(1, last + 1))
        assert len(events) == StoredEvent.objects.filter(casino_id=casino, sequence__lte=last
                                                         ).count()
        assert other not in json.dumps([e["metadata"] for e in events])
        assert (manifest["casino"], manifest["prev_hash"]) == (casino, "0" * 64)
        assert results[0] == "table,game,sessions,rounds,handle,drop,win"
        assert len(results) == 1 + len({e["data"]["table"] for e in events
                                        if e["type"] == "TableSessionOpened"})
        # with the regulator's own copy of the key, given on the command line
        key = tmp_path / f"{casino}.pem"
        call_command("export_seal_key", "--casino", casino, "--output", str(key),
                     stderr=io.StringIO())
        given = _verify(path, "--public-key", str(key))
        assert given.returncode == 0, given.stdout
        assert "(the public key given)" in given.stdout


def test_a_days_archive_and_regulator_file_of_each_casino(
        days: dict[str, dt.date], tmp_path: Path) -> None:
    """One demo day serves every check (playing it is what costs): the archives verify alone,
    an altered archive fails, the regulator files validate, the downloads are for the casino's
    readers, and a later day verifies without the earlier one."""
    _each_casinos_day_verifies_offline_alone_and_holds_nothing_of_the_other(days, tmp_path)
    _an_altered_archive_fails(days, tmp_path)
    _the_regulator_file_validates_against_its_schema(days, tmp_path)
    _the_archive_and_the_regulator_file_download_for_the_casinos_readers(days, tmp_path)
    _a_later_day_verifies_without_the_earlier_ones(days, tmp_path)


def _a_later_day_verifies_without_the_earlier_ones(
        days: dict[str, dt.date], tmp_path: Path) -> None:
    """The next day of Lisbon (one more closed day with nothing played but its close) starts at
    the casino's event after the first day's seal: its archive holds the hash before it."""
    from reporting.closes import gaming_day_close

    casino, first_day = "lisboa", days["lisboa"]
    day = first_day + dt.timedelta(days=1)
    after = Casino.objects.get(code=casino).gaming_day_end(day) + dt.timedelta(minutes=5)
    with mock.patch("django.utils.timezone.now", return_value=after):
        gaming_day_close(casino=casino, gaming_day=day, metadata=system_metadata(casino, job="t"))
    earlier = GamingDaySeal.objects.get(casino_id=casino, gaming_day=first_day).payload
    seal = GamingDaySeal.objects.get(casino_id=casino, gaming_day=day).payload
    assert seal["first_sequence"] == earlier["last_sequence"] + 1
    # the hash before it is the first day's seal event's (the event after the day it sealed)
    sealed = StoredEvent.objects.get(stream=f"seal/{casino}.{first_day.isoformat()}")
    assert sealed.sequence == earlier["last_sequence"] + 1
    first_event = StoredEvent.objects.get(casino_id=casino, sequence=seal["first_sequence"])
    assert seal["prev_hash"] == first_event.prev_hash
    path = _archive(tmp_path, casino, day)
    result = _verify(path)
    assert result.returncode == 0, result.stdout
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read("manifest.json"))
    assert manifest["prev_hash"] == seal["prev_hash"] != "0" * 64


def _an_altered_archive_fails(days: dict[str, dt.date], tmp_path: Path) -> None:
    casino, day = "lisboa", days["lisboa"]
    good = _archive(tmp_path, casino, day)

    def events(files: dict[str, bytes]) -> list[dict[str, Any]]:
        return [json.loads(line) for line in files["events.jsonl"].decode().splitlines()]

    def put(files: dict[str, bytes], lines: list[dict[str, Any]]) -> None:
        files["events.jsonl"] = "".join(json.dumps(e) + "\n" for e in lines).encode()

    def alter_an_event(files: dict[str, bytes]) -> None:
        lines = events(files)
        lines[3]["data"]["name"] = "altered"
        put(files, lines)

    def remove_an_event(files: dict[str, bytes]) -> None:
        lines = events(files)
        put(files, lines[:3] + lines[4:])

    def rehash_after_altering(files: dict[str, bytes]) -> None:
        lines = events(files)
        lines[3]["data"]["name"] = "altered"
        previous = lines[2]["hash"]
        for event in lines[3:]:
            event["prev_hash"] = previous
            hashed = {k: v for k, v in event.items() if k not in ("hash", "sequence")}
            event["hash"] = previous = hashlib.sha256(canonical_json(hashed)).hexdigest()
        put(files, lines)
        seal = json.loads(files["seal.json"])  # the seal event chained to the new last hash
        seal["prev_hash"] = previous
        hashed = {k: v for k, v in seal.items() if k not in ("hash", "sequence")}
        seal["hash"] = hashlib.sha256(canonical_json(hashed)).hexdigest()
        files["seal.json"] = json.dumps(seal).encode()

    def change_a_result(files: dict[str, bytes]) -> None:
        rows = files["results.csv"].decode().splitlines()
        cells = rows[1].split(",")
        cells[-1] = "1000000.00"
        files["results.csv"] = ("\n".join([rows[0], ",".join(cells), *rows[2:]]) + "\n").encode()

    def another_key(files: dict[str, bytes]) -> None:
        files["public-key.pem"] = rules.public_pem(Ed25519PrivateKey.generate()).encode()

    def change_the_report(files: dict[str, bytes]) -> None:
        files["close-report.json"] = files["close-report.json"].replace(b'"', b' "', 1)

    cases = [
        (alter_an_event, True, "content does not match its hash (altered)"),
        (remove_an_event, True, "where 4 was expected (an event is missing)"),
        (rehash_after_altering, True, "does not have the hash it signed"),
        (change_a_result, True, "results.csv differs from the results the day's close recorded"),
        (another_key, True, "not the trusted key ed25519:"),
        (change_the_report, True, "close-report.json is not the close report the seal signed"),
        (change_a_result, False, "results.csv does not match its digest in the manifest"),
    ]
    for number, (change, fix_manifest, message) in enumerate(cases):
        bad = _rewrite(good, tmp_path / f"bad-{number}.zip", change, fix_manifest=fix_manifest)
        result = _verify(bad)
        assert result.returncode == 1, (change.__name__, result.stdout)
        assert message in result.stdout, (change.__name__, result.stdout)
    assert _verify(_rewrite(good, tmp_path / "same.zip", lambda files: None)).returncode == 0


def _the_regulator_file_validates_against_its_schema(
        days: dict[str, dt.date], tmp_path: Path) -> None:
    from games.models import GamingDayResult, Round, TableSession

    schema = etree.XMLSchema(etree.parse(str(SCHEMA)))
    for casino, day in days.items():
        out = tmp_path / f"{casino}.xml"
        call_command("regulator_file", "--casino", casino, "--day", day.isoformat(),
                     "--output", str(out))
        document = etree.parse(str(out))
        schema.assertValid(document)
        ns = {"r": NAMESPACE}
        root = document.getroot()
        assert (root.get("casino"), root.get("gamingDay")) == (casino, day.isoformat())
        assert len(root.findall("r:Sessions/r:Session", ns)) == \
            TableSession.objects.filter(casino_id=casino, gaming_day=day).count()
        assert len(root.findall("r:Rounds/r:Round", ns)) == Round.objects.filter(
            casino_id=casino).count()
        # the pit's win in the table's currency: a HKD table's (Macau's fp1) is winInCurrency,
        # its win the book value in patacas (docs/currencies.md)
        results = {r.get("table"): r.get("winInCurrency") or r.get("win")
                   for r in root.findall("r:Results/r:Result", ns)}
        assert {r.get("table"): r.get("currency") for r in root.findall(
            "r:Results/r:Result", ns) if r.get("currency")} == (
            {"fp1": "HKD"} if casino == "macau" else {})
        assert results == {r.table: f"{r.table_win:.2f}" for r in
                           GamingDayResult.objects.filter(casino_id=casino, gaming_day=day)}
        # the slot floor's machines read that day, each with its win by meters (demo/machines.py)
        from machines.models import MachineDay
        machines = {m.get("number"): m.get("win") for m in root.findall("r:Machines/r:Machine", ns)}
        assert machines == {d.machine: f"{d.win:.2f}" for d in
                            MachineDay.objects.filter(casino_id=casino, gaming_day=day)}
        assert machines
        seal = GamingDaySeal.objects.get(casino_id=casino, gaming_day=day)
        assert root.find("r:Seal", ns).get("signature") == seal.signature  # type: ignore[union-attr]
        # the day's tip boxes (docs/tips.md); Macau's exchange deals (docs/currencies.md)
        assert root.findall("r:Tips/r:TipBox", ns)
        assert (casino == "macau") == bool(root.findall("r:Exchange/r:Deal", ns))
        assert out.read_bytes() == regulator_file(casino, day)  # the same bytes each time
    # a file that breaks the schema is refused by the validator
    broken = etree.fromstring(out.read_bytes())
    broken.find("r:Totals", {"r": NAMESPACE}).set("win", "12.5")  # type: ignore[union-attr]
    assert not schema.validate(broken)


def _user(name: str, casino: str, role: str) -> User:
    user = User.objects.create_user(name)
    Membership.objects.create(user=user, casino_id=casino, role=role)
    return user


def _the_archive_and_the_regulator_file_download_for_the_casinos_readers(
        days: dict[str, dt.date], tmp_path: Path) -> None:
    day = days["lisboa"]
    url = f"/api/v1/casinos/lisboa/days/{day.isoformat()}"
    client = APIClient()
    for name, role in [("rita", Role.REGULATOR), ("alice", Role.ACCOUNTANT),
                       ("admin1", Role.ADMINISTRATOR)]:
        client.force_authenticate(_user(name, "lisboa", role))
        response = client.get(f"{url}/archive/")
        assert response.status_code == 200, response.content
        assert response["Content-Type"] == "application/zip"
        assert f'filename="lisboa-{day.isoformat()}-archive.zip"' in \
            response["Content-Disposition"]
        path = tmp_path / f"{name}.zip"
        path.write_bytes(b"".join(response.streaming_content))  # type: ignore[attr-defined]
        assert _verify(path).returncode == 0
        xml = client.get(f"{url}/regulator-file/")
        assert xml.status_code == 200
        assert xml.content == regulator_file("lisboa", day)
    for name, role in [("ana", Role.CASHIER), ("pedro", Role.PIT_BOSS)]:
        client.force_authenticate(_user(name, "lisboa", role))
        assert client.get(f"{url}/archive/").status_code == 403
        assert client.get(f"{url}/regulator-file/").status_code == 403
    client.force_authenticate(_user("macau-regulator", "macau", Role.REGULATOR))
    assert client.get(f"{url}/archive/").status_code == 403  # another casino's regulator
    client.force_authenticate(User.objects.get(username="rita"))
    unsealed = client.get(f"/api/v1/casinos/lisboa/days/{(day - dt.timedelta(days=3))}/archive/")
    assert unsealed.status_code == 404
    assert unsealed.json()["error"]["message"].endswith("is not sealed: a day's archive is made "
                                                        "once the day is closed")
    assert client.get("/api/v1/casinos/lisboa/days/yesterday/archive/").status_code == 400
    with pytest.raises(NotFound, match="is not sealed"):
        day_archive(casino="lisboa", gaming_day=day - dt.timedelta(days=3), out=io.BytesIO())
