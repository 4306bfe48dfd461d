"""The demo's poker room (``demo/pokerroom.py``): two days of it on the demo casinos, every
poker room line of ``reconcile`` whole, the projections rebuilt equal to live."""

from __future__ import annotations

import datetime as dt
import random
from io import StringIO

from django.core.management import call_command

from casino.models import Casino
from demo.cage import DemoCage
from demo.day import DemoDay
from demo.pokerroom import play_day
from eventstore.compare import check
from pokerroom.models import ChemmyCoup, PokerTable, Tournament
from reporting.reconciliation import reconcile


def test_two_demo_days_of_the_poker_room_reconcile(db: None, settings: object) -> None:
    settings.DEBUG = True  # type: ignore[attr-defined]
    call_command("seed_demo", stdout=StringIO())
    rng = random.Random(38)
    for _ in range(2):  # a second day: nothing opened twice, a new tournament
        for code in ("lisboa", "macau"):  # a day over: everybody cashed out, prizes paid
            casino = Casino.objects.get(code=code)
            play_day(DemoDay(casino=code, day=casino.gaming_day(dt.datetime.now(tz=dt.UTC)),
                             over=True, rng=rng, cage=DemoCage(), rounds=1, tables=0,
                             tick=lambda: None))
    # four cash tables a casino and the chemin de fer table in Lisbon; a tournament a day each
    assert PokerTable.objects.filter(casino_id="lisboa").count() == 5
    assert PokerTable.objects.filter(casino_id="macau").count() == 4
    assert sorted(Tournament.objects.values_list("casino_id", "code", "status")) == [
        ("lisboa", "t1", "finished"), ("lisboa", "t2", "finished"),
        ("macau", "t1", "finished"), ("macau", "t2", "finished")]
    assert ChemmyCoup.objects.filter(casino_id="lisboa").count() == 24  # 12 a day
    for code in ("lisboa", "macau"):
        casino = Casino.objects.get(code=code)
        day = casino.gaming_day(dt.datetime.now(tz=dt.UTC))
        poker = [line for line in reconcile(casino=code, gaming_day=day).lines
                 if line.area == "poker room"]
        assert poker
        assert all(line.ok for line in poker), [line for line in poker if not line.ok]
    assert check(["pokerroom", "ledger"]) == []
