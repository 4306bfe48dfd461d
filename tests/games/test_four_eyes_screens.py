"""Four eyes from the pit's screens and API (docs/approvals.md): the round and session pages ask
for an approval (a reason from the list and words), the Approvals page decides, the pit API
refuses a lone void after the outcome and lists a day's variances with their approval."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from casino.models import Approval, Membership, Role
from games.models import Round, RoundStatus, TableSession
from games.services import (
    credit_request,
    outcome_record,
    round_close_betting,
    round_open,
    table_session_open,
)

from .conftest import CASINO, close_and_count, pit

pytestmark = pytest.mark.django_db


def _user(username: str, *roles: str) -> Any:
    user = get_user_model().objects.create_user(username, password="x")
    for role in roles:
        Membership.objects.create(user=user, casino_id=CASINO, role=role)
    return user


def browser(username: str, *roles: str) -> Client:
    client = Client()
    client.force_login(_user(username, *roles))
    return client


def api(username: str, *roles: str) -> APIClient:
    client = APIClient()
    client.force_authenticate(_user(username, *roles))
    return client


def key(page: Any, name: str) -> str:
    found = re.search(r'name="idempotency_key" value="([^"]*:' + re.escape(name) + ')"',
                      page.content.decode())
    assert found, f"no form {name!r} on the page"
    return found.group(1)


def _won_round(make_table: Any) -> tuple[str, str]:
    table = make_table("french_roulette", "r1")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 50},
                             metadata=pit("ana")).session_id
    rid = round_open(session_id=sid, bets=[{"seat": 1, "type": "straight", "numbers": [17],
                                            "amount": "100"}], metadata=pit("ana")).round_id
    round_close_betting(round_id=rid, metadata=pit("ana"))
    outcome_record(round_id=rid, outcome={"number": 17}, metadata=pit("ana"))
    return sid, rid


def test_the_round_page_asks_for_a_void_and_the_approvals_page_decides(make_table) -> None:
    _sid, rid = _won_round(make_table)
    ana = browser("ana", Role.PIT_BOSS)
    page = ana.get(f"/pit/rounds/{rid}/")
    html = page.content.decode()
    assert "the outcome is recorded" in html
    assert 'name="action" value="ask_void"' in html
    assert 'name="action" value="void"' not in html  # no lone void after the outcome
    assert "A chip, another ball or an object fell on the wheel" in html

    refused = ana.post(f"/pit/rounds/{rid}/", {
        "action": "ask_void", "reason": "foreign_object", "explanation": " ",
        "idempotency_key": key(page, "ask_void")})
    assert refused.status_code == 200
    assert "say in words what happened" in refused.content.decode()
    assert not Approval.objects.exists()

    asked = ana.post(f"/pit/rounds/{rid}/", {
        "action": "ask_void", "reason": "foreign_object",
        "explanation": "a chip fell on the wheel", "idempotency_key": key(page, "ask_void")},
        follow=True)
    assert "Asked for approval" in asked.content.decode()
    assert "Awaiting approval, asked by ana" in asked.content.decode()
    approval = Approval.objects.get()
    assert Round.objects.get(round_id=rid).status == RoundStatus.OUTCOME

    own = ana.post(f"/approvals/{CASINO}/", {"approval": str(approval.id), "action": "grant"})
    assert own.status_code == 200  # the asker may not approve: shown, nothing recorded
    assert Round.objects.get(round_id=rid).status == RoundStatus.OUTCOME
    rui = browser("rui", Role.PIT_BOSS)
    done = rui.post(f"/approvals/{CASINO}/", {"approval": str(approval.id), "action": "grant",
                                              "note": "camera checked"})
    assert done.status_code == 302
    the_round = Round.objects.get(round_id=rid)
    assert (the_round.status, the_round.void_requested_by, the_round.voided_by) == (
        RoundStatus.VOIDED, "ana", "rui")
    assert "asked by ana, approved by rui" in rui.get(f"/pit/rounds/{rid}/").content.decode()


def test_a_closed_session_page_asks_for_a_slip_void_and_the_variance(make_table) -> None:
    table = make_table("french_roulette", "v1")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 10, "0.50": 10},
                             metadata=pit("ana")).session_id
    credit_request(session_id=sid, slip="C1", chips={"100.00": 1}, metadata=pit("ana"))
    # 900 + 4.50 in the tray: win 904.50 - 1,005 + 100 = -0.50, no round: variance -0.50
    close_and_count(sid, {"100.00": 9, "0.50": 9}, pit("ana"))
    ana = browser("ana", Role.PIT_BOSS)
    page = ana.get(f"/pit/sessions/{sid}/")
    html = page.content.decode()
    assert "Awaiting approval: a variance of any size" in html
    assert 'value="ask_variance"' in html
    assert 'value="ask_void_slip"' in html
    assert 'value="void_slip"' not in html  # no lone void on a closed session

    ana.post(f"/pit/sessions/{sid}/", {
        "action": "ask_variance", "reason": "miscount", "explanation": "a chip under the tray",
        "idempotency_key": key(page, "ask_variance")})
    ana.post(f"/pit/sessions/{sid}/", {
        "action": "ask_void_slip", "kind": "credit", "slip": "C1", "reason": "never_left",
        "explanation": "the chip stayed in the tray",
        "idempotency_key": key(page, "ask_void_slip1")})
    assert sorted(Approval.objects.values_list("kind", "subject")) == [
        ("slip_void", "credit/C1"), ("table_variance", sid)]
    html = ana.get(f"/pit/sessions/{sid}/").content.decode()
    assert html.count("Awaiting approval, asked by ana") == 2


def test_the_pit_api_refuses_a_lone_void_and_lists_the_variances(make_table) -> None:
    sid, rid = _won_round(make_table)
    fiscal, chefe = api("ana", Role.PIT_BOSS), api("rui", Role.PIT_BOSS)
    before = fiscal.get(f"/api/v1/pit/rounds/{rid}/").json()["version"]
    alone = fiscal.post(f"/api/v1/pit/rounds/{rid}/void/", {"reason": "x"}, format="json")
    assert alone.status_code == 409
    assert alone.json()["error"]["code"] == "approval_required"
    assert fiscal.get(f"/api/v1/pit/rounds/{rid}/").json()["version"] == before

    asked = fiscal.post("/api/v1/approvals/", {
        "casino": CASINO, "kind": "round_void", "subject": rid, "reason": "dealing_error",
        "explanation": "the croupier launched before no more bets"}, format="json")
    assert asked.status_code == 201, asked.json()
    granted = chefe.post(f"/api/v1/approvals/{asked.json()['approval_id']}/grant/", {},
                         format="json")
    assert granted.status_code == 200, granted.json()
    detail = fiscal.get(f"/api/v1/pit/rounds/{rid}/").json()
    assert (detail["status"], detail["void_reason_code"], detail["void_requested_by"],
            detail["voided_by"]) == ("voided", "dealing_error", "ana", "rui")

    credit_request(session_id=sid, slip="C1", chips={"100.00": 1}, metadata=pit("ana"))
    close_and_count(sid, {"100.00": 49}, pit("ana"))
    void = fiscal.post(f"/api/v1/pit/slips/{CASINO}/credit/C1/void/", {"reason": "x"},
                       format="json")
    assert (void.status_code, void.json()["error"]["code"]) == (409, "approval_required")
    late = fiscal.post(f"/api/v1/pit/sessions/{sid}/credits/",
                       {"slip": "C2", "chips": {"100.00": 1}}, format="json")
    assert (late.status_code, late.json()["error"]["code"]) == (409, "approval_required")
    day = TableSession.objects.get(session_id=sid).gaming_day
    listed = fiscal.get("/api/v1/pit/variances/", {"casino": CASINO, "gaming_day": str(day)})
    assert listed.status_code == 200
    assert [(r["table"], r["variance"], r["state"]) for r in listed.json()] == [
        ("r1", "0.00", "none")]


def test_a_closed_session_page_asks_to_add_a_slip_it_missed(make_table) -> None:
    table = make_table("french_roulette", "l1")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 10},
                             metadata=pit("ana")).session_id
    close_and_count(sid, {"100.00": 8}, pit("ana"))
    ana = browser("ana", Role.PIT_BOSS)
    page = ana.get(f"/pit/sessions/{sid}/")
    assert "A slip this session missed" in page.content.decode()
    ana.post(f"/pit/sessions/{sid}/", {
        "action": "ask_late_slip", "kind": "credit", "slip": "C5", "chips-100.00": "2",
        "reason": "not_recorded", "explanation": "left in the drawer",
        "idempotency_key": key(page, "ask_late_slip")})
    approval = Approval.objects.get()
    assert (approval.kind, approval.subject, approval.details["chips"]) == (
        "late_slip", "credit/C5", {"100.00": 2})
