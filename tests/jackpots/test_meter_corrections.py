"""Jackpot meter corrections with four eyes (issue 13, finding 6: the requester was a name the
approver typed, and pit bosses could correct a pool).

A correction is a kind of approval, ``jackpot_meter_correction`` (docs/approvals.md,
docs/jackpots.md § Corrections): asked by the person logged in (a cage supervisor, an accountant
or an administrator), with a reason from the list and words; approved by another person, an
accountant or an administrator; recorded (and posted to the ledger) only when approved.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

import eventstore
from casino.answers import ApprovalAnswer
from casino.context import person_metadata
from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound
from casino.models import Approval, Membership, Role
from casino.services.approvals import approval_grant, approval_request
from eventstore import read_stream
from eventstore.models import StoredEvent
from eventstore.records import Metadata
from jackpots import selectors
from jackpots.models import JackpotMeterReading, JackpotPool

from .conftest import CASINO, pit
from .ledger import ledger_balance

pytestmark = pytest.mark.django_db
D = Decimal
KIND = "jackpot_meter_correction"


def person(name: str, role: str) -> Metadata:
    return person_metadata(username=name, role=role, casino=CASINO)


CONTABILISTA = person("contabilista", Role.ACCOUNTANT)
GESTOR = person("gestor", Role.ADMINISTRATOR)
CARLA = person("carla", Role.CAGE_SUPERVISOR)


def ask(pool_id: str, metadata: Metadata = CONTABILISTA, *, meter: str = "pool",
        direction: str = "up", amount: str = "2345.67", reason: str = "carried_over",
        explanation: str = "the old controller showed 12,345.67") -> ApprovalAnswer:
    return approval_request(kind=KIND, subject=pool_id, reason=reason, explanation=explanation,
                            details={"meter": meter, "direction": direction, "amount": amount},
                            metadata=metadata)


def corrections(pool_id: str) -> list[Any]:
    return [r for r in read_stream(f"jackpot/{CASINO}.{pool_id}")
            if r.event_type == "JackpotMeterCorrected"]


def test_nothing_moves_until_another_person_approves(make_pool) -> None:
    pool_id = make_pool("stud_poker")
    asked = ask(pool_id)
    assert JackpotPool.objects.get(pool_id=pool_id).amount == D("10000.00")
    assert corrections(pool_id) == []
    assert ledger_balance("jackpot_liability", pool_id) == D("10000.00")
    approval = Approval.objects.get(id=asked.approval_id)
    assert (approval.requested_by, approval.reason, approval.amount, approval.summary) == (
        "contabilista", "carried_over", D("2345.67"),
        f"jackpot pool {pool_id}: meter up by 2345.67 (now 10000.00, would be 12345.67)")

    granted = approval_grant(approval_id=asked.approval_id, note="controller photo seen",
                             metadata=GESTOR)
    assert granted.applied["after"] == "12345.67"
    (event,) = corrections(pool_id)
    assert (event.data["approval_id"], event.data["requested_by"], event.data["approved_by"],
            event.data["reason"], event.data["explanation"]) == (
        asked.approval_id, "contabilista", "gestor", "carried_over",
        "the old controller showed 12,345.67")
    assert event.metadata["actor"] == "gestor"


def test_the_meter_shown_anywhere_equals_the_ledgers_liability_after_a_correction(
        make_pool) -> None:
    pool_id = make_pool("stud_poker")
    approval_grant(approval_id=ask(pool_id).approval_id, metadata=GESTOR)
    approval_grant(approval_id=ask(pool_id, CARLA, direction="down", amount="45.67",
                                   reason="display_fault",
                                   explanation="display double-counted a coup").approval_id,
                   metadata=CONTABILISTA)
    expected = D("10000.00") + D("2345.67") - D("45.67")  # 12,300.00
    assert ledger_balance("jackpot_liability", pool_id) == expected
    pool = JackpotPool.objects.get(pool_id=pool_id)
    assert (pool.amount, pool.corrections) == (expected, D("2300.00"))
    assert selectors.pool_meters(CASINO, pool_id)["amount"] == "12300.00"
    assert selectors.pool_summary(pool)["amount"] == "12300.00"
    last = JackpotMeterReading.objects.filter(pool_id=pool_id).order_by("-version").first()
    assert last is not None
    assert last.amount == expected

    api = _api("ines", Role.REGULATOR)
    assert api.get(f"/api/v1/jackpots/{CASINO}/pools/{pool_id}/").json()["amount"] == "12300.00"
    page = _browser("ines2", Role.REGULATOR).get(f"/jackpots/{CASINO}/pools/{pool_id}/")
    assert 'data-meter="pool">12300.00' in page.content.decode()
    assert eventstore.check(["jackpots", "ledger", "approvals"]) == []


def test_a_pit_boss_neither_asks_nor_approves(make_pool) -> None:
    pool_id = make_pool("stud_poker")
    before = StoredEvent.objects.count()
    with pytest.raises(NotAllowed) as refused:
        ask(pool_id, pit("chefe", key=""))
    assert refused.value.message == (
        "asking for a jackpot meter correction needs one of these roles: Accountant, "
        "Administrator, Cage supervisor (you act as Pit boss)")  # roles in words (issue 36)
    assert StoredEvent.objects.count() == before

    asked = ask(pool_id)
    for decider in (pit("chefe", key=""), CARLA):  # nor does a cage supervisor approve
        with pytest.raises(NotAllowed, match="approving a jackpot meter correction needs one "
                                             "of these roles: Accountant, Administrator"):
            approval_grant(approval_id=asked.approval_id, metadata=decider)
    assert JackpotPool.objects.get(pool_id=pool_id).amount == D("10000.00")


def test_the_person_who_asked_may_not_approve(make_pool) -> None:
    pool_id = make_pool("stud_poker")
    asked = ask(pool_id, GESTOR)
    with pytest.raises(NotAllowed) as refused:
        approval_grant(approval_id=asked.approval_id, metadata=GESTOR)
    assert refused.value.code == "four_eyes"
    assert corrections(pool_id) == []
    assert Approval.objects.get(id=asked.approval_id).status == "requested"


@pytest.mark.parametrize(("change", "error", "field"), [
    ({"reason": "because"}, InvalidCommand, "reason"),
    ({"explanation": "  "}, InvalidCommand, "explanation"),
    ({"meter": "display"}, InvalidCommand, "meter"),
    ({"direction": "sideways"}, InvalidCommand, "direction"),
    ({"amount": "-5.00"}, InvalidCommand, "amount"),
    ({"amount": 10.5}, InvalidCommand, "amount"),
    ({"amount": "12.345"}, InvalidCommand, "amount"),
    ({"direction": "down", "amount": "10000.01"}, Conflict, "amount"),
])
def test_a_request_is_checked_before_anything_is_recorded(
        make_pool, change: dict[str, Any], error: type[Exception], field: str) -> None:
    pool_id = make_pool("stud_poker")
    before = StoredEvent.objects.count()
    with pytest.raises(error) as refused:
        ask(pool_id, **change)
    assert refused.value.extra["field"] == field  # type: ignore[attr-defined]
    assert StoredEvent.objects.count() == before


def test_an_unknown_pool_is_refused(casino: str) -> None:
    with pytest.raises(NotFound) as refused:
        ask("x")
    assert refused.value.message == "there is no jackpot pool 'x' in casino 'lisboa'"
    assert not Approval.objects.exists()


def test_a_meter_that_moved_meanwhile_is_not_taken_below_zero(make_pool) -> None:
    """Asked: down by 9,800.00 of 10,000.00. Meanwhile four of a kind wins 500 times the 1.00
    bet: the meter is 10,000.70 - 500.00 = 9,500.70, so the approval is refused and nothing is
    recorded; the request stays open, to be refused or withdrawn."""
    import uuid

    from jackpots.services import jackpot_coup_settle

    pool_id = make_pool("stud_poker")
    asked = ask(pool_id, direction="down", amount="9800.00", reason="audit_finding",
                explanation="audit 2024/3")
    table = JackpotPool.objects.get(pool_id=pool_id).tables[0]
    jackpot_coup_settle(pool_id=pool_id, round_id=str(uuid.uuid4()), table=table,
                        bets=[{"seat": 1, "player": "P-b001", "amount": "1.00",
                               "cards": ["7C", "7D", "7H", "7S", "3C"]}], metadata=pit())
    assert JackpotPool.objects.get(pool_id=pool_id).amount == D("9500.70")
    with pytest.raises(Conflict) as refused:
        approval_grant(approval_id=asked.approval_id, metadata=GESTOR)
    assert refused.value.message == "the pool holds 9500.70: it cannot go down by 9800.00"
    assert corrections(pool_id) == []
    assert Approval.objects.get(id=asked.approval_id).status == "requested"
    assert ledger_balance("jackpot_liability", pool_id) == D("9500.70")


def test_one_open_request_per_pool(make_pool) -> None:
    pool_id = make_pool("stud_poker")
    first = ask(pool_id)
    with pytest.raises(Conflict) as refused:
        ask(pool_id, CARLA, amount="1.00")
    assert refused.value.code == "approval_pending"
    assert refused.value.extra["approval"] == first.approval_id


# --- the edges -------------------------------------------------------------------------------------


def _user(name: str, *roles: str) -> User:
    user = User.objects.create_user(username=name, password="x")
    for role in roles:
        Membership.objects.create(user=user, casino_id=CASINO, role=role)
    return user


def _api(name: str, *roles: str) -> APIClient:
    client = APIClient()
    client.force_authenticate(_user(name, *roles))
    return client


def _browser(name: str, *roles: str) -> Client:
    client = Client()
    client.force_login(_user(name, *roles))
    return client


def test_through_the_approvals_api(make_pool) -> None:
    pool_id = make_pool("stud_poker")
    kinds = _api("ines", Role.REGULATOR).get("/api/v1/approvals/kinds/").json()
    listed = next(k for k in kinds if k["kind"] == KIND)
    assert {"code": "carried_over",
            "label": "Meter carried over from a previous system or display"} in listed["reasons"]

    fiscal = _api("fiscal", Role.PIT_BOSS)
    refused = fiscal.post("/api/v1/approvals/", {
        "casino": CASINO, "kind": KIND, "subject": pool_id, "reason": "carried_over",
        "explanation": "x", "details": {"meter": "pool", "direction": "up", "amount": "1.00"}},
        format="json")
    assert refused.status_code == 403

    asker, approver = _api("contabilista", Role.ACCOUNTANT), _api("gestor", Role.ADMINISTRATOR)
    made = asker.post("/api/v1/approvals/", {
        "casino": CASINO, "kind": KIND, "subject": pool_id, "reason": "carried_over",
        "explanation": "old controller", "details": {"meter": "pool", "direction": "up",
                                                     "amount": "500.00"}}, format="json")
    assert made.status_code == 201, made.json()
    assert asker.post(f"/api/v1/approvals/{made.json()['approval_id']}/grant/", {},
                      format="json").status_code == 403
    granted = approver.post(f"/api/v1/approvals/{made.json()['approval_id']}/grant/",
                            {"note": "ok"}, format="json")
    assert granted.status_code == 200, granted.json()
    assert JackpotPool.objects.get(pool_id=pool_id).amount == D("10500.00")
    assert ledger_balance("jackpot_liability", pool_id) == D("10500.00")


def test_the_pool_screen_asks_and_the_approvals_page_decides(make_pool) -> None:
    pool_id = make_pool("stud_poker")
    url = f"/jackpots/{CASINO}/pools/{pool_id}/"
    fiscal = _browser("fiscal", Role.PIT_BOSS)
    assert "Ask for approval" not in fiscal.get(url).content.decode()  # a pit boss reads only

    carla = _browser("carla", Role.CAGE_SUPERVISOR)
    page = carla.get(url).content.decode()
    assert "Ask for approval of a meter correction" in page
    assert '<option value="display_fault">' in page

    refused = carla.post(url, {"meter": "pool", "direction": "down", "amount": "10000.01",
                               "reason": "display_fault", "explanation": "double count",
                               "idempotency_key": "k0"})
    assert refused.status_code == 200
    assert "the pool holds 10000.00: it cannot go down by 10000.01" in refused.content.decode()
    assert not Approval.objects.exists()

    asked = carla.post(url, {"meter": "pool", "direction": "down", "amount": "100.00",
                             "reason": "display_fault", "explanation": "double count",
                             "idempotency_key": "k1"})
    assert asked.status_code == 302
    approval = Approval.objects.get()
    assert (approval.requested_by, approval.kind) == ("carla", KIND)
    assert JackpotPool.objects.get(pool_id=pool_id).amount == D("10000.00")

    gestor = _browser("gestor", Role.ADMINISTRATOR)
    listed = gestor.get(f"/approvals/{CASINO}/").content.decode()
    assert f"jackpot pool {pool_id}: meter down by 100.00" in listed
    done = gestor.post(f"/approvals/{CASINO}/", {"approval": str(approval.id),
                                                 "action": "grant", "note": "seen"})
    assert done.status_code == 302
    assert JackpotPool.objects.get(pool_id=pool_id).amount == D("9900.00")
    assert ledger_balance("jackpot_liability", pool_id) == D("9900.00")
    assert 'data-meter="pool">9900.00' in carla.get(url).content.decode()
