# Where each game stands, stored beside its hands so that lists of games need not read them.

from django.db import migrations, models

BATCH = 500


def fill(apps, schema_editor):
    """Everyone's level after a game's last hand (the seats' starting levels before one), and
    its number of hands."""
    summaries = apps.get_model("companion", "GameSummary")
    seats = apps.get_model("companion", "Seat")
    batch = []
    for summary in summaries.objects.iterator(chunk_size=BATCH):
        if summary.hands:
            summary.levels = summary.hands[-1][6]
        else:
            summary.levels = "".join(
                seats.objects.filter(game_id=summary.game_id)
                .order_by("position")
                .values_list("level", flat=True)
            )
        summary.hand_count = len(summary.hands)
        batch.append(summary)
        if len(batch) == BATCH:
            summaries.objects.bulk_update(batch, ["levels", "hand_count"])
            batch = []
    summaries.objects.bulk_update(batch, ["levels", "hand_count"])


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0017_cache_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamesummary",
            name="levels",
            field=models.CharField(default="", max_length=8),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="gamesummary",
            name="hand_count",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
