"""The database out of reach (issue 18, item 3): a 503 in the one error shape with Retry-After,
never Django's HTML 500, wherever the failure comes from (an API view, the token look-up, the
session a web page reads). The real outage, PostgreSQL restarted under recording, is
``bench/faults.py pg-restart`` (docs/reliability.md)."""

from __future__ import annotations

import datetime as dt
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import InterfaceError, OperationalError
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

GONE = OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection '
                        "refused")


def unavailable(response: Any) -> dict[str, Any]:
    assert response.status_code == 503, response.content[:300]
    assert response["Retry-After"] == "5"
    assert response["Content-Type"] == "application/json"
    error = response.json()["error"]
    assert error["code"] == "unavailable"
    assert error["extra"] == {"retryable": True}
    assert "nothing of yours was recorded" in error["message"]
    return dict(error)


def test_an_api_read_while_the_database_is_down_is_a_503_json() -> None:
    api = APIClient()
    api.force_authenticate(User.objects.create_user("ines", password="x"))
    with mock.patch("shell.api.views.casino_list_for", side_effect=GONE):
        unavailable(api.get("/api/v1/casinos/"))
    with mock.patch("shell.api.views.casino_list_for",
                    side_effect=InterfaceError("connection already closed")):
        unavailable(api.get("/api/v1/casinos/"))


def test_the_token_look_up_failing_is_a_503_json() -> None:
    from access.models import ApiToken

    _, plain = ApiToken.objects.create(user=User.objects.create_user("ines", password="x"),
                                       expiry=dt.timedelta(days=1))
    api = APIClient(HTTP_AUTHORIZATION=f"Token {plain}")
    with mock.patch("access.authentication.TokenAuthentication.authenticate_credentials",
                    side_effect=GONE):
        unavailable(api.get("/api/v1/casinos/"))


def test_a_failure_outside_drf_is_a_503_too_json_under_the_api_and_text_on_pages() -> None:
    user = User.objects.create_user("ana", password="x")
    client = Client(raise_request_exception=False)
    client.force_login(user)
    with mock.patch("django.contrib.sessions.backends.db.SessionStore.load", side_effect=GONE):
        page = client.get("/")
        assert page.status_code == 503
        assert page["Retry-After"] == "5"
        assert b"Try again in a few seconds" in page.content
        assert b"Traceback" not in page.content
        unavailable(client.get("/api/v1/casinos/"))


def test_any_other_server_error_under_the_api_is_json_never_html() -> None:
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(User.objects.create_user("ines", password="x"))
    with mock.patch("shell.api.views.casino_list_for", side_effect=ZeroDivisionError):
        answer = api.get("/api/v1/casinos/")
    assert answer.status_code == 500
    assert answer["Content-Type"] == "application/json"
    assert answer.json()["error"]["code"] == "server_error"


def test_connections_are_checked_before_use() -> None:
    """A worker's first request after a database restart used to fail on the stale connection."""
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
