"""Player names and scoring-table names are unique in a group ignoring case. Rows that already
clash are renamed "Name (2)", "Name (3)"… (the earliest row keeps its name) before the
constraints are added."""

import django.db.models.fields.json
import django.db.models.functions.text
from django.db import migrations, models


def _free_name(name: str, taken: set[str], limit: int) -> str:
    number = 2
    while True:
        suffix = f" ({number})"
        candidate = name[: limit - len(suffix)] + suffix
        if candidate.lower() not in taken:
            return candidate
        number += 1


def rename_clashes(apps, schema_editor):
    Player = apps.get_model("companion", "Player")
    ScoringTable = apps.get_model("companion", "ScoringTable")
    for model, name_of, rename, limit in (
        (Player, lambda row: row.name, _rename_player, 60),
        (ScoringTable, lambda row: row.rules_json.get("name", ""), _rename_table, 40),
    ):
        rows = list(model.objects.order_by("group_id", "pk"))
        # A new name must not clash with any row, even one not reached yet.
        every = {(row.group_id, name_of(row).lower()) for row in rows}
        seen: set[tuple[int, str]] = set()
        for row in rows:
            name = name_of(row)
            if (row.group_id, name.lower()) in seen:
                taken = {taken for group, taken in every if group == row.group_id}
                name = _free_name(name, taken, limit)
                rename(row, name)
                every.add((row.group_id, name.lower()))
            seen.add((row.group_id, name.lower()))


def _rename_player(player, name: str) -> None:
    player.name = name
    player.save(update_fields=["name"])


def _rename_table(table, name: str) -> None:
    table.rules_json = {**table.rules_json, "name": name}
    table.save(update_fields=["rules_json"])


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0010_confirmations"),
    ]

    operations = [
        migrations.RunPython(rename_clashes, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="player",
            name="unique_player_name_in_group",
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                models.F("group"),
                django.db.models.functions.text.Lower("name"),
                name="unique_player_name_in_group",
                violation_error_message="Another player on the roster already has this name.",
            ),
        ),
        migrations.AddConstraint(
            model_name="scoringtable",
            constraint=models.UniqueConstraint(
                models.F("group"),
                django.db.models.functions.text.Lower(
                    django.db.models.fields.json.KT("rules_json__name")
                ),
                name="unique_table_name_in_group",
                violation_error_message="The group already has a table with this name.",
            ),
        ),
    ]
