"""A small demo gaming day in both demo casinos (Lisbon, in Portugal; Macau), a person in each
role, and an inspector of each jurisdiction, with a token each."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.test import APIClient

from access.models import ApiToken, RegulatorAccount
from casino.models import Membership, Role

API = "/api/regulator/v1"
STAFF_ROLES = (Role.CASHIER, Role.CAGE_SUPERVISOR, Role.PIT_BOSS, Role.ACCOUNTANT,
               Role.ADMINISTRATOR)
REGULATORS = {"srij": "PT", "dicj": "MO"}


@dataclass
class Demo:
    tokens: dict[str, str]  # login -> token
    day: dt.date  # Lisbon's gaming day

    def client(self, login: str | None) -> APIClient:
        client = APIClient()
        if login is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Token {self.tokens[login]}")
        return client


@pytest.fixture(autouse=True)
def quick_passwords(settings: Any) -> None:
    """The tests' people log in with a password hashed quickly (it protects nothing here)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_people() -> dict[str, str]:
    """A user per staff role (a member of both casinos, login = role) and an inspector per
    jurisdiction; each with a token."""
    User = get_user_model()
    tokens = {}
    for role in STAFF_ROLES:
        user = User.objects.create_user(str(role))
        for casino in ("lisboa", "macau"):
            Membership.objects.create(user=user, casino_id=casino, role=role)
        tokens[str(role)] = ApiToken.objects.create(user=user, name="tests", issued_by="t")[1]
    for login, jurisdiction in REGULATORS.items():
        user = User.objects.filter(username=login).first() or User.objects.create_user(login)
        RegulatorAccount.objects.get_or_create(user=user, defaults={"jurisdiction": jurisdiction})
        tokens[login] = ApiToken.objects.create(user=user, name="tests", issued_by="t")[1]
    return tokens


def play_demo_day(rounds: int = 2) -> None:
    """Every Lisbon table and one of Macau's, ``rounds`` rounds each, cage closed."""
    call_command("demo_day", "--tables", "9", "--rounds-per-table", str(rounds), "--seed", "16",
                 stdout=StringIO(), stderr=StringIO())


@pytest.fixture
def casinos() -> None:
    """Lisbon (euros: Portugal) and Macau (patacas: Macau), nothing played."""
    from casino.context import system_metadata
    from casino.services.casinos import casino_register

    casino_register(code="lisboa", name="Casino Lisboa", currency="EUR",
                    time_zone="Europe/Lisbon", gaming_day_closes_at=6,
                    metadata=system_metadata("lisboa", job="tests"))
    casino_register(code="macau", name="Casino Macau", currency="MOP", time_zone="Asia/Macau",
                    gaming_day_closes_at=7, metadata=system_metadata("macau", job="tests"))


def noon_ahead() -> Callable[[], dt.datetime]:
    """A clock that runs from the next noon in Lisbon: the day the demo plays and the day every
    later request resolves are one, whatever time of day the tests run (06:00 ends Lisbon's
    gaming day, 07:00 Macau's; noon is far from both). Never behind the wall clock, so nothing is
    stamped backwards."""
    from zoneinfo import ZoneInfo

    from django.utils import timezone

    wall = timezone.now()
    local = wall.astimezone(ZoneInfo("Europe/Lisbon"))
    noon = local.replace(hour=12, minute=0, second=0, microsecond=0)
    if noon < local:
        noon += dt.timedelta(days=1)
    ahead = noon - local
    return lambda: timezone.now() + ahead


@pytest.fixture
def demo(settings: Any, tmp_path: Any) -> Iterator[Demo]:
    settings.DEBUG = True
    from eventstore.clock import clock_set

    with clock_set(noon_ahead()):
        yield _play(settings, tmp_path)


def _play(settings: Any, tmp_path: Any) -> Demo:
    settings.SEAL_DEV_KEY_DIR = tmp_path / "seal-keys"
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {"regulator": "100000/minute", "anon": "100000/minute",
                                                          "user": "100000/minute"}}
    play_demo_day()
    from reporting.seals import seal_key

    seal_key("lisboa", sealing=True)  # the development key a first seal makes (issue 36)
    from games.models import TableSession

    day = TableSession.objects.filter(casino_id="lisboa").values_list(
        "gaming_day", flat=True).first()
    assert day is not None
    return Demo(make_people(), day)
