from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from casino.access.models import RegulatorAccount
from casino.context import system_metadata
from casino.jurisdictions import Jurisdiction
from casino.models import Casino, ChipSet, Membership, Role
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register

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
    ("igj", [Role.REGULATOR]),
    ("gestor", [Role.ADMINISTRATOR]),
]
DEMO_INSPECTORS = [("igj", Jurisdiction.PORTUGAL), ("dicj", Jurisdiction.MACAU)]


class Command(BaseCommand):
    help = "Create the demo casinos, chip sets and demo logins (idempotent). Development only."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("seed_demo creates well-known demo passwords: DEBUG only")
        with transaction.atomic():
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
            if not User.objects.filter(username="admin").exists():
                User.objects.create_superuser("admin", password="demo-admin")
            for username, roles in DEMO_USERS:
                user = User.objects.filter(username=username).first()
                if user is None:
                    user = User.objects.create_user(username, password=f"demo-{username}")
                for casino_code, *_ in DEMO_CASINOS:
                    for role in roles:
                        Membership.objects.get_or_create(user=user, casino_id=casino_code,
                                                         role=role)
            # the inspectors of the regulator's API: Portugal's (also a manager of its
            # colleagues' accounts) and Macau's; their tokens come from /tokens/
            for username, jurisdiction in DEMO_INSPECTORS:
                user = User.objects.filter(username=username).first()
                if user is None:
                    user = User.objects.create_user(username, password=f"demo-{username}")
                RegulatorAccount.objects.get_or_create(
                    user=user, defaults={"jurisdiction": jurisdiction,
                                         "manages_accounts": username == "igj"})
        names = ", ".join(["admin"] + [u for u, _ in DEMO_USERS] + ["dicj"])
        self.stdout.write(f"Demo logins ({names}): password is 'demo-' + the username, "
                          "e.g. caixa / demo-caixa.")
