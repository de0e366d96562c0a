"""`python manage.py runlan`: the development server for the whole table (`make run` calls it).
It listens on every interface, so the other phones on the local network can open the app, and
prints the address they open, with a QR code of it for their cameras."""

from __future__ import annotations

import io

import segno
from django.conf import settings
from django.core.management import get_commands, load_command_class

from companion import lan

# Whichever runserver the installed apps provide (whitenoise's, which leaves static files to it).
Runserver = type(load_command_class(get_commands()["runserver"], "runserver"))


class Command(Runserver):
    help = "Start the development server for the phones on the local network too."
    default_addr = "0.0.0.0"
    default_addr_ipv6 = "::"

    def on_bind(self, server_port: int) -> None:
        super().on_bind(server_port)
        if self.addr not in ("0", "0.0.0.0", "::") or not settings.LAN_ADDRESS:
            return
        url = lan.url(settings.LAN_ADDRESS, server_port)
        self.stdout.write(self.style.SUCCESS(f"\nThe other phones at the table open {url}"))
        self.stdout.write("or scan this code (the home page shows it too):")
        # Drawn whole first: the command's output would end each of segno's pieces with a newline.
        drawing = io.StringIO()
        segno.make(url, error="m").terminal(out=drawing, compact=True)
        self.stdout.write(drawing.getvalue(), ending="")
