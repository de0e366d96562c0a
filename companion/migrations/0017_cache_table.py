# `manage.py migrate` alone prepares a database: the cache's table too, where the cache is one.

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    # Only the database caches have a table; with Redis this makes nothing.
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0015_group_roles"),
    ]

    operations = [
        migrations.RunPython(create_cache_table, migrations.RunPython.noop, elidable=True),
    ]
