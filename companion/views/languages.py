"""The language switch at the foot of every page
(templates/companion/includes/language_switch.html)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views import i18n

from companion.models import AccountLanguage
from companion.views.methods import require_POST


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language``: the language cookie, then back to ``next`` if it is a page of
    this site. An account remembers the choice too. Django accepts any language it has words
    for; a code the site does not speak changes nothing."""
    response = i18n.set_language(request)
    code = request.POST.get(i18n.LANGUAGE_QUERY_PARAMETER)
    if code not in dict(settings.LANGUAGES):
        response.cookies.pop(settings.LANGUAGE_COOKIE_NAME, None)
    elif request.user.is_authenticated:
        AccountLanguage.remember(request.user, code)
    return response
