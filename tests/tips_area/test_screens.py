"""The tips' screens: the count room's two counts through the page, a refusal re-rendered with
nothing recorded, a period's report and a person's."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from casino.models import Membership, Role
from tips.models import TipBox
from tips.services import tip_box_drop, tip_rule_set, tip_staff_register

from .conftest import acting, admin


def login(username: str, *roles: str) -> Client:
    user = User.objects.create_user(username=username, password="x")
    for role in roles:
        Membership.objects.create(user=user, casino_id="lisboa", role=role)
    client = Client()
    client.force_login(user)
    return client


def test_two_counters_count_a_box_on_the_page_and_the_month_is_reported(lisboa: str) -> None:
    tip_rule_set(period="month", categories={"croupier": "10"}, source="Portaria 1159/90",
                 effective_from="2025-01-01", metadata=admin())
    tip_staff_register(staff_number="c1", category="croupier", since="2025-01-01",
                       metadata=admin())
    tip_box_drop(place="room", code="main", gaming_day="2025-04-30",
                 metadata=acting(Role.PIT_BOSS, "paulo"))
    ana, rui = login("ana", Role.CASHIER), login("rui", Role.CASHIER)
    form = {"gaming_day": "2025-04-30", "box": "room-main", "cash-20.00": "2"}
    assert ana.post("/tips/lisboa/", {**form, "action": "count"}).status_code == 302
    # the same person cannot confirm: the page says so, nothing recorded
    refused = ana.post("/tips/lisboa/", {**form, "action": "confirm"})
    assert refused.status_code == 200
    assert "second counter" in refused.content.decode()
    assert TipBox.objects.get().status == "counted"
    assert rui.post("/tips/lisboa/", {**form, "action": "confirm"}).status_code == 302
    boss = login("contas", Role.ACCOUNTANT)
    assert boss.post("/tips/lisboa/", {"action": "distribute", "period": "2025-04"}
                     ).status_code == 302
    # 40.00: the fund 15 % 6.00, the one croupier 34.00
    page = boss.get("/tips/lisboa/periods/2025-04/").content.decode()
    assert "34.00" in page
    assert "6.00" in page
    assert "34.00" in boss.get("/tips/lisboa/staff/c1/").content.decode()
    assert login("zeca").get("/tips/lisboa/").status_code == 403
    # in Portuguese
    pt = boss.get("/tips/lisboa/", headers={"accept-language": "pt-pt"}).content.decode()
    assert "Caixas de gratificações" in pt
    assert "Períodos distribuídos" in pt


def test_the_tips_pages_say_no_english_in_pt_pt(lisboa: str) -> None:
    """The tips' three pages in pt-PT, a box confirmed and a month distributed: no English word
    of the screens (``tests/casino/test_translations.py``'s check) and no text of the English
    catalogue (``test_pt_pt_catalogue``'s), the rule's period and the box's status in words."""
    from tests.casino.test_pt_pt_catalogue import untranslated
    from tests.casino.test_translations import CODE, english_left, main_text

    tip_rule_set(period="month", categories={"croupier": "10"},
                 source="Portaria 1159/90 (regras do Despacho Normativo 24/89)",
                 effective_from="2025-01-01", metadata=admin())
    tip_staff_register(staff_number="c1", category="croupier", since="2025-01-01",
                       metadata=admin())
    tip_box_drop(place="room", code="main", gaming_day="2025-04-30",
                 metadata=acting(Role.PIT_BOSS, "paulo"))
    ana, rui = login("ana", Role.CASHIER), login("rui", Role.CASHIER)
    form = {"gaming_day": "2025-04-30", "box": "room-main", "cash-20.00": "2"}
    ana.post("/tips/lisboa/", {**form, "action": "count"})
    rui.post("/tips/lisboa/", {**form, "action": "confirm"})
    boss = login("contas", Role.ACCOUNTANT)
    boss.post("/tips/lisboa/", {"action": "distribute", "period": "2025-04"})
    left = {}
    for url in ("/tips/lisboa/", "/tips/lisboa/periods/2025-04/", "/tips/lisboa/staff/c1/"):
        text = main_text(boss.get(url, headers={"accept-language": "pt-pt"}).content.decode())
        found = english_left(text) + untranslated(text) + CODE.findall(text)
        if found:
            left[url] = found
    assert left == {}
    pt = main_text(boss.get("/tips/lisboa/", headers={"accept-language": "pt-pt"}
                            ).content.decode())
    assert "Período: mês" in pt
    assert "Contada e confirmada" in pt
