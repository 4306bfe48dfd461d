"""An event carried from another cell with its casino keeps the position it was appended at,
which its hash covers (docs/event-hash.md, § Cells; docs/cells.md, § Moving a casino)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0006_recorded_at_never_back")]
    operations = [
        migrations.AddField(model_name="storedevent", name="recorded_position",
                            field=models.BigIntegerField(blank=True, null=True)),
    ]
