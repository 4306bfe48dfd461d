"""The tables written on every round carry no index that another one already covers: each index
is written on every insert (and in the WAL flushed at every commit)."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db

HOT_TABLES = ["event", "command_record", "games_round", "games_bet", "journal_entry",
              "journal_line", "ledger_account", "ledger_balance", "ledger_table_day"]


def _indexes(table: str) -> list[tuple[str, bool, list[str], list[str]]]:
    """(name, unique, columns in order, operator classes) of each index of ``table``."""
    with connection.cursor() as cursor:
        cursor.execute("""
            SELECT i.relname, x.indisunique,
                   array(SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY AS k(num, n)
                         JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.num
                         ORDER BY k.n),
                   array(SELECT o.opcname FROM unnest(x.indclass) WITH ORDINALITY AS c(oid, n)
                         JOIN pg_opclass o ON o.oid = c.oid ORDER BY c.n)
              FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
             WHERE x.indrelid = %s::regclass""", [table])
        return [(name, unique, list(cols), list(ops)) for name, unique, cols, ops in cursor]


@pytest.mark.parametrize("table", HOT_TABLES)
def test_no_index_is_covered_by_another(table: str) -> None:
    indexes = _indexes(table)
    assert indexes, f"{table} has no index at all"
    covered = [
        f"{name} {cols} is covered by {other} {other_cols}"
        for name, unique, cols, ops in indexes if not unique
        for other, _, other_cols, other_ops in indexes
        if other != name and other_cols[:len(cols)] == cols and other_ops[:len(ops)] == ops
    ]
    assert covered == []


@pytest.mark.parametrize("table", HOT_TABLES)
def test_no_pattern_index_for_like_queries_nobody_makes(table: str) -> None:
    pattern = [name for name, _, _, ops in _indexes(table)
               if any(op.endswith("_pattern_ops") for op in ops)]
    assert pattern == []
