"""Issue 35, finding 11, at the patrons: a document's number never travels in an address (the
web's search form and the API's find are POSTs); API answers with a patron's data are
``Cache-Control: no-store``."""

from __future__ import annotations

import pytest
from django.test import Client

from casino.models import Role

from .test_patrons import BASE, RUI, client_for

pytestmark = pytest.mark.django_db


def test_finding_a_patron_posts_the_document_and_the_answer_is_not_stored(
        lisboa_window: str) -> None:
    cashier = client_for("ana", Role.CASHIER)
    registered = cashier.post(f"{BASE}/patrons/", {**RUI, "verified": True}, format="json")
    assert registered.status_code == 201
    assert registered["Cache-Control"] == "no-store"

    found = cashier.post(f"{BASE}/patrons/find/", {
        "document_type": "id_card", "document_number": "99887766", "document_country": "PT"},
        format="json")

    assert found.status_code == 200
    assert found.json()["name"] == "Rui Costa"
    assert found["Cache-Control"] == "no-store"
    # the old way, the number in the address, is gone
    assert cashier.get(f"{BASE}/patrons/", {"document_type": "id_card",
                                            "document_number": "99887766",
                                            "document_country": "PT"}).status_code == 405


def test_the_web_search_form_posts_the_document(lisboa_window: str) -> None:
    from django.contrib.auth.models import User

    from casino.models import Membership

    user = User.objects.create_user("caixa")
    Membership.objects.create(user=user, casino_id="lisboa", role=Role.CASHIER)
    browser = Client()
    browser.force_login(user)
    page = browser.get("/compliance/lisboa/patrons/pick/").content.decode()
    search = page.split("<h2>", 2)[1]  # the first form: find by the document shown
    assert 'method="post"' in search
    assert 'name="document_number"' in search
    answer = browser.post("/compliance/lisboa/patrons/pick/", {
        "action": "find", "document_type": "id_card", "document_number": "1",
        "document_country": "PT"})
    assert answer.status_code == 200
    assert "No patron is registered with this document" in answer.content.decode()
