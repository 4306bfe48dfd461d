from pathlib import Path

from django.db import migrations

from eventstore.sqlfiles import run_sql_file

SQL = Path(__file__).resolve().parent.parent / "sql" / "0002_append_lock.sql"


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0002_append_only_triggers")]
    operations = [run_sql_file(SQL)]
