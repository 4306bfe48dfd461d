"""``casino.prepared``: the hot path's prepared statements write and read exactly the rows the
ORM would, and a failing statement in a pipeline fails the whole send."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

import pytest
from django.db import DataError, IntegrityError, transaction
from django.forms.models import model_to_dict

from eventstore import wire as prepared
from games.models import Round, RoundStatus

pytestmark = pytest.mark.django_db


def round_fields(**overrides: object) -> dict[str, object]:
    fields: dict[str, object] = {
        "round_id": str(uuid.uuid4()), "session_id": str(uuid.uuid4()), "casino_id": "lisboa",
        "table": "r1", "game": "french_roulette", "options": {"zero": "single"}, "number": 3,
        "status": RoundStatus.SETTLED, "point": None, "outcome": {"number": 17},
        "outcome_by": "ana", "handle": Decimal("85.00"), "result": Decimal("-12.50"),
        "stakes": {"straight": ["5.00", "25.0000"]},
        "opened_at": dt.datetime(2026, 11, 30, 21, 15, 3, 123456, tzinfo=dt.UTC),
        "opened_by": "ana", "version": 16,
    }
    fields.update(overrides)
    return fields


def test_numbered_placeholders_keep_a_literal_percent_sign() -> None:
    assert (prepared.numbered("SELECT %s, name LIKE 'x%%' FROM t WHERE a = %s")
            == "SELECT $1, name LIKE 'x%' FROM t WHERE a = $2")


@pytest.mark.parametrize("ids", [str, uuid.UUID], ids=["text ids", "UUID ids"])
def test_a_prepared_insert_writes_the_row_the_orm_would(ids: type) -> None:
    by_orm = Round.objects.create(**round_fields())
    fields = round_fields(round_id=ids(str(uuid.uuid4())), session_id=ids(str(uuid.uuid4())))
    sql, params = prepared.insert(Round, [fields])

    assert prepared.send([(sql, params)]) == [1]

    written = Round.objects.get(round_id=fields["round_id"])
    expected = model_to_dict(by_orm, exclude=["round_id", "session_id"])
    assert model_to_dict(written, exclude=["round_id", "session_id"]) == expected
    assert written.result == Decimal("-12.50")
    assert written.play == {}  # the model's default, as create() gives it
    assert written.opened_at == fields["opened_at"]


def test_a_malformed_id_is_refused_by_the_database_and_nothing_is_written() -> None:
    sql, params = prepared.insert(Round, [round_fields(round_id="not-a-uuid")])
    with pytest.raises(DataError, match="uuid"), transaction.atomic():
        prepared.send([(sql, params)])
    assert not Round.objects.exists()


def test_a_prepared_read_builds_the_instance_the_orm_would() -> None:
    fields = round_fields(point=6, status=RoundStatus.OUTCOME)
    Round.objects.create(**fields)

    found = prepared.fetch_all(
        f"SELECT {prepared.columns(Round, 'r')} FROM games_round AS r WHERE r.round_id = %s",
        [uuid.UUID(str(fields["round_id"]))], Round)

    assert len(found) == 1
    assert model_to_dict(found[0]) == model_to_dict(Round.objects.get(round_id=fields["round_id"]))
    assert found[0].outcome == {"number": 17}  # JSON parsed, as the ORM's converters do


def test_several_statements_go_in_one_pipeline_and_one_failure_fails_them_all() -> None:
    first = round_fields()
    duplicate = round_fields(round_id=first["round_id"])
    other = round_fields()

    with pytest.raises(IntegrityError), transaction.atomic():
        prepared.send([prepared.insert(Round, [first]), prepared.insert(Round, [other]),
                       prepared.insert(Round, [duplicate])])

    assert not Round.objects.filter(round_id__in=[first["round_id"], other["round_id"]]).exists()
    counts = prepared.send([prepared.insert(Round, [first]), prepared.insert(Round, [other])])
    assert counts == [1, 1]


def test_hot_path_statements_are_prepared_on_the_server_once() -> None:
    # Django turns psycopg's preparation off unless OPTIONS says otherwise: then every "prepared"
    # statement was parsed and planned again on each run. PostgreSQL's own view says whether the
    # session holds the statement, and how often it ran as a prepared statement.
    fields = round_fields()
    sql, params = prepared.insert(Round, [fields])
    prepared.send([(sql, params)])
    for _ in range(2):
        sql, params = prepared.insert(Round, [round_fields()])
        prepared.send([(sql, params)])

    with prepared.execute(
        "SELECT count(*), coalesce(sum(generic_plans + custom_plans), 0)"
        " FROM pg_prepared_statements WHERE statement = %s", [prepared.numbered(sql)],
    ) as cursor:
        statements, runs = cursor.fetchone()
    assert statements == 1
    assert runs == 3
