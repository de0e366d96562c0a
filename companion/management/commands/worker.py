"""`python manage.py worker`: the task worker (Django's `db_worker`), which runs the imports. It
first takes away what a killed run of it left (`exchange.clean_up_imports`), then does so every few
minutes for any worker's runs that went silent."""

from __future__ import annotations

import logging
import socket
import threading

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import close_old_connections, connection

from companion import exchange

CLEAN_EVERY = 300  # seconds
logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Run the task worker, after cleaning up what a killed worker left."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--worker-id",
            default=socket.gethostname()[:64],
            help="this worker's name, the same at every start and unique among the workers "
            "(default: the machine's name)",
        )
        parser.add_argument(
            "--interval", type=float, default=1, help="seconds between looks at the queue"
        )

    def handle(self, *args, worker_id: str, interval: float, **options) -> None:
        cleaned = exchange.clean_up_imports(worker=worker_id)
        if cleaned:
            self.stderr.write(f"Took away {cleaned} import(s) cut off before they were done.")
        connection.close()
        threading.Thread(target=_clean_up_now_and_then, daemon=True).start()
        call_command(
            "db_worker",
            worker_id=worker_id,
            interval=interval,
            reload=False,
            startup_delay=False,
            verbosity=options["verbosity"],
        )


def _clean_up_now_and_then() -> None:
    while not threading.Event().wait(CLEAN_EVERY):
        close_old_connections()
        try:
            exchange.clean_up_imports()
        except Exception:  # the next round tries again; the worker goes on meanwhile
            logger.exception("Cleaning up cut-off imports failed")
        finally:
            connection.close()
