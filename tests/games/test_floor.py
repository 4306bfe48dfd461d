"""The floor: each open table's running result, drop so far, hold and hold check, flagged when
the result falls outside the 95% band (docs/floor.md); the close sent to the workers."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from casino.models import Role
from games import selectors
from games.models import TableSession
from games.services import drop_record, round_record, table_session_open

from .conftest import CASINO, pit
from .test_web import key, person

pytestmark = pytest.mark.django_db


def _open(make_table: Any, code: str) -> str:
    table = make_table("american_roulette", code, minimum="5")
    return str(table_session_open(casino=CASINO, table=table, opening={"100.00": 10},
                                  metadata=pit()).session_id)


def test_the_floor_shows_each_open_tables_figures_and_flags_one_outside_its_band(
        make_table: Any, django_assert_num_queries: Any) -> None:
    calm, lucky = _open(make_table, "r1"), _open(make_table, "r2")
    # r1: a straight 10 on 17 and red 20; 5 (red) comes: +10 - 20 = -10 to the house
    round_record(session_id=calm, bets=[{"seat": 1, "type": "straight", "numbers": [17],
                                         "amount": "10"},
                                        {"seat": 2, "type": "red", "amount": "20"}],
                 outcome={"number": 5}, metadata=pit())
    drop_record(session_id=calm, amount="100", metadata=pit())
    # r2: a straight 10 on 17 and 17 comes: the house pays 350
    round_record(session_id=lucky, bets=[{"seat": 1, "type": "straight", "numbers": [17],
                                          "amount": "10"}],
                 outcome={"number": 17}, metadata=pit())

    with django_assert_num_queries(3):  # the sessions, the tables' options, the rounds' stakes
        rows = {r.session.table: r for r in selectors.floor(casino=CASINO)}
    r1, r2 = rows["r1"], rows["r2"]
    assert (r1.result, r1.drop, r1.hold_percent) == (Decimal("-10.00"), Decimal("100.00"),
                                                     Decimal("-10.00"))
    # theoretical: (10 + 20) / 37 = 0.81 on a handle of 30, 2.7027 %; win ÷ handle -33.3333 %
    assert r1.check["theoretical_win"] == Decimal("0.81")
    assert r1.check["theoretical_hold_percent"] == Decimal("2.7027")
    assert r1.against_theoretical == Decimal("-36.0360")
    # σ² = 10² × 34.0804 + 20² × 0.99927 = 3807.74, σ = 61.707: band 0.811 ± 120.946
    assert (r1.check["low"], r1.check["high"], r1.check["flag"]) == (
        Decimal("-120.13"), Decimal("121.76"), False)
    # r2: σ = 10 × √34.0804 = 58.38, band 0.27 ± 114.42: -350 is outside
    assert (r2.result, r2.hold_percent, r2.check["flag"]) == (Decimal("-350.00"), None, True)
    assert (r2.check["low"], r2.check["high"]) == (Decimal("-114.15"), Decimal("114.69"))

    fiscal = person("fiscal", Role.PIT_BOSS)
    page = fiscal.get(f"/pit/{CASINO}/floor/").content.decode()
    assert "htmx" in page
    assert f"/pit/{CASINO}/floor/rows/" in page
    fragment = re.sub(r"\s+", " ", fiscal.get(f"/pit/{CASINO}/floor/rows/").content.decode())
    assert fragment.count("outside the band: look into this table") == 1
    # figures the page's way, each with its unit: amounts in the casino's currency, percentages
    # to two places (2.7027 % is 2.70 %), the difference from theoretical in percentage points
    assert '<td class="num">2.70&nbsp;%</td>' in fragment
    assert '<td class="num">-33.33&nbsp;%</td>' in fragment
    assert '<td class="num">€100.00</td>' in fragment  # r1's drop
    assert "&nbsp;pp</td>" in fragment
    assert 'class="flag"><td><a href="/pit/sessions/' + lucky in fragment
    assert person("caixa", Role.CASHIER).get(f"/pit/{CASINO}/floor/rows/").status_code == 403


def test_the_session_page_shows_the_win_and_hold_so_far_and_closes_through_the_task(
        make_table: Any, django_capture_on_commit_callbacks: Any) -> None:
    sid = _open(make_table, "r1")
    round_record(session_id=sid, bets=[{"seat": 2, "type": "red", "amount": "20"}],
                 outcome={"number": 4}, metadata=pit())  # 4 is black: +20
    drop_record(session_id=sid, amount="80", metadata=pit())
    fiscal = person("fiscal", Role.PIT_BOSS)
    page = fiscal.get(f"/pit/sessions/{sid}/")
    text = re.sub(r"<[^>]+>", " ", page.content.decode())
    text = re.sub(r"\s+", " ", text)
    assert "Table win so far €20.00" in text
    assert "Hold so far % 25.00" in text  # 20 ÷ 80
    # the tray: 10 × 100 opened, +20 won and 80 dropped in cash: 1020 of chips, 1000 + 20
    with django_capture_on_commit_callbacks(execute=True) as sent:
        done = fiscal.post(f"/pit/sessions/{sid}/", {
            "action": "close", "idempotency_key": key(page, "close"),
            "closing-100.00": "10", "closing-5.00": "4"}, follow=True)
    assert len(sent) == 1
    # in the test's transaction the task runs when it commits, after the answer was drawn
    messages = re.findall(r"<li class=\"[^\"]*\"[^>]*>([^<]*)</li>", done.content.decode())
    assert messages == ["The close is sent to the workers: its result shows here once it is "
                        "done (reload the page)."]
    assert TableSession.objects.get(session_id=sid).closing_amount == Decimal("1020.00")
    closed = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fiscal.get(
        f"/pit/sessions/{sid}/").content.decode()))
    assert "session of" in closed
    assert "· closed" in closed
    assert "Closing count €1,020.00" in closed


@pytest.mark.django_db(transaction=True)
def test_a_close_the_task_refuses_is_shown_beside_the_form_with_the_count_kept(
        make_table: Any) -> None:
    """Outside a test's transaction the task runs as the request commits: its refusal comes back
    at once, beside the form, the count as it was typed, nothing recorded."""
    from games.services import round_open

    sid = _open(make_table, "r1")
    round_open(session_id=sid, metadata=pit())
    fiscal = person("fiscal", Role.PIT_BOSS)
    refused = fiscal.post(f"/pit/sessions/{sid}/", {
        "action": "close", "closing-100.00": "10",
        "idempotency_key": key(fiscal.get(f"/pit/sessions/{sid}/"), "close")})
    html = refused.content.decode()
    assert refused.status_code == 200
    assert "A round is in progress: settle or void it first." in html
    assert 'name="closing-100.00" value="10"' in html
    assert TableSession.objects.get(session_id=sid).status == "open"
    # a pit boss reading Portuguese reads the task's refusal in Portuguese
    chefe = Client(headers={"accept-language": "pt-pt"})
    chefe.force_login(get_user_model().objects.get(username="fiscal"))
    refused = chefe.post(f"/pit/sessions/{sid}/", {
        "action": "close", "closing-100.00": "10",
        "idempotency_key": key(chefe.get(f"/pit/sessions/{sid}/"), "close")})
    assert "Há um golpe em curso: liquide-o ou anule-o primeiro." in refused.content.decode()
    assert TableSession.objects.get(session_id=sid).status == "open"
