"""The machines' win in the day's close and the month's gaming-tax return: a day of one machine
closed and sealed fixes its win by meters; the close report's totals show it; the month's
return taxes it (Portugal's special gaming tax on machines, its unverified 25 %) and the
accrual books it."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from unittest import mock

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.utils import timezone

from casino import seal as rules
from casino.context import system_metadata
from casino.models import Casino
from ledger.models import DayClose
from ledger.taxes import gaming_tax_accrue, monthly_return
from machines.services.readings import meter_readings_record
from reporting.close_report import close_report
from reporting.closes import gaming_day_close
from reporting.seals import key_variable

from .conftest import admin, balance, floor, meters


def test_a_days_machine_win_is_closed_taxed_and_accrued(make_machine,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(key_variable("lisboa"),
                       rules.private_pem(Ed25519PrivateKey.generate()).decode("ascii"))
    make_machine("M001")
    make_machine("M002")
    now = timezone.now()
    casino = Casino.objects.get(code="lisboa")
    day = casino.gaming_day(now)
    read_at = (now + dt.timedelta(seconds=1)).isoformat()
    # M001: 1,000.00 in, 850.00 out: wins 150.00; M002: 200.00 in, 230.00 out: loses 30.00
    meter_readings_record(casino="lisboa", readings=[
        {"machine": "M001", "reading_id": "a", "read_at": read_at,
         "meters": meters(coin_in="1000.00", coin_out="850.00", games_played=1000)},
        {"machine": "M002", "reading_id": "b", "read_at": read_at,
         "meters": meters(coin_in="200.00", coin_out="230.00", games_played=200)},
    ], source="sds", metadata=floor())
    after = casino.gaming_day_end(day) + dt.timedelta(minutes=5)
    with mock.patch("django.utils.timezone.now", return_value=after):
        closed = gaming_day_close(casino="lisboa", gaming_day=day,
                                  metadata=system_metadata("lisboa", job="test"))
    # 150.00 − 30.00 = 120.00, two machines on the floor
    assert closed.totals["machine_win"] == "120.00"
    fixed = DayClose.objects.get(casino_id="lisboa", day=day)
    assert fixed.revenue["machine_win"] == "120.00"
    assert fixed.revenue["machines"] == "2"
    assert fixed.totals["win"] == "0.00"  # no table played: the tables' win is apart
    assert close_report(casino="lisboa", gaming_day=day).totals.machine_win == Decimal("120.00")

    month = day.replace(day=1)
    the_return = monthly_return("lisboa", month)
    (line,) = [t for t in the_return.lines if "machines" in t.code]
    # 120.00 × 25 % = 30.00
    assert (line.code, line.base, line.amount) == ("pt-iej-machines", Decimal("120.00"),
                                                   Decimal("30.00"))
    assert "unverified" in line.legal_source
    next_month = (month + dt.timedelta(days=32)).replace(day=1)
    month_over = casino.gaming_day_end(next_month - dt.timedelta(days=1)) + dt.timedelta(hours=1)
    accrued = gaming_tax_accrue(casino="lisboa", month=month.strftime("%Y-%m"),
                                metadata=admin(), now=month_over)
    assert {a.code: a.amount for a in accrued.lines}["pt-iej-machines"] == "30.00"
    assert balance("gaming_tax_payable", "pt-iej-machines") == Decimal("30.00")
