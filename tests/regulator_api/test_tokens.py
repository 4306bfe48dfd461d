"""The one token model (knox, ``access.ApiToken``) as people use it: issued from the web admin
(``/tokens/``), shown once, stored as a digest, expiring, revoked by its owner or its issuer
and by a password change; every regulator request in the access log."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from access.models import AccessLogEntry, ApiToken, RegulatorAccount
from casino.models import Membership, Role

from .conftest import API, Demo, make_people

pytestmark = pytest.mark.django_db


def person(username: str, **roles: str) -> Client:
    """A logged-in browser of a new user with ``casino=role`` memberships."""
    user = get_user_model().objects.create_user(username, password="x")
    for casino, role in roles.items():
        Membership.objects.create(user=user, casino_id=casino, role=role)
    browser = Client()
    browser.force_login(user)
    return browser


def inspector(username: str, jurisdiction: str, *, manager: bool = False) -> Client:
    user = get_user_model().objects.create_user(username, password="x")
    RegulatorAccount.objects.create(user=user, jurisdiction=jurisdiction,
                                    manages_accounts=manager)
    browser = Client()
    browser.force_login(user)
    return browser


def issue(browser: Client, holder: str, *, days: str = "30",
          password: str = "x") -> tuple[int, str]:
    """The issuer confirms their password ("x", every person's here) with the form."""
    response = browser.post("/tokens/", {"holder": holder, "name": "inspection 2026",
                                         "days": days, "password": password})
    text = response.content.decode()
    token = text.split("<pre data-token>")[1].split("</pre>")[0] if "data-token>" in text else ""
    return response.status_code, token


def test_portugals_account_manager_issues_a_token_to_an_inspector_shown_once_stored_hashed(
        casinos: None) -> None:
    manager = inspector("chefe-srij", "PT", manager=True)
    inspector("srij", "PT")

    status, token = issue(manager, "srij")

    assert status == 200
    assert len(token) == 64
    stored = ApiToken.objects.get(user__username="srij")
    assert (stored.name, stored.issued_by) == ("inspection 2026", "chefe-srij")
    assert token not in (stored.digest, stored.token_key)
    assert token.startswith(stored.token_key)
    assert stored.expiry is not None
    assert dt.timedelta(days=29, hours=23) < stored.expiry - timezone.now() <= dt.timedelta(days=30)
    # the list shows its first characters only, never the token again
    page = manager.get("/tokens/").content.decode()
    assert stored.token_key in page
    assert token not in page
    client_answer = Client().get(f"{API}/casinos/", HTTP_AUTHORIZATION=f"Token {token}")
    assert [c["code"] for c in client_answer.json()] == ["lisboa"]


def test_no_casino_administrator_nor_superuser_issues_an_inspectors_token(casinos: None) -> None:
    """Issue 35, finding 1: Lisbon's administrator minted Portugal's inspector a token and read
    every Portuguese casino with it."""
    admin = person("gestor", lisboa=Role.ADMINISTRATOR)
    other = person("gestor-macau", macau=Role.ADMINISTRATOR)
    root = get_user_model().objects.create_superuser("root", password="x")
    superuser = Client()
    superuser.force_login(root)
    inspector("srij", "PT")

    assert issue(admin, "srij") == (400, "")
    assert issue(other, "srij") == (400, "")
    assert issue(superuser, "srij") == (400, "")
    assert not ApiToken.objects.filter(user__username="srij").exists()
    assert "srij" not in admin.get("/tokens/").content.decode()  # not offered either


def test_an_inspector_issues_themself_a_token_only_with_their_password(casinos: None) -> None:
    """Issue 35, finding 2: Macau's inspector could not issue itself a token."""
    dicj = inspector("dicj", "MO")

    assert issue(dicj, "dicj", password="") == (400, "")
    assert issue(dicj, "dicj", password="wrong") == (400, "")
    status, token = issue(dicj, "dicj")

    assert status == 200
    answer = Client().get(f"{API}/casinos/", HTTP_AUTHORIZATION=f"Token {token}")
    assert [c["code"] for c in answer.json()] == ["macau"]


def test_the_account_manager_issues_to_a_colleague_of_its_jurisdiction_only(
        casinos: None) -> None:
    manager = inspector("chefe-srij", "PT", manager=True)
    colleague = inspector("srij", "PT")
    inspector("dicj", "MO")

    assert issue(manager, "srij")[0] == 200
    assert issue(manager, "dicj") == (400, "")  # another jurisdiction's
    assert issue(colleague, "chefe-srij") == (400, "")  # not a manager
    assert ApiToken.objects.filter(user__username="srij").count() == 1


def test_a_token_lives_at_most_30_days_for_an_inspector_and_90_for_staff(
        casinos: None) -> None:
    me = person("fiscal", lisboa=Role.PIT_BOSS)
    srij = inspector("srij", "PT")

    assert issue(me, "fiscal", days="0") == (400, "")
    assert issue(me, "fiscal", days="91") == (400, "")
    assert issue(me, "fiscal", days="90")[0] == 200
    assert issue(srij, "srij", days="31") == (400, "")
    assert issue(srij, "srij", days="30")[0] == 200


def test_a_terminals_token_lives_a_week_at_most_a_longer_one_is_a_400_naming_why(
        casinos: None) -> None:
    """A terminal (a cage window's service user) is not a person: its token lives 7 days at
    most, issued by a superuser; 8 days is refused with the reason, nothing issued."""
    from access.models import TerminalAccount

    device = get_user_model().objects.create_user("caixa-terminal", password="x")
    TerminalAccount.objects.create(user=device, casino_id="lisboa",
                                   description="the main cage's window 1")
    Membership.objects.create(user=device, casino_id="lisboa", role=Role.CASHIER)
    root = Client()
    root.force_login(get_user_model().objects.create_superuser("root", password="x"))
    assert b'value="caixa-terminal"' in root.get("/tokens/").content

    refused = root.post("/tokens/", {"holder": "caixa-terminal", "name": "window 1",
                                     "days": "8", "password": "x"})

    assert refused.status_code == 400
    assert ("a terminal&#x27;s token is valid from 1 to 7 days: caixa-terminal is a terminal"
            in refused.content.decode())
    assert not ApiToken.objects.filter(user=device).exists()
    status, token = issue(root, "caixa-terminal", days="7")
    assert status == 200
    (issued,) = ApiToken.objects.filter(user=device)
    left = issued.expiry - timezone.now()
    assert dt.timedelta(days=7) - dt.timedelta(minutes=1) < left <= dt.timedelta(days=7)
    answer = Client().get("/api/v1/casinos/", HTTP_AUTHORIZATION=f"Token {token}")
    assert answer.status_code == 200
    assert [c["code"] for c in answer.json()] == ["lisboa"]
    # in pt-PT too
    root.cookies["django_language"] = "pt-pt"
    refused = root.post("/tokens/", {"holder": "caixa-terminal", "name": "window 1",
                                     "days": "30", "password": "x"})
    assert refused.status_code == 400
    assert "válido de 1 a 7 dias" in refused.content.decode()


def test_an_expired_token_is_refused(casinos: None) -> None:
    tokens = make_people()
    ApiToken.objects.filter(user__username__in=["srij", "pit_boss"]).update(
        expiry=timezone.now() - dt.timedelta(seconds=1))

    regulator = Client().get(f"{API}/casinos/", HTTP_AUTHORIZATION=f"Token {tokens['srij']}")
    staff = Client().get("/api/v1/pit/tables/?casino=lisboa", HTTP_AUTHORIZATION=f"Token {tokens['pit_boss']}")

    assert (regulator.status_code, staff.status_code) == (401, 401)
    assert regulator.json()["error"]["message"] == "Invalid token."


def test_a_revoked_token_is_refused_and_a_staff_member_revokes_their_own(casinos: None) -> None:
    me = person("fiscal", lisboa=Role.PIT_BOSS)
    _, token = issue(me, "fiscal")
    key = ApiToken.objects.get(user__username="fiscal").token_key
    stranger = person("outro", lisboa=Role.PIT_BOSS)

    assert stranger.post("/tokens/", {"revoke": key}).status_code == 400  # not theirs
    assert Client().get("/api/v1/pit/tables/?casino=lisboa",
                        HTTP_AUTHORIZATION=f"Token {token}").status_code == 200
    assert me.post("/tokens/", {"revoke": key}).status_code == 302

    answer = Client().get("/api/v1/pit/tables/?casino=lisboa", HTTP_AUTHORIZATION=f"Token {token}")
    assert answer.status_code == 401
    assert not ApiToken.objects.filter(token_key=key).exists()


def test_a_password_change_revokes_every_token_of_the_user(casinos: None) -> None:
    tokens = make_people()
    user = get_user_model().objects.get(username="cashier")
    user.set_password("a new one, long enough")
    user.save()

    answer = Client().get("/api/v1/cage/lisboa/cages/",
                          HTTP_AUTHORIZATION=f"Token {tokens['cashier']}")

    assert answer.status_code == 401
    assert not ApiToken.objects.filter(user=user).exists()
    assert ApiToken.objects.filter(user__username="pit_boss").exists()  # others keep theirs
    user.last_login = timezone.now()
    user.save(update_fields=["last_login"])  # a login is no password change


def test_every_regulator_request_is_in_the_access_log_that_the_regulator_reads(
        casinos: None) -> None:
    demo = Demo(make_people(), dt.date(2026, 1, 1))
    srij = demo.client("srij")
    srij.get(f"{API}/casinos/")
    srij.get(f"{API}/casinos/macau/")  # Macau is not Portugal's: not found
    srij.get(f"{API}/casinos/lisboa/events/?page_size=2&colour=red")  # an unknown filter
    srij.post(f"{API}/casinos/")  # a write: refused
    demo.client("dicj").get(f"{API}/casinos/")

    answer = srij.get(f"{API}/access-log/")

    assert answer.status_code == 200
    logged = [(e["username"], e["method"], e["path"], e["query"], e["status"], e["rows"])
              for e in answer.json()["results"]]
    assert logged == [  # newest first; Macau's inspector's request is not Portugal's to read
        ("srij", "POST", f"{API}/casinos/", "", 405, None),
        ("srij", "GET", f"{API}/casinos/lisboa/events/", "page_size=2&colour=red", 400, None),
        ("srij", "GET", f"{API}/casinos/macau/", "", 404, None),
        ("srij", "GET", f"{API}/casinos/", "", 200, 1),
    ]
    key = ApiToken.objects.get(user__username="srij").token_key
    assert set(AccessLogEntry.objects.filter(username="srij").values_list(
        "token_key", flat=True)) == {key}
    assert AccessLogEntry.objects.filter(username="dicj").count() == 1


def test_a_password_hash_upgrade_at_login_keeps_the_tokens(casinos: None, settings: Any) -> None:
    """Issue 35, finding 6: Django's hash upgrade at login counted as a password change."""
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    user = get_user_model().objects.create_user("terminal-7")
    # an old hash: 1,000 iterations, raised to the hasher's count at the next login
    user.password = PBKDF2PasswordHasher().encode("a long terminal password", "s" * 22, 1000)
    user.save()
    ApiToken.objects.create(user=user, name="tablet", issued_by="t")

    logged = Client().post("/accounts/login/", {"username": "terminal-7",
                                                "password": "a long terminal password"})
    assert logged.status_code == 302

    user.refresh_from_db()
    assert user.password.startswith(f"pbkdf2_sha256${PBKDF2PasswordHasher.iterations}$")
    assert ApiToken.objects.filter(user=user).count() == 1
    user.set_unusable_password()
    user.save()
    assert not ApiToken.objects.filter(user=user).exists()  # made unusable: revoked
