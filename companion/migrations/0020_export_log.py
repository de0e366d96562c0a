"""The group's log says when the group was imported from a file (export version 4)."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0019_game_lines_checked"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="groupchange",
            name="group_change_action_known",
        ),
        migrations.AlterField(
            model_name="groupchange",
            name="action",
            field=models.CharField(
                choices=[
                    ("created", "Created"),
                    ("renamed", "Renamed"),
                    ("confirmations_on", "Confirmations On"),
                    ("confirmations_off", "Confirmations Off"),
                    ("table_added", "Table Added"),
                    ("table_changed", "Table Changed"),
                    ("new_invite", "New Invite"),
                    ("new_share_link", "New Share Link"),
                    ("joined", "Joined"),
                    ("left", "Left"),
                    ("removed", "Removed"),
                    ("made_admin", "Made Admin"),
                    ("no_longer_admin", "No Longer Admin"),
                    ("retired", "Retired"),
                    ("brought_back", "Brought Back"),
                    ("imported", "Imported"),
                ],
                max_length=20,
            ),
        ),
        migrations.AddConstraint(
            model_name="groupchange",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "action__in",
                        [
                            "created",
                            "renamed",
                            "confirmations_on",
                            "confirmations_off",
                            "table_added",
                            "table_changed",
                            "new_invite",
                            "new_share_link",
                            "joined",
                            "left",
                            "removed",
                            "made_admin",
                            "no_longer_admin",
                            "retired",
                            "brought_back",
                            "imported",
                        ],
                    )
                ),
                name="group_change_action_known",
            ),
        ),
    ]
