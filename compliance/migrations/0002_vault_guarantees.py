from pathlib import Path

from django.db import migrations

from eventstore.sqlfiles import run_sql_file

SQL = Path(__file__).resolve().parent.parent / "sql" / "0001_vault.sql"


class Migration(migrations.Migration):
    dependencies = [("compliance", "0001_patrons_and_alerts")]
    operations = [run_sql_file(SQL)]
