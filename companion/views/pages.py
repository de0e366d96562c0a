from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static

from companion import lan
from companion.forms.results import SettleForm
from companion.models import Group
from companion.views.methods import require_safe


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The front door: a member's groups, or what the app is for and how to sign up."""
    context = {"groups": Group.objects.for_member(request.user)}
    if settings.DEBUG and settings.LAN_ADDRESS:
        # `make run`: the address the other phones at the table open.
        context["lan_url"] = lan.url(settings.LAN_ADDRESS, request.get_port())
    return render(request, "companion/home.html", context)


@require_safe
def settle_hand(request: HttpRequest) -> HttpResponse:
    """Score one hand: a calculator over `scoring.settle`, updated live as fields change."""
    form = SettleForm(request.GET or None)
    template = "companion/settle_hand.html"
    if request.htmx:
        template += "#settlement"
    return render(request, template, {"form": form})


# The static files every page loads (templates/base.html): the service worker keeps them.
SHELL = (
    "bootstrap/css/bootstrap.min.css",
    "companion/app.css",
    "django_htmx/htmx-2.min.js",
    "companion/kept.js",
    "companion/confirm.js",
    "companion/share.js",
    "companion/install.js",
    "companion/manifest.webmanifest",
    "companion/icon.svg",
    "companion/icon-192.png",
    "companion/icon-512.png",
)


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/companion/sw.js from the site's root, where it may keep every page's static shell,
    told the shell's URLs (hashed names in production: a deploy that changes them installs it
    again). Browsers check it on every visit (no-cache)."""
    script = Path(finders.find("companion/sw.js")).read_text()
    shell = json.dumps([static(name) for name in SHELL])
    response = HttpResponse(
        f"const SHELL = {shell};\n{script}", content_type="text/javascript; charset=utf-8"
    )
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
