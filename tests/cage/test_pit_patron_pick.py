"""The pit's drop form links to the patron picker as the cage's forms do, and the picker brings
the pit boss back with the patron filled in (docs/patrons.md § At the cage and the tables)."""

from __future__ import annotations

from django.urls import reverse

from casino.models import Role
from compliance.models import Patron

from .conftest import CASINO, Pit
from .test_web import browser


def test_the_pit_boss_finds_or_registers_the_patron_from_the_drop_form(pit: Pit) -> None:
    paulo = browser("paulo", Role.PIT_BOSS)
    session = reverse("pit-session", args=[pit.session_id])
    page = paulo.get(session).content.decode()
    pick = reverse("compliance:patron-pick", kwargs={"casino": CASINO})
    assert f'href="{pick}?next={session}' in page.replace("%2F", "/")
    assert paulo.get(f"{pick}?next={session}&place=table").status_code == 200
    back = paulo.post(f"{pick}?next={session}", {
        "name": "Rui Costa", "document_type": "passport", "document_number": "P998877",
        "document_country": "PT", "date_of_birth": "1980-02-02", "nationality": "PT",
        "address": "Rua Velha 2", "document_image": "scans/p-9988.jpg", "verified": "1",
        "place": "table", "idempotency_key": "pick-1"})
    patron = Patron.objects.get()
    assert patron.place == "table"
    assert back.status_code == 302
    assert back["Location"] == f"{session}?patron={patron.patron_id}"
    again = paulo.get(back["Location"]).content.decode()
    assert f'value="{patron.patron_id}"' in again  # the drop form's Patron filled in
