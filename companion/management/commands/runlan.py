"""`python manage.py runlan`: the development server for the whole table (`make run` calls it).
It listens on every interface, so the other phones on the local network can open the app, and
prints the address they open, with a QR code of it for their cameras; beside it, the demo
account's password, new at every start: anyone on the same Wi-Fi can reach the app."""

from __future__ import annotations

import io
import os
import secrets

import segno
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import get_commands, load_command_class

from companion import lan
from companion.management.commands.demo import DEMO_USER

# The demo account's password for this start: the autoreloader's servers inherit it.
DEMO_PASSWORD_VARIABLE = "TRACTOR_DEMO_PASSWORD"

# Whichever runserver the installed apps provide (whitenoise's, which leaves static files to it).
Runserver = type(load_command_class(get_commands()["runserver"], "runserver"))


class Command(Runserver):
    help = "Start the development server for the phones on the local network too."
    default_addr = "0.0.0.0"
    default_addr_ipv6 = "::"

    def run(self, **options) -> None:
        os.environ.setdefault(DEMO_PASSWORD_VARIABLE, new_demo_password())
        super().run(**options)

    def on_bind(self, server_port: int) -> None:
        super().on_bind(server_port)
        self.demo_login()
        if self.addr not in ("0", "0.0.0.0", "::") or not settings.LAN_ADDRESS:
            return
        url = lan.url(settings.LAN_ADDRESS, server_port)
        self.stdout.write(self.style.SUCCESS(f"\nThe other phones at the table open {url}"))
        self.stdout.write("or scan this code (the home page shows it too):")
        # Drawn whole first: the command's output would end each of segno's pieces with a newline.
        drawing = io.StringIO()
        segno.make(url, error="m").terminal(out=drawing, compact=True)
        self.stdout.write(drawing.getvalue(), ending="")

    def demo_login(self) -> None:
        """Give the demo account (if `manage.py demo` made it) this start's password, and say it."""
        password = os.environ.get(DEMO_PASSWORD_VARIABLE)
        demo = User.objects.filter(username=DEMO_USER).first()
        if demo is None or not password:
            return
        demo.set_password(password)
        demo.save(update_fields=["password"])
        self.stdout.write(
            self.style.SUCCESS(
                f"\nLog in as {DEMO_USER!r} with password {password!r} (a new one at every start)."
            )
        )


def new_demo_password() -> str:
    """Random, yet quick to type on a phone: three groups of four letters and digits."""
    return "-".join(secrets.token_hex(2) for _ in range(3))
