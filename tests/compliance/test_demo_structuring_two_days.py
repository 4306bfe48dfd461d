"""Issues 34 and 39 in the demo: anonymous structuring at Lisbon's main window over two gaming days, as
the demo plays it (``demo.showcase``), worked by hand.

PT-1: identification at 2,000.00, the band just below it from 1,600.00, the third anonymous
movement in the band at one window within the linking period raises ``anonymous_structuring``.
Yesterday (the default period, the gaming day alone) three players, each marked with the pit's
pseudonym, buy 1,700.00, 1,800.00 and 1,900.00 at the main window: the third raises the alert
with the pattern's total, 1,700.00 + 1,800.00 + 1,900.00 = 5,400.00. Today the compliance
officer links two gaming days (today and yesterday) and three more players buy 1,900.00 each
there: yesterday's alert is in the period, so each grows it, 5,400.00 + 1,900.00 = 7,300.00,
9,200.00, then 11,100.00: one alert, of yesterday, its total the pattern's over both days.

And Macau's patron buys in HKD 490,000.00 at the demo's HKD table (its session at 1.03): MOP
504,700.00, a large transaction whose alert keeps HKD 490,000.00 and the rate (issue 39)."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from casino.models import Casino
from compliance.events import AmlAlertGrown
from compliance.models import AmlAlert, AnonymousMovement
from demo import showcase
from demo.cage import DemoCage
from demo.day import DEMO_TABLES, DemoDay, _pit, ensure_tables
from demo.days import DemoClock, on_clock
from eventstore.history import read_stream
from eventstore.models import StoredEvent
from games import services


@pytest.fixture
def two_days(settings: Any, db: None) -> dt.date:
    """The demo's casinos; yesterday's half of the pattern played on yesterday's clock, the
    main cage closed; then today's compliance showcase. Lisbon's yesterday."""
    settings.DEBUG = True  # the demo's clock and seed
    call_command("seed_demo", verbosity=0)
    lisboa = Casino.objects.get(code="lisboa")
    yesterday = lisboa.gaming_day(timezone.now()) - dt.timedelta(days=1)
    clock = DemoClock(lisboa.gaming_day_start(yesterday) + dt.timedelta(hours=8))  # 14:00
    cage = DemoCage()
    day = DemoDay(casino="lisboa", day=yesterday, over=True, rng=random.Random(34), cage=cage,
                  rounds=0, tables=0, tick=lambda: None, advance=clock.advance)
    with on_clock(clock):
        showcase.play_day(day)
        # the alert stands on yesterday before today grows it
        raised = AmlAlert.objects.get(casino="lisboa", kind="anonymous_structuring")
        assert (raised.gaming_day, raised.day_total) == (yesterday, Decimal("5400.00"))
        cage.close("lisboa")
        cage.close_vault("lisboa")
    # today Macau's HKD table is open (the demo's tables, its HKD pit at 1.03)
    ensure_tables(sum(len(t) for t in DEMO_TABLES.values()))
    services.table_session_open(casino="macau", table="fp1", opening={},
                                metadata=_pit("macau"))
    showcase.compliance_showcase(cage)
    return yesterday


def test_todays_movements_grow_yesterdays_alert_to_the_two_days_total(
        two_days: dt.date, client: Any) -> None:
    yesterday = two_days
    today = yesterday + dt.timedelta(days=1)
    alert = AmlAlert.objects.get(casino="lisboa", kind="anonymous_structuring")
    assert (alert.gaming_day, alert.where, alert.patron_id, alert.amount, alert.day_total) == (
        yesterday, "main", None, Decimal("1900.00"), Decimal("11100.00"))
    # the movements, by day, each with its own pseudonym
    assert [(m.gaming_day, m.amount, m.mark) for m in AnonymousMovement.objects.filter(
        casino="lisboa", where="main", amount__gte=Decimal("1600.00"))] == [
        (yesterday, Decimal("1700.00"), "P-5a17"), (yesterday, Decimal("1800.00"), "P-5b18"),
        (yesterday, Decimal("1900.00"), "P-5c19"), (today, Decimal("1900.00"), "P-7d01"),
        (today, Decimal("1900.00"), "P-7e02"), (today, Decimal("1900.00"), "P-7f03")]
    # grown three times, each with the pattern's running total and its count in the period
    grown = [e for r in read_stream(f"aml_alert/{alert.alert_id}")
             if isinstance(e := r.event, AmlAlertGrown)]
    assert [(g.day_total, g.movements) for g in grown] == [
        (Decimal("7300.00"), 4), (Decimal("9200.00"), 5), (Decimal("11100.00"), 6)]
    assert not StoredEvent.objects.filter(event_type="AmlAlertRaised",
                                          data__kind="anonymous_structuring").exclude(
        data__alert_id=str(alert.alert_id)).exists()
    # the compliance officer's alert list shows it, yesterday's, at its two days' total
    client.force_login(User.objects.get(username="conformidade"))
    page = client.get("/compliance/lisboa/alerts/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    row = page.content.decode().split(f'data-alert="{alert.alert_id}"')[1].split("</tr>")[0]
    assert yesterday.isoformat() in row
    assert "11100.00" in row


def test_macaus_patron_buys_in_at_the_hkd_table_and_the_report_keeps_both_figures(
        two_days: dt.date) -> None:
    # issue 39: HKD 490,000.00 at the session's 1.03 is MOP 504,700.00, 500,000.00 or more in
    # cash: Macau's large-transaction report, the HKD figure and the rate beside it
    hkd = AmlAlert.objects.get(casino="macau", kind="large_transaction", where="table fp1")
    assert (hkd.amount, hkd.currency, hkd.original_amount, hkd.rate, hkd.movement) == (
        Decimal("504700.00"), "HKD", Decimal("490000.00"), Decimal("1.030000"), "buy_in")
    # the cage's MOP 500,000.00 purchase: the law's currency alone
    cage = AmlAlert.objects.get(casino="macau", kind="large_transaction", where="main")
    assert (cage.amount, cage.currency, cage.original_amount, cage.rate) == (
        Decimal("500000.00"), "", None, None)
