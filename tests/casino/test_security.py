"""Production by default (issue 18, item 6): the deploy check clean, DEBUG off unless asked for,
a SECRET_KEY required, CSP, HSTS and cookies, login lockout (logged), API throttling, and no
password reset where mail cannot be sent."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import UserRateThrottle

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick_passwords(settings: Any) -> None:
    """A fast hasher: the lockout tries a dozen passwords (production's takes a second each
    on this machine); what is tested is the counting, not the hashing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def production_env(**more: str) -> dict[str, str]:
    """The environment of a production server: none of the tests' allowances."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DEBUG", "SECRET_KEY", "SECURE_SSL_REDIRECT", "SECURE_COOKIES")}
    return env | more


def test_manage_py_check_deploy_is_clean_with_the_production_settings() -> None:
    env = production_env(SECRET_KEY="k" * 24 + "-production-like-" + "z" * 24,
                         ALLOWED_HOSTS="casino.example")
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level",
                           "DEBUG"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_debug_is_off_unless_asked_for_and_then_a_secret_key_is_required() -> None:
    probe = "from django.conf import settings; print(settings.DEBUG)"
    env = production_env(DJANGO_SETTINGS_MODULE="config.settings")
    refused = subprocess.run([sys.executable, "-c", "import django; django.setup(); " + probe],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in refused.stderr
    asked = subprocess.run([sys.executable, "-c", "import django; django.setup(); " + probe],
                           cwd=ROOT, env=env | {"DEBUG": "1"}, capture_output=True, text=True,
                           timeout=60)
    assert asked.stdout.strip() == "True", asked.stderr


def test_pages_carry_csp_hsts_and_secure_http_only_same_site_cookies() -> None:
    client = Client()
    page = client.get("/accounts/login/", secure=True)
    assert page.status_code == 200
    policy = page["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert page["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    csrf = page.cookies["csrftoken"]
    assert csrf["secure"] is True
    assert csrf["httponly"] is True
    assert csrf["samesite"] == "Lax"
    User.objects.create_user("ana", password="right-horse-battery")
    logged = client.post("/accounts/login/", {"username": "ana",
                                              "password": "right-horse-battery"}, secure=True)
    assert logged.status_code == 302
    session = logged.cookies["sessionid"]
    assert (session["secure"], session["httponly"], session["samesite"]) == (True, True, "Lax")


@pytest.mark.parametrize("login", ["/accounts/login/", "/admin/login/"])
def test_five_wrong_passwords_lock_the_login_out_the_right_one_included_and_it_is_logged(
        login: str, caplog: pytest.LogCaptureFixture) -> None:
    User.objects.create_user("ana", password="right-horse-battery", is_staff=True)
    client = Client()
    for _ in range(5):
        wrong = client.post(login, {"username": "ana", "password": "guess"})
        assert wrong.status_code in (200, 429)
    with caplog.at_level(logging.WARNING, logger="casino.security"):
        right = client.post(login, {"username": "ana", "password": "right-horse-battery"})
    assert right.status_code == 429
    assert "_auth_user_id" not in client.session
    assert any("login locked out: user 'ana'" in r.getMessage() for r in caplog.records)
    # the address is locked out across user names too (issue 35: password spraying); another
    # machine is not
    User.objects.create_user("bruno", password="other-horse-battery", is_staff=True)
    assert Client().post(login, {"username": "bruno", "password": "other-horse-battery"}
                         ).status_code == 429
    assert Client(REMOTE_ADDR="10.0.0.2").post(
        login, {"username": "bruno", "password": "other-horse-battery"}).status_code == 302


def test_the_api_throttles_a_user_with_a_429_in_the_error_shape_and_retry_after() -> None:
    api = APIClient()
    api.force_authenticate(User.objects.create_user("ines", password="x"))
    cache.clear()  # the throttle counts in the cache
    with mock.patch.object(UserRateThrottle, "rate", "3/min", create=True):
        answers = [api.get("/api/v1/casinos/") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[3].json()["error"]["code"] == "throttled"
    assert int(answers[3]["Retry-After"]) > 0


def test_no_password_reset_is_offered_without_mail() -> None:
    assert Client().get("/accounts/password_reset/").status_code == 404
    assert b"password_reset" not in Client().get("/admin/login/").content
