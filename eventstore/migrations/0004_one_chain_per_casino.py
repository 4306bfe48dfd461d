"""One hash chain per casino: each event's number in its casino's chain, filled once for the
events recorded before (their data and hashes unchanged), then the per-casino lock and check.
Reversed, the one global lock and check of 0003 come back (its SQL run again)."""

from pathlib import Path

from django.db import migrations, models

from eventstore.sqlfiles import run_sql_file

SQL = Path(__file__).resolve().parent.parent / "sql"


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0003_append_lock")]
    operations = [
        migrations.AddField(model_name="storedevent", name="sequence",
                            field=models.BigIntegerField(null=True)),
        run_sql_file(SQL / "0003_number_chains.sql"),
        migrations.AlterField(model_name="storedevent", name="sequence",
                              field=models.BigIntegerField()),
        migrations.AddConstraint(
            model_name="storedevent",
            constraint=models.UniqueConstraint(fields=("casino_id", "sequence"),
                                               name="event_casino_sequence_unique"),
        ),
        migrations.RunSQL(
            (SQL / "0004_casino_chains.sql").read_text(encoding="utf-8").partition(
                "\n--- reverse:\n")[0],
            "DROP FUNCTION IF EXISTS event_position_lock(bigint);"
            "DROP FUNCTION IF EXISTS event_append_head(bigint, text, bigint);"
            "DROP FUNCTION IF EXISTS event_append_lock(bigint, text, text);"
            + (SQL / "0002_append_lock.sql").read_text(encoding="utf-8").partition(
                "\n--- reverse:\n")[0]),
    ]
