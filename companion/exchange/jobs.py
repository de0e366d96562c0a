"""An import job, run by the task worker, and the clean-up after a worker stopped midway: the job
(`companion.models.ImportJob`) keeps the state; the exchange reads the file and writes the group."""

from __future__ import annotations

from functools import partial

from django.utils import translation
from django.utils.translation import gettext

from companion.exchange.errors import ExchangeError
from companion.exchange.importing import import_group, known_accounts, remove
from companion.exchange.reading import GroupExport, read
from companion.models import ImportJob


def cut_off() -> str:
    """Why an import that its worker's end cut off made nothing (in the active language)."""
    return gettext(
        "The import was cut off (the server stopped) before it was done; nothing of it was "
        "kept. Import the file again."
    )


def run_import(job: ImportJob, *, worker: str = "", accounts=None) -> None:
    """Import the job's file, once: a job that another run took (a task run again after a
    crash) is left alone. The file is deleted when the import ends, made or refused."""
    if not job.take(worker=worker):
        return
    with translation.override(job.language):
        try:
            export = read(job.data())
            job.counted(export.game_count)
            import_group(
                export,
                name=job.name or None,
                importer=job.user,
                accounts=known_accounts(job.user) if accounts is None else accounts,
                progress=job.progress,
                whole=partial(_succeeded, job, export),
            )
        except ExchangeError as error:
            job.fail(str(error))
            return
        except (KeyboardInterrupt, SystemExit):  # the worker stopped (`make serve` ended)
            job.fail(cut_off())
            raise
        except BaseException:
            job.fail(gettext("The import failed on the server; nothing of it was kept."))
            raise


def _succeeded(job: ImportJob, export: GroupExport, group, missing: tuple[str, ...]) -> None:
    job.succeeded(group, players=len(export.head.players), hands=export.hand_count, missing=missing)


def clean_up_imports(*, worker: str = "") -> int:
    """Take away what imports cut off left (their worker killed, the server stopped): the
    groups they were making, their files; they are refused, saying so. ``worker``: this
    worker's own runs are cut off (it is starting); others', once silent for `STALE`."""
    jobs = ImportJob.cut_off(worker=worker)
    for job in jobs:
        if job.group is not None:
            remove(job.group)
        with translation.override(job.language):
            job.fail(cut_off())
    return len(jobs)
