"""A prize may be paid in instalments: what the cage has paid so far (never more than the prize).

Prizes paid before were paid in full: their ``paid_amount`` is their amount (as a rebuild gives).
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('casino', '0002_approval'),
        ('jackpots', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='jackpotprize',
            name='paid_amount',
            field=models.DecimalField(decimal_places=2, default=0, help_text='paid by the cage so far', max_digits=14),
        ),
        migrations.AlterField(
            model_name='jackpotprize',
            name='paid',
            field=models.BooleanField(default=False, help_text='paid in full'),
        ),
        migrations.RunSQL(
            "UPDATE jackpots_jackpotprize SET paid_amount = amount WHERE paid",
            reverse_sql=migrations.RunSQL.noop,
        ),
        migrations.AddConstraint(
            model_name='jackpotprize',
            constraint=models.CheckConstraint(condition=models.Q(('paid_amount__gte', 0), ('paid_amount__lte', models.F('amount'))), name='jackpot_prize_paid_at_most_owed'),
        ),
    ]
