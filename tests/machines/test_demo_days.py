"""The slot floor in the demo's three days (``demo.days.DAY_PLAYERS``): each casino's floor is
played on each day on the demo's clock; every past day reconciles whole (the machines' lines
with the rest: boxes dropped and counted, hand pays paid, tickets read), and the day before
yesterday closes and seals with the machines' win fixed in its figures."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db.models import Sum

from casino.models import Casino, GamingDaySeal
from ledger.models import DayClose
from machines.models import MachineBox, MachineDay
from reporting.reconciliation import reconcile


@pytest.mark.django_db
def test_the_three_demo_days_play_the_slot_floor(settings) -> None:
    from demo.days import play_days

    settings.DEBUG = True
    call_command("seed_demo", verbosity=0)
    played = play_days(rounds=2, seed=36, tick=lambda: None)
    states = {(p.casino, p.state) for p in played}
    assert ("lisboa", "sealed") in states
    for casino in Casino.objects.filter(code__in=["lisboa", "macau"]):
        today = casino.gaming_day(dt.datetime.now(dt.UTC))
        for back in (2, 1, 0):
            day = today - dt.timedelta(days=back)
            # ten machines a casino on the tests' short days, each read that day
            assert MachineDay.objects.filter(casino_id=casino.code, gaming_day=day).count() == 10
            # three reads a machine (midday, before the progressive's hit, the close), each on
            # the demo's clock moved on from the last: none refused as out of order
            assert set(MachineDay.objects.filter(casino_id=casino.code, gaming_day=day)
                       .values_list("readings", flat=True)) == {3}
            # its boxes dropped and counted that day (the count room's day, on the demo's clock)
            assert MachineBox.objects.filter(casino_id=casino.code, gaming_day=day,
                                             status="confirmed").exists()
            if back:
                bad = [(str(x.area), str(x.subject), str(x.what), x.difference)
                       for x in reconcile(casino=casino.code, gaming_day=day).failures]
                assert bad == []
        sealed = today - dt.timedelta(days=2)
        close = DayClose.objects.get(casino=casino, day=sealed)
        win = MachineDay.objects.filter(casino_id=casino.code, gaming_day=sealed).aggregate(
            win=Sum("win"))["win"]
        assert Decimal(close.totals["machine_win"]) == win
        assert close.revenue["machines"] == "10"
        assert GamingDaySeal.objects.filter(casino=casino, gaming_day=sealed).exists()
