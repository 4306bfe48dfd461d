"""The web admin's permission crawl (issue 35, finding 2): every web URL of the URL configuration,
its arguments filled from a played demo day, requested as every role of one casino and as each
jurisdiction's inspector. Nobody reads a casino that is not theirs (Portugal's inspector
opened 14 of Macau's pages, 200, while the API answered 404), and nothing answers a 5xx.

Lisbon is Portuguese (euros), Macau is Macau's (patacas): ``srij`` reads Lisbon only, ``dicj``
Macau only, a person holding a role in Lisbon only reads nothing of Macau.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import get_resolver

from casino.models import Membership, Role

from .conftest import Demo
from .matrix import _walk
from .test_permission_matrix import samples

pytestmark = pytest.mark.django_db

SKIPPED_PREFIXES = ("api/", "admin/", "accounts/", "i18n/")
CASINO_ROLES = [str(r) for r in Role if r != Role.REGULATOR]
# pages only the casino's administrator opens: every other role of the casino is refused
ADMINISTRATOR_ONLY = ("roles/<slug:casino>/",)


def web_routes() -> list[str]:
    return [route for route, _ in _walk(get_resolver().url_patterns)
            if not route.startswith(SKIPPED_PREFIXES)]


def fill(route: str, sample: dict[str, str]) -> str:
    """The route with each argument replaced by the demo day's thing of that name."""
    path = "/" + route
    aliases = {"code": "table_code", "shift": "shift", "version": "entry_number",
               "number": "entry_number", "ident": "shift", "kind": "kind"}
    while "<" in path:
        start = path.index("<")
        end = path.index(">", start)
        _, _, name = path[start + 1:end].rpartition(":")
        if name == "code" and path[:start].endswith("/cages/"):
            name = "cage_code"
        elif name == "kind":
            value = "shift"
        value = sample.get(name) or sample.get(aliases.get(name, name)) or str(uuid.uuid4())
        if name == "kind":
            value = "shift"
        path = path[:start] + value + path[end + 1:]
    return path


def browser(username: str) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(get_user_model().objects.get(username=username))
    return client


def test_every_web_page_answers_only_the_casinos_of_the_person_or_the_jurisdiction(
        demo: Demo, settings: Any) -> None:
    settings.DEBUG = False  # the error pages as in production: a 500 is a 500
    lisboa = samples(demo)
    macau = {**lisboa, "casino": "macau"}
    User = get_user_model()
    lisbon_people = []
    for role in CASINO_ROLES:
        user = User.objects.create_user(f"lisbon-{role}")
        Membership.objects.create(user=user, casino_id="lisboa", role=role)
        lisbon_people.append(user.username)
    people = {name: browser(name) for name in [*lisbon_people, "srij", "dicj"]}
    routes = web_routes()
    assert len(routes) > 50, routes
    wrong = []
    opened = {"srij": 0, "dicj": 0}
    for route in routes:
        if "<slug:casino>" not in route:
            for name in ("srij", "dicj", lisbon_people[0]):
                answer = people[name].get("/" + route + "?casino=macau")
                text = answer.content.decode(errors="replace")
                if answer.status_code >= 500:
                    wrong.append(f"{name} {route}: {answer.status_code}")
                if name != "dicj" and answer.status_code == 200 and "Casino Macau" in text:
                    wrong.append(f"{name} {route}: shows Macau")
                if name == "dicj" and answer.status_code == 200 and "Casino Lisboa" in text:
                    wrong.append(f"{name} {route}: shows Lisbon")
            continue
        # Macau's page: nobody of Lisbon, nor Portugal's inspector
        path = fill(route, macau)
        for name in [*lisbon_people, "srij"]:
            status = people[name].get(path).status_code
            if status == 200 or status >= 500:
                wrong.append(f"{name} {path}: {status}")
        status = people["dicj"].get(path).status_code
        opened["dicj"] += status == 200
        if status >= 500:
            wrong.append(f"dicj {path}: {status}")
        # Lisbon's page: not Macau's inspector
        path = fill(route, lisboa)
        status = people["dicj"].get(path).status_code
        if status == 200 or status >= 500:
            wrong.append(f"dicj {path}: {status}")
        status = people["srij"].get(path).status_code
        opened["srij"] += status == 200
        if status >= 500:
            wrong.append(f"srij {path}: {status}")
        if route in ADMINISTRATOR_ONLY:
            for name in lisbon_people:
                status = people[name].get(path).status_code
                if status != (200 if name == "lisbon-administrator" else 403):
                    wrong.append(f"{name} {path}: {status}")
            status = people["srij"].get(path).status_code  # Lisbon's inspector: reads, grants not
            if status != 403:
                wrong.append(f"srij {path}: {status}")
    assert set(ADMINISTRATOR_ONLY) <= set(routes)
    assert not wrong, "\n".join(wrong)
    # each inspector reads its own jurisdiction's pages (the ledger, the seals, the approvals...)
    assert opened["srij"] >= 10, opened
    assert opened["dicj"] >= 10, opened


def test_a_regulators_inspector_is_refused_a_casino_role(casinos: None) -> None:
    from django.core.exceptions import ValidationError

    from access.models import RegulatorAccount

    user = get_user_model().objects.create_user("srij")
    RegulatorAccount.objects.create(user=user, jurisdiction="PT")

    with pytest.raises(ValidationError, match="holds no casino role"):
        Membership(user=user, casino_id="macau", role=Role.REGULATOR).full_clean()
