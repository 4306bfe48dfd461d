"""The demo's three days in the browser (issue 36): the accountant closes yesterday from the
desk and reads its sealed close report; the regulator downloads the archive of the day before
yesterday from the seals page and verifies it alone with tools/verify_events.py."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from casino.models import Casino, GamingDaySeal

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def three_days(demo: None, settings: Any, tmp_path: Path) -> dt.date:
    """The demo's three days (two rounds a table); today's gaming day in Lisbon."""
    from demo.days import play_days

    settings.SEAL_DEV_KEY_DIR = tmp_path / "seal-keys"
    play_days(rounds=2, seed=36, tick=lambda: None)
    return Casino.objects.get(code="lisboa").gaming_day(dt.datetime.now(dt.UTC))


def test_the_accountant_closes_yesterday_from_the_desk_and_reads_its_sealed_report(
        three_days: dt.date, person: Callable[[str], Any],
        shot: Callable[[Any, str], None]) -> None:
    yesterday = three_days - dt.timedelta(days=1)
    accountant = person("contabilista")
    accountant.goto("/ledger/lisboa/close/")  # yesterday, by default
    assert yesterday.isoformat() in accountant.locator("h1").inner_text()
    accountant.get_by_role("button", name="Close the gaming day").click()
    accountant.wait_for_url(f"**/close/?day={yesterday.isoformat()}*")
    assert GamingDaySeal.objects.filter(casino_id="lisboa", gaming_day=yesterday).exists()
    shot(accountant, "demo-close-yesterday")
    accountant.goto(f"/ledger/lisboa/close-report/?day={yesterday.isoformat()}")
    accountant.get_by_text("The day is sealed: this is the report its seal signed").wait_for()
    shot(accountant, "demo-close-report-sealed")


def test_the_regulator_verifies_the_sealed_archive_of_the_day_before_yesterday(
        three_days: dt.date, person: Callable[[str], Any], tmp_path: Path) -> None:
    before = three_days - dt.timedelta(days=2)
    regulator = person("igj")
    regulator.goto("/seals/lisboa/")
    row = regulator.locator(f"tr[data-seal='{before.isoformat()}']")
    with regulator.expect_download() as downloading:
        row.get_by_role("link", name="Archive (zip)").click()
    archive = tmp_path / downloading.value.suggested_filename
    downloading.value.save_as(archive)
    assert archive.name == f"lisboa-{before.isoformat()}-archive.zip"
    # the casino's public key, which the regulator pinned once, out of band (docs/regulator.md):
    # never the one inside the archive (issue 34)
    from django.core.management import call_command

    key = tmp_path / "lisboa.pem"
    call_command("export_seal_key", "--casino", "lisboa", "--output", str(key))
    verified = subprocess.run([sys.executable, str(ROOT / "tools" / "verify_events.py"),
                               str(archive), "--public-key", str(key)],
                              capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert f"OK: seal of lisboa {before.isoformat()} signed by" in verified.stdout
