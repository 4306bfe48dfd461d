"""Four eyes in the browser: a pit boss asks for a table variance's approval from the session's
page; another pit boss approves it on the Approvals page (docs/approvals.md)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from casino.context import person_metadata
from casino.models import Approval, Role
from games.limits import default_limits
from games.models import TableSession
from games.services import (
    drop_box_count,
    drop_box_count_confirm,
    table_configure,
    table_session_close,
    table_session_open,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def as_(name: str, role: str) -> Any:
    return person_metadata(username=name, role=role, casino="lisboa")


@pytest.fixture
def closed_with_a_variance(demo: None) -> str:
    """Roulette 1 opened with 1,500.00 and closed on a count of 1,499.00: a variance of -1.00."""
    table_configure(casino="lisboa", code="r1", name="Roulette 1", game="american_roulette",
                    options={}, seats=7, chip_set="main",
                    limits=default_limits("american_roulette", Decimal("5")),
                    metadata=as_("gestor", Role.ADMINISTRATOR))
    sid = str(table_session_open(casino="lisboa", table="r1",
                                 opening={"100.00": 10, "25.00": 20},
                                 metadata=as_("fiscal", Role.PIT_BOSS)).session_id)
    table_session_close(session_id=sid, closing={"100.00": 10, "25.00": 19, "5.00": 4,
                                                 "1.00": 4},
                        metadata=as_("fiscal", Role.PIT_BOSS))
    drop_box_count(session_id=sid, cash={}, metadata=as_("caixa", Role.CASHIER))
    drop_box_count_confirm(session_id=sid, cash={}, metadata=as_("supervisor",
                                                                 Role.CAGE_SUPERVISOR))
    return sid


def test_a_variance_asked_by_one_pit_boss_is_approved_by_another(
        closed_with_a_variance: str, person: Callable[[str], Any],
        shot: Callable[[Any, str], None]) -> None:
    sid = closed_with_a_variance
    fiscal = person("fiscal")
    fiscal.goto(f"/pit/sessions/{sid}/")
    variance = fiscal.get_by_role("group", name="Table variance: -€1.00")
    assert variance.get_by_text("Awaiting approval").is_visible()
    variance.get_by_label("Reason").select_option("miscount")
    variance.get_by_label("What happened").fill("a 1.00 chip was found under the float tray")
    shot(fiscal, "pit-ask-variance")
    variance.get_by_role("button", name="Ask for approval").click()
    assert fiscal.get_by_text("Awaiting approval, asked by fiscal").is_visible()

    # the one who asked may only withdraw it
    fiscal.goto("/approvals/lisboa/")
    assert fiscal.get_by_role("button", name="Withdraw my request").is_visible()
    assert fiscal.get_by_role("button", name="Approve").count() == 0

    chefe = person("chefe")
    chefe.get_by_role("region", name="Casino Lisboa (demo)").get_by_role(
        "link", name="Approvals").click()
    row = chefe.get_by_role("row").filter(has_text="a 1.00 chip was found under the float tray")
    shot(chefe, "approvals")
    row.get_by_label("note").fill("counted the tray again with the fiscal")
    row.get_by_role("button", name="Approve").click()
    assert chefe.get_by_text("Approved and recorded.").is_visible()
    assert chefe.get_by_text("Nothing awaits approval.").is_visible()

    approval = Approval.objects.get(kind="table_variance", subject=sid)
    assert (approval.status, approval.requested_by, approval.decided_by) == (
        "granted", "fiscal", "chefe")
    session = TableSession.objects.get(session_id=sid)
    assert session.variance == session.variance_approved == Decimal("-1.00")
