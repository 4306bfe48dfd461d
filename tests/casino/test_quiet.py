"""Issue 36, item 10: quiet operation. An ordinary 403 is one line on the console, without a
traceback; opening the seals page makes no seal key (one is made by the first seal only)."""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.test import Client

from casino.context import system_metadata
from casino.models import Membership, Role
from casino.services.casinos import casino_register
from config.log_filters import OrdinaryRefusal

pytestmark = pytest.mark.django_db


def _casino() -> None:
    casino_register(code="lisboa", name="Casino lisboa", currency="EUR",
                    time_zone="Europe/Lisbon", gaming_day_closes_at=6,
                    metadata=system_metadata("lisboa", job="test"))


def _client(username: str, role: str) -> Client:
    user = User.objects.create_user(username)
    Membership.objects.create(user=user, casino_id="lisboa", role=role)
    client = Client()
    client.force_login(user)
    return client


def test_an_ordinary_403_is_one_line_without_a_traceback() -> None:
    # the console handler of the settings carries the filter; Django's records reach it once
    assert django_settings.LOGGING["handlers"]["console"]["filters"] == ["ordinary_refusal"]
    assert django_settings.LOGGING["loggers"]["django"]["handlers"] == []
    _casino()
    console = io.StringIO()
    handler = logging.StreamHandler(console)
    handler.addFilter(OrdinaryRefusal())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        answer = _client("ana", Role.CASHIER).get("/compliance/lisboa/alerts/")
    finally:
        logger.removeHandler(handler)
    assert answer.status_code == 403
    assert console.getvalue() == "Forbidden (Permission denied): /compliance/lisboa/alerts/\n"


def test_a_regulator_opening_the_seals_page_makes_no_seal_key(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, settings: Any) -> None:
    monkeypatch.delenv("CASINO_SEAL_KEY_LISBOA", raising=False)
    monkeypatch.delenv("CASINO_SEAL_KEY_LISBOA_FILE", raising=False)
    settings.DEBUG = True
    settings.SEAL_DEV_KEY_DIR = tmp_path / "keys"
    _casino()
    regulator = _client("rita", Role.REGULATOR)
    page = regulator.get("/seals/lisboa/")
    assert page.status_code == 200
    assert "has no seal key yet" in page.content.decode()
    assert regulator.get("/seals/lisboa/key.pem").status_code == 409
    assert not (tmp_path / "keys").exists()
