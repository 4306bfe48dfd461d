"""A casino's ``recorded_at`` never goes back within its chain (issue 34): the head reads give
the casino's last ``recorded_at``, and the append stamps no earlier time."""

from pathlib import Path

from django.db import migrations

from eventstore.sqlfiles import run_sql_file

SQL = Path(__file__).resolve().parent.parent / "sql"


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0005_head_with_the_lock")]
    operations = [run_sql_file(SQL / "0006_recorded_at_never_back.sql")]
