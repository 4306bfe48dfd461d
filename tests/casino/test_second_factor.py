"""ASVS level 2 for people (issue 35, finding 9): passwords of at least 12 characters, checked
against common passwords and the user's own name; a second factor (TOTP) for administrators,
supervisors, accountants, compliance officers and regulators, and on issuing a token; idle and
absolute session limits; a lockout of one address across user names."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.test import Client
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from access.models import ApiToken, RegulatorAccount
from casino.context import system_metadata
from casino.models import Membership, Role
from casino.services.casinos import casino_register

pytestmark = pytest.mark.django_db
PASSWORD = "a long enough cage password"


@pytest.fixture(autouse=True)
def enforced(settings: Any) -> None:
    settings.SECOND_FACTOR_ENFORCED = True
    # django-otp makes each try after a wrong code wait (1 s, doubling): not between these
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    casino_register(code="lisboa", name="Casino Lisboa", currency="EUR",
                    time_zone="Europe/Lisbon", gaming_day_closes_at=6,
                    metadata=system_metadata("lisboa", job="tests"))


def person(username: str, role: str | None) -> Any:
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    if role is not None:
        Membership.objects.create(user=user, casino_id="lisboa", role=role)
    return user


def logged_in(username: str) -> Client:
    client = Client()
    answer = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert answer.status_code == 302
    return client


def code_of(device: TOTPDevice) -> str:
    """The device's current code, as an authenticator app computes it (RFC 6238)."""
    return f"{totp(device.bin_key, step=device.step, t0=device.t0, digits=device.digits):06d}"


def test_a_password_of_eight_characters_or_like_the_name_is_refused() -> None:
    user = get_user_model()(username="pitA")
    for weak in ("pitapita", "password1234", "123456789012"):  # short, common, numeric
        with pytest.raises(ValidationError):
            validate_password(weak, user)
    with pytest.raises(ValidationError, match="too similar"):
        validate_password("caixalisboa2026", get_user_model()(username="caixalisboa"))
    validate_password("vault keys under the pit", user)  # 24 characters, none of the above


@pytest.mark.parametrize("role", [Role.ADMINISTRATOR, Role.CAGE_SUPERVISOR, Role.ACCOUNTANT,
                                  Role.COMPLIANCE_OFFICER, "inspector"])
def test_a_role_that_needs_a_second_factor_enrols_one_then_is_let_in(role: str) -> None:
    if role == "inspector":
        RegulatorAccount.objects.create(user=person("srij", None), jurisdiction="PT")
        username = "srij"
    else:
        username = f"p-{role}"
        person(username, role)
    client = logged_in(username)

    home = client.get("/")
    assert home.status_code == 302
    assert home["Location"].startswith("/accounts/second-factor/")
    page = client.get(home["Location"])
    assert page.status_code == 200
    assert b"<svg" in page.content
    assert b"otpauth://totp/" in page.content
    device = TOTPDevice.objects.get(user__username=username)
    assert not device.confirmed
    assert client.post("/accounts/second-factor/", {"otp": "000000"}).status_code == 400
    verified = client.post("/accounts/second-factor/", {"otp": code_of(device), "next": "/"})

    assert verified.status_code == 302
    assert client.get("/").status_code == 200
    device.refresh_from_db()
    assert device.confirmed
    # a session-authenticated API call before verification would be a 403: after it, not
    assert client.get("/api/v1/").status_code == 200


def test_a_cashier_and_a_pit_boss_are_not_asked_for_one() -> None:
    person("caixa", Role.CASHIER)
    assert logged_in("caixa").get("/").status_code == 200


def test_an_enrolled_person_is_asked_for_a_code_at_each_login() -> None:
    user = person("gestor", Role.ADMINISTRATOR)
    device = TOTPDevice.objects.create(user=user, name="app", confirmed=True)
    client = logged_in("gestor")
    assert client.get("/ledger/").status_code == 302
    assert client.post("/accounts/second-factor/", {"otp": "123"}).status_code == 400
    assert client.post("/accounts/second-factor/", {"otp": code_of(device)}).status_code == 302
    assert client.get("/").status_code == 200


def test_issuing_a_token_asks_a_fresh_code_of_a_person_with_a_device() -> None:
    user = person("contabilista", Role.ACCOUNTANT)
    device = TOTPDevice.objects.create(user=user, name="app", confirmed=True)
    client = Client()
    client.force_login(user)
    session = client.session
    session["otp_device_id"] = device.persistent_id
    session.save()
    form = {"holder": "contabilista", "name": "exports", "days": "30", "password": PASSWORD}

    assert client.post("/tokens/", form).status_code == 400  # no code
    assert client.post("/tokens/", {**form, "otp": "000000"}).status_code == 400
    assert client.post("/tokens/", {**form, "otp": code_of(device)}).status_code == 200
    assert ApiToken.objects.filter(user=user).count() == 1


def test_an_idle_session_and_one_past_its_absolute_limit_end(settings: Any) -> None:
    person("caixa", Role.CASHIER)
    client = logged_in("caixa")
    assert client.get("/").status_code == 200
    settings.SESSION_IDLE_SECONDS = -1  # idle for longer than that
    ended = client.get("/")
    assert ended.status_code == 302
    assert ended["Location"].startswith("/accounts/login/")
    assert client.get("/").status_code == 302  # logged out

    settings.SESSION_IDLE_SECONDS = 1200
    client = logged_in("caixa")
    settings.SESSION_ABSOLUTE_SECONDS = -1
    assert client.get("/")["Location"].startswith("/accounts/login/")


def test_five_wrong_passwords_across_user_names_lock_the_address_out() -> None:
    """Password spraying: one wrong password for each of five names from one address."""
    for name in ("ana", "bea", "caio", "dora", "eva", "fabio"):
        person(name, Role.CASHIER)
    client = Client()
    for name in ("ana", "bea", "caio", "dora"):
        assert client.post("/accounts/login/", {"username": name,
                                                "password": "guess"}).status_code == 200
    assert client.post("/accounts/login/", {"username": "eva",
                                            "password": "guess"}).status_code == 429
    locked = client.post("/accounts/login/", {"username": "fabio", "password": PASSWORD})
    assert locked.status_code == 429  # the right password of a sixth name, refused
