from __future__ import annotations

from django.apps import AppConfig


class CompanionConfig(AppConfig):
    name = "companion"
    verbose_name = "Tractor Companion"

    def ready(self) -> None:
        # A login brings back the account's language; a change to an earlier game queues its
        # group's re-rating.
        from companion import languages, tasks  # noqa: F401
