"""The error pages say what happened and what to do, in the person's language."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error


def test_the_500_page_says_nothing_was_half_recorded_and_what_to_do() -> None:
    with translation.override("pt-pt"):
        page = server_error(RequestFactory().get("/"))
    assert page.status_code == 500
    body = page.content.decode()
    assert "Nada do que enviou ficou registado a meio" in body
    assert 'href="/"' in body


@pytest.mark.django_db
def test_the_403_and_404_pages_lead_back_home() -> None:
    user = User.objects.create_user(username="rita", password="x")
    client = Client()
    client.force_login(user)
    missing = client.get("/cage/nowhere/shifts/00000000-0000-4000-8000-000000000000/")
    forbidden = client.get("/cage/lisboa/")  # no role in that casino
    assert forbidden.status_code == 403
    assert "This page is not for your role" in forbidden.content.decode()
    assert missing.status_code in (403, 404)
    assert "Back to your home page" in missing.content.decode()
    assert client.get("/history/nowhere/shift/x/").status_code == 404
    assert "Nothing is recorded here" in client.get("/history/nowhere/shift/x/").content.decode()
