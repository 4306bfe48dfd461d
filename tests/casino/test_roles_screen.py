"""The roles screen (``/roles/<casino>/``, issue 35 item 7): the casino's administrator sees who
holds which role, grants and removes one through ``access.roles``' commands; an administrator's
or a cage supervisor's role is asked for there and granted when a second administrator approves
it on the approvals page. Refusals in words, in pt-PT too; nobody else opens the page."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from access.models import RegulatorAccount
from casino.context import system_metadata
from casino.models import Approval, Membership, Role
from casino.services.casinos import casino_register
from eventstore.history import read_stream

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture(autouse=True)
def lisboa() -> None:
    casino_register(code="lisboa", name="Casino Lisboa", currency="EUR",
                    time_zone="Europe/Lisbon", gaming_day_closes_at=6,
                    metadata=system_metadata("lisboa", job="tests"))
    for name in ("gestor", "gestora"):
        Membership.objects.create(user=User.objects.create_user(name), casino_id="lisboa",
                                  role=Role.ADMINISTRATOR)


def browser(name: str, language: str = "en") -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(User.objects.get(username=name))
    client.cookies["django_language"] = language
    return client


def post(client: Client, **form: str) -> object:
    return client.post("/roles/lisboa/", {"idempotency_key": "k-" + "-".join(form.values()),
                                          **form})


def test_the_administrator_grants_and_removes_a_cashiers_role_on_the_screen() -> None:
    ana = User.objects.create_user("ana")
    gestor = browser("gestor")

    granted = post(gestor, action="grant", username="ana", role="cashier")

    assert granted.status_code == 302
    assert Membership.objects.filter(user=ana, casino_id="lisboa", role="cashier").exists()
    page = gestor.get("/roles/lisboa/")
    assert page.status_code == 200
    assert b'data-person="ana"' in page.content
    assert b"Cashier" in page.content
    removed = post(gestor, action="remove", username="ana", role="cashier")
    assert removed.status_code == 302
    assert not Membership.objects.filter(user=ana).exists()
    assert [(e.event_type, e.metadata["actor"]) for e in
            read_stream(f"casino_roles/lisboa.{ana.pk}")] == [
        ("CasinoRoleGranted", "gestor"), ("CasinoRoleRemoved", "gestor")]


def test_a_cage_supervisors_role_is_asked_then_approved_by_a_second_administrator() -> None:
    rui = User.objects.create_user("rui")
    gestor, gestora = browser("gestor"), browser("gestora")

    asked = post(gestor, action="grant", username="rui", role="cage_supervisor",
                 reason="new_post", explanation="the new night shift's supervisor")

    assert asked.status_code == 302
    assert not Membership.objects.filter(user=rui).exists()  # nothing granted yet
    approval = Approval.objects.get(kind="role_grant", subject=f"{rui.pk}:cage_supervisor")
    assert str(approval.id).encode() in gestor.get("/roles/lisboa/").content
    # said with the person's login (the event has their id only), in the page's language
    assert "the Cage supervisor role for rui" in gestora.get("/approvals/lisboa/").content.decode()
    assert "a função de Supervisor de caixa para rui" in browser("gestora", "pt-pt").get(
        "/approvals/lisboa/").content.decode()
    # the one who asked may not approve (the page says why, nothing granted)
    mine = gestor.post("/approvals/lisboa/", {"action": "grant", "approval": str(approval.id),
                                              "idempotency_key": "a1"})
    assert mine.status_code == 200
    assert b'role="alert"' in mine.content
    assert not Membership.objects.filter(user=rui).exists()

    gestora.post("/approvals/lisboa/", {"action": "grant", "approval": str(approval.id),
                                        "idempotency_key": "a2"})

    assert Membership.objects.filter(user=rui, casino_id="lisboa",
                                     role="cage_supervisor").exists()
    (event,) = read_stream(f"casino_roles/lisboa.{rui.pk}")
    assert (event.data["approval_id"], event.metadata["actor"]) == (str(approval.id), "gestora")


def test_refusals_are_words_on_the_page_in_english_and_pt_pt_with_nothing_recorded() -> None:
    User.objects.create_user("ana")
    srij = User.objects.create_user("srij")
    RegulatorAccount.objects.create(user=srij, jurisdiction="PT")
    cases = [
        ({"username": "nobody", "role": "cashier"}, "There is no login “nobody”",
         "Não há nenhum utilizador “nobody”"),
        # no reason given: the approval's own refusal
        ({"username": "ana", "role": "administrator"},
         "is not a reason for granting an administrator's or a cage supervisor's role",
         "não é um motivo para a atribuição da função de administrador ou de supervisor"),
        ({"username": "srij", "role": "cashier"}, "holds no casino role",
         "não tem nenhuma função num casino"),
    ]
    for form, english, portuguese in cases:
        for language, words in (("en", english), ("pt-pt", portuguese)):
            answer = post(browser("gestor", language), action="grant", explanation="",
                          reason="", **form)
            text = html.unescape(answer.content.decode())
            assert answer.status_code == 400, (form, language)
            assert words in text, (form, language, text[text.find('role="alert"'):][:300])
    removed = post(browser("gestor", "pt-pt"), action="remove", username="ana", role="cashier")
    assert removed.status_code == 400
    assert "não tem a função" in removed.content.decode()
    assert Membership.objects.filter(casino_id="lisboa").count() == 2  # the two administrators
    assert not Approval.objects.exists()


def test_only_the_casinos_administrator_opens_the_roles_screen() -> None:
    for role in Role:
        if role in (Role.ADMINISTRATOR, Role.REGULATOR):
            continue
        user = User.objects.create_user(f"x-{role}")
        Membership.objects.create(user=user, casino_id="lisboa", role=role)
        assert browser(user.username).get("/roles/lisboa/").status_code == 403, role
        assert browser(user.username).post("/roles/lisboa/", {
            "action": "grant", "username": user.username, "role": "administrator"}
        ).status_code == 403, role
    srij = User.objects.create_user("srij")
    RegulatorAccount.objects.create(user=srij, jurisdiction="PT")
    assert browser("srij").get("/roles/lisboa/").status_code == 403
    home = browser("gestor").get("/")
    assert b'href="/roles/lisboa/"' in home.content
    assert b'href="/roles/lisboa/"' not in browser("x-cashier").get("/").content
