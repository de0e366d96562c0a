from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0007_bounds"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="retired",
            field=models.BooleanField(default=False, verbose_name="retired"),
        ),
    ]
