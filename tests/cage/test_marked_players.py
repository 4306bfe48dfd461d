"""Anonymous movements the cashier marks as one unidentified player's (issue 34): counted alike
with the pit's marks toward the identification threshold (Lei n.º 83/2017, art. 76.º, n.º 1:
2,000.00 "numa ou em várias operações aparentemente relacionadas"); the movement that crosses
is refused until the player is identified. Figures worked out by hand."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from cage import services as cage
from cage.models import Shift
from casino.errors import Conflict, InvalidCommand
from casino.models import Casino, Membership, Role
from compliance.models import AnonymousMovement
from eventstore import clock
from eventstore.models import StoredEvent
from games.services import drop_record

from .conftest import CASINO, CHIP_SET, Pit, ana, paulo

pytestmark = pytest.mark.django_db
MARK = "P-9c0a"  # the pit's pseudonym for one unidentified player (never a name)


def test_cage_and_pit_marks_are_linked_and_the_crossing_movement_refused(
        window: str, pit: Pit) -> None:
    # 900.00 bought at the window (9 x 100.00), 800.00 bought in at the table: 1,700.00
    cage.chips_sell(shift_id=window, amount=Decimal("900.00"), chips={"100.00": 9},
                    cash={"100.00": 9}, mark=MARK, metadata=ana())
    drop_record(session_id=pit.session_id, amount="800", player=MARK, metadata=paulo())
    before = StoredEvent.objects.count()
    # a redemption of 300.00 (12 x 25.00): 1,700.00 + 300.00 = 2,000.00, at the threshold
    with pytest.raises(Conflict) as refused:
        cage.chips_redeem(shift_id=window, amount=Decimal("300.00"), chips={"25.00": 12},
                          cash={"100.00": 3}, mark=MARK, metadata=ana())
    assert refused.value.code == "identification_required"
    assert "2000.00" in refused.value.message
    assert f"({MARK}) today come to" in refused.value.message
    assert StoredEvent.objects.count() == before
    # the same 300.00 under another mark is no part of the pattern: it passes (300.00 alone)
    cage.chips_redeem(shift_id=window, amount=Decimal("300.00"), chips={"25.00": 12},
                      cash={"100.00": 3}, mark="P-b1ac", metadata=ana())
    assert sorted((m.where, m.kind, m.amount) for m in AnonymousMovement.objects.filter(
        mark=MARK)) == [("table r1", "buy_in", Decimal("800.00")),
                        ("w1", "purchase", Decimal("900.00"))]


def test_a_mark_with_a_patron_or_not_a_pseudonym_is_refused(window: str) -> None:
    # a description could name somebody: the mark is the pit's pseudonym, never free text
    for words in ("grey coat, red scarf", "x" * 101, "P-" + "a" * 17):
        with pytest.raises(InvalidCommand) as not_a_label:
            cage.chips_sell(shift_id=window, amount=Decimal("100.00"), chips={"100.00": 1},
                            cash={"100.00": 1}, mark=words, metadata=ana())
        assert not_a_label.value.extra["field"] == "mark"
    with pytest.raises(InvalidCommand) as both:
        cage.chips_sell(shift_id=window, amount=Decimal("100.00"), chips={"100.00": 1},
                        cash={"100.00": 1}, mark=MARK, patron="P-1", metadata=ana())
    assert both.value.extra["field"] == "mark"
    assert not StoredEvent.objects.filter(event_type="ChipsSold").exists()


def test_the_api_and_the_shift_screen_take_the_mark(window: str, casino: Casino) -> None:
    user = User.objects.create_user(username="ana", password="x")
    Membership.objects.create(user=user, casino_id=CASINO, role=Role.CASHIER)
    api = APIClient()
    api.force_authenticate(user)
    shift = f"/api/v1/cage/{CASINO}/shifts/{window}"
    # 1,900.00 through the API (19 x 100.00), marked
    sold = api.post(f"{shift}/chip-sales/", {"amount": "1900.00", "chip_set": CHIP_SET,
                                             "chips": {"100.00": 19}, "cash": {"100.00": 19},
                                             "mark": MARK}, format="json")
    assert sold.status_code == 201, sold.json()
    web = Client()
    web.force_login(user)
    for movement in ("sell", "redeem"):  # the sale's form and the redemption's
        page = web.get(f"/cage/{CASINO}/shifts/{window}/?m={movement}").content.decode()
        assert page.count('name="mark"') == 1
    # 100.00 more on the screen, same mark: 1,900.00 + 100.00 = 2,000.00: refused, as typed
    refused = web.post(f"/cage/{CASINO}/shifts/{window}/", {
        "action": "sell", "amount": "100.00", "chips-main-100.00": "1", "cash-100.00": "1",
        "mark": MARK, "idempotency_key": "k1"})
    assert refused.status_code in (400, 409)
    assert f'value="{MARK}"' in refused.content.decode()
    assert StoredEvent.objects.filter(event_type="ChipsSold").count() == 1


def test_the_linking_period_is_set_per_casino_and_read_as_of_the_day(
        window: str, casino: Casino) -> None:
    from casino.models import Role as Roles
    from compliance.services import linking, linking_period_set, movement_check

    from .conftest import act

    day = Shift.objects.get(id=window).gaming_day
    olga = act("olga", Roles.COMPLIANCE_OFFICER)
    # 1,500.00 bought under the mark on the window's gaming day (15 x 100.00)
    cage.chips_sell(shift_id=window, amount=Decimal("1500.00"), chips={"100.00": 15},
                    cash={"100.00": 15}, mark=MARK, metadata=ana())
    before = linking.period_for(CASINO, day + dt.timedelta(days=1))
    assert (before.days, before.first_day) == (1, day + dt.timedelta(days=1))
    assert before.source.startswith("default: the gaming day")
    # from the next gaming day on, two gaming days are linked
    linking_period_set(days=2, from_day=(day + dt.timedelta(days=1)).isoformat(),
                       reason="the compliance officer's policy of 2026", metadata=olga)
    nxt = day + dt.timedelta(days=1)
    found = linking.period_for(CASINO, nxt)
    assert (found.days, found.first_day) == (2, day)
    assert found.source == f"set by olga from {nxt.isoformat()}: the compliance officer's policy of 2026"
    # the next day, 600.00 under the mark: 1,500.00 + 600.00 = 2,100.00 over two days: refused
    with pytest.raises(Conflict) as refused:
        movement_check(casino=casino, patron=None, gaming_day=nxt, kind="purchase",
                       amount=Decimal("600.00"), cash=Decimal("600.00"), where="w1", mark=MARK)
    assert refused.value.code == "identification_required"
    assert refused.value.extra["linking_days"] == 2
    assert "2100.00" in refused.value.message
    assert f"in the 2 gaming days from {day.isoformat()} come to" in refused.value.message
    # the window's own day keeps the period it had (read as of the day): 1,500.00 + 400.00 =
    # 1,900.00, below 2,000.00, passes; and 600.00 that day would be 2,100.00, refused
    movement_check(casino=casino, patron=None, gaming_day=day, kind="purchase",
                   amount=Decimal("400.00"), cash=Decimal("400.00"), where="w1", mark=MARK)
    with pytest.raises(Conflict):
        movement_check(casino=casino, patron=None, gaming_day=day, kind="purchase",
                       amount=Decimal("600.00"), cash=Decimal("600.00"), where="w1", mark=MARK)
    assert linking.period_for(CASINO, day).days == 1
    # the marks and the linking period rebuild from the events as they are live
    from tests.games.conftest import rebuild_differences
    assert rebuild_differences() == []


def test_a_linking_period_badly_given_is_refused(casino: Casino) -> None:
    from casino.errors import NotAllowed
    from casino.models import Role as Roles
    from compliance.services import linking_period_set

    from .conftest import act

    olga = act("olga", Roles.COMPLIANCE_OFFICER)
    today = clock.now().date().isoformat()
    for days, from_day, reason, field in ((0, today, "x", "days"), ("2.5", today, "x", "days"),
                                          (2, "2020-01-01", "x", "from_day"),
                                          (2, "soon", "x", "from_day"), (2, today, " ", "reason")):
        with pytest.raises(InvalidCommand) as bad:
            linking_period_set(days=days, from_day=from_day, reason=reason, metadata=olga)
        assert bad.value.extra["field"] == field
    with pytest.raises(NotAllowed):
        linking_period_set(days=2, from_day=today, reason="x", metadata=ana())
    assert not StoredEvent.objects.filter(event_type="LinkingPeriodSet").exists()


def test_the_linking_period_through_the_api(casino: Casino) -> None:
    user = User.objects.create_user(username="olga", password="x")
    Membership.objects.create(user=user, casino_id=CASINO, role=Role.COMPLIANCE_OFFICER)
    api = APIClient()
    api.force_authenticate(user)
    url = f"/api/v1/compliance/{CASINO}/linking-period/"
    today = clock.now().date()
    assert api.get(url, {"day": today.isoformat()}).json()["days"] == 1
    made = api.post(url, {"days": 3, "from_day": today.isoformat(), "reason": "policy"},
                    format="json")
    assert made.status_code == 201, made.json()
    # three gaming days ending today begin two days ago
    got = api.get(url, {"day": today.isoformat()}).json()
    assert got == {"days": 3, "first_day": (today - dt.timedelta(days=2)).isoformat(),
                   "source": f"set by olga from {today.isoformat()}: policy"}
    assert api.post(url, {"days": 0, "from_day": today.isoformat(), "reason": "policy"},
                    format="json").status_code == 400
