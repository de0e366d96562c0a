"""The HTTP methods a view answers; any other gets 405. Read-only pages answer GET and HEAD
(`django.views.decorators.http.require_safe`); a page that is also its form answers POST too."""

from __future__ import annotations

from django.views.decorators.http import require_http_methods, require_POST, require_safe

page_and_form = require_http_methods(["GET", "HEAD", "POST"])

__all__ = ["page_and_form", "require_POST", "require_safe"]
