"""Work comes to the person (issue 36, item 5): each home lists what waits for that person,
and the fragment the home polls (htmx) says the same: the second pit boss a void waiting, the
cashier the jackpots owed and a box to receive, the second compliance officer the report to
review; never a person's own request.

The setting is the cage tests' (``tests/cage/conftest.py``)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from cage import services as cage
from casino.models import Role
from casino.services.approvals import approval_request
from compliance.models import AmlAlert
from compliance.services import patron_register, suspicious_report_draft
from games.services import outcome_record, round_close_betting, round_open

from .conftest import CASINO, CHIP_SET, Hit, Pit, act, ana, paulo
from .test_web import browser

pytestmark = pytest.mark.django_db

RUI = {"name": "Rui Costa", "document_type": "passport", "document_number": "P9000001",
       "document_country": "PT", "date_of_birth": "1975-03-03", "nationality": "PT",
       "address": "Rua 3, Lisboa", "pep": False, "document_image": "scans/rui.jpg"}


def test_the_second_pit_boss_sees_the_void_waiting_and_the_one_who_asked_does_not(
        pit: Pit) -> None:
    rid = str(round_open(session_id=pit.session_id, metadata=paulo(),
                         bets=[{"seat": 1, "type": "red", "amount": "10"}]).round_id)
    round_close_betting(round_id=rid, metadata=paulo())
    outcome_record(round_id=rid, outcome={"number": 3}, metadata=paulo())
    approval_request(kind="round_void", subject=rid, reason="dealing_error",
                     explanation="the ball left the wheel", metadata=paulo())
    rui = browser("rui", Role.PIT_BOSS)
    home = rui.get("/").content.decode()
    assert "Approvals you may give" in home
    assert "void round 1 at table r1" in home
    assert "(asked by paulo)" in home
    assert f'hx-get="/waiting/{CASINO}/"' in home  # polled while the page is open
    polled = rui.get(f"/waiting/{CASINO}/").content.decode()
    assert "void round 1 at table r1" in polled
    assert "void round 1" not in browser("paulo", Role.PIT_BOSS).get("/").content.decode()


def test_the_cashier_sees_the_jackpot_owed_linked_to_the_payout_of_her_shift(
        window: str, hit: Hit) -> None:
    home = browser("ana", Role.CASHIER).get("/").content.decode()
    assert "Jackpots owed" in home
    # the whole pool, 10,000.00, and its own chip's 0.80 (tests/cage/conftest.py, ``hit``)
    assert "€10,000.80" in home
    assert f'href="/cage/{CASINO}/shifts/{window}/?m=jackpot"' in home


def test_the_second_compliance_officer_sees_the_report_to_review(window: str) -> None:
    patron = str(patron_register(metadata=ana(), verified=True, **RUI).patron_id)
    for n in range(3):  # 3 x 800.00: linked transactions, an alert at the third (2,400.00)
        cage.chips_sell(shift_id=window, amount=Decimal("800.00"), chip_set=CHIP_SET,
                        chips={"100.00": 8}, cash={"100.00": 8}, patron=patron,
                        metadata=ana(f"rui{n}"))
    alert = AmlAlert.objects.get()
    report = suspicious_report_draft(alert_ids=[str(alert.alert_id)],
                                     narrative="three buys of 800.00 in an hour",
                                     metadata=act("olga", Role.COMPLIANCE_OFFICER))
    otto = browser("otto", Role.COMPLIANCE_OFFICER).get("/").content.decode()
    assert "Reports to review" in otto
    assert f'href="/compliance/{CASINO}/reports/{report.report_id}/"' in otto
    assert "report drafted by olga" in otto
    olga = browser("olga", Role.COMPLIANCE_OFFICER).get("/").content.decode()
    assert "report drafted by olga" not in olga
