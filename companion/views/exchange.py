"""A group's export (all of it as JSON, its hands as CSV), and an export imported anew."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _

from companion import exchange
from companion.display import joined
from companion.forms.exchange import GroupImportForm
from companion.models import Group, ImportBusy, ImportJob
from companion.tasks import run_import
from companion.views.methods import page_and_form, require_POST, require_safe


@require_safe
@login_required
def group_export(request: HttpRequest, group_id: int) -> StreamingHttpResponse:
    """Everything the group holds, as one JSON file that the import page reads back: sent a
    game at a time, so that a long history never sits whole in memory."""
    group = get_object_or_404(Group.objects.for_member(request.user), pk=group_id)
    response = StreamingHttpResponse(exchange.json_chunks(group), content_type="application/json")
    response["Content-Disposition"] = content_disposition_header(True, _filename(group, "json"))
    return response


@require_safe
@login_required
def group_export_csv(request: HttpRequest, group_id: int) -> StreamingHttpResponse:
    """Every hand of every game, one row each, for a spreadsheet; sent a row at a time."""
    group = get_object_or_404(Group.objects.for_member(request.user), pk=group_id)
    response = StreamingHttpResponse(
        exchange.csv_lines(group), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(True, _filename(group, "csv"))
    return response


@page_and_form
@login_required
def group_import(request: HttpRequest) -> HttpResponse:
    """Make a new group from an export file, with the importing user as its one member: the
    file is kept for a job, which reads it after the request; the page lists the account's
    imports (how far each has come, what it made or why the file was refused) and watches the
    running one."""
    form = GroupImportForm()
    if request.method == "POST":
        form = GroupImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            # The job and its task are committed together (the queue is in the database): a
            # worker never takes a task whose job it cannot see.
            with transaction.atomic():
                job, made = ImportJob.start(
                    request.user,
                    form.cleaned_data["file"],
                    name=form.cleaned_data["name"],
                    request_key=form.cleaned_data["request_key"],
                    language=request.LANGUAGE_CODE,
                )
                if made:
                    run_import.enqueue(job.pk)
        except ImportBusy as busy:
            form.add_error(
                "file",
                _("Your import of %(file)s is still running: one import at a time.")
                % {"file": busy.job.file_name},
            )
        else:
            job.refresh_from_db()
            if job.state == ImportJob.State.SUCCEEDED and job.group is not None:
                # Done already (a quick worker, or tasks run as they are enqueued).
                for level, text in _said(job):
                    messages.add_message(request, level, text)
                return redirect(job.group)
            return _import_page(request, GroupImportForm())
    return render(request, _template(request), _page(request, form))


FINISHED = (ImportJob.State.SUCCEEDED, ImportJob.State.FAILED)


@require_POST
@login_required
def dismiss_import(request: HttpRequest) -> HttpResponse:
    """Take a finished import (``job``) off the account's list."""
    ImportJob.objects.filter(
        user=request.user, pk=_number(request.POST.get("job")), state__in=FINISHED
    ).delete()
    return _import_page(request, GroupImportForm())


def _import_page(request: HttpRequest, form: GroupImportForm) -> HttpResponse:
    """After a POST: the page again, from fresh data (htmx), else a redirect to it."""
    if request.htmx:
        return render(request, _template(request), _page(request, form))
    return redirect("group_import")


def _template(request: HttpRequest) -> str:
    """The page, or its list of imports for htmx (watching the running one, or dismissing)."""
    return "companion/group_import.html" + ("#imports" if request.htmx else "")


def _page(request: HttpRequest, form: GroupImportForm) -> dict:
    jobs = list(ImportJob.of(request.user))
    return {
        "form": form,
        "jobs": [(job, _said(job)) for job in jobs],
        "watching": any(job.active for job in jobs),
    }


def _said(job: ImportJob) -> list[tuple[int, str]]:
    """What a finished import says: what it made, and whom the file credits that nobody here
    is."""
    if job.state != ImportJob.State.SUCCEEDED or job.group is None:
        return []
    said = [
        (
            messages.SUCCESS,
            # Translators: %(players)s, %(games)s and %(hands)s are counts such as
            # "5 players", "1 game", "2 hands".
            _("Imported %(group)s: %(players)s, %(games)s, %(hands)s.")
            % {"group": job.group, **exchange.counted(job.players, job.games, job.hands)},
        )
    ]
    if job.missing:
        said.append(
            (
                messages.WARNING,
                _(
                    "These usernames in the file are nobody you play with here, so what the "
                    "file credits to them is credited to nobody: %(names)s."
                )
                % {"names": joined(job.missing)},
            )
        )
    return said


def _number(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() and len(value) < 19 else None


def _filename(group: Group, extension: str) -> str:
    name = slugify(group.name) or "group"
    return f"{name}-{timezone.localdate().isoformat()}.{extension}"
