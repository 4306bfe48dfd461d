"""The published OpenAPI schema: generated without warnings, valid, every API in it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command


def test_the_openapi_schema_is_valid_and_names_every_api(tmp_path: Path) -> None:
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    paths = schema["paths"]
    for prefix in ("/api/v1/events/", "/api/v1/pit/", "/api/v1/cage/", "/api/v1/ledger/",
                   "/api/v1/jackpots/"):
        assert any(p.startswith(prefix) for p in paths), f"{prefix} missing from the schema"
    names = schema["components"]["schemas"]
    assert "RoundOpenApiInput" in names  # nested serializers named after their view
    assert "Input" not in names
    assert "Output" not in names


def test_the_schema_documents_errors_files_and_lists_as_they_are_answered(tmp_path: Path
                                                                          ) -> None:
    """Issue 18, item 8: seven operations answered a list (or a page) the schema called an
    object (or a list); no error status was documented; downloads had no media type."""
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(out))
    paths = yaml.safe_load(out.read_text())["paths"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            documented = set(operation["responses"])
            assert {"400", "401", "403", "404", "429", "503"} <= documented, (method, path)
            if method != "get":
                assert {"409", "413"} <= documented, (method, path)
    ok = "200"
    for path in ("/api/v1/approvals/kinds/", "/api/v1/cage/{casino}/cages/",
                 "/api/v1/cage/{casino}/shifts/",
                 "/api/v1/cage/{casino}/gaming-days/{day}/chips-in-circulation/",
                 "/api/v1/jackpots/{casino}/pools/", "/api/v1/jackpots/{casino}/prizes/"):
        body = paths[path]["get"]["responses"][ok]["content"]["application/json"]["schema"]
        assert body["type"] == "array", path
    journal = paths["/api/v1/ledger/{casino}/journal/"]["get"]["responses"][ok]
    assert journal["content"]["application/json"]["schema"]["$ref"].endswith("List")
    assert "text/csv" in paths["/api/v1/ledger/{casino}/journal.csv"]["get"]["responses"][ok][
        "content"]
    assert ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" in
            paths["/api/v1/ledger/{casino}/trial-balance.xlsx"]["get"]["responses"][ok]["content"])
    assert "application/pdf" in paths["/api/v1/ledger/{casino}/close-report/{day}.pdf"]["get"][
        "responses"][ok]["content"]
    error = paths["/api/v1/casinos/"]["get"]["responses"]["503"]["content"]["application/json"]
    assert error["schema"]["$ref"] == "#/components/schemas/Error"


def _unnamed(body: dict[str, Any], components: dict[str, Any]) -> str | None:
    """What is free-form in a response body, or None: the body is a named component with
    properties, or a list (or a page) of them."""
    if body.get("type") == "array":
        return _unnamed(body.get("items", {}), components)
    ref = body.get("$ref")
    if ref is None:
        return f"an unnamed {body.get('type', 'value')} ({body})"
    name = ref.rpartition("/")[2]
    component = components[name]
    properties = component.get("properties")
    if not properties:
        return f"{name}, an object without properties"
    page = properties.get("results")
    if page is not None and page.get("type") == "array" and "count" in properties:
        return _unnamed(page.get("items", {}), components)
    return None


@pytest.mark.parametrize("urlconf", [None, "regulator.schema_urls"])
def test_every_operation_answers_a_named_schema(tmp_path: Path, urlconf: str | None) -> None:
    """Issue 33, item 5: a client generated from the schema knows what each operation answers:
    every JSON success answer is a named component with its properties (or a list or a page of
    one), never a bare object."""
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(out),
                 *(("--urlconf", urlconf) if urlconf else ()))
    schema = yaml.safe_load(out.read_text())
    components = schema["components"]["schemas"]
    bare = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if not status.startswith("2"):
                    continue
                for media, content in response.get("content", {}).items():
                    if "json" not in media:
                        continue
                    found = _unnamed(content.get("schema", {}), components)
                    if found:
                        bare.append(f"{operation['operationId']} ({method.upper()} {path}, "
                                    f"{status}): {found}")
    assert not bare, "operations answering a bare object:\n" + "\n".join(bare)
