"""A pit boss asks another for a correction (issue 36, item 5): the pit boss who recorded a
wrong outcome asks, from the round page, with the right outcome; the request waits on the
second pit boss's home; they correct the round from the Approvals page, and the round is settled
again on the outcome asked for. The one who asked may not approve it."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from casino.models import Approval, Role
from games.models import Round
from games.services import round_settle

from .conftest import CASINO, pit
from .test_four_eyes_screens import _won_round, browser, key

pytestmark = pytest.mark.django_db


def test_the_pit_boss_who_made_the_mistake_asks_and_another_corrects(make_table: Any) -> None:
    _sid, rid = _won_round(make_table)  # a straight 100.00 on 17, and 17 recorded by ana
    round_settle(round_id=rid, metadata=pit("ana"))
    # 17 won: 35 to 1 on 100.00, the house's result -3,500.00
    assert Round.objects.get(round_id=rid).result == Decimal("-3500.00")
    ana = browser("ana", Role.PIT_BOSS)
    page = ana.get(f"/pit/rounds/{rid}/")
    html = page.content.decode()
    assert 'name="action" value="ask_correct"' in html  # she recorded it: she asks
    assert "Correct and settle again" not in html
    asked = ana.post(f"/pit/rounds/{rid}/", {
        "action": "ask_correct", "number": "18", "reason": "wrong_outcome",
        "explanation": "the ball was in 18, 17 typed", "idempotency_key": key(page, "correct")},
        follow=True)
    assert "Correction asked for" in asked.content.decode()
    approval = Approval.objects.get(kind="round_correction")
    assert approval.details["outcome"] == {"number": 18}

    rui = browser("rui", Role.PIT_BOSS)
    home = rui.get("/").content.decode()
    assert "correct round 1 at table r1" in home  # it waits for him
    assert "correct round 1" not in ana.get("/").content.decode()
    own = ana.post(f"/approvals/{CASINO}/", {"approval": str(approval.id), "action": "grant"})
    assert own.status_code == 200  # refused: nothing changed
    assert Round.objects.get(round_id=rid).result == Decimal("-3500.00")
    done = rui.post(f"/approvals/{CASINO}/", {"approval": str(approval.id), "action": "grant",
                                              "note": "camera checked"})
    assert done.status_code == 302
    # 18: the straight on 17 lost, the house keeps the 100.00
    assert Round.objects.get(round_id=rid).result == Decimal("100.00")
