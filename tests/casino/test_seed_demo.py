"""``manage.py seed_demo``: every demo login works with its public password, quickly seeded."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.management import call_command
from django.test import RequestFactory

from casino.models import Membership
from casino.selectors import casino_roles

pytestmark = pytest.mark.django_db


def test_every_demo_login_logs_in_with_its_role_and_gets_a_full_hash_on_first_login(
        settings) -> None:
    settings.DEBUG = True
    call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo", stdout=StringIO())  # idempotent
    roles = {(m.user.username, m.casino_id, m.role) for m in Membership.objects.all()}
    expected = {("caixa", "cashier"), ("caixa2", "cashier"), ("supervisor", "cage_supervisor"),
                ("fiscal", "pit_boss"), ("chefe", "pit_boss"), ("contabilista", "accountant"),
                ("gestor", "administrator"), ("gestora", "administrator"),
                ("conformidade", "compliance_officer"), ("conformidade2", "compliance_officer")}
    assert roles == {(u, c, r) for u, r in expected for c in ("lisboa", "macau")} | {
        ("caixa-terminal", "lisboa", "cashier")}  # a terminal, in its casino only
    User = get_user_model()
    assert User.objects.get(username="admin").is_superuser
    assert not User.objects.get(username="gestor").is_staff
    # issue 35: the inspectors hold no casino role; each reads its jurisdiction's casinos and
    # manages its colleagues' accounts (dicj as igj)
    for name, casino in (("igj", "lisboa"), ("dicj", "macau")):
        inspector = User.objects.get(username=name)
        assert inspector.regulator_account.manages_accounts
        assert casino_roles(inspector) == {casino: frozenset({"regulator"})}
    for number, name in enumerate(["admin", "igj", "dicj"] + [u for u, _ in expected]):
        assert User.objects.get(username=name).password.startswith("pbkdf2_sha256$1000$")
        # (django-axes counts logins by request: each is given one)
        # (one address each: five wrong passwords from one address lock it, issue 35)
        request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=f"10.0.0.{number}")
        assert authenticate(request, username=name, password=f"demo-{name}") is not None, name
        assert authenticate(request, username=name, password="wrong") is None
    # the second factor's known demo secret, for each role that needs one (issue 35)
    from django_otp.plugins.otp_totp.models import TOTPDevice

    assert set(TOTPDevice.objects.filter(
        confirmed=True, key="3132333435363738393031323334353637383930").values_list(
        "user__username", flat=True)) == {"admin", "igj", "dicj", "supervisor", "contabilista",
                                          "gestor", "gestora", "conformidade", "conformidade2"}
    # issue 35: every role granted through access.roles, as events: the two founding
    # administrators by the system, the cage supervisor's asked by gestor and approved by
    # gestora, the others by gestor; once each (the second seed granted nothing again)
    from eventstore.history import read_stream

    for casino in ("lisboa", "macau"):
        granted = {}
        for username, role in expected:
            (event,) = read_stream(
                f"casino_roles/{casino}.{User.objects.get(username=username).pk}")
            assert (event.event_type, event.data["role"]) == ("CasinoRoleGranted", role)
            granted[username] = (event.metadata["actor"], bool(event.data["approval_id"]))
        assert granted.pop("gestor") == granted.pop("gestora") == ("system:seed_demo", False)
        assert granted.pop("supervisor") == ("gestora", True)
        assert set(granted.values()) == {("gestor", False)}
    device = User.objects.get(username="caixa-terminal")
    assert device.terminal_account.casino_id == "lisboa"
    (event,) = read_stream(f"casino_roles/lisboa.{device.pk}")
    assert (event.data["role"], event.metadata["actor"]) == ("cashier", "gestor")
    upgraded = User.objects.get(username="caixa").password
    assert upgraded.startswith(f"pbkdf2_sha256${PBKDF2PasswordHasher.iterations}$")
