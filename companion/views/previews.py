"""A form's live preview: what its values would make, nothing saved.

One convention for every page: a POST that carries ``preview`` (htmx adds it with ``hx-vals``
to the requests its ``hx-trigger`` makes while a form is filled in) saves nothing. To htmx it
answers the page's preview partial; to a plain POST, the whole page with the preview shown.
"""

from __future__ import annotations

from django.http import HttpRequest

PREVIEW = "preview"


def previewing(request: HttpRequest) -> bool:
    """Whether the request asks for a preview only: nothing is to be saved."""
    return request.method == "POST" and bool(request.POST.get(PREVIEW))
