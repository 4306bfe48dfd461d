"""One hash chain per casino: each event's number in its casino's chain, filled once for the
events recorded before (their data and hashes unchanged), then the per-casino lock and check."""

from pathlib import Path

from django.db import migrations, models

from casino.sqlfiles import run_sql_file

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
        run_sql_file(SQL / "0004_casino_chains.sql"),
    ]
