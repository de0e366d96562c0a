# A migration of its own: PostgreSQL creates no index (Django makes the new ones at a migration's
# end) on a table whose rows the same transaction wrote.

from django.db import migrations


def fill(apps, schema_editor):
    """Each summary's group and start, then every group's ladder counted from its summaries."""
    from companion.models import rebuild_ladder

    summaries = apps.get_model("companion", "GameSummary")
    for summary in summaries.objects.select_related("game").iterator():
        summary.group_id, summary.played = summary.game.group_id, summary.game.created
        summary.save(update_fields=["group", "played"])
    for group_id in apps.get_model("companion", "Group").objects.values_list("pk", flat=True):
        rebuild_ladder(group_id, apps)


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0014_ladder_rows"),
    ]

    operations = [
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
