"""An account's language follows it to every phone it logs in on: the login's response carries
the language cookie, as the switch's does (Django's ``set_language``)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

from companion.models import AccountLanguage


@receiver(user_logged_in, dispatch_uid="companion.languages.account_language")
def account_language(sender, request: HttpRequest | None, user, **kwargs) -> None:
    if request is None:
        return
    visitor_code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    code = AccountLanguage.on_login(user, visitor_code)
    if code is not None and code != visitor_code:
        request.account_language = code


def account_language_cookie(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Middleware: a response to a login sets the account's language cookie, so the page the
    login leads to (and every one after) speaks it."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if code := getattr(request, "account_language", None):
            set_language_cookie(response, code)
        return response

    return middleware


def set_language_cookie(response: HttpResponse, code: str) -> None:
    """The cookie as Django's ``set_language`` writes it."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
