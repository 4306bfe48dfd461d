
"""pt-PT and en complete: the message catalogue, the cage's pages, and every area's pages as
rendered in each (a crawl of the demo day from each demo person's home).

The catalogue: every message translated, none fuzzy, the placeholders of each translation those
of its message. The pages (the cashier's and the cage supervisor's, a shift with every kind of
movement, the count, the variance, the count room, the history, the home, the error pages):
in pt-PT no English word of the screens' own text is left, and in either language no stored
code (``cage_supervisor``, ``FillIssued``) is shown where a word should be.
"""

from __future__ import annotations

import ast
import re
import tomllib
from decimal import Decimal
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from cage import services as cage
from cage.selectors import expected_count
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
# A refusal's template (casino.errors): {name}, {name!r}, {name:,.2f}; "{{" is a brace written.
BRACES = re.compile(r"(?<!\{)\{(\w+(?:![rsa])?(?::[^{}]*)?)\}")


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
        braces = sorted(BRACES.findall(str(e["msgid"])))
        for form in str(e["msgstr"]).split("\0"):
            if set(PLACEHOLDER.findall(form)) - wanted:
                differ.append(e["msgid"])
            # a template's placeholders are kept exactly, conversion and format included
            if braces and sorted(BRACES.findall(form)) != braces:
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
    words = re.findall(r"[^\W\d_]+", text)
    return sorted({w for w in words if w.lower() in ENGLISH and w not in DATA})


@pytest.fixture
def day(window: str, pit: Pit) -> dict[str, str]:  # noqa: F811
    """Window 1 after a day of every movement, counted one note short, the variance explained;
    a fill refused; a closed session whose box waits in the count room."""
    cage.chips_sell(shift_id=window, amount=Decimal("90.00"), chips={"25.00": 2, "5.00": 8},
                    cash={"100.00": 1}, change={"10.00": 1}, metadata=ana())
    cage.fill_issue(shift_id=window, slip=pit.fill({"25.00": 8}), metadata=ana())
    cage.credit_receive(shift_id=window, slip=pit.credit({"5.00": 10}), metadata=ana())
    cage.slip_refuse(shift_id=window, kind="fill", slip=pit.fill({"1.00": 5}), reason="r2",
                     metadata=ana())
    pit.fill({"5.00": 2})  # waiting in the queue
    from cage.models import Shift

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


# --- every area's pages, crawled on the demo day -------------------------------------------------

# Words Portuguese writes and English never does (the screens' own words, not data).
PORTUGUESE = {"não", "para", "com", "uma", "mesa", "mesas", "fichas", "turno", "golpe", "golpes", "partida", "partidas", "talão",
              "reforço", "crédito", "dia", "jogo", "aposta", "apostas", "contagem", "diferença",
              "frequentador", "comunicação", "fecho", "registado", "registar", "aprovação"}
SKIP = re.compile(r"^/(?:admin|api|static|accounts/logout|i18n)/|\.(?:csv|xlsx|pdf|json)(?:\?|$)")
ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+")
DEMO_PEOPLE = ("caixa", "supervisor", "fiscal", "contabilista", "gestor", "conformidade")
# What the demo day recorded in its own words (data, as a person types it), the job's name as
# the actor, a command line to type, Portuguese that looks English ("o que for"), and the laws'
# own Portuguese words that an English page quotes (a law's title, a tax's legal name).
DEMO_DATA = re.compile(r"(?<![\w+/=])(?=[\w+/=-]*[\d+/=])[\w+/=-]{20,}|"  # a key, a signature
                       r"one 20\.00 note short[^)]*\)|system:demo_day(?::\w+)?|"
                       r"tools/verify_events\.py|manage\.py \w+|o que for\b|"
                       r"Identified and verified|reviewed the CCTV of the window|"
                       r"\((?:Lei do Jogo|zona de jogo|imposto especial sobre o jogo)\)")


def portuguese_left(text: str) -> list[str]:
    return sorted({w for w in re.findall(r"[^\W\d_]+", text) if w.lower() in PORTUGUESE})


def crawl(client: Client, start: str, limit: int = 80) -> dict[str, str]:
    """The site's pages a person reaches by following links from ``start``: one page of each
    shape (ids folded), downloads, the API and the Django admin left out."""
    seen_shapes: set[str] = set()
    pages: dict[str, str] = {}
    queue = [start]
    while queue and len(pages) < limit:
        url = queue.pop(0)
        shape = ID.sub("N", url)
        if shape in seen_shapes or SKIP.search(url):
            continue
        seen_shapes.add(shape)
        response = client.get(url)
        assert response.status_code in (200, 403, 404), (url, response.status_code)
        if "text/html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        pages[url] = html
        for href in re.findall(r'href="(/[^"#]*)"', html):
            queue.append(href.replace("&amp;", "&"))
    return pages


@pytest.fixture
def demo_day(settings: Any) -> None:
    """The demo's casinos and people, and a day of every game played through the services."""
    settings.DEBUG = True  # seed_demo makes demo passwords in development only
    call_command("seed_demo", stdout=StringIO())
    call_command("demo_day", "--rounds-per-table", "2", "--seed", "7", stdout=StringIO(),
                 stderr=StringIO())


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["pt-pt", "en"])
def test_every_area_s_pages_say_words_in_the_language_chosen(demo_day: None,
                                                            language: str) -> None:
    """The pit (tables, sessions, rounds, the tablet's hands, the floor), the ledger (desk,
    closes, trial balance, reports, gaming tax), compliance (alerts, reports, patrons), tokens,
    approvals, seals and the history pages, as each demo person reaches them from their home."""
    left: dict[str, list[str]] = {}
    crawled: set[str] = set()
    for who in DEMO_PEOPLE:
        client = Client(headers={"accept-language": language})
        client.force_login(User.objects.get(username=who))
        for url, html in crawl(client, "/").items():
            crawled.add(ID.sub("N", url).split("?")[0])
            text = DEMO_DATA.sub(" ", main_text(html))
            codes = sorted(set(CODE.findall(text)))
            if codes:
                left[f"{who} {url}: codes"] = codes
            words = english_left(text) if language == "pt-pt" else portuguese_left(text)
            if words:
                left[f"{who} {url}: {'English' if language == 'pt-pt' else 'Portuguese'}"] = words
    # every area was reached: the pit's tables, sessions and rounds, the floor, the ledger's
    # pages, compliance, tokens, approvals, seals, jackpots and the history pages
    for shape in ("/pit/lisboa/floor/", "/pit/sessions/N/", "/pit/rounds/N/",
                  "/pit/lisboa/tables/bjN/", "/ledger/lisboa/desk/", "/ledger/lisboa/close/",
                  "/ledger/lisboa/trial-balance/", "/ledger/lisboa/results/",
                  "/ledger/lisboa/revenue/", "/ledger/lisboa/gaming-tax/",
                  "/ledger/lisboa/reconciliation/", "/ledger/lisboa/bank/",
                  "/compliance/lisboa/alerts/", "/compliance/lisboa/reports/",
                  "/compliance/lisboa/patrons/", "/tokens/", "/approvals/lisboa/",
                  "/seals/lisboa/", "/jackpots/lisboa/", "/history/lisboa/shift/N/"):
        assert shape in crawled, shape
    assert left == {}


REFUSAL_CALLS = frozenset({
    "DomainError", "InvalidCommand", "NotFound", "NotAllowed", "Conflict", "ConcurrentChange",
    "Unavailable", "invalid", "conflict", "RuleError", "RoundError", "LimitError",
    "ParameterError"})


def test_no_refusal_is_built_as_an_f_string_or_a_formatted_text() -> None:
    """A refusal's message is its template, the values beside it (``params``): an f-string or
    ``TEMPLATE.format(...)`` is English text that no catalogue entry matches, so a pt-PT page
    would show it in English."""
    import ast

    root = Path(__file__).resolve().parents[2]
    found = []
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    for package in config["tool"]["importlinter"]["root_packages"]:  # every package of the code
        for path in (root / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                first = node.args[0]
                formatted = (isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute)
                             and first.func.attr == "format")
                if name in REFUSAL_CALLS and (isinstance(first, ast.JoinedStr) or formatted):
                    found.append(f"{path.relative_to(root)}:{node.lineno}")
    assert not found, found


def test_a_status_inside_a_refusal_is_said_by_its_label() -> None:
    """"o turno S1 está fechado", never "está Closed": the status is a value the screen says by
    the label of its kind; the English message keeps the words it always had."""
    from django.utils import translation

    from cage.services._common import SHIFT_NOT_OPEN
    from cage.services.slips import SLIP_NOT_REQUESTED
    from casino.errors import Conflict, Words, status_words
    from edge.web.refusals import refusal_text, said

    closed = Conflict(SHIFT_NOT_OPEN, params={
        "shift": "S1", "status": status_words("closed", "shift status", "Closed")})
    assert closed.message == "shift S1 is Closed: it takes no more movements"
    issued = Conflict(SLIP_NOT_REQUESTED, params={
        "kind": "fill", "number": "F1", "status": status_words("issued", "slip status")})
    assert issued.message == "fill slip F1 is issued: the cage acts only on a requested slip"
    with translation.override("pt-pt"):
        assert refusal_text(closed) == "o turno S1 está fechado: não aceita mais movimentos"
        assert refusal_text(issued).startswith("o talão de fill F1 está emitido pela caixa:")
    with translation.override("en"):
        assert refusal_text(issued).startswith("fill slip F1 is issued by the cage:")
    # a task's refusal (its result, JSON) keeps the status's words for the page that follows it
    import json

    from edge.web.progress import answer_text

    answer = json.loads(json.dumps(closed.as_result()))
    assert answer["message"] == "shift S1 is Closed: it takes no more movements"
    with translation.override("pt-pt"):
        assert answer_text(answer, "") == "o turno S1 está fechado: não aceita mais movimentos"
    report = Conflict("report {report} is {status}: it cannot be {action}", params={
        "report": "R1", "status": status_words("sent", "report status"),
        "action": status_words("reviewed", "report status")})
    assert report.message == "report R1 is sent: it cannot be reviewed"
    with translation.override("pt-pt"):  # a report is feminine: "enviada", "revista"
        assert refusal_text(report) == "a comunicação R1 está enviada: não pode ser revista"
    # kept as JSON (a journal entry's words) and read back: the same words, the same context
    kept = Words.from_data(Words("{what}.", what=status_words("open", "shift status")).as_data())
    assert kept == "open."
    with translation.override("pt-pt"):
        assert said(kept) == "aberto."
