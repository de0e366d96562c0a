"""`python manage.py import_group FILE [--name NAME] [--member USERNAME]`: an export file as a new
group. Its members are the file's members who have an account here, with the file's roles, and
every ``--member``, an admin (`companion.exchange.import_group`). The import runs here, in this
process, not as a job, and the group's log says someone imported it."""

from __future__ import annotations

import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from companion import exchange


class Command(BaseCommand):
    help = "Make a new group from an export file; nothing is made if the file has a problem."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the export file ('-' for standard input)")
        parser.add_argument("--name", help="the new group's name (default: the file's)")
        parser.add_argument(
            "--member",
            action="append",
            default=[],
            metavar="USERNAME",
            help="make this account a member too (repeatable)",
        )

    def handle(self, *args, file: str, name: str | None, member: list[str], **options) -> None:
        users = get_user_model().objects
        extra = []
        for username in member:
            user = users.filter(username=username).first()
            if user is None:
                raise CommandError(f"--member {username!r}: no account has that username")
            extra.append(user)
        try:
            text = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from None
        try:
            # Read as it is written, a game at a time: a refused file leaves nothing.
            export = exchange.read(text)
            accounts = {user.username: user for user in users.filter(username__in=export.joined)}
            members = [accounts[username] for username in export.joined if username in accounts]
            members += extra
            imported = exchange.import_group(export, name=name, members=members)
        except exchange.ExchangeError as error:
            raise CommandError(f"{file}: {error}") from None
        group = imported.group
        members = ", ".join(user.get_username() for user in group.members.order_by("pk"))
        counts = export.counts
        self.stdout.write(
            f"Imported {group.name} (group {group.pk}): {counts['players']}, "
            f"{counts['games']}, {counts['hands']}; members: {members or 'none'}."
        )
        if imported.missing:
            self.stderr.write(
                "No account here for " + ", ".join(imported.missing) + ": their links are empty."
            )
