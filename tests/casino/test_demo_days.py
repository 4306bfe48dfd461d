"""Issue 36, items 1 to 3: the demo's three days, as a newcomer meets them on the first run, and
every command line the README and the getting-started guide print, run as printed on them
(``python3 dev.py manage ...``, ``python3 tools/...``).

The day before yesterday is closed and sealed, yesterday is closed out (every session and shift,
the vaults' too) and closes, today is open with work waiting for each person. The poker room, the tips and
Macau's exchange desk play in each of the three days too (``the_areas``).

The lines come from the documents' ``sh`` code blocks; ``python3 dev.py run`` and ``test`` are
left out (``tests/casino/test_dev_run.py`` runs the first; the second would run this suite
again). The demo is played into the test database (two rounds a table: the second is stud poker's jackpot coup), and each line runs in a
folder of its own, in order, as a newcomer would type them, on that database."""

from __future__ import annotations

import datetime as dt
import os
import re
import shlex
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.worker_process import database_url

ROOT = Path(__file__).resolve().parents[2]
VERIFIER = ROOT / "tools" / "verify_events.py"
DOCUMENTS = ("README.md", "docs/getting-started.md")
NOT_HERE = ("python3 dev.py run", "python3 dev.py test")

pytestmark = pytest.mark.django_db(transaction=True)


def command_lines(text: str) -> list[str]:
    """The lines of the ``sh`` code blocks, comments and blank lines left out."""
    lines = []
    for block in re.findall(r"^ *```sh\n(.*?)^ *```", text, flags=re.MULTILINE | re.DOTALL):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words:
                lines.append(shlex.join(words))
    return lines


def test_the_documents_print_the_commands_this_test_runs() -> None:
    lines = [line for doc in DOCUMENTS for line in command_lines((ROOT / doc).read_text())]
    assert "python3 dev.py manage close_day --casino lisboa --day yesterday" in lines
    assert "python3 tools/verify_events.py day.zip --public-key lisboa.pem" in lines
    # no document tells a newcomer to call manage.py without the demo's settings
    assert not [line for line in lines if "manage.py" in line]


def test_every_command_the_documents_print_runs_on_the_demo(settings, tmp_path: Path) -> None:
    from demo.days import play_days

    settings.DEBUG = True
    call_command("seed_demo", verbosity=0)
    played = play_days(rounds=2, seed=36, tick=lambda: None)
    the_story(played)
    the_areas(tmp_path / "areas")
    env = dict(os.environ, DATABASE_URL=database_url(), DEBUG="1", PYTHONUNBUFFERED="1")
    ran = []
    for doc in DOCUMENTS:
        for line in command_lines((ROOT / doc).read_text()):
            if line.startswith(NOT_HERE):
                continue
            words = shlex.split(line)
            assert words[0] == "python3", line
            # as typed at the clone's root: dev.py and tools/ are the clone's
            words = [sys.executable, *(str(ROOT / w) if w == "dev.py" or w.startswith("tools/")
                                        else w for w in words[1:])]
            done = subprocess.run(words, cwd=tmp_path, env=env, capture_output=True, text=True,
                                  timeout=300)
            assert done.returncode == 0, f"{doc}: {line}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
            ran.append(line)
    assert len(ran) >= 10  # the README's five and the guide's
    assert (tmp_path / "day.zip").exists()


def the_story(played: list) -> None:
    import datetime as dt

    from cage.models import Shift
    from casino.models import Approval, Casino, GamingDaySeal
    from compliance.models import AmlAlert, SuspiciousReport
    from eventstore.models import StoredEvent
    from games.models import TableSession
    from jackpots.models import JackpotPrize
    from reporting.reconciliation import reconcile

    for casino in Casino.objects.filter(code__in=["lisboa", "macau"]):
        today = casino.gaming_day(dt.datetime.now(dt.UTC))
        days = [p for p in played if p.casino == casino.code]
        assert [(p.day, p.state) for p in days] == [
            (today - dt.timedelta(days=2), "sealed"),
            (today - dt.timedelta(days=1), "closed out"), (today, "open")]
        before, yesterday = today - dt.timedelta(days=2), today - dt.timedelta(days=1)
        assert list(GamingDaySeal.objects.filter(casino=casino).values_list(
            "gaming_day", flat=True)) == [before]
        for day in (before, yesterday):
            # every event of the day recorded inside it, as it was lived
            start, end = casino.gaming_day_start(day), casino.gaming_day_end(day)
            sessions = TableSession.objects.filter(casino=casino, gaming_day=day)
            assert sessions.exists()
            assert not sessions.exclude(status="closed").exists()
            assert not Shift.objects.filter(casino=casino, gaming_day=day).exclude(
                status="closed").exists()  # the vault's too
            opened = StoredEvent.objects.filter(
                stream=f"table_session/{sessions.first().session_id}").order_by("position")
            assert start <= opened.first().recorded_at < end
        assert reconcile(casino=casino.code, gaming_day=yesterday).ok
        assert TableSession.objects.filter(casino=casino, gaming_day=today,
                                           status="open").exists()
    # work waiting today: alerts of every kind, a report to review, a jackpot owed, approvals
    assert set(AmlAlert.objects.values_list("casino", "kind")) == {
        ("lisboa", "linked_threshold"), ("lisboa", "structuring"),
        ("lisboa", "anonymous_structuring"), ("macau", "large_transaction")}
    assert list(SuspiciousReport.objects.values_list("status", flat=True)) == ["drafted"]
    assert JackpotPrize.objects.filter(casino="lisboa", paid=False, amount__gt=0).count() == 1
    assert set(Approval.objects.filter(status="requested").values_list("kind", flat=True)) == {
        "round_void", "jackpot_meter_correction", "role_grant"}


def the_areas(tmp_path: Path) -> None:
    """Issue 36's day players beyond the pit (``demo.days.DAY_PLAYERS``): the poker room, the
    tips and Macau's exchange desk play in each of the three days, recorded inside each day;
    the past days reconcile whole (their lines too); the day before yesterday's archive
    verifies; today a tournament runs and players sit; Macau's yesterday closes (Lisbon's is
    closed by the README's ``close_day``); the projections rebuild equal to live."""
    from casino.models import Casino, GamingDaySeal, Role
    from demo.day import _as
    from eventstore.compare import check
    from eventstore.models import StoredEvent
    from exchange.models import ExchangeDeal, Revaluation
    from games.models import DropBox, TableSession
    from pokerroom.models import ChemmyCoup, PokerHand, PokerSeat, Tournament
    from reporting.closes import gaming_day_close
    from reporting.reconciliation import reconcile
    from tips.models import TipBox, TipPeriod

    for code in ("lisboa", "macau"):
        casino = Casino.objects.get(code=code)
        today = casino.gaming_day(dt.datetime.now(dt.UTC))
        days = [today - dt.timedelta(days=n) for n in (2, 1, 0)]
        before, yesterday, _ = days
        for day in days:
            start, end = casino.gaming_day_start(day), casino.gaming_day_end(day)
            # the poker room's hands and tournament, recorded inside the day
            assert PokerHand.objects.filter(casino_id=code, recorded_at__gte=start,
                                            recorded_at__lt=end).count() == 4 * 20  # 4 tables
            started = Tournament.objects.get(casino_id=code, started_at__gte=start,
                                             started_at__lt=end)
            assert started.status == ("running" if day == today else "finished")
            if code == "lisboa":  # 12 coups of chemin de fer a day
                assert ChemmyCoup.objects.filter(casino_id=code, settled_at__gte=start,
                                                 settled_at__lt=end).count() == 12
            # a tip box of each table that played and of the main room, counted and confirmed
            boxes = TipBox.objects.filter(casino_id=code, gaming_day=day)
            assert boxes.count() == (9 if code == "lisboa" else 3)  # 8 or 2 tables + the room
            assert set(boxes.values_list("status", flat=True)) == {"confirmed"}
            deals = ExchangeDeal.objects.filter(casino_id=code, gaming_day=day)
            assert deals.count() == (5 if code == "macau" else 0)  # 4 bought, 1 sold
            if code == "macau":
                assert Revaluation.objects.filter(casino_id=code, gaming_day=day).exists()
            if code == "macau" and day != today:  # the HKD table's boxes: counted, received
                hkd = TableSession.objects.filter(casino_id=code, gaming_day=day,
                                                  currency="HKD", status="closed")
                assert hkd.exists()
                statuses = set(DropBox.objects.filter(session_id__in=hkd.values("session_id"))
                               .values_list("status", flat=True))
                assert statuses == {"received"}, statuses
        if code == "macau":  # the HKD chips in players' hands revalued at a day's end
            assert StoredEvent.objects.filter(casino_id=code,
                                              event_type="ForeignChipsRevalued").exists()
            # nothing of the areas recorded outside the demo's three days
            assert not StoredEvent.objects.filter(
                casino_id=code, stream__regex=r"^(poker_table|tournament|tip)",
                recorded_at__lt=casino.gaming_day_start(before)).exists()
        # the past days: every line whole, the poker room's, the tips' and the exchange's too
        for day in (before, yesterday):
            report = reconcile(casino=code, gaming_day=day)
            assert [line for line in report.lines if not line.ok] == []
            areas = {line.area for line in report.lines}
            assert {"poker room", "tips"} <= areas
            assert ("exchange" in areas) == (code == "macau")
        # Macau shares its tips by the day: the day before yesterday's and yesterday's
        # distributed (each on the next day); Lisbon's month is not over: held, none shared
        shared = set(TipPeriod.objects.filter(casino_id=code).values_list("period", flat=True))
        assert shared == ({before.isoformat(), yesterday.isoformat()} if code == "macau"
                          else set())
        # today: players seated at the cash tables, the tournament running
        assert PokerSeat.objects.filter(casino_id=code, occupied=True).exists()
        assert Tournament.objects.filter(casino_id=code, status="running").count() == 1
        # the day before yesterday sealed; its archive verifies; yesterday closes from the desk
        assert list(GamingDaySeal.objects.filter(casino=casino).values_list(
            "gaming_day", flat=True)) == [before]
        tmp_path.mkdir(exist_ok=True)
        path = tmp_path / f"{code}.zip"
        call_command("export_day", "--casino", code, "--day", before.isoformat(),
                     "--output", str(path), stderr=StringIO())
        key = tmp_path / f"{code}.pem"  # the key the regulator pinned (issue 34)
        call_command("export_seal_key", "--casino", code, "--output", str(key),
                     stdout=StringIO(), stderr=StringIO())
        done = subprocess.run([sys.executable, "-S", str(VERIFIER), str(path),
                               "--public-key", str(key)],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout
        if code == "macau":  # Lisbon's: the README's close_day, after
            assert gaming_day_close(casino=code, gaming_day=yesterday,
                                    metadata=_as(code, Role.ACCOUNTANT, "contabilista")).closed
    assert check() == []
