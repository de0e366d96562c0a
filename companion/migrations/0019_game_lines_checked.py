# A migration of its own: PostgreSQL alters no table that the same transaction wrote.

import django.db.models.functions.text
import django.db.models.lookups
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0018_game_lines"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="gamesummary",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    django.db.models.lookups.GreaterThanOrEqual(
                        django.db.models.functions.text.Length("levels"), 4
                    ),
                    django.db.models.lookups.LessThanOrEqual(
                        django.db.models.functions.text.Length("levels"), 8
                    ),
                ),
                name="levels_of_every_seat",
            ),
        ),
    ]
