"""Group roles and the group's log. Each existing group's earliest member (who made it, or
imported it) becomes its admin; everyone else stays a member."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def earliest_member_is_admin(apps, schema_editor):
    Membership = apps.get_model("companion", "Membership")
    first = {}
    for membership in Membership.objects.order_by("joined", "pk"):
        first.setdefault(membership.group_id, membership.pk)
    Membership.objects.filter(pk__in=first.values()).update(role="admin")


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0014_ladder_rows_required"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="GroupChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "action",
                    models.CharField(
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
                        ],
                        max_length=20,
                    ),
                ),
                ("at", models.DateTimeField(default=django.utils.timezone.now)),
                ("by_name", models.CharField(blank=True, max_length=150)),
                ("member_name", models.CharField(blank=True, max_length=150)),
                ("before", models.CharField(blank=True, max_length=80)),
                ("after", models.CharField(blank=True, max_length=80)),
            ],
            options={
                "ordering": ["-at", "-pk"],
            },
        ),
        migrations.AddField(
            model_name="membership",
            name="role",
            field=models.CharField(
                choices=[("admin", "admin"), ("member", "member")], default="member", max_length=6
            ),
        ),
        migrations.RunPython(earliest_member_is_admin, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="membership",
            constraint=models.CheckConstraint(
                condition=models.Q(("role__in", ["admin", "member"])), name="membership_role_known"
            ),
        ),
        migrations.AddField(
            model_name="groupchange",
            name="by",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="groupchange",
            name="game",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="companion.game",
            ),
        ),
        migrations.AddField(
            model_name="groupchange",
            name="group",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="changes",
                to="companion.group",
            ),
        ),
        migrations.AddField(
            model_name="groupchange",
            name="member",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="groupchange",
            name="player",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="companion.player",
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
                        ],
                    )
                ),
                name="group_change_action_known",
            ),
        ),
    ]
