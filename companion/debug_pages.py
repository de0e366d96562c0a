"""Django's debug pages (tracebacks, settings, every URL pattern) for this machine only. With
DEBUG on, `make run` also serves the phones on the local network: they get the pages a
production server would send."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest, SuspiciousOperation
from django.core.handlers.exception import get_exception_response
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import get_resolver, get_urlconf, is_valid_path
from django.views.csrf import csrf_failure as django_csrf_failure
from django.views.debug import ExceptionReporter


def from_this_machine(request: HttpRequest) -> bool:
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    # Served on IPv6's "::", this machine's IPv4 requests come as ::ffff:127.0.0.1.
    return (getattr(address, "ipv4_mapped", None) or address).is_loopback


def ordinary_page(request: HttpRequest, status: int, exception: Exception) -> HttpResponse:
    """The error page a production server sends (the project's handler for ``status``)."""
    resolver = get_resolver(get_urlconf())
    if status == 500:
        return resolver.resolve_error_handler(500)(request)
    return get_exception_response(request, resolver, status, exception)


class OrdinaryErrorReporter(ExceptionReporter):
    """What Django's technical error response shows a client on another machine: the ordinary
    400 or 500 page. (With DEBUG on, Django asks the request's reporter for every uncaught error
    and every refused request, a disallowed Host among them.)"""

    def status(self) -> int:
        return 400 if isinstance(self.exc_value, BadRequest | SuspiciousOperation) else 500

    def get_traceback_html(self) -> str:
        response = ordinary_page(self.request, self.status(), self.exc_value)
        return response.content.decode(response.charset)

    def get_traceback_text(self) -> str:
        return self.get_traceback_html()


def debug_pages_for_this_machine(get_response: Callable[[HttpRequest], HttpResponse]):
    """With DEBUG on, answer another machine's errors with the ordinary pages. It comes after
    whitenoise (whose static files no URL pattern names) and before everything that reads the
    Host header."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if not settings.DEBUG or from_this_machine(request):
            return get_response(request)
        request.exception_reporter_class = OrdinaryErrorReporter
        # An unknown address would get the technical 404, which lists every URL pattern; one
        # that only lacks its final slash goes on to CommonMiddleware's redirect.
        path, urlconf = request.path_info, getattr(request, "urlconf", None)
        if not is_valid_path(path, urlconf) and not (
            settings.APPEND_SLASH and is_valid_path(f"{path}/", urlconf)
        ):
            return ordinary_page(request, 404, Http404(path))
        return get_response(request)

    def process_exception(request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if settings.DEBUG and isinstance(exception, Http404) and not from_this_machine(request):
            return ordinary_page(request, 404, exception)
        return None

    middleware.process_exception = process_exception
    return middleware


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form refused for its missing or stale cookie (CSRF_FAILURE_VIEW): the app's own 403 page,
    saying what to do; Django's help on why goes to this machine alone, with DEBUG on, since it
    names the settings to change."""
    if settings.DEBUG and from_this_machine(request):
        return django_csrf_failure(request, reason)
    return render(request, "403.html", {"refused_form": True}, status=403)
