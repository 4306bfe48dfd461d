"""The regulator's published schema (``/api/regulator/v1/schema/``): valid with no warning, and
held to by the API itself, schemathesis sending what the schema allows to every operation on
a played demo day: no 5xx, no answer outside the schema (its errors included)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
import yaml
from django.core.management import call_command
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from .conftest import Demo

pytestmark = pytest.mark.django_db


def test_the_regulators_schema_is_valid_and_documents_every_error(tmp_path: Path) -> None:
    out = tmp_path / "regulator.yml"
    call_command("spectacular", "--urlconf", "regulator.schema_urls", "--validate",
                 "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    assert all(p.startswith("/api/regulator/v1/") for p in schema["paths"])
    for path, operations in schema["paths"].items():
        assert set(operations) <= {"get", "parameters"}, path  # read-only
        for status in ("200", "400", "401", "403", "404", "405", "409", "429"):
            assert status in operations["get"]["responses"], (path, status)


@pytest.fixture
def wsgi_in_the_tests_transaction() -> Iterator[None]:
    """The WSGI application as Django's test client runs it: the requests keep the test's
    connection (and its transaction) open, instead of closing it when they end."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.mark.usefixtures("wsgi_in_the_tests_transaction")
def test_the_api_answers_as_its_schema_says(demo: Demo, settings: Any) -> None:
    """Every operation, a few examples each (bounded: ``max_examples``), as Portugal's
    inspector; the casino in the path is Lisbon (Portugal's), so the answers have rows. As in
    production (DEBUG off): an address that matches no URL answers in the error shape too."""
    settings.DEBUG = False
    from config.wsgi import application

    schema = schemathesis.openapi.from_wsgi("/api/regulator/v1/schema/", application)
    headers = {"Authorization": f"Token {demo.tokens['srij']}"}
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 20

    for operation in operations:
        @given(case=operation.as_strategy())
        @examples(max_examples=4, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        def answers_as_the_schema_says(case: schemathesis.Case) -> None:
            if case.path_parameters and "casino" in case.path_parameters:
                case.path_parameters["casino"] = "lisboa"
            case.headers = {**(case.headers or {}), **headers}  # the token, not a made-up one
            # ignored_auth resends with the token it knows of, none here: the tokens' own
            # tests prove a request without a valid token refused. positive_data_acceptance
            # wants every request the schema allows answered 2xx: the rules between two
            # parameters (a period ends after it starts, a year at most; a chain of 100,000
            # positions at most) and things that do not exist (404) are no schema's to say.
            case.call_and_validate(excluded_checks=[ignored_auth, positive_data_acceptance])

        answers_as_the_schema_says()


@pytest.mark.parametrize("page", ["/api/docs/", "/api/redoc/", "/api/regulator/v1/docs/",
                                  "/api/regulator/v1/redoc/"])
def test_the_api_docs_load_their_scripts_from_the_site_itself(client: Any, page: str) -> None:
    """Swagger UI and Redoc come from the installed drf-spectacular-sidecar, not from a CDN:
    the docs work with no internet (the fonts Redoc asks for are optional)."""
    import re

    from django.contrib.staticfiles import finders

    html = client.get(page).content.decode()
    scripts = re.findall(r'<script[^>]* src="([^"]+)"', html)
    assert scripts
    for src in scripts:
        assert src.startswith("/static/drf_spectacular_sidecar/"), src
        assert finders.find(src.removeprefix("/static/")) is not None, src
