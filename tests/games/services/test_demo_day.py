"""``manage.py demo_day`` plays every game through the services and the books balance."""

from __future__ import annotations

from decimal import Decimal as D
from io import StringIO

import pytest
from django.core.management import call_command

from demo.day import DEMO_TABLES
from games.models import Round, Slip, TableSession

from ..conftest import rebuild_differences

pytestmark = pytest.mark.django_db


def test_demo_day_plays_every_game_and_the_projections_rebuild(settings) -> None:
    settings.DEBUG = True
    out = StringIO()
    call_command("demo_day", "--rounds-per-table", "4", "--seed", "7", stdout=out,
                 stderr=StringIO())
    games = {g for tables in DEMO_TABLES.values() for _, g, _, _ in tables}
    sessions = TableSession.objects.all()
    assert {s.game for s in sessions} == games
    assert all(s.status == "closed" for s in sessions)
    # the closing counts were made from the tray: table win = the rounds' result
    assert all(s.table_win == s.round_result for s in sessions), [
        (s.table, s.table_win, s.round_result) for s in sessions]
    assert Round.objects.filter(status="voided").exists()
    assert Round.objects.filter(corrections=1).exists()
    assert Slip.objects.filter(kind="fill", status="issued").exists()
    assert "french_roulette" in out.getvalue()
    assert rebuild_differences() == []
    again = StringIO()
    call_command("demo_day", "--if-empty", stdout=again)
    assert "nothing to do" in again.getvalue()


def test_the_demo_day_is_a_believable_day_that_reconciles(settings) -> None:
    """Issue 13, item 9 (finding 1): chips put into service, a cage with notes and coins,
    first floats and fills from the cage, credits and drop boxes received, a variance explained
    and approved by another person; ``reconcile`` passes on every casino's day."""
    from cage.models import ChipsInService, Shift
    from cage.selectors import chips_in_circulation
    from eventstore.models import StoredEvent
    from ledger import reports
    from reporting.reconciliation import reconcile

    settings.DEBUG = True
    call_command("demo_day", "--rounds-per-table", "4", "--seed", "11", stdout=StringIO(),
                 stderr=StringIO())
    for casino in DEMO_TABLES:
        assert ChipsInService.objects.filter(casino_id=casino).exists()
        circulation = chips_in_circulation(casino=casino)
        assert circulation.taken_over == 0  # nothing comes from nowhere
        # every currency's chips at face value: the book currency's 2781 and, for Macau's HKD
        # table, the memorandum of HKD (docs/currencies.md)
        assert circulation.value == -(
            reports.account_balance(casino=casino, code="2781")
            + reports.account_balance(casino=casino, code="0900.HKD.2781"))
        assert circulation.value >= 0
        shift = Shift.objects.get(casino_id=casino, cage="main")
        assert (shift.status, shift.counted_by != shift.approved_by) == ("closed", True)
        assert shift.variance_value < 0
        assert not Slip.objects.filter(casino_id=casino, status="requested").exists()
        day = shift.gaming_day
        report = reconcile(casino=casino, gaming_day=day)
        assert report.ok, [line for line in report.lines if not line.ok]
        out = StringIO()
        call_command("reconcile", "--casino", casino, "--day", str(day), stdout=out)
        assert "everything reconciles" in out.getvalue()
    from jackpots.models import JackpotPrize

    prize = JackpotPrize.objects.get(casino_id="lisboa", combination="flush")
    assert (prize.amount, prize.paid_amount, prize.paid) == (D("50.00"), D("50.00"), True)
    assert StoredEvent.objects.filter(event_type="CreditReceived").exists()
    assert StoredEvent.objects.filter(event_type="DropBoxReceived").exists()


def test_the_demo_counts_a_tray_largest_chip_first_and_leaves_half_a_euro() -> None:
    """The demo's own variance (issue 20): 73,578 in Lisbon's chips, largest first, is 14 x 5000,
    3 x 1000, 1 x 500, 3 x 25 and one 2.50 = 73,577.50; the 0.50 left no chip makes."""
    from demo.day import _counts

    lisbon = [D(d) for d in ["5000", "1000", "500", "100", "25", "5", "2.50", "1"]]
    counted = _counts(D("73578"), lisbon)
    assert counted == {"5000": 14, "1000": 3, "500": 1, "25": 3, "2.50": 1}
    assert sum(D(d) * n for d, n in counted.items()) == D("73577.50")


def test_the_demo_day_says_what_each_figure_is_and_why_a_table_has_a_variance(settings) -> None:
    """Seed 2007, two rounds a table (what ``dev.py run --rounds-per-table 2`` plays): Lisbon's
    punto banco counts 0.50 short of its rounds, and its line says so."""
    from casino.models import Approval

    settings.DEBUG = True
    out = StringIO()
    call_command("demo_day", "--rounds-per-table", "2", "--seed", "2007", stdout=out,
                 stderr=StringIO())
    printed = out.getvalue()
    assert "win             from the chips: drop + closing count - opening - fills + credits" in printed
    line = next(row for row in printed.splitlines() if row.startswith("lisboa/pb1"))
    assert "win     -82.50  rounds' result     -82.00  variance -0.50 approved" in line
    assert ("variance: the demo counts the tray largest chip first: a 2.50 chip left 0.50 that "
            "no chip makes") in printed
    session = TableSession.objects.get(casino_id="lisboa", table="pb1")
    approval = Approval.objects.get(subject=str(session.session_id))
    assert approval.explanation == ("the demo counts the tray largest chip first: a 2.50 chip "
                                    "left 0.50 that no chip makes")
    assert [s.table for s in TableSession.objects.exclude(variance=0)] == ["pb1"]
