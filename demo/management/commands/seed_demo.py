from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher, get_hasher, make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from access.models import RegulatorAccount, TerminalAccount
from access.roles import FOUR_EYES_ROLES, ROLE_GRANT, role_found, role_grant
from access.second_factor import (
    DEMO_TOTP_SECRET,
    confirmed_device,
    demo_device,
    needs_second_factor,
)
from casino.context import person_metadata, system_metadata
from casino.jurisdictions import Jurisdiction
from casino.models import Casino, ChipSet, Membership, Role
from casino.services.approvals import approval_grant, approval_request
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from eventstore.clock import clock_set

DEMO_CASINOS = [
    # code, name, currency, time zone, gaming day closes at, chip denominations
    ("lisboa", "Casino Lisboa (demo)", "EUR", "Europe/Lisbon", 6,
     ["5000", "1000", "500", "100", "25", "5", "2.50", "1"]),
    ("macau", "Casino Macau (demo)", "MOP", "Asia/Macau", 7,
     ["10000", "5000", "1000", "500", "100", "50", "20", "10"]),
]
# username, roles: demo accounts only (password = "demo-" + username).
DEMO_USERS = [
    ("caixa", [Role.CASHIER]),
    ("caixa2", [Role.CASHIER]),
    ("supervisor", [Role.CAGE_SUPERVISOR]),
    ("fiscal", [Role.PIT_BOSS]),
    ("chefe", [Role.PIT_BOSS]),
    ("contabilista", [Role.ACCOUNTANT]),
    # two: a casino's founding administrators (access.roles.role_found), so that one asks for a
    # cage supervisor's role and the other approves it
    ("gestor", [Role.ADMINISTRATOR]),
    ("gestora", [Role.ADMINISTRATOR]),
    # two, so that one drafts a suspicious-transaction report and the other reviews it
    ("conformidade", [Role.COMPLIANCE_OFFICER]),
    ("conformidade2", [Role.COMPLIANCE_OFFICER]),
]
# a terminal's service user (access.TerminalAccount): the main cage's window in Lisbon, a
# cashier there; its API tokens live a week at most (admin issues them on /tokens/)
DEMO_TERMINALS = [("caixa-terminal", "lisboa", "the main cage's window 1", Role.CASHIER)]
DEMO_INSPECTORS = [("igj", Jurisdiction.PORTUGAL), ("dicj", Jurisdiction.MACAU)]


def _hash_passwords(usernames: list[str]) -> dict[str, str]:
    """Each demo login's password hash ('demo-' + name). Those passwords are public and this
    command runs with DEBUG only, so their hashes take few PBKDF2 iterations: seeding costs
    milliseconds, not a second a login. Django raises a hash to the full count at its first
    login (the hasher's ``must_update``)."""
    try:
        hasher = get_hasher("pbkdf2_sha256")
    except ValueError:
        hasher = None
    if not isinstance(hasher, PBKDF2PasswordHasher):  # not configured: the default, full cost
        return {u: make_password(f"demo-{u}") for u in usernames}
    return {u: hasher.encode(f"demo-{u}", hasher.salt(), iterations=1000) for u in usernames}


def _grant_roles(casino: str) -> None:
    """Each demo login's roles in ``casino``, as a real casino's are granted (issue 35): the two
    founding administrators by the system, every other role by ``gestor`` (``role_grant``), the
    cage supervisor's asked for by ``gestor`` and approved by ``gestora``. A role held already
    is left as it is (the seed runs again)."""
    User = get_user_model()
    founders = [u for u, roles in DEMO_USERS if Role.ADMINISTRATOR in roles]
    asker, approver = (person_metadata(username=name, role=Role.ADMINISTRATOR, casino=casino)
                       for name in founders[:2])
    for username, roles in sorted(DEMO_USERS, key=lambda entry: entry[0] not in founders):
        user = User.objects.get(username=username)
        for role in roles:
            if Membership.objects.filter(user=user, casino_id=casino, role=role).exists():
                continue
            if username in founders:
                role_found(user_id=user.pk, metadata=system_metadata(casino, job="seed_demo"))
            elif role in FOUR_EYES_ROLES:
                asked = approval_request(
                    kind=ROLE_GRANT.name, subject=f"{user.pk}:{role}", reason="new_post",
                    explanation="the demo's cage supervisor", metadata=asker)
                approval_grant(approval_id=asked.approval_id, metadata=approver)
            else:
                role_grant(user_id=user.pk, role=role, metadata=asker)


SET_UP_BEFORE = dt.timedelta(days=4)  # before the three demo days (demo.days)


class Command(BaseCommand):
    help = "Create the demo casinos, chip sets and demo logins (idempotent). Development only."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("seed_demo creates well-known demo passwords: DEBUG only")
        # The demo's casinos were set up before the first gaming day the demo plays (the day
        # before yesterday): a casino's recorded_at never goes back within its chain, so
        # events stamped now would hold every later event of a past day at now.
        with clock_set(lambda: timezone.now() - SET_UP_BEFORE), transaction.atomic():
            for code, name, currency, tz, hour, chips in DEMO_CASINOS:
                if not Casino.objects.filter(code=code).exists():
                    casino_register(code=code, name=name, currency=currency, time_zone=tz,
                                    gaming_day_closes_at=hour,
                                    metadata=system_metadata(code, job="seed_demo"))
                if not ChipSet.objects.filter(casino_id=code, code="main").exists():
                    chip_set_register(casino=code, code="main", name="Value chips",
                                      denominations=chips,
                                      metadata=system_metadata(code, job="seed_demo"))
            User = get_user_model()
            existing = set(User.objects.filter(username__in=["admin"] + [u for u, _ in DEMO_USERS])
                           .values_list("username", flat=True))
            hashed = _hash_passwords([u for u, _ in [("admin", []), *DEMO_USERS]
                                      if u not in existing])
            if "admin" in hashed:
                User.objects.create(username="admin", password=hashed["admin"], is_staff=True,
                                    is_superuser=True)
            for username, _roles in DEMO_USERS:
                if not User.objects.filter(username=username).exists():
                    User.objects.create(username=username, password=hashed[username])
            for casino_code, *_ in DEMO_CASINOS:
                _grant_roles(casino_code)
            for username, casino_code, description, role in DEMO_TERMINALS:
                device = User.objects.filter(username=username).first()
                if device is None:
                    device = User.objects.create(
                        username=username, password=_hash_passwords([username])[username])
                TerminalAccount.objects.update_or_create(
                    user=device, defaults={"casino_id": casino_code, "description": description})
                if not Membership.objects.filter(user=device, casino_id=casino_code,
                                                 role=role).exists():
                    role_grant(user_id=device.pk, role=role, metadata=person_metadata(
                        username="gestor", role=Role.ADMINISTRATOR, casino=casino_code))
            # the regulators' inspectors, Portugal's and Macau's, each also the manager of its
            # colleagues' accounts: they read their jurisdiction's casinos, web and API alike,
            # and hold no casino role (casino.selectors.casino_roles); tokens from /tokens/
            for username, jurisdiction in DEMO_INSPECTORS:
                user = User.objects.filter(username=username).first()
                if user is None:
                    user = User.objects.create(username=username,
                                               password=_hash_passwords([username])[username])
                Membership.objects.filter(user=user).delete()  # a demo seeded before issue 35
                RegulatorAccount.objects.update_or_create(
                    user=user, defaults={"jurisdiction": jurisdiction,
                                         "manages_accounts": True})
            # the demo's second factor: one known TOTP secret for everyone whose role asks one
            # (access.second_factor; README, Demo logins)
            for user in User.objects.filter(username__in=["admin", "igj", "dicj"] + [
                    u for u, _ in DEMO_USERS]):
                if needs_second_factor(user) and confirmed_device(user) is None:
                    demo_device(user)
        names = ", ".join(["admin"] + [u for u, _ in DEMO_USERS] + ["igj", "dicj"]
                          + [u for u, *_ in DEMO_TERMINALS])
        self.stdout.write(f"Demo logins ({names}): password is 'demo-' + the username, "
                          "e.g. caixa / demo-caixa.")
        self.stdout.write(f"Second factor (admin, supervisor, contabilista, gestor, gestora, "
                          "conformidade, "
                          f"conformidade2, igj, dicj): TOTP secret {DEMO_TOTP_SECRET} in an "
                          "authenticator app, or: python3 dev.py totp")
