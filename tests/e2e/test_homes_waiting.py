"""Every home shows its waiting work, in Chromium (issue 36, item 5): the cashier the slips and
the jackpot owed, the cage supervisor the adjustment to approve, the second pit boss the void
and the correction asked of him (arriving while his home is open: it polls), the second
compliance officer the report to review.

The setting is the cage tests' (``tests/cage/conftest.py``)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from cage import services as cage
from casino.models import Membership, Role
from casino.services.approvals import approval_request
from compliance.models import AmlAlert
from compliance.services import patron_register, suspicious_report_draft
from games.services import outcome_record, round_close_betting, round_open, round_settle
from shell.web import views as homes
from tests.cage.conftest import (  # noqa: F401 - fixtures
    CASINO,
    CHIP_SET,
    Hit,
    Pit,
    act,
    ana,
    cages,
    casino,
    hit,
    paulo,
    pit,
    vault,
    window,
)
from tests.cage.test_waiting_work import RUI

from .conftest import log_in_on

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PEOPLE = (("ana", Role.CASHIER), ("carla", Role.CAGE_SUPERVISOR), ("paulo", Role.PIT_BOSS),
          ("rui", Role.PIT_BOSS), ("olga", Role.COMPLIANCE_OFFICER),
          ("otto", Role.COMPLIANCE_OFFICER))


def test_every_home_shows_its_waiting_work(
        window: str, pit: Pit, hit: Hit, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        new_page: Callable[[], Any], shot: Callable[[Any, str], None]) -> None:
    monkeypatch.setattr(homes, "WAITING_POLL_SECONDS", 1)  # the home asks again every second
    for name, role in PEOPLE:
        user = User.objects.create_user(username=name, password=f"demo-{name}")
        Membership.objects.create(user=user, casino_id=CASINO, role=role)
    fill = pit.fill({"25.00": 4})
    cage.adjustment_request(shift_id=window, direction="in", reason="a chip found",
                            cash={}, chips={CHIP_SET: {"1.00": 1}}, metadata=ana())
    # round 1, settled (black 2 recorded): its correction is asked later; round 2's void now
    settled = str(round_open(session_id=pit.session_id, metadata=paulo(),
                             bets=[{"seat": 2, "type": "black", "amount": "10"}]).round_id)
    round_close_betting(round_id=settled, metadata=paulo())
    outcome_record(round_id=settled, outcome={"number": 2}, metadata=paulo())
    round_settle(round_id=settled, metadata=paulo())
    rid = str(round_open(session_id=pit.session_id, metadata=paulo(),
                         bets=[{"seat": 1, "type": "red", "amount": "10"}]).round_id)
    round_close_betting(round_id=rid, metadata=paulo())
    outcome_record(round_id=rid, outcome={"number": 3}, metadata=paulo())
    approval_request(kind="round_void", subject=rid, reason="dealing_error",
                     explanation="the ball left the wheel", metadata=paulo())
    patron = str(patron_register(metadata=ana(), verified=True, **RUI).patron_id)
    for n in range(3):  # 3 x 800.00: linked transactions, an alert at the third
        cage.chips_sell(shift_id=window, amount=Decimal("800.00"), chip_set=CHIP_SET,
                        chips={"100.00": 8}, cash={"100.00": 8}, patron=patron,
                        metadata=ana(f"rui{n}"))
    suspicious_report_draft(alert_ids=[str(AmlAlert.objects.get().alert_id)],
                            narrative="three buys of 800.00 in an hour",
                            metadata=act("olga", Role.COMPLIANCE_OFFICER))

    def home(name: str) -> Any:
        page = new_page()
        log_in_on(page, name, f"demo-{name}")
        page.wait_for_url("**/")
        return page

    cashier = home("ana")
    assert cashier.get_by_text(f"Fill {fill} · table r1 · €100.00").is_visible()
    owed = cashier.get_by_role("region", name="Jackpots owed")
    assert "€10,000.80" in owed.inner_text()
    shot(cashier, "home-cashier")
    supervisor = home("carla")
    assert supervisor.get_by_text("Adjustment asked for by ana").is_visible()
    shot(supervisor, "home-cage-supervisor")
    second = home("rui")
    approvals = second.get_by_role("region", name="Approvals you may give")
    assert "void round 2 at table r1" in approvals.inner_text()
    # while his home is open, another pit boss asks him for a correction: it arrives
    approval_request(kind="round_correction", subject=settled, reason="wrong_outcome",
                     explanation="the ball was in 4", details={"outcome": {"number": 4}},
                     metadata=paulo())
    second.get_by_text("correct round 1 at table r1").wait_for()
    shot(second, "home-pit-boss")
    officer = home("otto")
    assert officer.get_by_role("region", name="Reports to review").get_by_role(
        "link", name="report drafted by olga").is_visible()
    shot(officer, "home-compliance-officer")
