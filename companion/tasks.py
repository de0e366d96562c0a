"""Work that must not run in a request, run by the task worker (`manage.py worker`, which runs
Django's `db_worker` after cleaning up what a killed worker left)."""

from __future__ import annotations

from django.dispatch import receiver
from django_tasks import TaskContext, task

from companion import exchange
from companion.models import ImportJob, PlayerLadder
from companion.models.groups import ratings_wanted


@task()
def rerate(group_id: int) -> None:
    """Replay a group's ratings after a change to one of its earlier games."""
    PlayerLadder.rerate(group_id)


@receiver(ratings_wanted, dispatch_uid="companion.tasks.rerate")
def rerate_when_asked(sender, group_id: int, **kwargs) -> None:
    """A change to an earlier game asked for its group's ratings to be replayed: the models
    say so, and the task is queued here, above them."""
    rerate.enqueue(group_id)


@task(takes_context=True)
def run_import(context: TaskContext, job_id: int) -> None:
    """Import an uploaded export file as a new group (`exchange.run_import`)."""
    job = ImportJob.objects.filter(pk=job_id).first()
    if job is not None:
        ids = context.task_result.worker_ids
        exchange.run_import(job, worker=ids[-1] if ids else "")
