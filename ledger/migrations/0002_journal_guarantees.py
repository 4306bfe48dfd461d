from pathlib import Path

from django.db import migrations

from eventstore.sqlfiles import run_sql_file

SQL = Path(__file__).resolve().parent.parent / "sql" / "0001_journal.sql"


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0001_initial"),
        ("eventstore", "0002_append_only_triggers"),  # refuse_rewrite()
    ]
    operations = [run_sql_file(SQL)]
