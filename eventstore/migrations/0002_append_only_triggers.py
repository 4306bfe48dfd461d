from pathlib import Path

from django.db import migrations

from eventstore.sqlfiles import run_sql_file

SQL = Path(__file__).resolve().parent.parent / "sql" / "0001_event_store.sql"


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0001_initial")]
    operations = [run_sql_file(SQL)]
