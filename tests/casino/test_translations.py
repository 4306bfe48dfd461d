"""pt-PT and en complete: the message catalogue, and the cage's pages as rendered in each.

The catalogue: every message translated, none fuzzy, the placeholders of each translation those
of its message. The pages (the cashier's and the cage supervisor's, a shift with every kind of
movement, the count, the variance, the count room, the history, the home, the error pages):
in pt-PT no English word of the screens' own text is left, and in either language no stored
code (``cage_supervisor``, ``FillIssued``) is shown where a word should be.
"""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.cage import services as cage
from casino.cage.selectors import expected_count
from casino.models import Membership, Role
from tests.cage.conftest import (  # noqa: F401 - fixtures
    CASINO,
    Pit,
    ana,
    cages,
    casino,
    pit,
    vault,
    window,
)

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "pt_PT" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


def entries(text: str) -> list[dict[str, str | bool]]:
    """The catalogue's entries: msgid, msgstr (each plural form joined by a NUL), fuzzy."""
    out = []
    for block in text.split("\n\n"):
        lines = block.strip().splitlines()
        fields: dict[str, list[str]] = {}
        key = ""
        for line in lines:
            if line.startswith("#"):
                continue
            head = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) (".*")$', line)
            if head:
                key = head.group(1)
                fields.setdefault(key, []).append(ast.literal_eval(head.group(2)))
            elif line.startswith('"') and key:
                fields[key][-1] += ast.literal_eval(line)
        msgid = "".join(fields.get("msgid", [""]))
        if not msgid:
            continue  # the header
        strs = [v[0] for k, v in sorted(fields.items()) if k.startswith("msgstr")]
        out.append({"msgid": msgid, "plural": "".join(fields.get("msgid_plural", [""])),
                    "msgstr": "\0".join(strs), "empty": any(not s for s in strs),
                    "fuzzy": any(line.startswith("#,") and "fuzzy" in line for line in lines)})
    return out


def test_every_message_is_translated_none_fuzzy_with_the_same_placeholders() -> None:
    found = entries(CATALOGUE.read_text(encoding="utf-8"))
    assert len(found) > 500
    assert [e["msgid"] for e in found if e["empty"]] == []
    assert [e["msgid"] for e in found if e["fuzzy"]] == []
    differ = []
    for e in found:
        wanted = set(PLACEHOLDER.findall(f"{e['msgid']} {e['plural']}"))
        for form in str(e["msgstr"]).split("\0"):
            if set(PLACEHOLDER.findall(form)) - wanted:
                differ.append(e["msgid"])
    assert differ == []


class _Text(HTMLParser):
    """The text a person reads in <main> (no scripts, no option values, no attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.skip = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "main":
            self.depth += 1
        if tag in ("script", "style"):
            self.skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self.depth -= 1
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if self.depth and not self.skip:
            self.parts.append(data)


def main_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


# Words of the screens' own English that Portuguese never writes (data is left out: names of
# people, tables, cages and chip sets, and what people typed, are not translated).
ENGLISH = {"the", "and", "of", "is", "to", "with", "for", "from", "by", "not", "at", "your",
           "this", "shift", "chips", "count", "slip", "nothing", "waiting", "shown", "cash",
           "opened", "closed", "sold", "received", "issued"}  # "drop": Portuguese casinos' word
CODE = re.compile(r"\b[a-z]+_[a-z_]+\b|\b(?:[A-Z][a-z]+){2,}\b")
DATA = {"Casino", "Lisboa", "Window", "Main", "Vault", "Roulette", "value", "chips", "ana",
        "carla", "paulo", "rita", "sofia"}


def english_left(text: str) -> list[str]:
    words = re.findall(r"[A-Za-z]+", text)
    return sorted({w for w in words if w.lower() in ENGLISH and w not in DATA})


@pytest.fixture
def day(window: str, pit: Pit) -> dict[str, str]:  # noqa: F811
    """Window 1 after a day of every movement, counted one note short, the variance explained;
    a fill refused; a closed session whose box waits in the count room."""
    cage.chips_sell(shift_id=window, amount="90.00", chips={"25.00": 2, "5.00": 8},
                    cash={"100.00": 1}, change={"10.00": 1}, metadata=ana())
    cage.fill_issue(shift_id=window, slip=pit.fill({"25.00": 8}), metadata=ana())
    cage.credit_receive(shift_id=window, slip=pit.credit({"5.00": 10}), metadata=ana())
    cage.slip_refuse(shift_id=window, kind="fill", slip=pit.fill({"1.00": 5}), reason="r2",
                     metadata=ana())
    pit.fill({"5.00": 2})  # waiting in the queue
    from casino.cage.models import Shift

    counted = Shift.objects.get(id=window)
    cash, chips = expected_count(counted)
    cash["10.00"] -= 1
    cage.shift_count(shift_id=window, cash=cash, chips=chips, metadata=ana())
    cage.variance_explain(shift_id=window, explanation="10", metadata=ana())
    for name, role in (("ana", Role.CASHIER), ("carla", Role.CAGE_SUPERVISOR)):
        user = User.objects.create_user(username=name, password="x")
        Membership.objects.create(user=user, casino_id=CASINO, role=role)
    base = f"/cage/{CASINO}"
    return {"home": "/", "overview": f"{base}/", "shift": f"{base}/shifts/{window}/",
            "variance": f"{base}/shifts/{window}/variance/",
            "count room": f"{base}/count-room/",
            "history": f"/history/{CASINO}/shift/{window}/",
            "not found": f"{base}/shifts/00000000-0000-4000-8000-000000000000/",
            "not allowed": f"{base}/days/2026-01-01/reconciliation/"}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["pt-pt", "en"])
def test_the_cage_s_pages_say_words_in_the_language_chosen(day: dict[str, str],
                                                          language: str) -> None:
    left: dict[str, list[str]] = {}
    for who in ("ana", "carla"):
        client = Client(headers={"accept-language": language})
        client.force_login(User.objects.get(username=who))
        for name, url in day.items():
            response = client.get(url)
            assert response.status_code in (200, 403, 404), (who, name)
            text = main_text(response.content.decode())
            assert text, (who, name)
            codes = sorted(set(CODE.findall(text)))
            if codes:
                left[f"{who} {name}: codes"] = codes
            if language == "pt-pt" and (words := english_left(text)):
                left[f"{who} {name}: English"] = words
    assert left == {}
