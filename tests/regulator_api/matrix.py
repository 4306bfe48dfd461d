"""The permission matrix's machinery: every endpoint of the API, from the URL configuration,
with sample arguments taken from a played demo day, and the status each role gets."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver

ROLES = ("anonymous", "cashier", "cage_supervisor", "pit_boss", "accountant", "srij", "dicj",
         "administrator")
WRITES = ("post", "put", "patch", "delete")


@dataclass(frozen=True)
class Endpoint:
    route: str  # as in the URL configuration: api/v1/pit/rounds/<uuid:round_id>/
    name: str
    method: str  # GET, POST...
    view: Any
    defaults: dict[str, Any]

    @property
    def key(self) -> str:
        return f"{self.method} {self.route}"


def _walk(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _walk(p.url_patterns, prefix + str(p.pattern))
        else:
            yield prefix + str(p.pattern), p


def endpoints() -> list[Endpoint]:
    """Every API endpoint and method (under ``api/``): the URL configuration's
    views, each method it implements; on the regulator's tree, POST too (the other writes:
    ``test_every_write_method_of_the_regulators_tree_answers_405``)."""
    found = []
    for route, pattern in _walk(get_resolver().url_patterns):
        if not route.startswith("api/"):
            continue
        cls = getattr(pattern.callback, "cls", None) or getattr(pattern.callback, "view_class",
                                                                None)
        methods = [m for m in ("get", *WRITES) if hasattr(cls, m)]
        if route.startswith("api/regulator/"):
            methods = ["get", "post"]
        for method in methods:
            found.append(Endpoint(route, pattern.name or "", method.upper(), cls,
                                  dict(pattern.default_args)))
    return found


def sample_path(endpoint: Endpoint, sample: dict[str, str]) -> str:
    """The route with each argument replaced by the demo day's sample for it."""
    path = "/" + endpoint.route
    while "<" in path:
        start = path.index("<")
        end = path.index(">", start)
        converter, _, name = path[start + 1:end].rpartition(":")
        key = name
        if converter == "int":
            key = "entry_number"
        elif name == "code":
            key = ("cage_code" if path[:start].endswith("/cages/") else
                   "casino" if path[:start].endswith("/casinos/") else "table_code")
        path = path[:start] + sample.get(key, str(uuid.uuid4())) + path[end + 1:]
    return path


def status_of(client: Any, endpoint: Endpoint, path: str, query: str) -> int:
    """The status of one request, whatever it changed rolled back (the next one sees the
    same day)."""
    with transaction.atomic():
        if endpoint.method == "GET":
            response = client.get(path + query)
        else:
            response = client.generic(endpoint.method, path, "{}",
                                      content_type="application/json")
        transaction.set_rollback(True)
    return int(response.status_code)
