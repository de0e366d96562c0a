"""`python manage.py export_group GROUP_ID [FILE]`: a group's export file (standard output
without FILE), the same file its "Export everything" link gives."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from companion import exchange
from companion.models import Group


class Command(BaseCommand):
    help = "Write a group's export: players, scoring tables, games, hands and their history."

    def add_arguments(self, parser) -> None:
        parser.add_argument("group_id", type=int)
        parser.add_argument("file", nargs="?", help="where to write it (default: standard output)")

    def handle(self, *args, group_id: int, file: str | None, **options) -> None:
        group = Group.objects.filter(pk=group_id).first()
        if group is None:
            raise CommandError(f"no group has the id {group_id}")
        text = exchange.dumps(group)
        if file is None or file == "-":
            self.stdout.write(text)
            return
        Path(file).write_text(text + "\n", encoding="utf-8")
        self.stderr.write(f"Wrote {group.name} (group {group.pk}) to {file}.")
