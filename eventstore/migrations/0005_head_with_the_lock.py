"""The append's head read with the casino's lock, the position checked by the INSERT
(docs/adr/0010-head-with-the-lock.md): two new functions, ``event_append_begin`` and
``event_append_at``. Reversed, they stay (no code before calls them)."""

from pathlib import Path

from django.db import migrations

from eventstore.sqlfiles import run_sql_file

SQL = Path(__file__).resolve().parent.parent / "sql"


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0004_one_chain_per_casino")]
    operations = [run_sql_file(SQL / "0005_head_with_the_lock.sql")]
