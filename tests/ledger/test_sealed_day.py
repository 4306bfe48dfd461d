"""A sealed day is frozen (issue 34, item 1): every artefact the seal covers (the close report,
the daily register, the results, the regulator file, the day's archive) is the one made at the
close, whatever moves afterwards; an archive never leaves a file out, and the standalone
verifier fails an archive that does."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import subprocess
import sys
import zipfile
from decimal import Decimal as D
from pathlib import Path

import pytest
from django.core.management import call_command

from casino.models import Casino, GamingDaySeal
from casino.services.casinos import casino_change_settings
from casino.services.chips import chip_set_change_denominations
from eventstore.hashing import canonical_json
from games.limits import default_limits
from games.services import tables
from ledger.models import DayClose
from reporting.close_report import close_report, report_digest
from reporting.closes import gaming_day_close
from reporting.regulator_file import regulator_file
from reporting.seals import seal_check

from .conftest import CASINO, CHIP_SET, Clock, Floor, act, make_floor, pit_boss, system
from .test_day_close import DAY, at, finish, session_of

VERIFIER = Path(__file__).resolve().parents[2] / "tools" / "verify_events.py"


def _archive_files(tmp_path: Path, name: str) -> dict[str, bytes]:
    out = tmp_path / f"{name}.zip"
    call_command("export_day", "--casino", CASINO, "--day", DAY.isoformat(), "--output",
                 str(out), stderr=io.StringIO())
    with zipfile.ZipFile(out) as archive:
        return {n: archive.read(n) for n in archive.namelist()}


def _sealed_artefacts(tmp_path: Path, name: str) -> dict[str, bytes]:
    """Every artefact of the sealed day, as bytes."""
    report = close_report(casino=CASINO, gaming_day=DAY)
    close = DayClose.objects.get(casino_id=CASINO, day=DAY)
    return {"report": canonical_json(report.as_data()),
            "register": canonical_json(close.register),
            "results": canonical_json(close.results),
            "regulator": regulator_file(CASINO, DAY),
            **{f"archive/{n}": c for n, c in _archive_files(tmp_path, name).items()}}


def played(clock: Clock) -> Floor:
    """10 March (as ``test_day_close``'s day): chips sold, roulette r1 played, closed on its
    count (2,450.00 in the chips it holds: 8 x 25.00 went to the buy-in, 2 came back), its box
    counted."""
    clock.set(at(DAY, 20))
    floor = make_floor()
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    floor.sell({"100.00": 2, "25.00": 4}, {"100.00": 3})
    floor.open_table("r1")
    floor.buy_in("r1", "200.00")
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)  # the house wins 50
    floor.close_table("r1", {"100.00": 10, "25.00": 34, "5.00": 100, "1.00": 100}, "200.00")
    return floor


@pytest.fixture
def sealed(db: None, clock: Clock) -> Floor:
    day = played(clock)
    finish(day, session_of(day))
    clock.set(at(DAY + dt.timedelta(days=1), 6, 5))
    gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
    return day


def test_every_setting_changed_after_the_seal_changes_no_sealed_artefact(
        sealed: Floor, clock: Clock, tmp_path: Path) -> None:
    signed = GamingDaySeal.objects.get(casino_id=CASINO, gaming_day=DAY)
    before = _sealed_artefacts(tmp_path, "before")
    # the day as the close recorded it: table r1 banca simples, not VIP, win 50.00
    assert json.loads(before["register"])[0]["bank"] == "simples"
    assert json.loads(before["report"])["casino_name"] == f"Casino {CASINO}"

    clock.set(at(DAY + dt.timedelta(days=1), 12))
    boss = pit_boss()
    # every setting of the table ...
    tables.table_change_tax_class(casino=CASINO, code="r1", bank="dupla", vip=True,
                                  reason="reclassified", metadata=boss)
    tables.table_change_options(casino=CASINO, code="r1", options={}, seats=6,
                                reason="fewer seats", metadata=boss)
    tables.table_change_limits(casino=CASINO, code="r1",
                               limits=default_limits("french_roulette", D("5.00")),
                               reason="higher minimum", metadata=boss)
    tables.drop_definition_set(casino=CASINO, basis="recorded", reason="policy",
                               metadata=act("carla", "cage_supervisor"))
    # ... and of the casino: its name, time zone, closing hour, chip denominations
    admin = act("admin", "administrator")
    casino_change_settings(code=CASINO, name="Casino Renamed", time_zone="Atlantic/Azores",
                           gaming_day_closes_at=4, metadata=admin)
    chip_set_change_denominations(casino=CASINO, code=CHIP_SET,
                                  denominations=["500.00", "100.00", "25.00", "5.00", "1.00"],
                                  reason="a new plaque", metadata=admin)
    assert Casino.objects.get(code=CASINO).name == "Casino Renamed"

    after = _sealed_artefacts(tmp_path, "after")
    changed = sorted(k for k in before if before[k] != after[k])
    assert changed == []  # every artefact byte for byte
    assert report_digest(close_report(casino=CASINO, gaming_day=DAY)) == signed.report_digest
    assert hashlib.sha256(after["archive/close-report.json"]).hexdigest() == \
        signed.report_digest
    assert [c.problem for c in seal_check(casino=CASINO)] == [""]


def test_a_report_on_record_comes_back_whole(sealed: Floor) -> None:
    """The stored report's values come back in their types: the same digest as the seal's."""
    report = close_report(casino=CASINO, gaming_day=DAY)
    assert report.gaming_day == DAY
    # r1 opened on 10 x 100 + 40 x 25 + 100 x 5 + 100 x 1 = 2,600.00, closed on 2,450.00
    # with 200.00 in its box: win 2,450.00 - 2,600.00 + 200.00 = 50.00 (the red bet lost)
    [r1] = report.tables
    assert (r1.table, r1.win, r1.drop, r1.opening) == ("r1", D("50.00"), D("200.00"),
                                                       D("2600.00"))
    assert report.ends_at == dt.datetime(DAY.year, DAY.month, DAY.day + 1, 6, tzinfo=dt.UTC)
    assert report_digest(report) == GamingDaySeal.objects.get(gaming_day=DAY).report_digest


def _verify(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-S", str(VERIFIER), str(path), *extra],
                          capture_output=True, text=True, check=False)


def _without(files: dict[str, bytes], name: str, target: Path) -> Path:
    """The archive with ``name`` left out, the manifest rewritten to match (as the export
    once did when the report no longer gave the seal's digest: five files, not six)."""
    kept = {n: c for n, c in files.items() if n != name}
    manifest = json.loads(kept["manifest.json"])
    manifest["files"].pop(name)
    kept["manifest.json"] = json.dumps(manifest).encode()
    with zipfile.ZipFile(target, "w") as archive:
        for n, c in kept.items():
            archive.writestr(n, c)
    return target


@pytest.mark.parametrize("name", ["close-report.json", "regulator.xml", "results.csv"])
def test_the_verifier_fails_an_archive_that_leaves_a_file_out(
        sealed: Floor, tmp_path: Path, name: str) -> None:
    files = _archive_files(tmp_path, "whole")
    key = tmp_path / "key.pem"
    key.write_bytes(files["public-key.pem"])
    whole = tmp_path / "whole.zip"
    assert _verify(whole, "--public-key", str(key)).returncode == 0
    result = _verify(_without(files, name, tmp_path / "short.zip"), "--public-key", str(key))
    assert result.returncode == 1
    assert f"FAILED: {name} is missing" in result.stdout


def test_an_archive_whose_report_cannot_be_produced_is_refused_naming_it(
        sealed: Floor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from casino.errors import Conflict
    from reporting import archives

    monkeypatch.setattr(archives, "close_report",
                        lambda **kw: close_report(**kw).__class__(
                            **{**close_report(**kw).__dict__, "casino_name": "forged"}))
    with pytest.raises(Conflict) as refused:
        archives.day_archive(casino=CASINO, gaming_day=DAY, out=io.BytesIO())
    assert refused.value.code == "archive_file_missing"
    assert "close-report.json cannot be produced" in refused.value.message


# --- item 2: a sealed day's session corrected any number of times --------------------------


def test_three_late_slips_and_two_voids_on_one_sealed_session(sealed: Floor,
                                                              clock: Clock) -> None:
    """Each with its approval, each booked in the next open day (the 11th); the session's
    stream version and its projection's always equal."""
    import eventstore
    from casino.services.approvals import approval_grant, approval_request
    from games.models import CarriedCorrection, GamingDayResult, TableSession
    from reporting.reconciliation import reconcile

    session = session_of(sealed)
    signed = GamingDaySeal.objects.get(casino_id=CASINO, gaming_day=DAY)
    clock.set(at(DAY + dt.timedelta(days=1), 10))
    boss, cage_supervisor = act("paulo", "pit_boss"), act("carla", "cage_supervisor")

    def approved(kind: str, subject: str, reason: str, **details: object) -> str:
        asked = approval_request(kind=kind, subject=subject, reason=reason,
                                 explanation="found after the close", details=details,
                                 metadata=boss)
        approval_grant(approval_id=asked.approval_id, metadata=cage_supervisor)
        row = TableSession.objects.get(session_id=session)
        assert row.version == eventstore.stream_version(f"table_session/{session}")
        return asked.approval_id

    approved("late_slip", "credit/C-9001", "not_recorded", session_id=session,
             chips={"25.00": 2})                                    # +50.00
    approved("late_slip", "credit/C-9002", "not_recorded", session_id=session,
             chips={"5.00": 4})                                     # +20.00
    approved("late_slip", "fill/F-9003", "not_recorded", session_id=session,
             chips={"100.00": 1})                                   # nothing until issued
    approved("slip_void", "credit/C-9002", "never_left")            # -20.00
    approved("slip_void", "fill/F-9003", "never_left")              # nothing: never issued

    booked = GamingDayResult.objects.get(gaming_day=DAY + dt.timedelta(days=1), table="r1")
    # 50.00 + 20.00 + 0.00 - 20.00 + 0.00 = 50.00 carried into the 11th
    assert (booked.table_win, booked.carried_win) == (D("50.00"), D("50.00"))
    assert [(c.kind, c.slip, c.win_change) for c in
            CarriedCorrection.objects.order_by("position")] == [
        ("credit", "C-9001", D("50.00")), ("credit", "C-9002", D("20.00")),
        ("fill", "F-9003", D("0.00")), ("credit", "C-9002", D("-20.00")),
        ("fill", "F-9003", D("0.00"))]
    # the sealed day as signed
    assert GamingDayResult.objects.get(gaming_day=DAY, table="r1").table_win == D("50.00")
    assert report_digest(close_report(casino=CASINO, gaming_day=DAY)) == signed.report_digest
    assert reconcile(casino=CASINO, gaming_day=DAY).failures == []
    assert [line for line in reconcile(casino=CASINO, gaming_day=DAY + dt.timedelta(days=1))
            .failures if line.area == "table"] == []
    assert eventstore.check(["table_sessions", "gaming_days", "slips", "ledger"]) == []


# --- item 4: the verifier trusts only keys it is given -------------------------------------


def _forged(files: dict[str, bytes], target: Path) -> Path:
    """History rewritten, re-chained and re-signed with the forger's own key, with
    ``public-key.pem``, the regulator file's seal and the manifest swapped to match."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from casino import seal as rules

    def rehash(event: dict[str, object]) -> str:
        hashed = {k: v for k, v in event.items() if k not in ("hash", "sequence")}
        return hashlib.sha256(canonical_json(hashed)).hexdigest()

    forged = dict(files)
    lines = [json.loads(line) for line in files["events.jsonl"].decode().splitlines()]
    lines[3]["data"]["name"] = "forged"
    previous = lines[2]["hash"]
    for event in lines[3:]:
        event["prev_hash"] = previous
        event["hash"] = previous = rehash(event)
    forged["events.jsonl"] = "".join(json.dumps(e) + "\n" for e in lines).encode()
    forger = Ed25519PrivateKey.generate()
    seal = json.loads(files["seal.json"])
    old = dict(seal["data"])
    payload = {k: v for k, v in old.items() if k != "signature"}
    payload.update(last_hash=previous, key_id=rules.key_id(forger.public_key()))
    seal["data"] = {**payload, "signature": forger.sign(canonical_json(payload)).hex()}
    seal["prev_hash"] = previous
    seal["hash"] = rehash(seal)
    forged["seal.json"] = json.dumps(seal).encode()
    forged["public-key.pem"] = rules.public_pem(forger).encode()
    xml = files["regulator.xml"].decode()
    for name in ("signature", "key_id", "last_hash"):
        xml = xml.replace(str(old[name]), str(seal["data"][name]))
    forged["regulator.xml"] = xml.encode()
    manifest = json.loads(files["manifest.json"])
    manifest.update(last_hash=previous, key_id=payload["key_id"],
                    files={n: hashlib.sha256(c).hexdigest() for n, c in forged.items()
                           if n != "manifest.json"})
    forged["manifest.json"] = json.dumps(manifest).encode()
    with zipfile.ZipFile(target, "w") as archive:
        for n, c in forged.items():
            archive.writestr(n, c)
    return target


def test_a_forged_archive_with_a_swapped_key_is_rejected(sealed: Floor, tmp_path: Path) -> None:
    files = _archive_files(tmp_path, "genuine")
    genuine = tmp_path / "genuine.zip"
    real = tmp_path / "regulator-copy.pem"
    call_command("export_seal_key", "--casino", CASINO, "--output", str(real),
                 stderr=io.StringIO())
    pinned = tmp_path / "pinned"
    pinned.mkdir()
    (pinned / f"{CASINO}.pem").write_bytes(real.read_bytes())
    real_id = GamingDaySeal.objects.get(casino_id=CASINO, gaming_day=DAY).key_id
    forged = _forged(files, tmp_path / "forged.zip")

    # without a trusted key nothing is claimed: not even the genuine archive's seal
    for path in (genuine, forged):
        alone = _verify(path)
        assert alone.returncode == 1, alone.stdout
        assert "not verified against a trusted key" in alone.stdout
        assert "OK: seal of" not in alone.stdout
    # the genuine one verifies with each way of trusting the key
    for trust in (["--public-key", str(real)], ["--key-id", real_id],
                  ["--trusted-keys", str(pinned)]):
        assert _verify(genuine, *trust).returncode == 0, trust
    # the forgery is rejected with each, and says why
    by_id = _verify(forged, "--key-id", real_id)
    assert by_id.returncode == 1
    assert f"not a pinned key ({real_id})" in by_id.stdout
    by_folder = _verify(forged, "--trusted-keys", str(pinned))
    assert by_folder.returncode == 1
    assert "not with the public key given" in by_folder.stdout
    given = _verify(forged, "--public-key", str(real))
    assert given.returncode == 1
    assert f"not with the public key given ({real_id})" in given.stdout


# --- item 8: a close run again answers with the first close's digest and seal -------------


def test_a_repeated_close_answers_with_the_first_digest_and_seal(db: None, clock: Clock) -> None:
    day = played(clock)
    finish(day, session_of(day))
    clock.set(at(DAY + dt.timedelta(days=1), 6, 5))
    first = gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
    again = gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
    assert (again.already_closed, again.report_digest, again.seal) == (
        True, first.report_digest, first.seal)
    assert again.seal is not None
    assert again.seal.signature == GamingDaySeal.objects.get(gaming_day=DAY).signature


def test_recorded_at_never_goes_back_within_a_casinos_chain(db: None, clock: Clock) -> None:
    """A clock that steps back an hour: the next events are stamped with the casino's last
    moment, so a fold by time and one by position agree at a boundary."""
    from cage.selectors import chips_in_circulation
    from eventstore.models import StoredEvent

    clock.set(at(DAY, 20))
    floor = make_floor()
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    last = StoredEvent.objects.filter(casino_id=CASINO).order_by("-sequence").first()
    assert last is not None
    assert last.recorded_at == at(DAY, 20)
    clock.set(at(DAY, 19))  # the clock steps back an hour
    floor.sell({"100.00": 2}, {"100.00": 2})  # 200.00 of chips sold
    sold = StoredEvent.objects.get(casino_id=CASINO, event_type="ChipsSold")
    assert sold.recorded_at == at(DAY, 20)  # clamped to the last moment, not 19:00
    stamps = list(StoredEvent.objects.filter(casino_id=CASINO).order_by("sequence")
                  .values_list("recorded_at", flat=True))
    assert stamps == sorted(stamps)
    # a boundary at 19:30: the sale is after it, as it is after every event before it
    assert chips_in_circulation(casino=CASINO, before=at(DAY, 19, 30)).value == D("0.00")
    assert chips_in_circulation(casino=CASINO, before=at(DAY, 20, 1)).value == D("200.00")


# --- item 6: the close checks every outstanding thing --------------------------------------


def test_a_slip_asked_for_and_never_finished_holds_up_the_close(db: None, clock: Clock) -> None:
    from casino.errors import Conflict
    from casino.services.approvals import approval_grant, approval_request
    from games.services import sessions
    from reporting.reconciliation import reconcile

    clock.set(at(DAY, 20))
    floor = make_floor()
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    floor.open_table("r1")
    # a fill of 4 x 25.00 = 100.00 asked for by the pit; the cage never issues it
    sessions.fill_request(session_id=floor.tables["r1"], slip="F-7001", chips={"25.00": 4},
                          metadata=pit_boss())
    floor.buy_in("r1", "200.00")
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)
    floor.close_table("r1", {"100.00": 10, "25.00": 34, "5.00": 100, "1.00": 100}, "200.00")
    session = session_of(floor)
    finish(floor, session)
    lines = [(line.area, line.subject, line.what, line.platform)
             for line in reconcile(casino=CASINO, gaming_day=DAY).failures]
    assert lines == [("slip", "fill F-7001", "requested, neither issued nor voided",
                      D("100.00"))]
    clock.set(at(DAY + dt.timedelta(days=1), 6, 5))
    with pytest.raises(Conflict) as refused:
        gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
    assert refused.value.code == "not_reconciled"
    assert refused.value.extra["lines"] == [
        f"{DAY}|slip|fill F-7001|requested, neither issued nor voided"]
    assert "slip fill F-7001 (requested, neither issued nor voided)" in refused.value.message
    # voided after the close of its session (asked, then approved by another person): the day
    # closes; while the void awaits its approval, the request itself holds the close up
    asked = approval_request(kind="slip_void", subject="fill/F-7001", reason="never_left",
                             explanation="the fill was never sent", metadata=pit_boss())
    assert [line.area for line in reconcile(casino=CASINO, gaming_day=DAY).failures] == [
        "slip", "pending"]
    approval_grant(approval_id=asked.approval_id, metadata=act("carla", "cage_supervisor"))
    assert reconcile(casino=CASINO, gaming_day=DAY).failures == []
    assert gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system()).closed


# --- item 3: the IEJ on the capital em giro inicial the inspection approved ----------------


def test_the_iej_base_is_the_approved_capital_not_an_empty_opening(db: None,
                                                                   clock: Clock) -> None:
    from games.services import sessions

    from .conftest import TABLE_FLOAT

    admin = act("admin", "administrator")
    clock.set(at(DAY, 20))
    floor = make_floor()
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    tables.table_configure(casino=CASINO, code="r1", name="R1", game="french_roulette",
                           seats=8, chip_set=CHIP_SET,
                           limits=default_limits("french_roulette", D("1.00")),
                           metadata=pit_boss())
    tables.table_approve_capital(casino=CASINO, code="r1", capital="2600.00",
                                 reference="IGJ approval 7/2026", metadata=admin)
    floor.games["r1"] = "french_roulette"
    # the tray opens empty and is filled a minute later with 2,600.00 (as the demo's tables)
    floor.tables["r1"] = str(sessions.table_session_open(casino=CASINO, table="r1", opening={},
                                                         metadata=pit_boss()).session_id)
    floor.fill("r1", TABLE_FLOAT)
    floor.buy_in("r1", "200.00")
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)
    floor.close_table("r1", {"100.00": 10, "25.00": 34, "5.00": 100, "1.00": 100}, "200.00")
    finish(floor, session_of(floor))
    # a capital approved after the day's end is not the day's (configuration as of the day)
    clock.set(at(DAY + dt.timedelta(days=1), 6, 1))
    tables.table_approve_capital(casino=CASINO, code="r1", capital="5000.00",
                                 reference="IGJ approval 9/2026", metadata=admin)
    clock.set(at(DAY + dt.timedelta(days=1), 6, 5))
    gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())

    [row] = DayClose.objects.get(casino_id=CASINO, day=DAY).register
    assert (row["opening"], row["capital"], row["capital_source"]) == (
        "0.00", "2600.00", "the approved capital (IGJ approval 7/2026)")
    taxes = {t.code: (t.base, t.amount) for t in close_report(casino=CASINO,
                                                              gaming_day=DAY).taxes}
    # Estoril zone, banca simples (the demonstration parameters): 2,600.00 x 0.25 % = 6.50;
    # presumed gross profit 2,600.00 x 21 % = 546.00, taxed at 20 %: 109.20
    assert taxes["pt-iej-capital"] == (D("2600.00"), D("6.50"))
    assert taxes["pt-iej-profit"] == (D("546.00"), D("109.20"))


def test_the_capital_base_and_where_it_came_from() -> None:
    from reporting.day_register import capital_base

    approved = (D("2600.00"), "IGJ approval 7/2026")
    assert capital_base(D("0.00"), approved) == (
        D("2600.00"), "the approved capital (IGJ approval 7/2026)")
    assert capital_base(D("3000.00"), approved) == (
        D("3000.00"), "the first session's opening, above the approved capital "
                      "(IGJ approval 7/2026)")
    assert capital_base(D("1200.00"), None) == (
        D("1200.00"), "the first session's opening: no approved capital recorded")


# --- item 7: chips by denomination ----------------------------------------------------------


def test_a_count_claiming_pieces_never_given_is_a_variance_to_explain(db: None,
                                                                      clock: Clock) -> None:
    """The played day, its table closed on the same 2,450.00 in other pieces: 13 x 100.00 +
    40 x 25.00 + 30 x 5.00. Of the 100.00 chips, 500 were put into service and 10 more taken
    over with the table's first float (510); the vault holds 450, the window 48 (50 less the
    2 sold), the tray claims 13: 510 - 450 - 48 - 13 = -1 in players' hands. Values agree;
    pieces cannot."""
    from casino.errors import Conflict
    from reporting.reconciliation import reconcile

    clock.set(at(DAY, 20))
    floor = make_floor()
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    floor.sell({"100.00": 2, "25.00": 4}, {"100.00": 3})
    floor.open_table("r1")
    floor.buy_in("r1", "200.00")
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)
    floor.close_table("r1", {"100.00": 13, "25.00": 40, "5.00": 30}, "200.00")
    finish(floor, session_of(floor))
    failures = [(line.area, line.subject, line.what, line.platform)
                for line in reconcile(casino=CASINO, gaming_day=DAY).failures]
    assert failures == [("chips", "main 100.00", "pieces in players' hands at the boundary",
                         D("-1"))]
    clock.set(at(DAY + dt.timedelta(days=1), 6, 5))
    with pytest.raises(Conflict) as refused:
        gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
    assert refused.value.extra["lines"] == [
        f"{DAY}|chips|main 100.00|pieces in players' hands at the boundary"]


def test_the_register_reads_the_tables_tax_class_as_of_the_day(db: None, clock: Clock) -> None:
    """Configuration as of the day (issue 34): r1 was made banca dupla during the day; made
    simples and VIP after the day's end (06:01) but before the close (06:05), the day's
    register still says dupla, not VIP: the change is the next day's."""
    clock.set(at(DAY, 19))
    floor = played(clock)
    tables.table_change_tax_class(casino=CASINO, code="r1", bank="dupla", vip=False,
                                  reason="two croupiers' banks", metadata=pit_boss())
    finish(floor, session_of(floor))
    clock.set(at(DAY + dt.timedelta(days=1), 6, 1))
    tables.table_change_tax_class(casino=CASINO, code="r1", bank="simples", vip=True,
                                  reason="made a VIP table", metadata=pit_boss())
    clock.set(at(DAY + dt.timedelta(days=1), 6, 5))
    gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
    [row] = DayClose.objects.get(casino_id=CASINO, day=DAY).register
    assert (row["table"], row["bank"], row["vip"]) == ("r1", "dupla", False)


def test_pieces_never_given_are_found_while_another_tray_is_between_counts(
        db: None, clock: Clock) -> None:
    """The check runs though r2 is still between counts, its value moved by a buy-in and a
    spin (before, any such tray skipped it). r2 opened on no 100.00 chip and was filled one
    100.00 from the window: it holds that one or none (it may have gone to a player, and on to
    r1). r1 closes on 2,450.00 as 14 x 100.00 + 40 x 25.00 + 10 x 5.00 = 1,400.00 + 1,000.00
    + 50.00. Of the 100.00 chips: 500 into service + 10 taken over with r1's first float = 510;
    the vault 450, the window 50 - 2 sold - 1 filled = 47, r1 claims 14, r2 at least none:
    players hold at most 510 - 450 - 47 - 14 = -1. Had r1 claimed 13, r2's filled piece would
    explain it: 510 - 450 - 47 - 13 = 0."""
    from reporting.reconciliation import reconcile

    clock.set(at(DAY, 20))
    floor = make_floor()
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    floor.sell({"100.00": 2, "25.00": 4}, {"100.00": 3})
    floor.open_table("r1")
    floor.buy_in("r1", "200.00")
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)
    floor.open_table("r2", opening={"25.00": 40, "5.00": 100, "1.00": 100})
    floor.fill("r2", {"100.00": 1})
    floor.buy_in("r2", "100.00")
    floor.spin("r2", [{"seat": 1, "type": "red", "amount": "25"}], 2)
    floor.close_table("r1", {"100.00": 14, "25.00": 40, "5.00": 10}, "200.00")
    chips = [(line.subject, line.what, line.platform)
             for line in reconcile(casino=CASINO, gaming_day=DAY).failures
             if line.area == "chips"]
    assert chips == [("main 100.00", "pieces in players' hands at the boundary", D("-1"))]
