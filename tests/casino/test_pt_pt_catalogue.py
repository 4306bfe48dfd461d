"""pt-PT complete, proved against the English catalogue itself (issue 36, item 8): every page of
the demo, crawled from each demo person's home in pt-PT, and the refusals of the cage's forms,
must hold no text of the English catalogue that has a Portuguese translation. A text counts when
a fragment of at least three words between its placeholders is found as it is in English: names,
codes and what people typed are not catalogue text, so a fragment found is an untranslated
string (a template without ``translate``, a message without ``gettext``, a stale ``.mo``).

The demo and the crawl are ``tests/casino/test_translations.py``'s."""

from __future__ import annotations

import re
from functools import cache

import pytest
from django.contrib.auth.models import User
from django.test import Client

from .test_translations import (  # noqa: F401 - the fixture
    CATALOGUE,
    DEMO_DATA,
    DEMO_PEOPLE,
    crawl,
    demo_day,
    entries,
    main_text,
)

PLACEHOLDERS = re.compile(r"%\(\w+\)[sd]|\{[^{}]*\}|%[sd]|<[^>]+>")


@cache
def english_fragments() -> frozenset[str]:
    """The English catalogue's fixed texts of three words or more, of translated entries whose
    translation differs (``OK`` in both languages is not a leftover)."""
    found = set()
    for entry in entries(CATALOGUE.read_text()):
        english, portuguese = str(entry["msgid"]), str(entry.get("msgstr", ""))
        if not english or not portuguese or english == portuguese:
            continue
        for piece in PLACEHOLDERS.split(english):
            piece = " ".join(piece.split()).strip(" .,:;·()")
            if len(piece.split()) >= 3 and piece not in portuguese:
                found.add(piece)
    return frozenset(found)


def untranslated(text: str) -> list[str]:
    return sorted(f for f in english_fragments() if f in text)


@pytest.mark.django_db
def test_no_text_of_the_english_catalogue_is_left_on_any_pt_pt_page(
        demo_day: None) -> None:  # noqa: F811
    # the check can fail: the same home in English holds catalogue text
    english = Client(headers={"accept-language": "en"})
    english.force_login(User.objects.get(username=DEMO_PEOPLE[0]))
    assert untranslated(main_text(english.get("/").content.decode()))
    left: dict[str, list[str]] = {}
    for who in DEMO_PEOPLE:
        client = Client(headers={"accept-language": "pt-pt"})
        client.force_login(User.objects.get(username=who))
        for url, html in crawl(client, "/").items():
            found = untranslated(DEMO_DATA.sub(" ", main_text(html)))
            if found:
                left[f"{who} {url}"] = found
    assert left == {}


@pytest.mark.django_db
def test_the_cage_s_refusals_are_said_in_pt_pt(demo_day: None) -> None:  # noqa: F811
    """Refusals included: each cage form posted wrong, in pt-PT, answers in Portuguese."""
    from cage import services as cage
    from cage.models import Shift, ShiftStatus
    from casino.context import person_metadata
    from casino.models import Role

    closed = Shift.objects.filter(casino_id="lisboa", cage="main",
                                  status=ShiftStatus.CLOSED).order_by("-closed_at").first()
    assert closed is not None
    opened = cage.shift_open(cage="main", accept_previous=str(closed.id), metadata=person_metadata(
        username="caixa", role=Role.CASHIER, casino="lisboa"))
    shift = Shift.objects.get(id=opened.shift_id)
    client = Client(headers={"accept-language": "pt-pt"})
    client.force_login(User.objects.get(username="caixa"))
    screen = f"/cage/{shift.casino_id}/shifts/{shift.id}/"
    left: dict[str, list[str]] = {}
    for posted in ({"action": "sell", "m": "sell", "amount": "10,00"},
                   {"action": "sell", "m": "sell", "amount": "abc"},
                   {"action": "redeem", "m": "redeem", "amount": "99999999,00"},
                   {"action": "fill", "slip": "F-none"},
                   {"action": "transfer", "m": "transfer", "to_cage": "nowhere"},
                   {"action": "adjust", "m": "adjust", "direction": "in", "reason": ""}):
        answer = client.post(screen, {**posted, "idempotency_key": f"bad-{posted['action']}"})
        assert answer.status_code == 400, posted
        found = untranslated(main_text(answer.content.decode()))
        if found:
            left[str(posted)] = found
    assert left == {}
