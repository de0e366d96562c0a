"""A hand without a trump suit is stored as "NT", as a declared trump already was ("" now only
means none said yet, which a recorded hand never is): in the hands and in their history."""

from django.db import migrations, models

NO_TRUMP = "NT"  # scoring.NO_TRUMP when this was written: a migration keeps its own values


def _respelt(apps, old: str, new: str) -> None:
    apps.get_model("companion", "Hand").objects.filter(trump=old).update(trump=new)
    changes = apps.get_model("companion", "HandChange").objects.all()
    for change in changes.filter(models.Q(before__trump=old) | models.Q(after__trump=old)):
        for snapshot in (change.before, change.after):
            if snapshot is not None and snapshot.get("trump") == old:
                snapshot["trump"] = new
        change.save(update_fields=["before", "after"])


def to_nt(apps, schema_editor):
    _respelt(apps, "", NO_TRUMP)


def to_blank(apps, schema_editor):
    _respelt(apps, NO_TRUMP, "")


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0023_portuguese_is_brazilian"),
    ]

    operations = [
        migrations.RunPython(to_nt, to_blank),
        migrations.AlterField(
            model_name="hand",
            name="trump",
            field=models.CharField(help_text="S H D C, or NT: no trump", max_length=2),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(trump__in=["S", "H", "D", "C", "NT"]), name="hand_trump_known"
            ),
        ),
    ]
