# A migration of its own: PostgreSQL alters no table whose rows the same transaction wrote.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0014_ladder_rows_counted"),
    ]

    operations = [
        migrations.AlterField(
            model_name="gamesummary",
            name="group",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="summaries",
                to="companion.group",
            ),
        ),
        migrations.AlterField(
            model_name="gamesummary",
            name="played",
            field=models.DateTimeField(),
        ),
    ]
