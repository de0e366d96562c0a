"""Portuguese is Brazilian Portuguese (`pt-br`): an account or an import that chose `pt` reads it."""

from django.db import migrations, models


def to_brazilian(apps, schema_editor):
    apps.get_model("companion", "AccountLanguage").objects.filter(code="pt").update(code="pt-br")
    apps.get_model("companion", "ImportJob").objects.filter(language="pt").update(language="pt-br")


def to_portuguese(apps, schema_editor):
    apps.get_model("companion", "AccountLanguage").objects.filter(code="pt-br").update(code="pt")
    apps.get_model("companion", "ImportJob").objects.filter(language="pt-br").update(language="pt")


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0022_trump_declared"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="accountlanguage",
            name="a_language_the_site_speaks",
        ),
        migrations.RunPython(to_brazilian, to_portuguese),
        migrations.AddConstraint(
            model_name="accountlanguage",
            constraint=models.CheckConstraint(
                condition=models.Q(code__in=["zh-hans", "en", "fr", "es", "pt-br"]),
                name="a_language_the_site_speaks",
            ),
        ),
    ]
