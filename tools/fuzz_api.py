#!/usr/bin/env python3
"""Schemathesis over every operation of the published OpenAPI schema (CI: ``.ci/run``).

On a fresh throwaway database (as the benchmarks: ``bench/_setup.py``) with the demo casinos and a
small demo day, signed in as an administrator of every casino, each operation of
``/api/schema/`` is called with generated requests; the path parameters are real records (an
open table session and round, an open cashier shift, a casino, a pool, an approval...) most of
the time, so writes reach past "not found" into the services' own checks. Each response is
checked: no 5xx, the status, content type and body as the schema documents them.

Then the regulator's tree (``/api/regulator/v1/schema/``) the same way, as each jurisdiction's
inspector (``igj``, ``dicj``), and every operation once more as every role of a casino and as
each inspector, with the hostile inputs of issue 35 (``HOSTILE``: a number that overflows, a
lone surrogate, a NUL, an over-long string, a seat out of range, an 8 KB request id), with and
without an ``Idempotency-Key``: each must be answered below 500 (a 400 naming the field).

    python tools/fuzz_api.py [--examples 15] [--seed 18]

Prints the requests by status and the failures; exit 1 on any failure.
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def real_records() -> dict[str, list[str]]:
    """Values of the schema's path parameters that name recorded things."""
    from cage.models import Adjustment, Shift
    from casino.models import Approval, Casino
    from games.models import Round, Table, TableSession
    from jackpots.models import JackpotPool, JackpotPrize

    def some(values: Any, n: int = 3) -> list[str]:
        return [str(v) for v in list(values)[:n]]

    return {
        "casino": some(Casino.objects.order_by("code").values_list("code", flat=True)),
        "session_id": some(TableSession.objects.order_by("status", "-opened_at")
                           .values_list("session_id", flat=True)),
        "round_id": some(Round.objects.order_by("-opened_at").values_list("round_id", flat=True)),
        "shift": some(Shift.objects.order_by("status", "-opened_at").values_list("id", flat=True)),
        "code": some(Table.objects.values_list("code", flat=True)),
        "table": some(Table.objects.values_list("code", flat=True)),
        "pool": some(JackpotPool.objects.values_list("pool_id", flat=True)),
        "prize": some(JackpotPrize.objects.values_list("prize_id", flat=True)),
        "approval_id": some(Approval.objects.values_list("id", flat=True)),
        "adjustment": some(Adjustment.objects.values_list("id", flat=True)),
        "day": some(TableSession.objects.values_list("gaming_day", flat=True).distinct()),
        "bet_id": ["b1", "b2"],
        "number": ["1", "2"],
        "kind": ["fill", "credit"],
    }


def summary(error: BaseException) -> str:
    """The failure's kinds and first details, and how to reproduce it, on a few lines."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    for inner in getattr(error, "exceptions", ()):
        lines += [line.strip() for line in str(inner).splitlines() if line.strip()]
    kept = [line for line in lines if line.startswith(("- ", "curl", "[")) or "is not" in line
            or "Undocumented" in line or "required" in line]
    return " | ".join(dict.fromkeys(kept or lines[:3]))[:700]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=15, help="requests per operation")
    parser.add_argument("--seed", type=int, default=18)
    args = parser.parse_args()

    import os

    os.environ.setdefault("API_THROTTLE_USER", "1000000/min")
    os.environ.setdefault("API_THROTTLE_ANON", "1000000/min")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("TEST_DATABASE_NAME", "casino_fuzz_throwaway")
    os.environ["CELERY_BROKER_URL"] = ""  # tasks in process: no worker runs beside the fuzzing
    from _setup import bench_database

    with bench_database():
        return fuzz(args.examples, args.seed)


def fuzz(examples: int, seed: int) -> int:
    import logging

    import hypothesis
    import schemathesis
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import override_settings
    from hypothesis import strategies as st
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

    from access.models import ApiToken
    from casino.models import Casino, Membership, Role
    from config.wsgi import application

    logging.getLogger("django.request").setLevel(logging.ERROR)  # each refusal is counted instead
    with override_settings(DEBUG=True):  # the demo's casinos (DEBUG only)
        call_command("seed_demo", verbosity=0)
        call_command("demo_day", "--tables", "4", "--rounds-per-table", "4", verbosity=0)
    admin = User.objects.create_user("fuzz", password="not-used")
    for casino in Casino.objects.all():  # every role, so that every operation may be tried
        for role in Role:
            Membership.objects.get_or_create(user=admin, casino=casino, role=role)
    token = ApiToken.objects.create(user=admin, expiry=dt.timedelta(days=1))[1]
    records = real_records()
    schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
    checks = [not_a_server_error, status_code_conformance, content_type_conformance,
              response_schema_conformance]
    statuses: collections.Counter[int] = collections.Counter()
    failures: list[str] = []
    operations = 0
    started = time.perf_counter()
    for result in schema.get_all_operations():
        operation = result.ok()  # type: ignore[union-attr]
        operations += 1
        strategy = operation.as_strategy()

        @hypothesis.settings(max_examples=examples, deadline=None, database=None,
                             derandomize=True, suppress_health_check=list(hypothesis.HealthCheck),
                             phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate])
        @hypothesis.seed(seed)
        @hypothesis.given(case=strategy, data=st.data())
        def run(case: Any, data: Any) -> None:
            for name in list(case.path_parameters or {}):
                real = records.get(name) or []
                if real and data.draw(st.integers(0, 9)) < 8:  # mostly a real record
                    case.path_parameters[name] = data.draw(st.sampled_from(real))
            response = case.call(headers={"Authorization": f"Token {token}"})
            statuses[response.status_code] += 1
            case.validate_response(response, checks=checks)

        try:
            run()
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # a failed check: reported, the next operation goes on
            failures.append(f"{operation.method.upper()} {operation.path}: {summary(error)}")
    current = [""]  # the inspector's token the requests below send
    for login in ("igj", "dicj"):  # the regulator's tree, as each jurisdiction's inspector
        inspector = User.objects.get(username=login)
        current[0] = ApiToken.objects.create(user=inspector, expiry=dt.timedelta(days=1))[1]
        tree = schemathesis.openapi.from_wsgi("/api/regulator/v1/schema/", application)
        for result in tree.get_all_operations():
            operation = result.ok()  # type: ignore[union-attr]
            operations += 1
            strategy = operation.as_strategy()

            @hypothesis.settings(max_examples=max(2, examples // 2), deadline=None,
                                 database=None, derandomize=True,
                                 suppress_health_check=list(hypothesis.HealthCheck),
                                 phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate])
            @hypothesis.seed(seed)
            @hypothesis.given(case=strategy, data=st.data())
            def read(case: Any, data: Any) -> None:
                for name in list(case.path_parameters or {}):
                    real = records.get(name) or []
                    if real and data.draw(st.integers(0, 9)) < 8:
                        case.path_parameters[name] = data.draw(st.sampled_from(real))
                response = case.call(headers={"Authorization": f"Token {current[0]}"})
                statuses[response.status_code] += 1
                case.validate_response(response, checks=checks)

            try:
                read()
            except KeyboardInterrupt:
                raise
            except BaseException as error:
                failures.append(f"{login} {operation.method.upper()} {operation.path}: "
                                f"{summary(error)}")
    hostile_statuses, hostile_failures = hostile(schema, records, application)
    statuses.update(hostile_statuses)
    failures += hostile_failures
    seconds = time.perf_counter() - started
    total = sum(statuses.values())
    print(f"schemathesis: {operations} operations, {total} requests in {seconds:.0f} s")
    print("by status: " + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items())))
    server_errors = sum(n for s, n in statuses.items() if s >= 500 and s != 503)
    print(f"5xx: {server_errors}; failed operations: {len(failures)}")
    for failure in failures:
        print("  FAIL " + failure[:1500])
    return 1 if failures or server_errors else 0


# Issue 35's classes of bad input: each is put in every string, number and seat of an
# operation's example body (and a header), which must be refused below 500.
HOSTILE: dict[str, tuple[str, Any]] = {
    "overflowing number": ("number", "1e309"),
    "lone surrogate": ("string", '"\\ud800"'),
    "NUL": ("string", '"a\\u0000b"'),
    "over-long string": ("string", '"' + "x" * 100_000 + '"'),
    "seat out of range": ("seat", "10000000000"),
    "negative seat": ("seat", "-5"),
}


def _hostile_body(properties: dict[str, Any], kind: str, value: str) -> str:
    """A JSON body with every property of the operation's input set to ``value`` where it fits
    ``kind`` (and ``seat``, ``player``, ``amount`` always), as raw JSON text."""
    fields = dict.fromkeys(["seat", "player", "amount", "bets"], None) | dict(properties)
    parts = []
    for name, spec in fields.items():
        typed = (spec or {}).get("type", "")
        if kind == "seat" and name != "seat":
            continue
        if kind == "number" or kind == "seat" or typed in ("string", "") or name == "player":
            text = value
            if name == "bets":
                text = '[{"seat": 1, "type": "red", "amount": "10", "player": ' + value + "}]"
            parts.append(f'"{name}": {text}')
    return "{" + ", ".join(parts) + "}"


def hostile(schema: Any, records: dict[str, list[str]], application: Any
            ) -> tuple[collections.Counter[int], list[str]]:
    """Every operation, each hostile input, as every role in turn (a casino's and each
    inspector's): the statuses and any answer of 500 or more."""
    from django.contrib.auth.models import User
    from django.test import Client

    from access.models import ApiToken
    from casino.models import Casino, Membership, Role

    tokens = {}
    for each in Role:
        if each == Role.REGULATOR:
            continue
        user, _ = User.objects.get_or_create(username=f"fuzz-{each}")
        for casino in Casino.objects.all():
            Membership.objects.get_or_create(user=user, casino=casino, role=each)
        tokens[str(each)] = ApiToken.objects.create(user=user, expiry=dt.timedelta(days=1))[1]
    for login in ("igj", "dicj"):
        tokens[login] = ApiToken.objects.create(user=User.objects.get(username=login),
                                                expiry=dt.timedelta(days=1))[1]
    roles = list(tokens)
    tokens["fuzz"] = ApiToken.objects.create(user=User.objects.get(username="fuzz"),
                                             expiry=dt.timedelta(days=1))[1]
    client = Client(raise_request_exception=False, HTTP_HOST="localhost")
    statuses: collections.Counter[int] = collections.Counter()
    failures: list[str] = []
    turn = 0
    raw = schema.raw_schema
    for path, methods in raw.get("paths", {}).items():
        for method, spec in methods.items():
            if method not in ("get", "post"):
                continue
            url = path
            for name in [p["name"] for p in spec.get("parameters", []) if p.get("in") == "path"]:
                url = url.replace("{" + name + "}", (records.get(name) or ["x"])[0])
            body = (spec.get("requestBody", {}).get("content", {}).get("application/json", {})
                    .get("schema", {}))
            if "$ref" in body:
                body = raw["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
            properties = body.get("properties", {})
            for label, (kind, value) in HOSTILE.items():
                for key in ("", f"fuzz-{turn}"):
                    # without a key as each role in turn; with one as the person holding every
                    # role (``fuzz``), whose request reaches the input's checks
                    role = roles[turn % len(roles)] if not key else "fuzz"
                    turn += 1
                    headers: dict[str, Any] = {"HTTP_AUTHORIZATION": f"Token {tokens[role]}",
                               "HTTP_X_REQUEST_ID": "r" * 8192}
                    if key:
                        headers["HTTP_IDEMPOTENCY_KEY"] = key
                    if method == "get":
                        query = "?casino=" + ("lis%00boa" if kind == "string" else "lisboa")
                        answer = client.get(url + query, **headers)
                    else:
                        answer = client.post(url, _hostile_body(properties, kind, value),
                                             content_type="application/json", **headers)
                    statuses[answer.status_code] += 1
                    if answer.status_code >= 500 and answer.status_code != 503:
                        failures.append(f"{method.upper()} {path} as {role} with {label}"
                                        f"{' and a key' if key else ''}: "
                                        f"{answer.status_code}")
    return statuses, failures


if __name__ == "__main__":
    sys.exit(main())
