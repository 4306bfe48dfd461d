"""Roles are events (issue 35, finding 10): granting or removing a casino role is a command with
its event, four-eyed for an administrator's and a cage supervisor's role; the Django admin makes
no superuser and grants no role."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from access.models import RegulatorAccount
from access.roles import role_grant, role_remove
from casino.context import person_metadata, system_metadata
from casino.errors import Conflict, InvalidCommand, NotAllowed
from casino.models import Membership, Role
from casino.services.approvals import approval_grant, approval_request
from casino.services.casinos import casino_register
from eventstore.history import read_stream

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture(autouse=True)
def lisboa() -> None:
    casino_register(code="lisboa", name="Casino Lisboa", currency="EUR",
                    time_zone="Europe/Lisbon", gaming_day_closes_at=6,
                    metadata=system_metadata("lisboa", job="tests"))


def admin_meta(name: str) -> object:
    return person_metadata(username=name, role=Role.ADMINISTRATOR, casino="lisboa")


def test_granting_and_removing_a_cashiers_role_are_events() -> None:
    ana = User.objects.create_user("ana")
    role_grant(user_id=ana.pk, role=Role.CASHIER, metadata=admin_meta("gestor"))
    assert Membership.objects.filter(user=ana, casino_id="lisboa", role="cashier").exists()
    role_remove(user_id=ana.pk, role=Role.CASHIER, metadata=admin_meta("gestor"))

    assert not Membership.objects.filter(user=ana).exists()
    events = [(e.event_type, e.data["user_id"], e.data["role"], e.metadata["actor"])
              for e in read_stream(f"casino_roles/lisboa.{ana.pk}")]
    assert events == [("CasinoRoleGranted", ana.pk, "cashier", "gestor"),
                      ("CasinoRoleRemoved", ana.pk, "cashier", "gestor")]


def test_an_administrators_role_needs_a_second_administrator() -> None:
    rui = User.objects.create_user("rui")
    with pytest.raises(Conflict, match="two administrators"):
        role_grant(user_id=rui.pk, role=Role.ADMINISTRATOR, metadata=admin_meta("gestor"))
    asked = approval_request(kind="role_grant", subject=f"{rui.pk}:administrator",
                             reason="new_post", explanation="the new night manager",
                             metadata=admin_meta("gestor"))
    with pytest.raises(NotAllowed):  # not the one who asked
        approval_grant(approval_id=asked.approval_id, metadata=admin_meta("gestor"))
    assert not Membership.objects.filter(user=rui).exists()

    approval_grant(approval_id=asked.approval_id, metadata=admin_meta("gestora"))

    assert Membership.objects.filter(user=rui, role="administrator").exists()
    (granted,) = read_stream(f"casino_roles/lisboa.{rui.pk}")
    assert granted.data["approval_id"] == asked.approval_id
    assert granted.metadata["actor"] == "gestora"


def test_only_an_administrator_grants_and_never_to_an_inspector() -> None:
    srij = User.objects.create_user("srij")
    RegulatorAccount.objects.create(user=srij, jurisdiction="PT")
    with pytest.raises(InvalidCommand, match="holds no casino role"):
        role_grant(user_id=srij.pk, role=Role.ACCOUNTANT, metadata=admin_meta("gestor"))
    with pytest.raises(NotAllowed):
        role_grant(user_id=User.objects.create_user("ze").pk, role=Role.CASHIER,
                   metadata=person_metadata(username="sup", role=Role.CAGE_SUPERVISOR,
                                            casino="lisboa"))


def test_the_django_admin_makes_no_superuser_and_grants_no_role() -> None:
    """A staff member with every permission on users and memberships, not a superuser."""
    staff = User.objects.create_user("staff", password="x", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(
        content_type__app_label__in=["auth", "casino"]))
    browser = Client()
    browser.force_login(staff)
    form = browser.get(f"/admin/auth/user/{staff.pk}/change/")
    assert form.status_code == 200
    browser.post(f"/admin/auth/user/{staff.pk}/change/", {
        "username": "staff", "is_active": "on", "is_staff": "on", "is_superuser": "on",
        "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"})
    staff.refresh_from_db()
    assert not staff.is_superuser
    assert browser.get("/admin/casino/membership/add/").status_code == 403
    root = User.objects.create_superuser("root", password="x")
    changed = browser.post(f"/admin/auth/user/{root.pk}/change/", {
        "username": "taken-over", "is_active": "on"})
    assert changed.status_code == 403  # shown at most, never changed by a non-superuser
    root.refresh_from_db()
    assert root.username == "root"


def test_a_new_casinos_two_founding_administrators_are_granted_by_the_system_only() -> None:
    """Four eyes need two administrators: nobody is there to approve the first two."""
    from access.roles import role_found

    ana, rui, ze = (User.objects.create_user(n) for n in ("ana", "rui", "ze"))
    with pytest.raises(NotAllowed, match="by the system"):
        role_found(user_id=ana.pk, metadata=admin_meta("gestor"))
    for founder in (ana, rui):
        role_found(user_id=founder.pk, metadata=system_metadata("lisboa", job="tests"))
    with pytest.raises(Conflict, match="its 2 founding administrators"):
        role_found(user_id=ze.pk, metadata=system_metadata("lisboa", job="tests"))

    assert set(Membership.objects.values_list("user__username", "role")) == {
        ("ana", "administrator"), ("rui", "administrator")}
    (granted,) = read_stream(f"casino_roles/lisboa.{ana.pk}")
    assert (granted.data["approval_id"], granted.metadata["actor"]) == ("", "system:tests")


def test_manage_py_role_found_names_what_is_wrong() -> None:
    from io import StringIO

    from django.core.management import CommandError, call_command

    User.objects.create_user("ana")
    with pytest.raises(CommandError, match="no casino 'porto'"):
        call_command("role_found", "porto", "ana")
    with pytest.raises(CommandError, match="no user 'nobody'"):
        call_command("role_found", "lisboa", "nobody")
    out = StringIO()
    call_command("role_found", "lisboa", "ana", stdout=out)
    assert "ana is a founding administrator of lisboa" in out.getvalue()
