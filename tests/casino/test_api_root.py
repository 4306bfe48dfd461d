"""``/api/v1/``: the API's front door answers anyone, and every link it gives leads somewhere."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.urls import resolve
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_the_api_root_lists_its_sections_and_links_the_schema_and_the_docs() -> None:
    response = APIClient().get("/api/v1/")
    assert response.status_code == 200
    body = response.json()
    assert body["schema"] == "http://testserver/api/schema/"
    assert body["docs"] == "http://testserver/api/docs/"
    names = [s["name"] for s in body["sections"]]
    assert names == ["casinos", "events", "events-verify", "seals", "approvals", "pit", "cage",
                     "ledger", "jackpots", "poker-room", "tips", "exchange"]
    for section in body["sections"]:
        path = urlsplit(section["url"].replace("{casino}", "lisboa")).path
        assert path.startswith("/api/v1/")
        resolve(path)  # raises Resolver404 for a link to nowhere
    assert APIClient().get(urlsplit(body["docs"]).path).status_code == 200
    # the sections themselves still ask who is asking
    assert APIClient().get("/api/v1/casinos/").status_code in (401, 403)
