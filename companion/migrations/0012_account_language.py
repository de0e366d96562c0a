"""An account's language: the switch's choice, brought back by a login on another phone."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0011_names_unique_ignoring_case"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="AccountLanguage",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("code", models.CharField(max_length=7)),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("code__in", ["zh-hans", "en", "fr", "es", "pt"])),
                        name="a_language_the_site_speaks",
                    )
                ],
            },
        ),
    ]
