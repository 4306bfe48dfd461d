"""Projections are rebuilt from events; the check proves rebuilt equals live."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

import eventstore
from casino.models import Casino
from eventstore.events import Event
from eventstore.records import RecordedEvent

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.usefixtures("casinos")
def test_rebuild_then_check_equals_live() -> None:
    live = list(Casino.objects.values_list("code", "name", "gaming_day_closes_at", "version"))
    assert live == [("lisboa", "Casino Estoril", 5, 2), ("macau", "Casino Macau", 7, 1)]
    call_command("rebuild_projections", stdout=StringIO())
    rebuilt = list(Casino.objects.values_list("code", "name", "gaming_day_closes_at", "version"))
    assert rebuilt == live
    out = StringIO()
    call_command("rebuild_projections", "--check", stdout=out)
    assert "OK: rebuilt state equals live state" in out.getvalue()


@pytest.mark.usefixtures("casinos")
def test_check_reports_a_projection_that_drifted_from_the_events() -> None:
    Casino.objects.filter(code="macau").update(name="Edited behind the events' back")
    out = StringIO()
    with pytest.raises(CommandError, match="1 table"):
        call_command("rebuild_projections", "--check", stdout=out)
    assert "only live:" in out.getvalue()
    assert "Edited behind" in out.getvalue()
    assert "Casino Macau" in out.getvalue()
    # the check changed nothing; a rebuild puts it right
    assert Casino.objects.get(code="macau").name == "Edited behind the events' back"
    call_command("rebuild_projections", "casino", stdout=StringIO())
    assert Casino.objects.get(code="macau").name == "Casino Macau"
    assert eventstore.check() == []


@pytest.mark.usefixtures("casinos")
def test_check_reports_a_rebuilt_table_and_the_ledger_drifted_together() -> None:
    # The server compares the rebuilt tables while the ledger's replay is compared in memory:
    # both differences are found in one check, the rebuilt table's first.
    from ledger.models import LedgerSession

    Casino.objects.filter(code="lisboa").update(gaming_day_closes_at=9)
    LedgerSession.objects.create(session_id="S-behind", casino_id="macau", table="T9",
                                 game="french_roulette", drop_recorded="25.00")
    found = eventstore.check()
    assert [(d.projection, d.table) for d in found] == [
        ("casino", "casino_casino"), ("ledger", "ledger_session")]
    casino, ledger = found
    assert [row[:3] for row in casino.only_live] == [("lisboa", "Casino Estoril", "EUR")]
    assert [row[:3] for row in casino.only_rebuilt] == [("lisboa", "Casino Estoril", "EUR")]
    assert ledger.only_live == [("S-behind", "macau", "T9", "french_roulette", "25.00", None,
                                 None)]
    assert ledger.only_rebuilt == []


@pytest.mark.usefixtures("casinos")
def test_a_rebuild_of_one_projection_reads_only_the_events_it_handles() -> None:
    # The store holds three events: two casinos registered, one renamed. The casino projection
    # handles all three; the day closes none of them (only a closed gaming day).
    assert eventstore.rebuild(["casino"]) == 3
    assert eventstore.rebuild(["day_closes"]) == 0
    assert eventstore.rebuild() == 3
    assert list(Casino.objects.order_by("code").values_list("code", "name")) == [
        ("lisboa", "Casino Estoril"), ("macau", "Casino Macau")]
    assert eventstore.check() == []


def test_an_unknown_projection_name_is_a_clear_error() -> None:
    with pytest.raises(CommandError, match="unknown projection"):
        call_command("rebuild_projections", "--check", "nope")


# --- the handlers as plain functions --------------------------------------------------------------


def _recorded(event: Event, stream: str, version: int) -> RecordedEvent:
    return RecordedEvent(position=1, stream=stream, version=version,
                         event_type=event.event_type, schema_version=1, data=event.to_data(),
                         metadata={"casino": "lisboa", "actor": "system:test"},
                         recorded_at=dt.datetime(2026, 12, 1, tzinfo=dt.UTC),
                         prev_hash="0" * 64, hash="1" * 64)


@pytest.mark.django_db(transaction=False)
def test_the_casino_handlers_return_a_new_row_and_only_the_settings_that_changed() -> None:
    from casino.events import CasinoRegistered, CasinoSettingsChanged, ChipSetDenominationsChanged
    from casino.models import ChipSet
    from casino.projections import CasinoProjection, ChipSetProjection
    from eventstore.changes import Insert, Update
    from eventstore.writer import Reader, Writer

    reader = Reader(Writer())
    registered = CasinoRegistered(code="porto", name="Casino Porto", currency="EUR",
                                  time_zone="Europe/Lisbon", gaming_day_closes_at=6)
    assert list(CasinoProjection().changes(_recorded(registered, "casino/porto", 1),
                                           reader)) == [
        Insert(Casino, {"code": "porto", "name": "Casino Porto", "currency": "EUR",
                        "time_zone": "Europe/Lisbon", "gaming_day_closes_at": 6, "version": 1})]
    changed = CasinoSettingsChanged(gaming_day_closes_at=5)
    assert list(CasinoProjection().changes(_recorded(changed, "casino/porto", 2),
                                           reader)) == [
        Update(Casino, {"code": "porto"}, set={"version": 2, "gaming_day_closes_at": 5})]
    denominations = ChipSetDenominationsChanged(denominations=("100.00", "5.00"),
                                                reason="new plaques")
    assert list(ChipSetProjection().changes(
        _recorded(denominations, "chipset/porto.main", 3), reader)) == [
        Update(ChipSet, {"casino_id": "porto", "code": "main"},
               set={"denominations": ["100.00", "5.00"], "version": 3})]
