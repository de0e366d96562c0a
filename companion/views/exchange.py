"""A group's export (all of it as JSON, its hands as CSV), and an export imported anew."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _

from companion import exchange
from companion.display import joined
from companion.forms.exchange import GroupImportForm
from companion.models import Group
from companion.views.groups import member_group
from companion.views.methods import page_and_form, require_safe


@require_safe
@login_required
def group_export(request: HttpRequest, group_id: int) -> StreamingHttpResponse:
    """Everything the group holds, as one JSON file that the import page reads back: sent a
    game at a time, so that a long history never sits whole in memory."""
    group = member_group(request, group_id)
    response = StreamingHttpResponse(exchange.json_chunks(group), content_type="application/json")
    response["Content-Disposition"] = content_disposition_header(True, _filename(group, "json"))
    return response


@require_safe
@login_required
def group_export_csv(request: HttpRequest, group_id: int) -> StreamingHttpResponse:
    """Every hand of every game, one row each, for a spreadsheet; sent a row at a time."""
    group = member_group(request, group_id)
    response = StreamingHttpResponse(
        exchange.csv_lines(group), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(True, _filename(group, "csv"))
    return response


@page_and_form
@login_required
def group_import(request: HttpRequest) -> HttpResponse:
    """Make a new group from an export file, with the importing user as its one member."""
    form = GroupImportForm(request.POST or None, request.FILES or None)
    if form.is_valid():
        export = form.cleaned_data["file"]
        try:
            imported = exchange.import_group(
                export,
                name=form.cleaned_data["name"] or None,
                members=[request.user],
                accounts=known_accounts(request.user),
            )
        except exchange.ExchangeError as error:
            form.add_error("file", str(error))
        else:
            messages.success(
                request,
                # Translators: %(players)s, %(games)s and %(hands)s are counts such as
                # "5 players", "1 game", "2 hands".
                _("Imported %(group)s: %(players)s, %(games)s, %(hands)s.")
                % {"group": imported.group, **export.counts},
            )
            if imported.missing:
                messages.warning(
                    request,
                    _(
                        "These usernames in the file are nobody you play with here, so what the "
                        "file credits to them is credited to nobody: %(names)s."
                    )
                    % {"names": joined(imported.missing)},
                )
            return redirect(imported.group)
    return render(request, "companion/group_import.html", {"form": form})


def known_accounts(user):
    """The accounts an import may link to: the importer's own, and those of the people in the
    importer's groups. A file cannot credit a hand to a stranger."""
    shared = Q(tractor_groups__in=Group.objects.filter(members=user))
    return get_user_model().objects.filter(Q(pk=user.pk) | shared).distinct()


def _filename(group: Group, extension: str) -> str:
    name = slugify(group.name) or "group"
    return f"{name}-{timezone.localdate().isoformat()}.{extension}"
