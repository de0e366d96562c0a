"""`python manage.py backup FILE`: a consistent copy of the whole database, taken while the app
runs (`restore` puts it back)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection


def pg_environment(settings: dict) -> dict[str, str]:
    """The environment that points pg_dump and pg_restore at the app's PostgreSQL database."""
    names = {"NAME": "PGDATABASE", "USER": "PGUSER", "PASSWORD": "PGPASSWORD"}
    names |= {"HOST": "PGHOST", "PORT": "PGPORT"}
    return os.environ | {env: str(settings[key]) for key, env in names.items() if settings.get(key)}


def run_pg_tool(arguments: list[str]) -> None:
    try:
        result = subprocess.run(
            arguments,
            env=pg_environment(connection.settings_dict),
            capture_output=True,
            text=True,
            check=False,
        )
    except FileNotFoundError:
        raise CommandError(
            f"{arguments[0]} is not installed: it comes with PostgreSQL's client tools "
            "(Debian: apt-get install postgresql-client)"
        ) from None
    if result.returncode:
        raise CommandError(f"{arguments[0]} failed: {result.stderr.strip()}")


class Command(BaseCommand):
    help = (
        "Copy the whole database into FILE while the app runs: SQLite's online backup, or "
        "pg_dump's archive for PostgreSQL. `restore FILE` puts it back."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the backup to write (it must not exist yet)")

    def handle(self, *args, file: str, **options) -> None:
        target = Path(file)
        if target.exists():
            raise CommandError(f"{file} exists already: back up to a new file")
        # Written beside the target and renamed when complete: a failed backup leaves no file
        # that looks like a good one.
        partial = target.with_name(target.name + ".partial")
        try:
            if connection.vendor == "sqlite":
                self.sqlite_backup(partial)
            elif connection.vendor == "postgresql":
                run_pg_tool(["pg_dump", "--format=custom", "--file", str(partial)])
            else:
                raise CommandError(f"no backup for a {connection.vendor} database")
            partial.rename(target)
        finally:
            partial.unlink(missing_ok=True)
        self.stderr.write(f"Backed up the database to {file}.")

    def sqlite_backup(self, path: Path) -> None:
        # The online backup API copies a snapshot: writes that other processes have not
        # committed yet are not in it, and they are not held up for long.
        connection.ensure_connection()
        destination = sqlite3.connect(path)
        try:
            connection.connection.backup(destination)
        finally:
            destination.close()
