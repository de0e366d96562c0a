"""Work that must not run in a request, run by the task worker (`manage.py db_worker`)."""

from __future__ import annotations

from django_tasks import task

from companion.models import PlayerLadder


@task()
def rerate(group_id: int) -> None:
    """Replay a group's ratings after a change to one of its earlier games."""
    PlayerLadder.rerate(group_id)
