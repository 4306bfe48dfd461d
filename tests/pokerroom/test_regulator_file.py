"""A closed and sealed demo day with a poker room: the regulator file's NonBanked section holds
each table's and tournament's commission as the close's register fixed it, and validates
against the schema; the close report shows the same figures."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D
from io import StringIO
from unittest import mock

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.core.management import call_command
from django.test import override_settings
from lxml import etree

from casino import seal as rules
from casino.context import system_metadata
from casino.models import Casino
from eventstore.records import Metadata
from reporting.close_report import close_report
from reporting.regulator_file import NAMESPACE, regulator_file, validate
from reporting.seals import key_variable


def _close_the_cage(casino: str) -> None:
    from cage import services as cage
    from cage.models import Shift
    from cage.selectors import expected_count

    for shift in Shift.objects.filter(casino_id=casino).exclude(status="closed"):
        cash, chips = expected_count(shift)
        who = Metadata(actor="test:supervisor", role="cage_supervisor", casino=casino)
        cage.shift_count(shift_id=str(shift.id), cash=cash, chips=chips, metadata=who)
        cage.shift_close(shift_id=str(shift.id), metadata=who)


def test_the_regulator_file_of_a_day_with_a_poker_room(db: None,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from demo.day import play_day
    from reporting.closes import gaming_day_close

    monkeypatch.setenv(key_variable("lisboa"),
                       rules.private_pem(Ed25519PrivateKey.generate()).decode("ascii"))
    with override_settings(DEBUG=True):
        call_command("seed_demo", verbosity=0, stdout=StringIO())
    played = play_day(tables=1, rounds=1, seed=38, tick=lambda: None)  # the poker room too
    _close_the_cage("lisboa")
    day = played[0].gaming_day
    after = Casino.objects.get(code="lisboa").gaming_day_end(day) + dt.timedelta(minutes=5)
    with mock.patch("django.utils.timezone.now", return_value=after):
        assert gaming_day_close(casino="lisboa", gaming_day=day,
                                metadata=system_metadata("lisboa", job="test")).closed
    content = regulator_file("lisboa", day)
    assert validate(content) == []
    lines = etree.fromstring(content).findall(f"{{{NAMESPACE}}}NonBanked/{{{NAMESPACE}}}Commission")
    found = {line.get("subject"): (line.get("game"), D(line.get("amount"))) for line in lines}
    # the four cash tables, the chemin de fer table and the day's tournament
    assert set(found) == {"cf1", "ph1", "ph2", "po1", "ps1", "t1"}
    report = close_report(casino="lisboa", gaming_day=day)
    assert {n.subject: n.revenue for n in report.non_banked} == {
        subject: amount for subject, (_, amount) in found.items()}
    assert found["cf1"][0] == "chemin_de_fer"
