"""The store's own numbers for the events its follower applies, from a sequence: followers of
different casinos run side by side, each taking its numbers (unique; in order for each casino)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("cells", "0001_initial")]

    operations = [
        migrations.RunSQL("CREATE SEQUENCE cells_store_position",
                          "DROP SEQUENCE cells_store_position"),
    ]
