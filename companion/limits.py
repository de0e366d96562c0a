"""The most a request may send, refused before its body is read: Django bounds a form's fields
(DATA_UPLOAD_MAX_MEMORY_SIZE) but streams any file to disk, whatever its size and whether or
not the page takes one."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

# An export of 2,000 games (43,000 hands with their history) is 37 MB.
MAX_IMPORT_BYTES = 40 * 1024 * 1024

# The import form's own fields and the multipart framing around the file.
FORM_BYTES = 2**20


def body_limit(get_response: Callable[[HttpRequest], HttpResponse]):
    """Answer 413 to a request body larger than its page takes: an export file on the import
    page, a form anywhere else."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if request.path == reverse("group_import"):
            most = MAX_IMPORT_BYTES + FORM_BYTES
        else:
            most = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > most:
            return HttpResponse(
                _("That is more than this page takes: at most %(most)d MB can be sent here.")
                % {"most": max(1, most // 2**20)},
                status=413,
                content_type="text/plain; charset=utf-8",
            )
        return get_response(request)

    return middleware
