"""`python manage.py restore FILE`: the database as `backup FILE` copied it. It refuses to
overwrite a database that holds anything unless asked to (`--force`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from companion.management.commands.backup import run_pg_tool

# What `migrate` alone puts in a new database: it is empty all the same.
MIGRATE_FILLS = {"django_migrations", "django_content_type", "auth_permission"}


def holds_data() -> bool:
    tables = set(connection.introspection.table_names()) - MIGRATE_FILLS
    with connection.cursor() as cursor:
        for table in sorted(tables):
            cursor.execute(f"SELECT 1 FROM {connection.ops.quote_name(table)} LIMIT 1")
            if cursor.fetchone():
                return True
    return False


class Command(BaseCommand):
    help = "Put back the database from a file that `backup` wrote."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="a backup written by `manage.py backup`")
        parser.add_argument(
            "--force",
            action="store_true",
            help="replace a database that holds data (everything in it is lost)",
        )

    def handle(self, *args, file: str, force: bool, **options) -> None:
        source = Path(file)
        if not source.is_file():
            raise CommandError(f"no backup at {file}")
        if not force and holds_data():
            raise CommandError(
                "the database holds data already: restore into a new one, or add --force "
                "to replace everything in it"
            )
        if connection.vendor == "sqlite":
            self.sqlite_restore(source)
        elif connection.vendor == "postgresql":
            connection.close()
            run_pg_tool(
                [
                    "pg_restore",
                    "--clean",
                    "--if-exists",
                    "--no-owner",
                    "--no-privileges",
                    "--single-transaction",
                    "--exit-on-error",
                    "--dbname",
                    connection.settings_dict["NAME"],
                    str(source),
                ]
            )
        else:
            raise CommandError(f"no restore for a {connection.vendor} database")
        self.stderr.write(f"Restored the database from {file}.")

    def sqlite_restore(self, path: Path) -> None:
        backup = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            try:
                backup.execute("SELECT count(*) FROM django_migrations").fetchone()
            except sqlite3.DatabaseError:
                raise CommandError(f"{path} is not a backup of this app's database") from None
            connection.ensure_connection()
            backup.backup(connection.connection)
        finally:
            backup.close()
