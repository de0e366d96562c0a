# A migration of its own: PostgreSQL creates no index (Django makes the new ones at a migration's
# end) on a table whose rows the same transaction wrote.

from django.db import migrations


def fill(apps, schema_editor):
    """Each summary's group and start, a summary without hands for a game that had none yet,
    then every group's ladder counted from its summaries."""
    from companion.models import rebuild_ladder

    summaries = apps.get_model("companion", "GameSummary")
    for summary in summaries.objects.select_related("game").iterator():
        summary.group_id, summary.played = summary.game.group_id, summary.game.created
        summary.save(update_fields=["group", "played"])
    summaries.objects.bulk_create(
        summaries(game_id=pk, group_id=group, played=created, version=version, hands=[])
        for pk, group, created, version in apps.get_model("companion", "Game")
        .objects.filter(summary=None)
        .values_list("pk", "group_id", "created", "version")
    )
    for group_id in apps.get_model("companion", "Group").objects.values_list("pk", flat=True):
        rebuild_ladder(group_id, apps)


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0014_ladder_rows"),
    ]

    operations = [
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
