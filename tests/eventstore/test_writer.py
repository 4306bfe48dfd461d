"""The writer on its own: how it merges the changes of one row, groups the rows of one shape, and
keeps the order where order matters. Pure: the statements are inspected, nothing is sent."""

from __future__ import annotations

import uuid
from decimal import Decimal as D
from typing import Any

import pytest

from eventstore.changes import Column, Insert, Sql, Update, Upsert
from eventstore.writer import Reader, Writer
from games.models import Bet, Round, TableSession

R1, R2 = str(uuid.uuid4()), str(uuid.uuid4())
S1 = str(uuid.uuid4())


def statements(*changes: Any) -> list[tuple[str, list[Any]]]:
    writer = Writer()
    writer.add(changes)
    return [(sql, list(params)) for sql, params in writer.statements()]


def test_an_update_of_a_row_inserted_in_the_batch_changes_the_insert() -> None:
    (only,) = statements(
        Insert(TableSession, {"session_id": S1, "rounds": 0, "handle": D("0.00"),
                              "pending_bets": []}),
        Update(TableSession, {"session_id": S1}, add={"rounds": 1, "handle": D("30.00")},
               set={"current_round_id": R1}, extend={"pending_bets": [{"bet_id": "b1"}]}),
        Update(TableSession, {"session_id": S1}, add={"rounds": 1, "handle": D("12.50")},
               extend={"pending_bets": [{"bet_id": "b2"}]}),
    )
    sql, params = only
    assert sql.startswith('INSERT INTO "games_tablesession"')
    names = [f.attname for f in TableSession._meta.concrete_fields]
    row = dict(zip(names, params, strict=True))
    assert row["rounds"] == 2
    assert row["handle"] == D("42.50")  # 0 + 30.00 + 12.50
    assert row["current_round_id"] == R1
    assert row["pending_bets"].obj == [{"bet_id": "b1"}, {"bet_id": "b2"}]


def test_two_updates_of_one_row_are_one_statement() -> None:
    (only,) = statements(
        Update(TableSession, {"session_id": S1}, add={"rounds": 1}, set={"current_round_id": R1}),
        Update(TableSession, {"session_id": S1}, add={"handle": D("5.00"), "rounds": 0},
               set={"current_round_id": None, "craps_point": 4}),
    )
    sql, params = only
    assert sql == ('UPDATE "games_tablesession" SET "craps_point" = %s, "current_round_id" = %s, '
                   '"handle" = "handle" + %s, "rounds" = "rounds" + %s WHERE "session_id" = %s')
    assert params == [4, None, D("5.00"), 1, S1]


def test_a_set_after_an_addition_replaces_it_and_an_addition_after_a_set_adds_to_it() -> None:
    (only,) = statements(
        Update(TableSession, {"session_id": S1}, add={"handle": D("5.00")}),
        Update(TableSession, {"session_id": S1}, set={"handle": D("100.00")}),
        Update(TableSession, {"session_id": S1}, add={"handle": D("1.50")}),
    )
    assert only == ('UPDATE "games_tablesession" SET "handle" = %s WHERE "session_id" = %s',
                    [D("101.50"), S1])


def test_updates_of_several_rows_of_one_shape_are_one_statement() -> None:
    (only,) = statements(*[
        Update(Bet, {"round_id": R1, "bet_id": f"b{n}"}, set={"status": "won", "win": D(n)})
        for n in (1, 2, 3)])
    sql, params = only
    assert " FROM (VALUES (%s::" in sql
    assert sql.count("), (") == 2  # three rows
    assert sql.endswith('WHERE "games_bet"."bet_id" = v.k0 AND "games_bet"."round_id" = v.k1')
    assert params == ["b1", R1, "won", D(1), "b2", R1, "won", D(2), "b3", R1, "won", D(3)]


def test_a_raw_statement_is_a_barrier_nothing_merges_across_it() -> None:
    sent = statements(
        Insert(Round, {"round_id": R1, "version": 1}),
        Sql("UPDATE games_round SET version = version + 10 WHERE round_id = %s", [R1]),
        Update(Round, {"round_id": R1}, set={"version": 2}),
    )
    assert [sql.split()[0] for sql, _ in sent] == ["INSERT", "UPDATE", "UPDATE"]
    assert sent[1][0].startswith("UPDATE games_round SET version = version + 10")
    assert sent[2] == ('UPDATE "games_round" SET "version" = %s WHERE "round_id" = %s', [2, R1])


def test_an_update_by_a_key_that_is_not_unique_is_a_barrier() -> None:
    sent = statements(
        Insert(Bet, {"round_id": R1, "bet_id": "b1", "status": ""}),
        Update(Bet, {"round_id": R1}, set={"status": "returned"}),  # every bet of the round
        Insert(Bet, {"round_id": R1, "bet_id": "b2", "status": ""}),
    )
    assert [sql.split()[0] for sql, _ in sent] == ["INSERT", "UPDATE", "INSERT"]
    assert sent[1] == ('UPDATE "games_bet" SET "status" = %s WHERE "round_id" = %s',
                       ["returned", R1])


def test_an_update_by_a_key_that_is_not_unique_lets_other_models_pass_it() -> None:
    sent = statements(
        Insert(Round, {"round_id": R1, "version": 1}),
        Update(Bet, {"round_id": R1}, set={"status": "returned"}),
        Insert(Round, {"round_id": R2, "version": 1}),
    )
    assert [sql.split()[0] for sql, _ in sent] == ["INSERT", "UPDATE"]
    assert sent[0][0].count("), (") == 1  # both rounds in one INSERT


def test_a_column_copy_takes_the_value_set_before_it_in_the_batch() -> None:
    (inserted,) = statements(
        Insert(Round, {"round_id": R1, "outcome": None}),
        Update(Round, {"round_id": R1}, set={"outcome": {"number": 17}}),
        Update(Round, {"round_id": R1}, set={"settled_outcome": Column("outcome")}),
    )
    names = [f.attname for f in Round._meta.concrete_fields]
    row = dict(zip(names, inserted[1], strict=True))
    assert row["settled_outcome"].obj == {"number": 17}
    (updated,) = statements(
        Update(Round, {"round_id": R2}, set={"outcome": {"number": 3}}),
        Update(Round, {"round_id": R2}, set={"settled_outcome": Column("outcome")}),
    )
    assert updated[0] == ('UPDATE "games_round" SET "outcome" = %s, "settled_outcome" = %s '
                          'WHERE "round_id" = %s')
    assert updated[1][1].obj == {"number": 3}  # the value set, not the column's old one
    (copied,) = statements(Update(Round, {"round_id": R2},
                                  set={"settled_outcome": Column("outcome")}))
    assert copied[0] == ('UPDATE "games_round" SET "settled_outcome" = "games_round"."outcome" '
                         'WHERE "round_id" = %s')


def test_an_upsert_with_additions_proposes_its_row_without_them() -> None:
    from cage.models import ChipsInService

    key = {"casino_id": "lisboa", "chip_set": "main", "denomination": D("5.00")}
    sent = statements(Upsert(ChipsInService, key, values={"pieces": 0}, add={"pieces": -40}))
    assert [sql.split()[0] for sql, _ in sent] == ["INSERT", "UPDATE"]
    assert sent[0][0].endswith("ON CONFLICT (\"casino_id\", \"chip_set\", \"denomination\") "
                               "DO NOTHING")
    assert -40 not in sent[0][1]  # proposed with no pieces taken out
    assert 0 in sent[0][1]
    assert sent[1][1][0] == -40


def test_a_reader_serves_a_row_pending_as_an_insert_from_memory() -> None:
    writer = Writer()
    writer.add([Insert(TableSession, {"session_id": S1, "credits_amount": D("0.00")}),
                Update(TableSession, {"session_id": S1}, add={"credits_amount": D("25.00")})])
    row = Reader(writer).row(TableSession, session_id=S1)  # no database: it would fail here
    assert row is not None
    assert row["credits_amount"] == D("25.00")
    assert row["status"] == TableSession._meta.get_field("status").get_default()


@pytest.mark.django_db
@pytest.mark.parametrize("copy", [False, True])
def test_json_values_are_written_as_the_orm_reads_them_back(copy: bool) -> None:
    from eventstore.writer import guard

    sessions = [str(uuid.uuid4()) for _ in range(60)]  # past 50 rows a rebuild copies them
    chips = {"100.00": 2, "5.00": 40}
    # what COPY's text format must carry through: a tab, a new line, a backslash, a quote
    note = 'tab\there\nnew line, back\\slash, "quoted", \\N'
    colours = {"é-blue": {"player": "Zoë", "value": "5.00", "chips": 3}, 7: [1, None, True],
               "note": note}
    writer = Writer(copy=copy)

    def values(session_id: str, n: int) -> dict[str, object]:
        return {"session_id": session_id, "casino_id": "x", "table": f"t{n}", "game": "roulette",
                "gaming_day": "2026-12-03", "opened_at": "2026-12-03T10:00:00Z",
                "opened_by": "a", "opening": chips, "opening_amount": D("400.00"),
                "float_chips": chips, "colour_chips": colours,
                "pending_bets": [{"bet_id": "b1"}], "version": 1}

    with guard(writer):
        writer.add(Insert(TableSession, values(s, n)) for n, s in enumerate(sessions))
        writer.flush()
        writer.add([Update(TableSession, {"session_id": sessions[0]},
                           extend={"pending_bets": [{"bet_id": "b2", "at": "ü"}]})])
        writer.flush()
    first = TableSession.objects.get(session_id=sessions[0])
    assert first.float_chips == {"100.00": 2, "5.00": 40}
    # a key that is a number is text in JSON, as json.dumps and the ORM write it
    assert first.colour_chips == {"é-blue": {"player": "Zoë", "value": "5.00", "chips": 3},
                                  "7": [1, None, True], "note": note}
    assert first.colour_chips["note"] == "tab\there\nnew line, back\\slash, \"quoted\", \\N"
    assert first.pending_bets == [{"bet_id": "b1"}, {"bet_id": "b2", "at": "ü"}]
    assert TableSession.objects.filter(colour_chips=first.colour_chips).count() == 60
    # every column the rows left out holds what the ORM's own save gives it
    TableSession(**values(str(uuid.uuid4()), 1)).save()
    by_orm, by_writer = (TableSession.objects.filter(casino_id="x", table="t1").exclude(
        session_id__in=sessions).get(), TableSession.objects.get(session_id=sessions[1]))

    def columns(s: TableSession) -> dict[str, object]:
        return {f.attname: getattr(s, f.attname) for f in TableSession._meta.concrete_fields
                if f.attname not in ("id", "session_id")}

    assert columns(by_writer) == columns(by_orm)


def test_a_decimal_in_a_json_value_is_refused() -> None:
    (_, params), = statements(Insert(TableSession, {"session_id": S1,
                                                    "float_chips": {"100.00": D("2")}}))
    jsonb = next(p for p in params if getattr(p, "obj", None) == {"100.00": D("2")})
    with pytest.raises(TypeError):
        jsonb.dumps(jsonb.obj)  # money goes into JSON as text


def test_a_value_is_adapted_as_the_orm_sends_it() -> None:
    import datetime as dt
    import warnings

    from django.db import connection

    from eventstore.writer import table
    from games.models import RoundStatus

    aware = dt.datetime(2026, 12, 3, 20, 5, tzinfo=dt.UTC)
    naive = aware.replace(tzinfo=None)  # a time with no zone
    cases = [(Round, "status", RoundStatus.SETTLED), (Round, "opened_at", aware),
             (Round, "status", "betting"), (TableSession, "gaming_day", dt.date(2026, 12, 3)),
             (TableSession, "gaming_day", aware), (Round, "opened_at", naive)]
    for model, attname, value in cases:
        column = table(model).columns[attname]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a naive time, made aware
            orm = column.field.get_db_prep_save(value, connection)
            ours = column.adapt(value)
        assert (type(ours), ours) == (type(orm), orm), (attname, value)
    # a time with no zone is still made aware as the ORM makes it, a datetime into a date a date
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert table(Round).columns["opened_at"].adapt(naive).tzinfo is not None
    assert table(TableSession).columns["gaming_day"].adapt(aware) == dt.date(2026, 12, 3)


def test_a_raw_statement_that_names_its_tables_lets_other_models_merge_across_it() -> None:
    sent = statements(
        Insert(Round, {"round_id": R1, "version": 1}),
        Sql("UPDATE games_bet SET status = 'x' WHERE round_id = %s", [R1], tables=(Bet,)),
        Update(Round, {"round_id": R1}, set={"version": 2}),
        Insert(Bet, {"round_id": R1, "bet_id": "b1", "status": ""}),
    )
    # the round's insert took its update; the bet's insert stays after the statement
    assert [sql.split()[0] for sql, _ in sent] == ["INSERT", "UPDATE", "INSERT"]
    assert sent[0][0].startswith('INSERT INTO "games_round"')
    assert 2 in sent[0][1]
    assert sent[2][0].startswith('INSERT INTO "games_bet"')


@pytest.mark.django_db
def test_a_read_that_names_its_tables_is_answered_again_until_a_change_reaches_them() -> None:
    from ledger.models import Period

    writer = Writer()
    reader = Reader(writer)
    # clock_timestamp() differs at every run: the same answer means no second round trip
    query = "SELECT clock_timestamp(), %s::text"
    first = reader.fetch_one(query, ["a"], tables=(Period,))
    assert reader.fetch_one(query, ["a"], tables=(Period,)) == first
    assert reader.fetch_one(query, ["b"], tables=(Period,)) != first  # other parameters
    assert reader.fetch_one(query, ["a"]) != first  # a read that names no tables: run again
    # a change of another model, or a statement that names its other tables: still standing
    writer.add([Update(Round, {"round_id": R1}, set={"version": 2}),
                Sql("SELECT 1", [], tables=(Bet,))])
    assert reader.fetch_one(query, ["a"], tables=(Period,)) == first
    # a change that reaches the table it reads: read again (what is pending sent first)
    writer.add([Update(Period, {"casino_id": "nowhere", "day": "2026-12-01"},
                       set={"entries": 1})])
    second = reader.fetch_one(query, ["a"], tables=(Period,))
    assert second != first
    assert reader.fetch_one(query, ["a"], tables=(Period,)) == second
    # a raw statement that does not say what it reaches reaches everything
    writer.add([Sql("SELECT 1", [])])
    third = reader.fetch_one(query, ["a"], tables=(Period,))
    assert third != second
    # many changes of other models since (a follower's page): still standing
    writer.add([Update(Round, {"round_id": str(uuid.uuid4())}, set={"version": 2})
                for _ in range(5000)])
    assert reader.fetch_one(query, ["a"], tables=(Period,)) == third
    # the writer cleared (a rebuild's next batch): nothing read before stands
    writer.clear()
    assert reader.fetch_one(query, ["a"], tables=(Period,)) != third
